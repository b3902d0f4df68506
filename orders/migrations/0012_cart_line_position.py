from django.db import migrations, models


def number_the_lines(apps, schema_editor):
    """Each line's place is its id: the order the cart showed (lines as they were added), distinct."""
    apps.get_model("orders", "CartLine").objects.update(position=models.F("id"))


class Migration(migrations.Migration):

    dependencies = [
        ('orders', '0011_order_refunded_amount'),
    ]

    operations = [
        migrations.AlterModelOptions(
            name='cartline',
            options={'ordering': ['position', 'id']},
        ),
        migrations.AddField(
            model_name='cartline',
            name='position',
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.RunPython(number_the_lines, migrations.RunPython.noop),
    ]
