"""Orders made directly in the database, for the order-history tests."""

from decimal import Decimal

from orders.models import Order, OrderItem, OrderStatus, PaymentMethod, PaymentStatus


def order_for(user, *, number, items=(("Kericho Gold Black Tea", Decimal("150.00"), 2),),
              status=OrderStatus.PROCESSING, payment_status=PaymentStatus.PAID):
    subtotal = sum((price * qty for _title, price, qty in items), Decimal("0"))
    shipping = Decimal("50.00")
    order = Order.objects.create(
        number=number, user=user, status=status, payment_status=payment_status,
        payment_method=PaymentMethod.CARD, email=user.email, first_name=user.first_name,
        last_name=user.last_name or "Customer", phone=user.phone or "01012345678",
        street="12 Nile Street", city="Cairo", state="Cairo",
        subtotal_amount=subtotal, shipping_amount=shipping, tax_amount=Decimal("36.84"),
        total_amount=subtotal + shipping,
    )
    for title, price, qty in items:
        OrderItem.objects.create(
            order=order, product_title=title, product_slug=title.lower().replace(" ", "-"),
            unit_price_amount=price, quantity=qty, line_total_amount=price * qty,
        )
    return order
