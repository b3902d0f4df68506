"""Payment.integration_ids gets the database default [] too: 0014 added it NOT NULL without one, so a web
process of the release before still running during a rolling upgrade failed every checkout's payment
INSERT (it names no such column) until restarted."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('orders', '0014_payment_integration_ids'),
    ]

    operations = [
        migrations.AlterField(
            model_name='payment',
            name='integration_ids',
            field=models.JSONField(blank=True, db_default=[], default=list),
        ),
    ]
