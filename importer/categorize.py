"""The spec's rule-based categoriser and description generator (spec 5 and 9).

Catalogue-neutral and pure: it knows category slugs, not models, so the
importer and the back-office's "AI categorize" / "AI description" buttons
share it. Nothing here calls an outside service (DECISIONS.md).
"""

import re
from dataclasses import dataclass
from decimal import Decimal

# Keyword groups per category. Each keyword hit scores 2 per word in it.
KEYWORDS = {
    "black-tea": ["black tea", "pure kenya", "kenya tea", "breakfast", "earl grey", "leaf tea",
                  "tea bags", "loose leaf", "enveloped", "tagless", "chai", "masala"],
    "green-tea": ["green tea", "sencha", "jasmine", "matcha", "gunpowder"],
    "herbal-tea": ["herbal", "camomile", "chamomile", "peppermint", "rooibos", "hibiscus",
                   "infusion", "lemongrass", "caffeine free", "rose"],
    "white-tea": ["white tea", "silver tip", "silver needle"],
    "oolong-tea": ["oolong"],
    "health-wellness": ["detox", "slim", "wellness", "beauty", "immune", "night time", "morning time",
                        "nursing", "moon cycle", "purple tea", "health", "eros"],
    "luxury-pyramid": ["pyramid", "luxury", "darjeeling", "royal", "oriental"],
    "attitude-teas": ["attitude", "hangover", "love tea", "lazy afternoon", "chill", "focus"],
    "cold-brew": ["cold brew", "iced tea", "cold water"],
    "conservation-teas": ["conservation", "rainforest", "wildlife", "elephant", "rhino"],
    "speciality-teas": ["speciality", "specialty", "flavoured", "flavored", "spice", "vanilla",
                        "strawberry", "apple", "cinnamon", "fruit", "berry", "lemon", "peach", "orange"],
    "string-tag-pyramid": ["string and tag", "string & tag", "string tag"],
    "pick-n-mix": ["pick n mix", "pick 'n' mix", "assortment", "variety pack", "mix and match"],
    "luxury-gifts": ["gift", "gift set", "collection", "hamper", "presentation box", "chamber"],
}
# Pattern bonuses (1 to 4): shapes in a name that say more than one word does.
PATTERNS = [
    (re.compile(r"\b\d+\s?(?:tb|tea ?bags?)\b", re.I), "black-tea", 1),
    (re.compile(r"\b\d+\s?(?:g|gm|kg)\b", re.I), "black-tea", 1),
    (re.compile(r"\bpyramids?\b", re.I), "luxury-pyramid", 4),
    (re.compile(r"\b(?:gift|hamper)s?\b", re.I), "luxury-gifts", 3),
    (re.compile(r"\bgreen\b", re.I), "green-tea", 2),
    (re.compile(r"\b(?:mint|ginger)\b", re.I), "herbal-tea", 1),
]
# `entire-range` lists everything and is never assigned.
ASSIGNABLE = tuple(KEYWORDS)
THRESHOLD = 0.5  # confidence below this falls back to the price rule
FULL_SCORE = 10  # a score this high is full confidence
SOURCE_BONUS = 10  # the producer filed it there: as strong as a full keyword group
GIFT_WORDS = re.compile(r"\b(?:gift|set|collection)s?\b", re.I)
BRAND_TAG = "kericho-gold"


@dataclass(frozen=True)
class Categorisation:
    category: str
    confidence: float
    tags: list
    scores: dict


def _score(text, scores, matched, weight=1):
    for slug, words in KEYWORDS.items():
        for word in words:
            if re.search(r"(?<![a-z])" + re.escape(word) + r"(?![a-z])", text):
                scores[slug] = scores.get(slug, 0) + 2 * len(word.split()) * weight
                matched.append(word)


def categorize(*, name, description="", price=None, source_category=""):
    """Pick a category slug and tags for a product from its words and price (EGP)."""
    name_text, text = name.lower(), f"{name} {description}".lower()
    scores, matched = {}, []
    _score(name_text, scores, matched)  # a word in the name counts twice
    _score(text, scores, matched)
    for pattern, slug, bonus in PATTERNS:
        if pattern.search(name):
            scores[slug] = scores.get(slug, 0) + bonus
    if source_category in KEYWORDS:
        scores[source_category] = scores.get(source_category, 0) + SOURCE_BONUS
    price = Decimal(price) if price is not None else None
    if price is not None and price > 1000:
        slug = "luxury-gifts" if GIFT_WORDS.search(text) else "speciality-teas"
        scores[slug] = scores.get(slug, 0) + 4
    best = max(scores.items(), key=lambda kv: (kv[1], -ASSIGNABLE.index(kv[0])), default=(None, 0))
    confidence = min(1.0, best[1] / FULL_SCORE)
    if best[0] is not None and confidence >= THRESHOLD:
        category = best[0]
    else:
        category = "speciality-teas" if price is not None and price > 800 else "black-tea"
    tags = ["auto-categorized", "premium", BRAND_TAG]
    for word in matched:
        tag = re.sub(r"[^a-z0-9]+", "-", word).strip("-")
        if tag and tag not in tags and len(tags) < 6:
            tags.append(tag)
    return Categorisation(category, round(confidence, 2), tags, scores)


CAFFEINE = {"herbal-tea": "none", "health-wellness": "low", "green-tea": "low", "white-tea": "low",
            "oolong-tea": "medium", "black-tea": "high", "string-tag-pyramid": "high"}


def caffeine_for(category):
    return CAFFEINE.get(category, "medium")


_KIND = {
    "black-tea": ("Kenyan black tea", "شاي أسود كيني"),
    "green-tea": ("green tea", "شاي أخضر"),
    "herbal-tea": ("herbal infusion", "منقوع أعشاب"),
    "white-tea": ("white tea", "شاي أبيض"),
    "oolong-tea": ("oolong tea", "شاي أولونج"),
    "health-wellness": ("wellness blend", "خلطة للعافية"),
    "luxury-pyramid": ("luxury pyramid tea", "شاي فاخر في أكياس هرمية"),
    "attitude-teas": ("Attitude tea", "شاي من تشكيلة أتيتيود"),
    "cold-brew": ("cold-brew tea", "شاي للتحضير البارد"),
    "conservation-teas": ("conservation tea", "شاي صون الطبيعة"),
    "speciality-teas": ("speciality tea", "شاي مميز"),
    "string-tag-pyramid": ("string-and-tag tea", "شاي بأكياس بخيط"),
    "pick-n-mix": ("pick 'n' mix selection", "تشكيلة اختر وامزج"),
    "luxury-gifts": ("tea gift", "هدية شاي"),
}
_TIER = {
    "en": ("a premium", "a quality", "an everyday"),
    "ar": ("فاخر", "عالي الجودة", "للاستخدام اليومي"),
}
MAX_DESCRIPTION = 400


def describe(*, name, category="speciality-teas", price=None, language="en"):
    """Write a short product description from its name, category and price (EGP)."""
    price = Decimal(price) if price is not None else Decimal("0")
    tier = 0 if price > 300 else 1 if price > 150 else 2
    kind_en, kind_ar = _KIND.get(category, _KIND["speciality-teas"])
    name = (name or "").strip() or "Premium tea blend"
    if language == "ar":
        text = (f"{name}: {kind_ar} {_TIER['ar'][tier]} من مرتفعات كينيا، "
                "يُقطف ويُعبأ بعناية للحفاظ على النكهة والنضارة. مثالي لكل فنجان.")
    else:
        text = (f"{name} is {_TIER['en'][tier]} {kind_en} from the Kenyan highlands, "
                "carefully picked and packed to keep its flavour and freshness. Perfect for every cup.")
    return text[:MAX_DESCRIPTION]
