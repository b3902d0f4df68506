"""The Arabic page check (issue 13): what an Arabic reader sees, word by word.

`arabic_page_problems(html, typed=...)` reads a page (server HTML, or the DOM a
browser rendered with its islands) and returns what is wrong with it in Arabic:

- a run of Latin letters that is not on the allow-list below (brand names,
  e-mail addresses, web addresses, product codes and order numbers) and not
  inside an element explicitly marked `lang="en"` (English shown on purpose,
  e.g. an announcement staff chose to show in English) or isolated as typed
  text (`<bdi>`, `dir="auto"`, Unicode isolates: a customer's name, a review),
  or technical (`<code>`: a slug, a setting's name);
- an Eastern Arabic or Persian digit anywhere (Latin digits are decided);
- an arrow pointing the English way between two words ("a → b"): pointing
  icons mirror in Arabic;
- a piece of text a person typed (`typed`) that is not direction-isolated:
  no `<bdi>`, `dir` attribute or `<input>/<textarea>` around it.

Visible text and the attributes people read (title, alt, placeholder,
aria-label, the value of buttons, <title> and meta descriptions) are checked;
scripts, styles and JSON props are not (islands render their text, and the
browser walk reads the rendered DOM).
"""

import re
from html import escape

from lxml import html as lxml_html

# words that stay Latin on an Arabic page: brands, payment networks, the
# language switch's own "English", technical marks
ALLOWED_WORDS = {
    "Paymob", "Visa", "Mastercard", "Meeza", "Facebook", "Instagram", "X", "Twitter", "English",
    "KES", "EGP", "VAT", "PDF", "CSV", "SKU", "URL", "API", "HMAC", "Redis", "Celery",
    "PostgreSQL", "SQLite", "SMTP", "ID", "IP", "Swagger", "OK",
}
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_URL = re.compile(r"(?:https?://|www\.)\S+|(?<!\w)/[\w\-./?=&%#]+")
# order numbers (NHT-261124-ABCDEF), codes (WELCOME10, SAVE-20), slugs (kenya-gold-250)
_CODE = re.compile(r"\b(?=[A-Za-z0-9-]*[0-9])[A-Za-z0-9]+(?:-[A-Za-z0-9]+)+\b|\b[A-Z0-9]{4,}\b")
_LATIN_RUN = re.compile(r"[A-Za-z][A-Za-z'’]*")
# "a → b" read right-to-left says "from b to a"; an arrow alone ("→ back") may be mirrored on purpose
_FROM_TO_ARROW = re.compile(r"\w\s*[→↗]\s*\w")
_EASTERN = re.compile(r"[\u0660-\u0669\u06f0-\u06f9]")
_READ_ATTRIBUTES = ("title", "alt", "placeholder", "aria-label")
# typed text isolated with Unicode isolates (attributes, plain text): FSI/LRI/RLI … PDI
_UNICODE_ISOLATED = re.compile(r"[\u2066\u2067\u2068][^\u2069]*\u2069")
_SKIPPED = {"script", "style", "template", "svg", "noscript"}


def latin_words(text, extra_allowed=()):
    """The Latin words in `text` that an Arabic page may not show."""
    text = _CODE.sub(" ", _URL.sub(" ", _EMAIL.sub(" ", text)))
    allowed = ALLOWED_WORDS | set(extra_allowed)
    return [word for word in _LATIN_RUN.findall(text) if word not in allowed]


def _marked_english(element):
    """English on purpose: marked lang="en", or typed text isolated (<bdi>, dir="auto"/"ltr")."""
    for e in [element, *element.iterancestors(None)]:
        if not isinstance(e.tag, str):
            continue
        if e.get("lang", "").startswith("en") or e.tag in ("bdi", "code") or e.get("dir") == "auto":
            return True
        if e.tag in ("body", "main"):
            return False
    return False


def _isolated(element):
    for e in [element, *element.iterancestors(None)]:
        if not isinstance(e.tag, str):
            continue
        if e.tag in ("bdi", "input", "textarea", "option", "code") or e.get("dir"):
            return True
        if e.tag in ("body", "main", "html"):
            return False
    return False


def _texts(root):
    """(element, text) for every visible text node and read attribute."""
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        if element.tag in _SKIPPED or any(a.tag in _SKIPPED for a in element.iterancestors()):
            continue
        if element.get("hidden") is not None or element.get("aria-hidden") == "true":
            continue
        if element.text and element.text.strip():
            yield element, element.text
        for name in _READ_ATTRIBUTES:
            if element.get(name):
                yield element, element.get(name)
        if element.tag == "input" and element.get("type") in ("submit", "button") and element.get("value"):
            yield element, element.get("value")
        if element.tag == "meta" and element.get("name") in ("description", "keywords"):
            yield element, element.get("content", "")
        if element.tail and element.tail.strip() and element.getparent() is not None:
            yield element.getparent(), element.tail


def arabic_page_problems(page_html, *, typed=(), allowed=(), where=""):
    """Everything wrong with `page_html` as an Arabic page (a list of sentences; empty is good)."""
    root = lxml_html.fromstring(page_html)
    problems = []
    for element, text in _texts(root):
        if _FROM_TO_ARROW.search(text):
            problems.append(f"{where}: an arrow pointing the English way in {text.strip()[:80]!r}")
        if _EASTERN.search(text):
            problems.append(f"{where}: Eastern digits in {text.strip()[:80]!r}")
        if not _marked_english(element):
            words = latin_words(_UNICODE_ISOLATED.sub(" ", text), allowed)
            if words:
                problems.append(f"{where}: Latin {words[:6]} in <{element.tag}> {text.strip()[:80]!r}")
        flat = text.replace("\u00a0", " ")  # "100\u00a0g": a number kept with its unit is still the typed text
        for piece in typed:
            if piece in flat and not _isolated(element) and not any(
                    piece in run for run in _UNICODE_ISOLATED.findall(flat)):
                problems.append(f"{where}: typed text {piece!r} not isolated in <{element.tag}>")
    return problems


def arabic_text_problems(text, *, typed=(), allowed=(), where=""):
    """`arabic_page_problems` for plain text (an e-mail body or subject, a WhatsApp message): typed
    text counts as isolated only inside Unicode isolates, since plain text has no markup."""
    lines = "".join(f"<p>{escape(line)}</p>" for line in text.splitlines() if line.strip())
    return arabic_page_problems(f"<html><body>{lines}</body></html>", typed=typed, allowed=allowed, where=where)
