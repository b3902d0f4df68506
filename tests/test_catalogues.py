"""Issue 13: the Django and i18next catalogues stay 100 % translated, with no fuzzy entry,
and every Arabic count has its six plural forms (zero, one, two, few, many, other)."""

import json
from pathlib import Path

import polib
import pytest

ROOT = Path(__file__).resolve().parents[1]
PO_FILES = sorted(p for p in ROOT.glob("*/locale/ar/LC_MESSAGES/django.po") if ".venv" not in p.parts) + [
    ROOT / "locale/ar/LC_MESSAGES/django.po"]
I18N = sorted((ROOT / "static_src/i18n/en").glob("*.json"))
ARABIC_PLURALS = ("zero", "one", "two", "few", "many", "other")


@pytest.mark.parametrize("path", PO_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_django_message_has_its_arabic_text_and_none_is_fuzzy(path):
    po = polib.pofile(str(path))
    entries = [e for e in po if not e.obsolete]
    assert [e.msgid for e in entries if not e.translated()] == []
    assert [e.msgid for e in entries if "fuzzy" in e.flags] == []
    assert "nplurals=6" in po.metadata.get("Plural-Forms", "")
    short = [e.msgid for e in entries if e.msgid_plural and len([v for v in e.msgstr_plural.values() if v]) != 6]
    assert short == [], "Arabic plural entries need all six forms"


def _flat(data, prefix=""):
    for key, value in data.items():
        if isinstance(value, dict):
            yield from _flat(value, f"{prefix}{key}.")
        else:
            yield f"{prefix}{key}", value


def _plural_base(key):
    base, _, form = key.rpartition("_")
    return base if form in ARABIC_PLURALS else None


@pytest.mark.parametrize("english", I18N, ids=lambda p: p.name)
def test_every_island_string_has_its_arabic_text(english):
    en = dict(_flat(json.loads(english.read_text(encoding="utf-8"))))
    ar = dict(_flat(json.loads((english.parent.parent / "ar" / english.name).read_text(encoding="utf-8"))))
    plural_bases = {_plural_base(k) for k in en if _plural_base(k) and f"{_plural_base(k)}_other" in en}
    singular = {k for k in en if _plural_base(k) not in plural_bases}
    assert sorted(k for k in singular if not str(ar.get(k, "")).strip()) == []
    missing_forms = sorted(f"{base}_{form}" for base in plural_bases for form in ARABIC_PLURALS
                           if not str(ar.get(f"{base}_{form}", "")).strip())
    assert missing_forms == [], "Arabic counts need zero, one, two, few, many and other"
    stray = sorted(k for k in ar if k not in en and _plural_base(k) not in plural_bases)
    assert stray == [], "Arabic keys with no English twin"
