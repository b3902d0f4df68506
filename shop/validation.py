"""The one gate every piece of typed text passes before a service stores it.

Both databases must see the same thing: PostgreSQL refuses NUL bytes and lone
surrogates (a 500), SQLite stores them and any length. So every text input is
checked here, at the service, whatever the door (page form, API, dashboard,
importer): a length limit, no NUL, no lone surrogate, no control character
(line breaks only where the field is multi-line, never in anything that
becomes a mail header). A refusal is a `ShopError` naming the field, with a
message in the user's language; nothing is stored.
"""

import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from django.utils.translation import gettext as _

from shop.errors import ShopError

# Limits shared by every door; a model's max_length is never smaller.
NAME_MAX = 120
EMAIL_MAX = 254
PHONE_MAX = 32
LINE_MAX = 200  # one line: a subject, a street, a title
TEXT_MAX = 5000  # a message, a review, a description
PASSWORD_MAX = 128
URL_MAX = 500

# C0 and C1 controls except tab; line breaks are allowed only in multi-line text
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
_LINE_BREAK = re.compile(r"[\r\n\u2028\u2029\x85]")
_SURROGATE = re.compile(r"[\ud800-\udfff]")


# --- typed text at the door ------------------------------------------------------
# One digit rule (DECISIONS): Latin digits everywhere. Eastern Arabic (٠-٩) and
# Persian (۰-۹) digits typed in any input are read as 0-9 once, where input
# enters the shop (shop.middleware.TypedTextMiddleware for query strings and
# forms, shop.api.parsers for JSON, static_src/lib/digits.js in the browser),
# so search, quantities, phones, postal codes, coupons, prices and stock all
# store Western digits. Passwords are the one exception: they are secrets,
# compared as typed.
# At the same door the explicit direction controls (embeddings and overrides
# U+202A-202E, isolates U+2066-2069) are dropped: invisible, never needed to
# type Arabic, and a name holding one ("Ali\u202egpj.exe") would reverse what
# follows it on the dashboard, in e-mails, exports and invoices, or close the
# isolate the shop puts around typed text. Phones copied from WhatsApp come
# wrapped in U+202A…U+202C. The marks (LRM, RLM, ALM) have no reach and stay.
_EASTERN_DIGITS = str.maketrans("٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹", "01234567890123456789")
DIRECTION_CONTROLS = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
_TYPED = str.maketrans("٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹", "01234567890123456789", DIRECTION_CONTROLS)


_ID = re.compile(r"[0-9]{1,18}")


def id_parse(value: object) -> int | None:
    """A row's id as a form field or query string sends it (1 to 18 ASCII digits, as the `id` URL converter
    takes), else None. Not str.isdigit(): it also takes "²" and other scripts' digits, which int() refuses
    or reads as some other row's number."""
    return int(value) if isinstance(value, str) and _ID.fullmatch(value) else None


def western_digits(text: str | None) -> str:
    """Eastern Arabic (and Persian) digits to 0-9, as we store them."""
    return (text or "").translate(_EASTERN_DIGITS)


def typed_text(text: str) -> str:
    """Typed text as the shop reads it: Western digits, no direction controls."""
    return text.translate(_TYPED)


def is_secret_field(name: object) -> bool:
    """Whether a field holds a password (left exactly as typed)."""
    return "password" in str(name).lower()


def typed_text_in(data: Any, *, key: str = "") -> Any:
    """`data` (a JSON value) with every string but passwords read as `typed_text`."""
    if isinstance(data, str):
        return data if is_secret_field(key) else typed_text(data)
    if isinstance(data, dict):
        return {name: typed_text_in(value, key=name) for name, value in data.items()}
    if isinstance(data, list):
        return [typed_text_in(item, key=key) for item in data]
    return data


def text_problem(value: str, *, max_length: int, multiline: bool = False) -> str | None:
    """Return why `value` cannot be stored as text, or None when it can."""
    if _SURROGATE.search(value) or _CONTROL.search(value):
        return _("This field contains characters that are not allowed")
    if not multiline and _LINE_BREAK.search(value):
        return _("This field must be a single line")
    if len(value) > max_length:
        return _("Please keep this field under %(n)d characters") % {"n": max_length}
    return None


def clean_text(value: object, *, field: str, max_length: int, multiline: bool = False, strip: bool = True) -> str:
    """Return `value` as safe text (stripped), or raise ShopError for `field`.

    Anything that is not a string (None, a number, a list from a JSON body) is
    read as empty, so a wrong type is the same "required" answer as a blank.
    """
    text = value if isinstance(value, str) else ""
    if multiline:
        text = text.replace("\r\n", "\n")
    if strip:
        text = text.strip()
    problem = text_problem(text, max_length=max_length, multiline=multiline)
    if problem:
        raise ShopError(problem, field=field)
    return text


def clean_fields(fields: Mapping[str, Any], limits: Mapping[str, int | tuple[int, bool]], *,
                 names: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Return a copy of `fields` with each one named in `limits` passed through `clean_text`.

    `limits` maps a field to `max_length` or `(max_length, multiline)`; a list
    value has each item checked. A field absent from `fields` stays absent;
    None stays None. `names` maps a field to the name errors should carry
    (the model's `title_en` is the API's `title`).
    """
    cleaned = dict(fields)
    names = names or {}
    for name, limit in limits.items():
        if name not in cleaned or cleaned[name] is None:
            continue
        max_length, multiline = limit if isinstance(limit, tuple) else (limit, False)
        field = names.get(name, name)
        value = cleaned[name]
        if isinstance(value, list | tuple):
            cleaned[name] = [clean_text(item, field=field, max_length=max_length, multiline=multiline)
                             for item in value]
        else:
            cleaned[name] = clean_text(value, field=field, max_length=max_length, multiline=multiline)
    return cleaned


# --- web addresses ------------------------------------------------------------
# Anything a browser might read as a space, or as nothing at all: browsers drop
# tabs and line breaks inside a URL ("java\tscript:"), and invisible format
# characters can hide what a link really points to.
_URL_INVISIBLE = re.compile(r"[\s\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]")
_ABSOLUTE = re.compile(r"^https?://[^/?#@]+(?:[/?#]|$)", re.IGNORECASE)


def url_problem(value: str, *, allow_relative: bool = True) -> str | None:
    """Return why `value` may not be used as a link or image address, or None.

    Only two shapes pass: an absolute http(s) address with a host (and no
    user name, the "https://shop.example@evil.example" trick), and, when
    `allow_relative`, a path on this site starting with one "/". Everything
    else (javascript:, data:, vbscript:, "//evil.example", backslashes,
    hidden whitespace) is refused rather than repaired.
    """
    if not isinstance(value, str) or not value:
        return _("Please enter a web address starting with https://")
    if _URL_INVISIBLE.search(value) or "\\" in value or _SURROGATE.search(value):
        return _("This web address contains characters that are not allowed")
    if len(value) > URL_MAX:
        return _("Please keep this field under %(n)d characters") % {"n": URL_MAX}
    if allow_relative and value.startswith("/") and not value.startswith("//"):
        return None
    if _ABSOLUTE.match(value):
        try:
            parts = urlsplit(value)
            parts.port  # noqa: B018 (raises on a malformed port)
        except ValueError:
            parts = None
        if parts is not None and parts.hostname:
            return None
    if allow_relative:
        return _("Please enter a web address starting with https:// or a path starting with /")
    return _("Please enter a web address starting with https://")


def clean_url(value: object, *, field: str, allow_relative: bool = True) -> str:
    """Return `value` as a safe link or image address ("" when blank), or raise ShopError for `field`.

    The one gate for every URL staff or an import can store (announcement
    links, social links, product images); templates and islands still show
    stored URLs only through `safe_url`, so an old row cannot slip through.
    """
    text = value.strip() if isinstance(value, str) else ""
    if not text:
        return ""
    problem = url_problem(text, allow_relative=allow_relative)
    if problem:
        raise ShopError(problem, field=field)
    return text


def safe_url(value: object, *, allow_relative: bool = True) -> str:
    """`value` when it is a safe link or image address, else "" (for rendering)."""
    text = value.strip() if isinstance(value, str) else ""
    return text if text and url_problem(text, allow_relative=allow_relative) is None else ""


_ORIGIN = re.compile(r"^(https?://[A-Za-z0-9.\-]+(?::\d{1,5})?)(?:[/?#]|$)", re.IGNORECASE)


def image_origin(value: object) -> str:
    """`scheme://host[:port]` of an http(s) address, fit for a CSP source list, else ""."""
    if not isinstance(value, str) or url_problem(value, allow_relative=False) is not None:
        return ""
    match = _ORIGIN.match(value)
    return match.group(1).lower() if match else ""
