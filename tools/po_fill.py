"""Fill an Arabic .po file from a JSON dict {msgid: msgstr} and report what is still empty.

    .venv/bin/python tools/po_fill.py catalog/locale/ar/LC_MESSAGES/django.po translations.json

Plural entries take a list of six forms (zero, one, two, few, many, other).
"""

import json
import sys

import polib


def main(po_path, json_path=None):
    po = polib.pofile(po_path)
    table = json.load(open(json_path, encoding="utf-8")) if json_path else {}
    for entry in po:
        if entry.msgid in table:
            value = table[entry.msgid]
            if entry.msgid_plural:
                forms = value if isinstance(value, list) else [value] * 6
                entry.msgstr_plural = {i: form for i, form in enumerate(forms)}
            else:
                entry.msgstr = value
            if "fuzzy" in entry.flags:
                entry.flags.remove("fuzzy")
    po.save()
    missing = [e.msgid for e in po if not e.obsolete and not e.translated()]
    for msgid in missing:
        print("UNTRANSLATED:", msgid)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
