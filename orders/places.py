"""Where an order can go: the countries we ship to and Egypt's governorates, in both languages.

A leaf module (Django only): checkout, delivery, tracking, the address book and the
templates all read the names from here, so none of them has to import another.
"""

from django.utils import translation
from django.utils.translation import gettext_lazy

COUNTRIES = [
    ("EGY", gettext_lazy("Egypt")), ("SAU", gettext_lazy("Saudi Arabia")), ("ARE", gettext_lazy("UAE")),
    ("JOR", gettext_lazy("Jordan")), ("LBN", gettext_lazy("Lebanon")), ("KWT", gettext_lazy("Kuwait")),
    ("QAT", gettext_lazy("Qatar")), ("BHR", gettext_lazy("Bahrain")), ("OMN", gettext_lazy("Oman")),
]
# Egypt's 27 governorates: the English name is what we store.
GOVERNORATES = [
    ("Alexandria", "الإسكندرية"), ("Aswan", "أسوان"), ("Assiut", "أسيوط"), ("Beheira", "البحيرة"),
    ("Beni Suef", "بني سويف"), ("Cairo", "القاهرة"), ("Dakahlia", "الدقهلية"), ("Damietta", "دمياط"),
    ("Fayoum", "الفيوم"), ("Gharbia", "الغربية"), ("Giza", "الجيزة"), ("Ismailia", "الإسماعيلية"),
    ("Kafr El Sheikh", "كفر الشيخ"), ("Luxor", "الأقصر"), ("Matrouh", "مطروح"), ("Minya", "المنيا"),
    ("Monufia", "المنوفية"), ("New Valley", "الوادي الجديد"), ("North Sinai", "شمال سيناء"),
    ("Port Said", "بورسعيد"), ("Qalyubia", "القليوبية"), ("Qena", "قنا"), ("Red Sea", "البحر الأحمر"),
    ("Sharqia", "الشرقية"), ("Sohag", "سوهاج"), ("South Sinai", "جنوب سيناء"), ("Suez", "السويس"),
]
_STORED = {en: en for en, _ar in GOVERNORATES} | {ar: en for en, ar in GOVERNORATES}


def governorate_stored(value: object) -> str:
    """The stored (English) name of a governorate given in English or Arabic, else ""."""
    return _STORED.get(str(value or "").strip(), "")


def governorate_name(value: str | None, language: str | None) -> str:
    """A stored governorate (its English name) in `language`: "Giza" or "الجيزة".

    GOVERNORATES above is the one list of names in both languages; a value not
    on it (an address abroad) is returned as typed.
    """
    for english, arabic in GOVERNORATES:
        if value in (english, arabic):
            return arabic if language == "ar" else english
    return value or ""


# an alef with a hamza or madda sorts as a plain alef, as in an Arabic dictionary's order
_ALEFS = str.maketrans("أإآ", "ااا")


def governorate_choices(language: str | None) -> list[tuple[str, str]]:
    """(stored name, name in `language`) of every governorate, in the alphabetical order of that language's
    names, so that a shopper finds "القاهرة" where an Arabic reader looks for it."""
    arabic = language == "ar"
    named = [(english, arabic_name if arabic else english) for english, arabic_name in GOVERNORATES]
    return sorted(named, key=lambda pair: pair[1].translate(_ALEFS) if arabic else pair[1])


def country_name(code: str | None, language: str) -> str:
    """A stored country code (EGY) as its name in `language`, never the ISO code."""
    names = dict(COUNTRIES)
    if not code or code not in names:
        return code or ""
    with translation.override(language):
        return str(names[code])
