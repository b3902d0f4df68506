"""A coupon's use count: one use taken when an order is placed, given back while the order is cancelled.

An order holds its coupon use while it holds its stock (`Order.stock_reserved`), so an unpaid card order
that expires or is declined does not use up a limited coupon. One exception, staff's call: an order
restored after its coupon was used up meanwhile keeps its discount with no use counted (the count never
passes the limit), so cancelling it again lets the coupon be used once more than its limit.
"""

from django.db.models import F, Q

from orders.models import Coupon


def coupon_use_take(coupon_id: int, *, active_only: bool = True) -> bool:
    """Count one use, atomically, unless the coupon's limit is reached (by anyone); True if counted."""
    coupons = Coupon.objects.filter(Q(usage_limit__isnull=True) | Q(used_count__lt=F("usage_limit")), pk=coupon_id)
    if active_only:
        coupons = coupons.filter(is_active=True)
    return coupons.update(used_count=F("used_count") + 1) == 1


def coupon_use_give_back(coupon_id: int) -> None:
    Coupon.objects.filter(pk=coupon_id, used_count__gt=0).update(used_count=F("used_count") - 1)
