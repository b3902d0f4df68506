"""Every Arabic string in the shop's own catalogues is the one shown. The check on the islands' stand-ins
(issue 14) found the shop's "Search" and "Filters" shown in the admin's and DRF's words, whose catalogues
came first; and two of the shop's apps gave some msgids different words (one said "username is required"
for "First name is required"). Now the shop's catalogues come first (settings.LOCALE_PATHS) and agree."""

import polib
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext, ngettext, npgettext, pgettext

# Arabic's six plural forms (the catalogues' Plural-Forms), each with a count that picks it
COUNT_FOR_FORM = {0: 0, 1: 1, 2: 2, 3: 3, 4: 11, 5: 100}


def _shown(entry, form=None):
    if form is None:
        return pgettext(entry.msgctxt, entry.msgid) if entry.msgctxt else gettext(entry.msgid)
    n = COUNT_FOR_FORM[form]
    if entry.msgctxt:
        return npgettext(entry.msgctxt, entry.msgid, entry.msgid_plural, n)
    return ngettext(entry.msgid, entry.msgid_plural, n)


def test_every_string_the_shop_translates_shows_as_translated():
    wrong = []
    with translation.override("ar"):
        for root in [settings.BASE_DIR / "locale", *(settings.BASE_DIR / app / "locale" for app in settings.SHOP_APPS)]:
            for entry in polib.pofile(str(root / "ar" / "LC_MESSAGES" / "django.po")):
                if entry.obsolete or "fuzzy" in entry.flags or not entry.translated():
                    continue
                expected = entry.msgstr_plural if entry.msgid_plural else {None: entry.msgstr}
                for form, text in expected.items():
                    shown = _shown(entry, form)
                    if shown != text:
                        wrong.append(f"{root.parent.name}: {entry.msgid!r} (form {form}) shows {shown!r}, not {text!r}")
    assert not wrong, "\n".join(wrong)
