"""A payment keeps the numeric integration ids Paymob's intention answer names, so that a callback of a
shop whose integrations are configured by name ("card") can be checked against them. Payments started
before have none and are checked as before."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('orders', '0013_order_attention_reasons'),
    ]

    operations = [
        migrations.AddField(
            model_name='payment',
            name='integration_ids',
            field=models.JSONField(blank=True, default=list),
        ),
    ]
