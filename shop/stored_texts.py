"""Texts the shop stores in English and shows in the reader's language: an order's status-history notes
(orders.notes), the audit log's details (backoffice.audit_texts).

Each is a `gettext_noop` constant, written with its values (`stored_text_write`) and read back by matching
the stored text against the same constants (`stored_text_read`), so a text reworded in one place is written
and read alike; a row holding a text no constant says any more is shown as written. A value is a named
placeholder (`%(name)s`), kept as written unless the reader is given a way to read it.
"""

import re
from collections.abc import Callable, Collection, Iterable, Mapping

from django.utils.translation import gettext

_PLACEHOLDER = re.compile(r"%\((\w+)\)s")

Patterns = list[tuple[re.Pattern[str], str]]


def stored_text_placeholders(text: str) -> list[str]:
    """The names of the values `text` carries."""
    return _PLACEHOLDER.findall(text)


def stored_text_write(text: str, **values: object) -> str:
    """`text` as stored: in English, with exactly its `values`."""
    if sorted(values) != sorted(stored_text_placeholders(text)):
        raise ValueError(f"{text!r} takes {stored_text_placeholders(text)}, not {sorted(values)}")
    return text % values if values else text


def stored_text_patterns(texts: Iterable[str], *, numbers: Collection[str] = ()) -> Patterns:
    """(pattern matching a stored text, its text) for each of `texts`; a value matches any text, one named in
    `numbers` only digits. The longest first: a text that begins as another and says more ("Payment declined
    (…); its kiosk …") is read as itself."""
    patterns = []
    for text in sorted(texts, key=len, reverse=True):
        parts = _PLACEHOLDER.split(text)  # text, name, text, name, …, text
        regex = "".join(re.escape(part) if i % 2 == 0 else f"(?P<{part}>{'[0-9]+' if part in numbers else '.+?'})"
                        for i, part in enumerate(parts))
        patterns.append((re.compile(regex, re.DOTALL), text))
    return patterns


def stored_text_read(stored: str, patterns: Patterns,
                     values: Mapping[str, Callable[[str], str]] | None = None) -> str | None:
    """`stored` in the active language, or None when none of `patterns` says it. `values`: how a value of
    that name is read (a note inside an audit entry), others as written."""
    for pattern, text in patterns:
        match = pattern.fullmatch(stored)
        if match:
            found = {name: (values or {}).get(name, str)(value) for name, value in match.groupdict().items()}
            return gettext(text) % found if found else gettext(text)
    return None
