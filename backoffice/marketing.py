"""Writes for the marketing sections: announcements and coupons.

Each function owns its transaction and leaves an audit entry.
"""

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from backoffice.audit import audit_record
from orders.models import Coupon
from shop.errors import ShopError
from shop.models import Announcement
from shop.validation import LINE_MAX, clean_fields, clean_url

# the link is checked by clean_url (scheme, host, length)
ANNOUNCEMENT_LIMITS = {"title": LINE_MAX, "content": (2000, True), "banner_color": 9, "text_color": 9}

ANNOUNCEMENT_FIELDS = [
    "title", "content", "link", "display_start_date", "display_end_date",
    "banner_color", "text_color", "is_active", "is_main",
]


def _only_main(announcement):
    # one main announcement at a time: the bar shows it instead of a random one
    if announcement.is_main:
        Announcement.objects.exclude(pk=announcement.pk).filter(is_main=True).update(is_main=False)


def _clean(fields):
    fields = clean_fields(fields, ANNOUNCEMENT_LIMITS)
    if "link" in fields:
        fields["link"] = clean_url(fields["link"], field="link")
    return fields


@transaction.atomic
def announcement_create(*, actor, **fields):
    fields = _clean(fields)
    announcement = Announcement(**{name: fields[name] for name in ANNOUNCEMENT_FIELDS if name in fields})
    announcement.save()
    _only_main(announcement)
    audit_record(actor=actor, action="announcement.create", details=announcement.title, target=announcement)
    return announcement


@transaction.atomic
def announcement_update(*, actor, announcement, **fields):
    fields = _clean(fields)
    for name in ANNOUNCEMENT_FIELDS:
        if name in fields:
            setattr(announcement, name, fields[name])
    announcement.save()
    _only_main(announcement)
    audit_record(actor=actor, action="announcement.update", details=announcement.title, target=announcement)
    return announcement


@transaction.atomic
def announcement_delete(*, actor, announcement):
    audit_record(actor=actor, action="announcement.delete", details=announcement.title, target=announcement)
    announcement.delete()


def coupon_create(*, actor, code, type, value, minimum_order_amount, expiry_date=None,
                  usage_limit=None, is_active=True):
    """Create a coupon; a usage limit of 0 (or none) means unlimited."""
    code = clean_fields({"code": code}, {"code": Coupon._meta.get_field("code").max_length})["code"]
    try:
        with transaction.atomic():
            coupon = Coupon.objects.create(
                code=code, type=type, value=value, minimum_order_amount=minimum_order_amount,
                expiry_date=expiry_date, usage_limit=usage_limit or None, is_active=is_active,
            )
            audit_record(actor=actor, action="coupon.create", details=coupon.code, target=coupon)
    except IntegrityError as error:
        raise ShopError(_("A coupon with this code already exists"), field="code") from error
    return coupon


@transaction.atomic
def coupon_set_active(*, actor, coupon, is_active):
    """Deactivate (or reactivate) a coupon; checkout refuses inactive codes."""
    coupon.is_active = is_active
    coupon.save(update_fields=["is_active", "code"])
    action = "coupon.activate" if is_active else "coupon.deactivate"
    audit_record(actor=actor, action=action, details=coupon.code, target=coupon)
    return coupon
