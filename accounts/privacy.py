"""A customer's own data: a copy of what the shop keeps about their account, and closing the account.

Egypt's Personal Data Protection Law (151/2020) gives a customer the right to a copy of their data and
to its erasure. Only what is tied to the account is exported or erased: the account's e-mail was never
confirmed, so orders, subscriptions and messages that merely name the same address may be a stranger's.
Orders placed from the account are kept, detached from it, with the details they were placed with: the
shop's accounts must keep them (and they can still be tracked by number and phone).
"""

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from accounts.services import AccountError, current_password_check, customer_sign_out
from catalog.models import Review
from catalog.services import reviews_author_forget
from orders.cart import cart_lines
from orders.models import Cart
from shop.newsletter import newsletter_leave

_ADDRESS_FIELDS = ("first_name", "last_name", "phone", "street", "building", "apartment", "floor", "city", "state",
                   "postal_code", "country")


def _when(moment) -> str | None:
    return moment.isoformat() if moment else None


def _order(order) -> dict[str, Any]:
    return {
        "number": order.number, "placedAt": _when(order.created_at), "status": order.status,
        "paymentMethod": order.payment_method, "paymentStatus": order.payment_status,
        "email": order.email, "deliveryAddress": {field: getattr(order, field) for field in _ADDRESS_FIELDS},
        "items": [{"product": item.product_title, "unitPrice": str(item.unit_price_amount), "quantity": item.quantity,
                   "lineTotal": str(item.line_total_amount)} for item in order.items.all()],
        "subtotal": str(order.subtotal_amount), "discount": str(order.discount_amount), "coupon": order.coupon_code,
        "shipping": str(order.shipping_amount), "cashOnDeliveryFee": str(order.cod_fee_amount),
        "tax": str(order.tax_amount), "total": str(order.total_amount), "refunded": str(order.refunded_amount),
        "currency": "EGP",
    }


def customer_data_export(*, user: User) -> dict[str, Any]:
    """Everything kept under the customer's account, as one JSON document (amounts as decimal strings)."""
    cart = Cart.objects.filter(user=user).first()
    return {
        "exportedAt": _when(timezone.now()),
        "profile": {
            "email": user.email, "firstName": user.first_name, "lastName": user.last_name, "phone": user.phone,
            "language": user.language, "newsletter": user.subscribe_newsletter, "cartReminders": user.cart_reminders,
            "joinedAt": _when(user.date_joined), "lastSignInAt": _when(user.last_login),
        },
        "addresses": [{"label": address.label, "isDefault": address.is_default,
                       **{field: getattr(address, field) for field in _ADDRESS_FIELDS}}
                      for address in user.addresses.order_by("pk")],
        "cart": [{"product": product.title, "quantity": quantity}
                 for product, quantity in (cart_lines(cart) if cart else [])],
        "orders": [_order(order) for order in user.orders.prefetch_related("items").order_by("created_at")],
        "reviews": [{"product": review.product.title, "rating": review.rating, "title": review.title,
                     "comment": review.comment, "shownAs": review.user_name, "writtenAt": _when(review.created_at)}
                    for review in Review.objects.filter(user=user).select_related("product").order_by("pk")],
    }


def customer_account_delete(*, request, user: User, password: object) -> None:
    """Close the customer's account for good, after they confirm with their password.

    Erased: the account (profile, saved addresses, cart, API tokens, every session), the newsletter
    subscription made from it, and their name and address on their reviews, which stay as "A customer".
    Kept, detached from the account: their orders (see the module's docstring)."""
    current_password_check(user=user, password=password, field="deletePassword")
    if not user.is_customer:
        raise AccountError(_("Your current password is incorrect"), field="deletePassword")
    with transaction.atomic():
        # the user row first, as every address write takes it (accounts.addresses): user.delete() removes
        # the addresses before the user, so without it an address change at the same moment deadlocked
        list(User.objects.select_for_update().filter(pk=user.pk).values_list("pk", flat=True))
        if user.subscribe_newsletter and user.email:
            newsletter_leave(email=user.email)
        reviews_author_forget(user=user)
        user.delete()  # addresses, cart and tokens go with it; orders and reviews are kept (SET_NULL)
    # every other session ends with the account: their user is gone
    customer_sign_out(request=request)
