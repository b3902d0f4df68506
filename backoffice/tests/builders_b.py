"""Small builders for the part-B section tests (orders, messages, reviews …)."""

import itertools
from decimal import Decimal

from django.utils import timezone

from catalog.models import Review
from catalog.tests.factories import make_category, make_product  # noqa: F401 (re-exported)
from orders.models import Order, OrderItem, Payment
from shop.models import ContactMessage

_seq = itertools.count(1)


def make_order(*, lines=(), status="processing", payment_status="paid", payment_method="card",
               created_at=None, total=None, email="alice@example.com", first_name="Alice",
               last_name="Hassan", user=None, stock_reserved=False):
    """An order of `lines` [(product, quantity, unit price)], totalling the lines unless told."""
    n = next(_seq)
    subtotal = sum((Decimal(price) * qty for _product, qty, price in lines), Decimal("0"))
    order = Order.objects.create(
        number=f"NH-B{n:05d}", user=user, status=status, payment_status=payment_status,
        payment_method=payment_method, email=email, first_name=first_name, last_name=last_name,
        phone=f"0100000{n:04d}", street="1 Nile St", building="4", city="Cairo", state="Cairo",
        subtotal_amount=subtotal, shipping_amount=Decimal("0"), tax_amount=Decimal("0"),
        total_amount=Decimal(total) if total is not None else subtotal,
        created_at=created_at or timezone.now(), stock_reserved=stock_reserved,
    )
    for product, quantity, price in lines:
        OrderItem.objects.create(
            order=order, product=product, product_title=product.title, product_slug=product.slug,
            unit_price_amount=Decimal(price), quantity=quantity,
            line_total_amount=Decimal(price) * quantity,
        )
    Payment.objects.create(
        order=order, provider="sandbox", payment_id=f"pay_b{n:05d}", amount=order.total_amount,
        status=payment_status if payment_status != "cod" else "awaiting",
    )
    return order


def make_message(*, status="new", subject="Where is my tea?", email="sara@example.com", name="Sara"):
    return ContactMessage.objects.create(
        name=name, email=email, subject=subject, message="Hello,\nmy order has not arrived.", status=status
    )


def make_review(*, product=None, approved=False, title="Lovely tea", rating=4, user=None):
    product = product or make_product()
    return Review.objects.create(
        product=product, user=user, user_name="Alice", user_email="alice@example.com", rating=rating,
        title=title, comment="Bright and malty.", is_verified=True, is_approved=approved,
    )
