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


def text_problem(value, *, max_length, multiline=False):
    """Return why `value` cannot be stored as text, or None when it can."""
    if _SURROGATE.search(value) or _CONTROL.search(value):
        return _("This field contains characters that are not allowed")
    if not multiline and _LINE_BREAK.search(value):
        return _("This field must be a single line")
    if len(value) > max_length:
        return _("Please keep this field under %(n)d characters") % {"n": max_length}
    return None


def clean_text(value, *, field, max_length, multiline=False, strip=True):
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
