# The customer directory's buyers: each order's buyer (the account's e-mail, else the typed one,
# lower-cased) and each buyer's latest order, so a page of the directory reads an index, not every order.

from django.conf import settings
from django.db import migrations, models
from django.db.models import Max, OuterRef, Subquery
from django.db.models.functions import Coalesce, Lower


def buyers_write(apps, schema_editor):
    Order = apps.get_model("orders", "Order")
    BuyerActivity = apps.get_model("orders", "BuyerActivity")
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    account_email = Subquery(User.objects.filter(pk=OuterRef("user_id")).values("email")[:1])
    Order.objects.update(buyer_key=Coalesce(Lower(account_email), Lower("email")))
    latest = Order.objects.values("buyer_key").annotate(last=Max("created_at")).values_list("buyer_key", "last")
    BuyerActivity.objects.bulk_create([BuyerActivity(key=key, last_order_at=last) for key, last in latest.order_by()],
                                      batch_size=1000)


class Migration(migrations.Migration):

    dependencies = [
        ('orders', '0006_order_and_item_indexes_for_sales_analytics'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='order',
            name='buyer_key',
            field=models.CharField(blank=True, default='', editable=False, max_length=254),
        ),
        migrations.CreateModel(
            name='BuyerActivity',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('key', models.CharField(max_length=254, unique=True)),
                ('last_order_at', models.DateTimeField()),
            ],
            options={
                'indexes': [models.Index(fields=['-last_order_at', 'key'], name='buyer_latest_first')],
            },
        ),
        migrations.RunPython(buyers_write, migrations.RunPython.noop),
        migrations.AddIndex(
            model_name='order',
            index=models.Index(fields=['buyer_key', 'created_at', 'payment_status', 'status', 'is_test', 'total_amount'], name='order_buyer_totals'),
        ),
    ]
