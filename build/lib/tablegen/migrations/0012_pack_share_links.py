"""Packs get share links (private until their owner turns sharing on). Each existing pack
gets a code of its own: the field is added empty, filled pack by pack, then made unique."""

from django.db import migrations, models

import accounts.ownership


def give_each_pack_a_code(apps, schema_editor):
    Pack = apps.get_model("tablegen", "Pack")
    for pk in Pack.objects.values_list("pk", flat=True):
        Pack.objects.filter(pk=pk).update(share_code=accounts.ownership.new_share_code())


class Migration(migrations.Migration):
    dependencies = [
        ("tablegen", "0011_private_until_shared"),
    ]

    operations = [
        migrations.AddField(
            model_name="pack",
            name="sharing",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="pack",
            name="share_code",
            field=models.CharField(max_length=32, null=True),
        ),
        migrations.RunPython(give_each_pack_a_code, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="pack",
            name="share_code",
            field=models.CharField(
                default=accounts.ownership.new_share_code, max_length=32, unique=True
            ),
        ),
    ]
