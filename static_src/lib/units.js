// Keep a quantity and its unit on one line ("250 g", "100 bags", "٢٥٠ جم"): the twin of shop/units.py.
const UNITS = ["kg", "g", "gm", "gr", "grams?", "mg", "ml", "l", "litres?", "liters?", "bags?", "pcs", "pieces?", "packs?", "sachets?",
  "كجم", "كغ", "كيلو", "جم", "جرام", "غرام", "غ", "مل", "لتر", "كيس", "أكياس", "اكياس", "قطعة", "قطع", "عبوة", "ظرف"];
const QUANTITY_UNIT = new RegExp(`(?<=[0-9٠-٩])[ \\t]+(?=(?:${UNITS.join("|")})(?![\\p{L}\\p{N}_]))`, "giu");

export const keepUnits = (text) => (text ? String(text).replace(QUANTITY_UNIT, "\u00a0") : text);
