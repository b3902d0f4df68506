"""Writes for the marketing sections: announcements and coupons.

Each function owns its transaction and leaves an audit entry.
"""

import re
import secrets

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from backoffice.audit import audit_changes, audit_record
from orders.models import Coupon, CouponType
from shop.errors import ShopError
from shop.models import Announcement
from shop.validation import LINE_MAX, clean_fields, clean_url

# the link is checked by clean_url (scheme, host, length)
ANNOUNCEMENT_LIMITS = {"title": LINE_MAX, "content": (2000, True), "banner_color": 9, "text_color": 9,
                       "title_ar": LINE_MAX, "content_ar": (2000, True), "link_label": 80, "link_label_ar": 80}

ANNOUNCEMENT_FIELDS = [
    "title", "content", "link", "display_start_date", "display_end_date",
    "banner_color", "text_color", "is_active", "is_main",
    "link_label", "title_ar", "content_ar", "link_label_ar", "arabic_missing",
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
    if not Announcement.objects.select_for_update().filter(pk=announcement.pk).exists():
        # deleted by another member of staff since this request read it: a full save would create it again
        raise ShopError(_("Announcement not found"), status=404)
    changed = [name for name in ANNOUNCEMENT_FIELDS if name in fields]
    for name in changed:
        setattr(announcement, name, fields[name])
    # only the fields sent: the rest of `announcement` is as the request read it, maybe before another edit
    announcement.save(update_fields=changed)
    _only_main(announcement)
    audit_record(actor=actor, action="announcement.update", details=announcement.title, target=announcement)
    return announcement


@transaction.atomic
def announcement_delete(*, actor, announcement):
    audit_record(actor=actor, action="announcement.delete", details=announcement.title, target=announcement)
    announcement.delete()


def _coupon_terms(coupon):
    """What a new coupon takes off and when, as audit changes from nothing: the log of a coupon that gives
    money away says how much, not only its code (no usage limit or expiry: not listed)."""
    return audit_changes(before={}, after={name: getattr(coupon, name) for name in (
        "type", "value", "minimum_order_amount", "usage_limit", "expiry_date")})


def _discount_check(*, type, value):
    """Refuse a discount no coupon may give: a percentage above 100."""
    if type == CouponType.PERCENTAGE and value > 100:
        raise ShopError(_("A percentage cannot be above 100"), field="value")


def coupon_create(*, actor, code, type, value, minimum_order_amount, expiry_date=None,
                  usage_limit=None, is_active=True):
    """Create a coupon; a usage limit of 0 (or none) means unlimited."""
    _discount_check(type=type, value=value)
    code = clean_fields({"code": code}, {"code": Coupon._meta.get_field("code").max_length})["code"]
    try:
        with transaction.atomic():
            coupon = Coupon.objects.create(
                code=code, type=type, value=value, minimum_order_amount=minimum_order_amount,
                expiry_date=expiry_date, usage_limit=usage_limit or None, is_active=is_active,
            )
            audit_record(actor=actor, action="coupon.create", details=coupon.code, target=coupon,
                         changes=_coupon_terms(coupon))
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


# no 0/O, 1/I/L or 5/S look-alikes: a code read out over the phone or typed from a card works
CODE_ALPHABET = "ABCDEFGHJKMNPQRTUVWXYZ2346789"
GENERATE_MAX = 500
CODE_LENGTH = 8
PREFIX_MAX = 20
_PREFIX = re.compile(r"^[A-Z0-9_-]*$")


def _new_codes(*, prefix, count, length, taken):
    codes = set()
    while len(codes) < count:
        code = prefix + "".join(secrets.choice(CODE_ALPHABET) for _i in range(length))
        if code not in taken:
            codes.add(code)
    return codes


def coupons_generate(*, actor, prefix, count, type, value, minimum_order_amount, expiry_date=None,
                     usage_limit=1, is_active=True, length=CODE_LENGTH):
    """Create `count` coupons alike but for their codes: `prefix` then `length` random characters
    from CODE_ALPHABET, unique among themselves and every existing coupon. One audit entry."""
    prefix = clean_fields({"prefix": prefix or ""}, {"prefix": PREFIX_MAX})["prefix"].strip().upper()
    if not _PREFIX.match(prefix):
        raise ShopError(_("Use letters, digits, - and _ only"), field="prefix")
    if not 1 <= count <= GENERATE_MAX:
        raise ShopError(_("Generate between 1 and %(most)d codes at a time") % {"most": GENERATE_MAX},
                        field="count")
    _discount_check(type=type, value=value)
    for _attempt in range(3):
        taken = set(Coupon.objects.filter(code__startswith=prefix).values_list("code", flat=True))
        codes = sorted(_new_codes(prefix=prefix, count=count, length=length, taken=taken))
        try:
            with transaction.atomic():
                coupons = Coupon.objects.bulk_create([
                    Coupon(code=code, type=type, value=value, minimum_order_amount=minimum_order_amount,
                           expiry_date=expiry_date, usage_limit=usage_limit or None, is_active=is_active)
                    for code in codes
                ])
                audit_record(actor=actor, action="coupon.generate",
                             details=f"{count} × {prefix or '…'}", target=None, changes=_coupon_terms(coupons[0]))
            return coupons
        except IntegrityError:  # another batch took one of these codes meanwhile: draw again
            continue
    raise ShopError(_("Could not find unused codes; try a longer prefix"), field="prefix")
