"""Small builders for catalogue tests (the demo seed is the lead's)."""

import itertools
from decimal import Decimal

from catalog.models import Category
from catalog.services import product_upsert

_seq = itertools.count(1)


def make_category(slug="black-tea", name="Black Tea", name_ar="شاي أسود", position=0):
    category, _ = Category.objects.get_or_create(
        slug=slug, defaults={"name": name, "name_en": name, "name_ar": name_ar, "position": position}
    )
    return category


def make_product(**fields):
    n = next(_seq)
    category = fields.pop("category", None) or make_category()
    defaults = {
        "slug": f"tea-{n}",
        "title_en": f"Tea number {n}",
        "price_amount": Decimal("150.00"),
        "stock": 20,
        "category": category,
    }
    defaults.update(fields)
    if "title" in fields:
        defaults["title_en"] = fields["title"]
    return product_upsert(**defaults)


def make_delivered_order(*, user, product, status="delivered"):
    from orders.models import Order, OrderItem

    n = next(_seq)
    order = Order.objects.create(
        number=f"NH-T{n:05d}", user=user, status=status, payment_status="paid", payment_method="card",
        email=user.email, first_name=user.first_name or "A", last_name=user.last_name or "B",
        phone="01000000000", street="1 Nile St", city="Cairo", state="Cairo",
        subtotal_amount=product.price_amount, shipping_amount=Decimal("0"), tax_amount=Decimal("0"),
        total_amount=product.price_amount,
    )
    OrderItem.objects.create(
        order=order, product=product, product_title=product.title, product_slug=product.slug,
        unit_price_amount=product.price_amount, quantity=1, line_total_amount=product.price_amount,
    )
    return order
