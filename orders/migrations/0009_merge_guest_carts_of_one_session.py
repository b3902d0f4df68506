from django.db import migrations
from django.db.models import Count


def merge_guest_carts_of_one_session(apps, schema_editor):
    """Before the constraint: a session's later guest carts (two first adds at once made them) go into
    its first, the one the shop read. A product the first cart already holds keeps the first cart's
    quantity (the one the shopper saw); checkout checks the caps again."""
    Cart = apps.get_model("orders", "Cart")
    CartLine = apps.get_model("orders", "CartLine")
    twice = (Cart.objects.filter(user__isnull=True).values("session_key")
             .annotate(carts=Count("id")).filter(carts__gt=1).values_list("session_key", flat=True))
    for session_key in list(twice):
        first, *later = Cart.objects.filter(user__isnull=True, session_key=session_key).order_by("id")
        held = set(CartLine.objects.filter(cart=first).values_list("product_id", flat=True))
        for line in CartLine.objects.filter(cart__in=later).order_by("id"):
            if line.product_id not in held:
                held.add(line.product_id)
                CartLine.objects.filter(pk=line.pk).update(cart=first)
        Cart.objects.filter(pk__in=[cart.pk for cart in later]).delete()


class Migration(migrations.Migration):

    dependencies = [
        ('orders', '0008_cart_version'),
    ]

    operations = [
        migrations.RunPython(merge_guest_carts_of_one_session, migrations.RunPython.noop),
    ]
