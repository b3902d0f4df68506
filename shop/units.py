"""Keep a quantity and its unit on one line ("250 g", "100 bags", "٢٥٠ جم"): a no-break space
between them, applied at display time (static_src/lib/units.js is the islands' twin)."""

import re

NBSP = "\u00a0"
# Latin units are matched case-insensitively; the Arabic ones as written on the packs.
UNITS = ("kg", "g", "gm", "gr", "grams?", "mg", "ml", "l", "litres?", "liters?", "bags?", "pcs", "pieces?",
         "packs?", "sachets?",
         "كجم", "كغ", "كيلو", "جم", "جرام", "غرام", "غ", "مل", "لتر", "كيس", "أكياس", "اكياس", "قطعة", "قطع",
         "عبوة", "ظرف")
_QUANTITY_UNIT = re.compile(r"(?<=[0-9٠-٩])[ \t]+(?=(?:%s)(?![\w]))" % "|".join(UNITS), re.IGNORECASE)


def keep_units(text: str) -> str:
    """The text with a no-break space between each number and the unit after it."""
    if not text:
        return text
    return _QUANTITY_UNIT.sub(NBSP, str(text))
