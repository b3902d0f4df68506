"""The one place tests build shop data.

Orders go through the shop's own money path: the checkout form is validated
(`checkout_validate`), the order is placed (`order_place`, which prices the
lines with `order_totals`, reserves the stock and counts the coupon), the
payment goes through its provider's callback (`callback_process`, the sandbox
signs it like Paymob) or the COD confirmation, and staff moves go through
`order_set_status`. No total is ever typed in here, so a test cannot build an
order the shop could never produce. A test that needs an impossible order on
purpose writes the rows itself and says why.
"""

import itertools
from datetime import timedelta
from decimal import Decimal

from django.core import mail
from django.test import override_settings

from catalog.models import Category, Review
from catalog.products import product_create
from orders.actions import order_confirm_cod, order_set_status
from orders.checkout import checkout_validate, order_place
from orders.models import Order, OrderItem, PaymentStatus
from orders.payments import get_provider
from orders.payments.paymob import hmac_sign
from orders.payments.services import callback_process, payment_create, payment_start
from shop.models import ContactMessage

_seq = itertools.count(1)


def make_category(slug="black-tea", name="Black Tea", name_ar="شاي أسود", position=0):
    category, _ = Category.objects.get_or_create(
        slug=slug, defaults={"name": name, "name_en": name, "name_ar": name_ar, "position": position}
    )
    return category


def make_product(**fields):
    """A product through the catalogue's one write path (`catalog.products.product_create`).

    Short names: `title` (English title, and the slug unless one is given: kenya-gold, then
    kenya-gold-2), `price`, `category_slug` (or `category`, a Category). Anything else is a
    Product field. Untitled products are "Tea number N" at tea-N, E£150.00, 20 in stock.
    """
    n = next(_seq)
    category = fields.pop("category", None) or make_category(fields.pop("category_slug", "black-tea"))
    if "price" in fields:
        fields["price_amount"] = Decimal(fields.pop("price"))
    if "title" in fields:
        fields["title_en"] = fields.pop("title")
    slug = fields.pop("slug", "") or ("" if "title_en" in fields else f"tea-{n}")
    fields = {"title_en": f"Tea number {n}", "price_amount": Decimal("150.00"), "stock": 20, **fields}
    return product_create(slug=slug, category=category.slug, **fields)


# card payments go to the sandbox provider, which signs its callbacks the way Paymob does
_SANDBOX = override_settings(PAYMENT_SANDBOX=True, PAYMENT_PROVIDER="sandbox")


def _card_payment_start(order):
    with _SANDBOX:
        payment = payment_create(order=order, provider_name="sandbox")
        payment_start(payment=payment, return_url="/", notification_url="/")
    return payment


def _card_callback(payment, *, success=True, refunded=False):
    """What the provider tells us about a card payment, signed as it signs it."""
    with _SANDBOX:
        provider = get_provider("sandbox")
        body, signature = provider.transaction(payment=payment, success=success)
        if refunded:  # Paymob's refund: a transaction of its own, a child of the payment's
            paid_by = type(payment).objects.get(pk=payment.pk).transaction_id
            body["obj"].update(has_parent_transaction=True, is_refund=True, parent_transaction=paid_by)
            signature = hmac_sign(body["obj"], provider.hmac_secret)
        callback_process(provider_name="sandbox", body=body, received_hmac=signature)


def make_order(*, lines=None, price="150.00", user=None, status="processing", payment_status="paid",
               payment_method="card", created_at=None, email="alice@example.com", first_name="Alice",
               last_name="Hassan", coupon_code="", city="Cairo", state="Cairo", language="en"):
    """An order as a customer, the payment provider and the staff would make it.

    `lines` [(product, quantity)]; without them, one new product at `price`.
    `payment_status`: "awaiting" (left pending), "paid" (the provider's success callback),
    "failed" (its decline: the order is cancelled), "refunded" (paid, then the refund notice),
    "cod" (cash on delivery, confirmed), or a tuple of the provider's answers in turn, e.g.
    ("failed", "paid"): a second card paid after a decline. `payment_method` "sandbox" is an
    order from the test payment page. Then `status`, if different, is set as staff set it.
    The e-mails these steps send are not the test's: the outbox is emptied.
    """
    if lines is None:
        lines = [(make_product(price=price), 1)]
    if payment_status == "cod":
        payment_method = "cod"
    answers = {"refunded": ("paid", "refunded"), "awaiting": ()}.get(payment_status, payment_status)
    answers = answers if isinstance(answers, tuple) else (answers,)
    n = next(_seq)
    form = checkout_validate({
        "email": email, "first_name": first_name, "last_name": last_name, "phone": f"010{n:08d}",
        "street": "1 Nile St", "building": "4", "city": city, "state": state,
        "payment_method": payment_method, "coupon_code": coupon_code,
    }, user=user)
    order = order_place(lines=lines, form=form, user=user, language=language)
    if payment_method == "cod":
        payment_start(payment=payment_create(order=order, provider_name="cod"), return_url="/", notification_url="/")
        order_confirm_cod(order=order)
    else:
        payment = _card_payment_start(order)
        for answer in answers:
            _card_callback(payment, success=answer != "failed", refunded=answer == "refunded")
    order.refresh_from_db()
    if status != order.status:
        order_set_status(order=order, status=status)
    if created_at is not None:  # when it happened is not money: tests may place it in the past
        Order.objects.filter(pk=order.pk).update(created_at=created_at)
    order.refresh_from_db()
    expected = PaymentStatus.COD if payment_method == "cod" else (answers[-1] if answers else "awaiting")
    assert order.payment_status == expected, (order.payment_status, expected)
    if hasattr(mail, "outbox"):
        mail.outbox.clear()
    return order


def make_order_history(*, user, count, product=None):
    """`count` orders of `user`, one a day back from today, newest first.

    The first is placed like any other (`make_order`); the rest are copies of its rows (a new
    number and day each) written in one insert, as hundreds of checkouts would take minutes.
    """
    first = make_order(lines=[(product or make_product(), 1)], user=user, email=user.email)
    items = list(first.items.all())
    copies = []
    for back in range(1, count):
        copy = Order.objects.get(pk=first.pk)
        copy.pk = None
        copy.number = f"{first.number}-{back}"
        copy.created_at = first.created_at - timedelta(days=back)
        copies.append(copy)
    Order.objects.bulk_create(copies)
    OrderItem.objects.bulk_create([
        OrderItem(order=copy, product=item.product, product_title=item.product_title,
                  product_slug=item.product_slug, unit_price_amount=item.unit_price_amount,
                  quantity=item.quantity, line_total_amount=item.line_total_amount)
        for copy in copies for item in items
    ])
    return [first, *copies]


def make_delivered_order(*, user, product, status="delivered"):
    """`user` bought one `product`, paid by card, and it reached them (or `status`)."""
    return make_order(lines=[(product, 1)], user=user, email=user.email, first_name=user.first_name or "A",
                      last_name=user.last_name or "B", status=status)


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
