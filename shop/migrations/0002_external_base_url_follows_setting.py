from django.db import migrations, models

OLD_DEFAULT = "https://kerichogold.com"


def follow_the_setting(apps, schema_editor):
    """The old stored default was never a staff choice: let IMPORTER_BASE_URL apply."""
    StoreSettings = apps.get_model("shop", "StoreSettings")
    StoreSettings.objects.filter(external_base_url__in=[OLD_DEFAULT, OLD_DEFAULT + "/"]).update(external_base_url="")


class Migration(migrations.Migration):

    dependencies = [
        ("shop", "0001_initial"),
    ]

    operations = [
        migrations.AlterField(
            model_name="storesettings",
            name="external_base_url",
            field=models.URLField(blank=True, default=""),
        ),
        migrations.RunPython(follow_the_setting, migrations.RunPython.noop),
    ]
