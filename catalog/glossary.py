"""Tea words in English and Arabic: the demo catalogue and the importer fill a
product's Arabic tags, flavour notes and ingredients from it.

Only words we are sure of are here; a word not on the list is left for staff
(the dashboard marks the product's Arabic lists as missing).
"""

from collections.abc import Iterable

WORDS = {
    "antioxidant": "مضاد للأكسدة", "apple": "تفاح", "apricot": "مشمش", "assorted": "متنوع",
    "assortment": "تشكيلة", "attitude": "مزاج", "bergamot": "برغموت", "berry": "توت",
    "black tea": "شاي أسود", "bold": "قوي", "breakfast": "فطور", "brisk": "منعش",
    "caffeine free": "خالٍ من الكافيين", "calming": "مهدئ", "camomile": "بابونج", "chamomile": "بابونج",
    "cardamom": "هيل", "chai": "شاي بالتوابل", "cinnamon": "قرفة", "citrus": "حمضيات", "clove": "قرنفل",
    "cold brew": "تخمير بارد", "collection": "مجموعة", "conservation": "حماية البيئة", "cool": "بارد",
    "cornflower": "زهرة الذرة", "detox": "ديتوكس", "energy": "طاقة", "everyday": "يومي",
    "floral": "زهري", "fresh": "طازج", "fruit": "فاكهة", "full-bodied": "غني القوام", "gift": "هدية",
    "ginger": "زنجبيل", "ginseng": "جينسنغ", "grassy": "عشبي", "green": "أخضر", "green tea": "شاي أخضر",
    "herbal": "أعشاب", "honey": "عسل", "iced tea": "شاي مثلج", "jasmine": "ياسمين", "karkade": "كركديه",
    "hibiscus": "كركديه", "kenya": "كينيا", "kenyan tea": "شاي كيني", "lavender": "لافندر",
    "lemon": "ليمون", "lemongrass": "عشب الليمون", "lime": "ليمون أخضر", "loose leaf": "أوراق سائبة",
    "luxury": "فاخر", "malty": "مالتي", "mango": "مانجو", "mint": "نعناع", "mixed berries": "توت مشكل",
    "nutty": "بنكهة المكسرات", "oolong": "أولونغ", "peach": "خوخ", "peppermint": "نعناع فلفلي",
    "pineapple": "أناناس", "purple tea": "شاي أرجواني", "pyramid": "أكياس هرمية",
    "rainforest alliance": "تحالف الغابات المطيرة", "rare": "نادر", "rose": "ورد", "set": "طقم",
    "sleep": "نوم", "smooth": "ناعم", "spearmint": "نعناع بلدي", "spice": "توابل", "strawberry": "فراولة",
    "sweet": "حلو", "tart": "حامض", "tea bags": "أكياس شاي", "toasted grain": "حبوب محمصة",
    "vanilla": "فانيليا", "wellness": "عافية", "white": "أبيض", "white tea": "شاي أبيض",
    "wildlife": "الحياة البرية", "woody": "خشبي", "tea": "شاي", "black": "أسود", "orange": "برتقال",
    "kericho-gold": "كيريتشو جولد", "kericho gold": "كيريتشو جولد",
}


def arabic_words(words: Iterable[str], *, partial: bool = False) -> list[str]:
    """The Arabic of each word in `words`, or [] when any one is unknown (staff then fill them all).

    With `partial` (tags, which are for search and grouping), the words we know
    are translated and the others (internal markers such as "auto-categorized")
    left out.
    """
    arabic = [WORDS.get(str(word).strip().lower()) for word in words or []]
    if partial:
        return [word for word in dict.fromkeys(arabic) if word]
    return [word for word in arabic if word] if arabic and all(arabic) else []
