# The Attempt model moves here from the rules app (onefinity), keeping its rows: this
# migration takes over the existing table in the project's state only, then renames it.

import django.utils.timezone
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("onefinity", "0002_attempts"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Attempt",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("kind", models.CharField(choices=[("password", "password guess"), ("reset", "password-reset e-mail")], max_length=8)),
                        ("account", models.CharField(max_length=64)),
                        ("address", models.CharField(max_length=64)),
                        ("at", models.DateTimeField(db_index=True, default=django.utils.timezone.now)),
                    ],
                    options={"db_table": "onefinity_attempt"},
                ),
                migrations.AddIndex(
                    model_name="attempt",
                    index=models.Index(fields=["kind", "account", "at"], name="attempt_by_account"),
                ),
                migrations.AddIndex(
                    model_name="attempt",
                    index=models.Index(fields=["kind", "address", "at"], name="attempt_by_address"),
                ),
            ],
            database_operations=[],
        ),
        migrations.AlterModelTable(name="attempt", table=None),
    ]
