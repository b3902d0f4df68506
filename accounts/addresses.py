"""Saved addresses: several per customer, one default (prefilled at checkout by orders.prefill)."""

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import Address, User
from accounts.services import phone_invalid_message, phone_is_valid, phone_normalize
from orders.places import COUNTRIES, governorate_stored
from shop.errors import ShopError
from shop.validation import LINE_MAX, NAME_MAX, PHONE_MAX, clean_fields, western_digits

MAX_ADDRESSES = 10
# field: (limit) — the model columns are at least this long
LIMITS = {"label": 50, "first_name": NAME_MAX, "last_name": NAME_MAX, "phone": PHONE_MAX, "street": LINE_MAX,
          "building": 50, "apartment": 50, "floor": 20, "city": LINE_MAX, "state": 100, "postal_code": 20,
          "country": 3}
FIELDS = tuple(LIMITS)
# the names the forms and the checkout island use
FORM_NAMES = {"label": "label", "first_name": "firstName", "last_name": "lastName", "phone": "phone",
              "street": "street", "building": "building", "apartment": "apartment", "floor": "floor",
              "city": "city", "state": "state", "postal_code": "postalCode", "country": "country"}


class AddressError(ShopError):
    """A saved address the customer can correct."""


def _cleaned(fields: Mapping[str, Any]) -> dict[str, Any]:
    values = {name: fields.get(name, "") or "" for name in FIELDS}
    values = clean_fields(values, LIMITS, names=FORM_NAMES)
    values["country"] = (values["country"] or "EGY").upper()
    for name in ("phone", "floor", "postal_code"):
        values[name] = western_digits(values[name])
    problems = {}
    for name in ("first_name", "last_name", "phone", "street", "city", "state"):
        if not values[name]:
            problems.setdefault(FORM_NAMES[name], _("Please fill in all required fields"))
    if values["phone"] and not phone_is_valid(values["phone"]):
        problems.setdefault("phone", phone_invalid_message())
    if values["country"] not in dict(COUNTRIES):
        problems.setdefault("country", _("Please choose a country from the list"))
    if values["country"] == "EGY" and values["state"]:
        if not governorate_stored(values["state"]):
            problems.setdefault("state", _("Please choose a governorate from the list"))
        else:
            values["state"] = governorate_stored(values["state"])
    if problems:
        field, message = next(iter(problems.items()))
        raise AddressError(message, field=field, fields=problems)
    values["phone"] = phone_normalize(values["phone"])
    return values


def _take_turns(user: User) -> None:
    """Hold `user`'s row until the transaction ends, so that two writes of one customer's addresses take
    turns. Locking only the addresses concerned let two requests at once (a double click, two tabs, the
    API) both clear the old default and both set theirs, both save a first address as the default, or
    deadlock, each one a 500 from the one-default index or PostgreSQL; a customer without an address
    has no address row to lock at all."""
    list(User.objects.select_for_update().filter(pk=user.pk).values_list("pk", flat=True))


@transaction.atomic
def address_create(*, user: User, fields: Mapping[str, Any], make_default: bool = False) -> Address:
    """Save a new address for `user`; the first one, or one asked to be, becomes the default."""
    values = _cleaned(fields)
    _take_turns(user)
    existing = Address.objects.filter(user=user)
    if existing.count() >= MAX_ADDRESSES:
        raise AddressError(_("You can save up to %(count)d addresses.") % {"count": MAX_ADDRESSES}, field="form")
    first = not existing.exists()
    if make_default and not first:
        existing.filter(is_default=True).update(is_default=False)
    return Address.objects.create(user=user, is_default=first or make_default, **values)


@transaction.atomic
def address_update(*, user: User, address_id: int | str, fields: Mapping[str, Any]) -> Address:
    address = _own(user, address_id)
    for name, value in _cleaned(fields).items():
        setattr(address, name, value)
    address.save()
    return address


@transaction.atomic
def address_set_default(*, user: User, address_id: int | str) -> Address:
    address = _own(user, address_id)
    Address.objects.filter(user=user, is_default=True).exclude(pk=address.pk).update(is_default=False)
    if not address.is_default:
        address.is_default = True
        address.save(update_fields=["is_default"])
    return address


@transaction.atomic
def address_delete(*, user: User, address_id: int | str) -> None:
    """Forget an address; when it was the default, the oldest remaining one takes its place."""
    address = _own(user, address_id)
    was_default = address.is_default
    address.delete()
    if was_default:
        successor = Address.objects.filter(user=user).order_by("created_at", "pk").first()
        if successor:
            successor.is_default = True
            successor.save(update_fields=["is_default"])


def _own(user: User, address_id: int | str) -> Address:
    _take_turns(user)
    address = Address.objects.filter(user=user, pk=address_id).first()
    if address is None:
        raise AddressError(_("Address not found"), field="form", status=404)
    return address


def address_list(*, user: User) -> list[Address]:
    return list(Address.objects.filter(user=user))


def address_default(*, user: User) -> Address | None:
    return Address.objects.filter(user=user, is_default=True).first()
