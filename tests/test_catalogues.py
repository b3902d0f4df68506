"""Issue 13: the Django and i18next catalogues stay 100 % translated, with no fuzzy entry,
and every Arabic count has its six plural forms (zero, one, two, few, many, other)."""

import json
import re
import shutil
import subprocess
import sys
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


# The audit after issue 13 (complete catalogues can still be wrong): an Arabic text left in English, a
# placeholder that a translation renamed or dropped, a Latin code whose punctuation flips in a right-to-left
# sentence ("https://" read as "//:https", "#dc2626" as "dc2626#"), and a msgid the code uses that no
# catalogue holds (shown in English, or in Django's or DRF's words instead of the shop's).
_ARABIC_LETTER = re.compile(r"[\u0600-\u06ff]")
_LATIN_LETTER = re.compile(r"[A-Za-z]")
_PO_PLACEHOLDER = re.compile(r"%\(\w+\)[sdifr]|%[sdif]|\{\w*\}")
_I18N_PLACEHOLDER = re.compile(r"\{\{\s*[\w.]+\s*(?:,[^}]*)?\}\}|\$t\([^)]*\)|</?\d+/?>")
# direction-isolated already: Unicode isolates, <bdi>, or a left-to-right mark holding a number's sign
_ISOLATED = re.compile(r"[\u2066\u2067\u2068][^\u2069]*\u2069|<bdi\b.*?</bdi>|\u200e\S+(?: \d+)*")
_TAG = re.compile(r"<[^>]*>")
# a code or number carrying weak or neutral punctuation at its edge, which bidi moves to the other side
_FLIPS = re.compile(r"[#@+/:]+[A-Za-z0-9][\w.-]*|[A-Za-z][\w.-]*[#@/:]+")
# a variable holding what a person typed (a product's title, a coupon's code, a name, an address) in an Arabic
# sentence: "{{title}}: المخزون الآن 3" with the title "Kenya Gold (250 g)" mirrors its bracket
_TYPED_VARIABLE = re.compile(
    r"(?<!\u2068)\{\{\s*(?:name|title|code|email|username|subject|courier|category|product|label)\s*\}\}(?!\u2069)")
# the Arabic forms (zero, one, two) may say the count in words and leave its placeholder out
_PLURAL_FORMS_WITH_ALL_PLACEHOLDERS = (3, 4, 5)


def _po_entries():
    for path in PO_FILES:
        for entry in polib.pofile(str(path)):
            if not entry.obsolete:
                yield path.relative_to(ROOT), entry


def _texts(entry):
    """(form, text) for each Arabic text of an entry: form None for a singular entry."""
    return sorted(entry.msgstr_plural.items()) if entry.msgid_plural else [(None, entry.msgstr)]


def _placeholders(pattern, text):
    return sorted(re.sub(r"\s", "", p) for p in pattern.findall(text))


def _english(pattern, text):
    """Does `text` say anything in words (Latin letters outside its placeholders)?"""
    return bool(_LATIN_LETTER.search(pattern.sub("", text)))


def _flipping_codes(text, placeholders):
    return _FLIPS.findall(_TAG.sub(" ", placeholders.sub(" ", _ISOLATED.sub(" ", text))))


def test_every_arabic_django_text_is_arabic_keeps_its_placeholders_and_isolates_its_codes():
    problems = []
    for path, entry in _po_entries():
        where = f"{path}: {entry.msgid!r}"
        for form, text in _texts(entry):
            if _english(_PO_PLACEHOLDER, entry.msgid) and not _ARABIC_LETTER.search(text):
                problems.append(f"{where} is still English: {text!r}")
            english = _PO_PLACEHOLDER.findall(entry.msgid_plural if form else entry.msgid)
            arabic = _PO_PLACEHOLDER.findall(text)
            if form is None or form in _PLURAL_FORMS_WITH_ALL_PLACEHOLDERS:
                if sorted(arabic) != sorted(english):
                    problems.append(f"{where} (form {form}) has placeholders {arabic}, English {english}")
            elif set(arabic) - set(english) - set(_PO_PLACEHOLDER.findall(entry.msgid)):
                problems.append(f"{where} (form {form}) has placeholders {arabic}, English {english}")
            if codes := _flipping_codes(text, _PO_PLACEHOLDER):
                problems.append(f"{where}: {codes} not isolated (U+2068 … U+2069) in {text!r}")
    assert problems == [], "\n".join(problems)


def _english_twin(key, en):
    if key in en:
        return en[key]
    base = _plural_base(key)
    return en.get(f"{base}_other") if base else None


@pytest.mark.parametrize("english", I18N, ids=lambda p: p.name)
def test_every_arabic_island_text_is_arabic_keeps_its_variables_and_isolates_its_codes(english):
    en = dict(_flat(json.loads(english.read_text(encoding="utf-8"))))
    ar = dict(_flat(json.loads((english.parent.parent / "ar" / english.name).read_text(encoding="utf-8"))))
    problems = []
    for key, text in ar.items():
        twin = _english_twin(key, en)
        if not isinstance(text, str) or not isinstance(twin, str):
            continue
        if _english(_I18N_PLACEHOLDER, twin) and not _ARABIC_LETTER.search(text):
            problems.append(f"{key} is still English: {text!r}")
        arabic, english_ = set(_placeholders(_I18N_PLACEHOLDER, text)), set(_placeholders(_I18N_PLACEHOLDER, twin))
        # the Arabic zero, one and two may say the count in words
        if arabic != english_ and not (_plural_base(key) and arabic <= english_ and english_ - arabic <= {"{{count}}"}):
            problems.append(f"{key} has variables {sorted(arabic)}, English {sorted(english_)}")
        if codes := _flipping_codes(text, _I18N_PLACEHOLDER):
            problems.append(f"{key}: {codes} not isolated (U+2068 … U+2069) in {text!r}")
        if bare := _TYPED_VARIABLE.findall(text):
            problems.append(f"{key}: typed text {bare} not isolated (U+2068 … U+2069) in {text!r}")
    assert problems == [], "\n".join(problems)


def _catalogue_keys(po_files):
    return {(e.msgctxt, e.msgid, e.msgid_plural or None) for path in po_files for e in polib.pofile(str(path))
            if not e.obsolete and e.translated() and "fuzzy" not in e.flags}


def _in_tests_only(entry):
    return all("tests" in Path(path).parts or Path(path).name.startswith("test_") for path, _ in entry.occurrences)


@pytest.mark.skipif(shutil.which("xgettext") is None, reason="gettext is not installed (make messages installs it)")
def test_every_string_the_code_marks_for_translation_has_its_arabic_text(tmp_path):
    """What `make po` would extract, extracted into a copy of the sources (never the real catalogues), is
    in the shop's catalogues: each one's entries are read together, as Django reads LOCALE_PATHS."""
    copy = tmp_path / "shop"
    shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns(
        ".git", ".venv", "node_modules", "static", "static_src", "var", "test-artifacts", "bench", "__pycache__"))
    subprocess.run([sys.executable, "manage.py", "makemessages", "-l", "ar", "--ignore=tests", "-v", "0"],
                   cwd=copy, check=True, capture_output=True)
    extracted = [e for path in PO_FILES for e in polib.pofile(str(copy / path.relative_to(ROOT)))
                 if not e.obsolete and not _in_tests_only(e)]
    known = _catalogue_keys(PO_FILES)
    missing = sorted(f"{e.msgid!r} ({', '.join(p for p, _ in e.occurrences[:2])})" for e in extracted
                     if (e.msgctxt, e.msgid, e.msgid_plural or None) not in known)
    assert missing == [], "msgids the code uses that no Arabic catalogue holds"


def test_a_command_run_in_an_apps_directory_finds_the_apps_not_that_apps_modules():
    # given `make po`, which runs makemessages in each app's directory for the app's own catalogue, and
    # backoffice/orders.py, named like the orders app (Celery's Django fixup put that directory first)
    code = "import orders; print(orders.__file__)"
    # when
    shown = subprocess.run([sys.executable, "../manage.py", "shell", "-c", code], cwd=ROOT / "backoffice",
                           capture_output=True, text=True, timeout=60)
    # then the apps load, and `orders` is the app
    assert shown.returncode == 0, shown.stderr[-2000:]
    assert Path(shown.stdout.strip().splitlines()[-1]) == ROOT / "orders" / "__init__.py"
