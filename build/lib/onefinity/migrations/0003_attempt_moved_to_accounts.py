# The Attempt model now belongs to the accounts app (accounts/migrations/0001_initial.py
# takes over its table and rows): the rules app forgets it without touching the database.

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("onefinity", "0002_attempts"),
        ("accounts", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="Attempt")],
            database_operations=[],
        ),
    ]
