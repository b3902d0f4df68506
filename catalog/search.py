"""Search text: one normalisation for what is stored and what is typed.

Arabic letters that people write interchangeably are folded together (alef
forms, teh marbuta/heh, alef maksura/yeh), tatweel and diacritics are dropped
and Eastern Arabic digits are read as Western ones, so "شاى" finds "شاي".
"""

import re
import unicodedata

from catalog.models import Product

MAX_QUERY_LENGTH = 100

_FOLD = str.maketrans(
    {
        "أ": "ا", "إ": "ا", "آ": "ا", "ٱ": "ا",
        "ة": "ه",
        "ى": "ي",
        "ـ": None,  # tatweel
        **{chr(0x0660 + d): str(d) for d in range(10)},  # ٠..٩
        **{chr(0x06F0 + d): str(d) for d in range(10)},  # ۰..۹ (Persian forms)
    }
)
# Arabic harakat, tanween, shadda, sukun, superscript alef and Quranic marks
_DIACRITICS = re.compile("[\u0610-\u061a\u064b-\u065f\u0670\u06d6-\u06ed]")
_SPACES = re.compile(r"\s+")


def normalize(text: str | None) -> str:
    """Return `text` folded for matching: lower case, Arabic normalised, single spaces."""
    if not text:
        return ""
    text = unicodedata.normalize("NFKC", str(text))
    text = "".join(ch for ch in text if unicodedata.category(ch)[0] != "C" or ch in "\t\n ")
    text = _DIACRITICS.sub("", text).translate(_FOLD).casefold()
    return _SPACES.sub(" ", text).strip()


def search_terms(query: str | None) -> list[str]:
    """Split a visitor's query into normalised words (capped, never raising)."""
    return normalize((query or "")[:MAX_QUERY_LENGTH]).split()[:8]


def product_search_text(product: Product) -> str:
    """The denormalised text a product is found by: both languages, tags included."""
    parts = []
    for field in ("title", "short_description", "description"):
        for language in ("en", "ar"):
            parts.append(getattr(product, f"{field}_{language}", "") or "")
    for name in ("tags", "tags_ar", "flavor_notes", "flavor_notes_ar"):
        parts.extend(str(word) for word in (getattr(product, name, None) or []))
    return normalize(" ".join(parts))
