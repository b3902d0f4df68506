"""Search that forgives: suggestions as the shopper types, and the shop search's fallback.

One approach for SQLite and PostgreSQL alike: an in-process index of the
active products and the categories (rebuilt when the catalogue version
changes), scored in Python:

- every word is folded by `catalog.search.normalize` (Arabic letter forms,
  diacritics, case), then reduced to a light stem (Arabic: the article and
  attached و/ب/ل/ف, the sound plural and feminine endings; English: plural s/es)
  and a few broken plurals (هدايا → هدية);
- Arabic concept words also stand for the English words the catalogue uses
  (هدية → gift, فاخرة → luxury, نعناع → mint/peppermint…), so "هدية" finds the
  gift sets and "فاخرة" the luxury range even where only English text exists;
- a query word matches a catalogue word exactly, as its prefix (typing is
  unfinished), or by trigram similarity / one or two edits (typos: "pepermint"
  finds Peppermint).

A product is found by its titles (strongest), its category names and its
tags. Every query word must match something; the best matches come first.
At 1,000 products a suggestion takes a few milliseconds (bench/search_suggest.py).
"""

import bisect
import re
import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from functools import lru_cache
from typing import Any

from django.db.models import Count, Max

from catalog.cache import FRAGMENT_SECONDS, catalog_version
from catalog.models import Category, Product
from catalog.search import MAX_QUERY_LENGTH, normalize

MIN_QUERY = 2
PRODUCTS_SHOWN = 6
CATEGORIES_SHOWN = 3
FALLBACK_LIMIT = 200

# weights of where a word was found
TITLE, CATEGORY, TAG = 3.0, 2.0, 1.5

_WORD = re.compile(r"[^\W_]+", re.UNICODE)

# Arabic broken plurals and spellings that the stemmer cannot reach (folded forms)
_ARABIC_FORMS = {
    "هدايا": "هديه", "اكياس": "كيس", "اعشاب": "عشب", "عشبي": "عشب", "فواكه": "فاكهه", "توابل": "تابل",
    "علب": "علبه", "خضراء": "اخضر", "سوداء": "اسود", "حمراء": "احمر", "بيضاء": "ابيض",
    "مجموعات": "مجموعه", "هرميه": "هرمي", "فاخر": "فاخره",
}
# concept words: an Arabic (folded, stemmed) word also stands for these English ones
_CONCEPTS = {
    "هديه": ("gift",), "فاخره": ("luxury",), "نعناع": ("mint", "peppermint"), "شاي": ("tea",),
    "اخضر": ("green",), "اسود": ("black",), "عشب": ("herbal",), "فاكهه": ("fruit",),
    "بابونج": ("chamomile",), "زنجبيل": ("ginger",), "ليمون": ("lemon",), "هرمي": ("pyramid",),
    "مجموعه": ("collection", "set"), "تشكيله": ("assortment",), "كيس": ("bag",), "علبه": ("box",),
    "قرفه": ("cinnamon",), "فانيليا": ("vanilla",), "فراوله": ("strawberry",), "كركديه": ("hibiscus",),
    "منزوع": ("decaf",), "كافيين": ("caffeine",), "عضوي": ("organic",), "صحه": ("wellness", "health"),
}
_ARABIC_PREFIXES = ("وال", "بال", "فال", "كال", "لل", "ال")
_ARABIC_SUFFIXES = ("ات", "ون", "ين", "ان", "يه")
_ARABIC = re.compile("[\u0600-\u06ff]")


@lru_cache(maxsize=50_000)
def stem(word: str) -> str:
    """A light stem of a folded word (both languages)."""
    if word in _ARABIC_FORMS:
        return _ARABIC_FORMS[word]
    if _ARABIC.search(word):
        for prefix in _ARABIC_PREFIXES:
            if word.startswith(prefix) and len(word) - len(prefix) >= 3:
                word = word[len(prefix):]
                break
        if word in _ARABIC_FORMS:
            return _ARABIC_FORMS[word]
        for suffix in _ARABIC_SUFFIXES:
            if word.endswith(suffix) and len(word) - len(suffix) >= 3:
                word = word[: -len(suffix)]
                break
        return _ARABIC_FORMS.get(word, word)
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("ches", "shes", "xes", "sses")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


@lru_cache(maxsize=50_000)
def _concepts(word: str) -> tuple[str, ...]:
    """English words an Arabic word stands for (checked on the folded word and its stem)."""
    if not _ARABIC.search(word):
        return ()
    found: list[str] = []
    for key in (word, stem(word)):
        for form in (key, key + "ه", _ARABIC_FORMS.get(key, key)):
            found.extend(_CONCEPTS.get(form, ()))
    return tuple(found)


def words_of(text: str) -> list[str]:
    """Folded, stemmed words of a text, with the English concepts of its Arabic words."""
    out = []
    for word in _WORD.findall(normalize(text)):
        out.append(stem(word))
        out.extend(_concepts(word))
    return out


def trigrams(word: str) -> set[str]:
    padded = f"  {word} "
    return {padded[i:i + 3] for i in range(len(padded) - 2)}


def _within_edits(a: str, b: str, limit: int) -> bool:
    """Whether the edit distance of a and b is at most `limit` (small limits only)."""
    if abs(len(a) - len(b)) > limit:
        return False
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        low = i
        for j, cb in enumerate(b, 1):
            value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb))
            current.append(value)
            low = min(low, value)
        if low > limit:
            return False
        previous = current
    return previous[-1] <= limit


@dataclass
class Entry:
    kind: str  # "product" | "category"
    pk: int
    slug: str
    title_en: str
    title_ar: str
    price: Decimal | None = None
    sale_price: Decimal | None = None
    image: str = ""
    category: str = ""
    words: dict[str, float] = field(default_factory=dict)  # word -> weight

    @property
    def shown_price(self) -> Decimal:
        """What a product costs now: the sale price when it has one (0 for a category)."""
        return self.sale_price if self.sale_price is not None else self.price or Decimal("0")


class Index:
    """Words of the catalogue → entries, and trigrams → words, for fuzzy lookups."""

    def __init__(self, entries: list[Entry]) -> None:
        self.entries = entries
        self.postings: dict[str, list[tuple[int, float]]] = {}  # word -> [(entry index, weight)]
        for n, entry in enumerate(entries):
            for word, weight in entry.words.items():
                self.postings.setdefault(word, []).append((n, weight))
        self.vocabulary = sorted(self.postings)
        self.grams: dict[str, list[str]] = {}
        for word in self.vocabulary:
            for gram in trigrams(word):
                self.grams.setdefault(gram, []).append(word)

    def word_matches(self, query_word: str) -> dict[str, float]:
        """Catalogue words a typed word may mean, with how sure we are (0–1)."""
        matches = {}
        for form in {query_word, stem(query_word), *_concepts(query_word)}:
            if form in self.postings:
                matches[form] = 1.0
            # unfinished typing: the word is the start of a catalogue word
            start = bisect.bisect_left(self.vocabulary, form)
            for word in self.vocabulary[start:start + 50]:
                if not word.startswith(form):
                    break
                matches[word] = max(matches.get(word, 0), 0.9 if len(form) >= 3 else 0.7)
        if len(query_word) >= 3 and not query_word.isdigit():  # typos: trigram neighbours within 1–2 edits
            grams = trigrams(query_word)
            counts: dict[str, int] = {}
            for gram in grams:
                for word in self.grams.get(gram, ()):
                    counts[word] = counts.get(word, 0) + 1
            limit = 1 if len(query_word) < 7 else 2
            for word, shared in counts.items():
                if word in matches:
                    continue
                similarity = shared / len(grams | trigrams(word))
                if similarity >= 0.25 and _within_edits(query_word, word, limit):
                    matches[word] = 0.75
                elif len(word) > len(query_word) and similarity >= 0.3 and _within_edits(
                        query_word, word[:len(query_word)], 1):
                    matches[word] = 0.6  # a typo in an unfinished word
        return matches

    def search(self, query: str | None, *, kinds: Sequence[str] = ("product", "category")) -> list[Entry]:
        """Entries for a typed query, best first: every word must match something."""
        query_words = _WORD.findall(normalize((query or "")[:MAX_QUERY_LENGTH]))[:6]
        if not query_words:
            return []
        scores: dict[int, float] | None = None
        for query_word in query_words:
            found: dict[int, float] = {}
            for word, certainty in self.word_matches(query_word).items():
                for n, weight in self.postings[word]:
                    score = certainty * weight
                    if score > found.get(n, 0):
                        found[n] = score
            if scores is None:
                scores = found
            else:
                scores = {n: s + found[n] for n, s in scores.items() if n in found}
            if not scores:
                return []
        if scores is None:
            return []
        ranked = sorted(scores.items(), key=lambda item: (-item[1], self.entries[item[0]].title_en))
        return [self.entries[n] for n, _score in ranked if self.entries[n].kind in kinds]


def _entry_words(parts: Iterable[tuple[str, float]]) -> dict[str, float]:
    words: dict[str, float] = {}
    for text, weight in parts:
        for word in words_of(text):
            if weight > words.get(word, 0):
                words[word] = weight
    return words


def index_build() -> Index:
    categories = {c.pk: c for c in Category.objects.all()}
    entries = []
    for category in categories.values():
        if category.slug == "entire-range":
            continue
        entries.append(Entry(
            kind="category", pk=category.pk, slug=category.slug, title_en=category.name_en or category.name,
            title_ar=category.name_ar or "",
            words=_entry_words([(category.name_en or "", TITLE), (category.name_ar or "", TITLE),
                                (category.slug.replace("-", " "), CATEGORY)]),
        ))
    fields = ("pk", "slug", "title_en", "title_ar", "price_amount", "sale_price_amount", "images", "tags",
              "category_id")
    for row in Product.objects.filter(is_active=True).values(*fields):
        shelf = categories.get(row["category_id"])
        parts = [(row["title_en"] or "", TITLE), (row["title_ar"] or "", TITLE),
                 (" ".join(str(t) for t in row["tags"] or []), TAG)]
        if shelf is not None:
            parts += [(shelf.name_en or "", CATEGORY), (shelf.name_ar or "", CATEGORY),
                      (shelf.slug.replace("-", " "), CATEGORY)]
        images = row["images"] or []
        entries.append(Entry(
            kind="product", pk=row["pk"], slug=row["slug"], title_en=row["title_en"] or "",
            title_ar=row["title_ar"] or "", price=row["price_amount"], sale_price=row["sale_price_amount"],
            image=images[0] if images else "", category=shelf.slug if shelf else "",
            words=_entry_words(parts),
        ))
    return Index(entries)


_lock = threading.Lock()
@dataclass
class _Cached:
    key: tuple[Any, ...] = (None,)
    index: Index | None = None
    built: float = 0.0
    checked: float = 0.0


_cached = _Cached()
RECHECK_SECONDS = 5


def _fingerprint() -> tuple[Any, ...]:
    """What the index was built from: the catalogue version, and (in one query) the active
    products' count and last change, since the version restarts when the shared cache does."""
    products = Product.objects.filter(is_active=True).aggregate(n=Count("pk"), last=Max("updated_at"))
    return catalog_version(), products["n"], products["last"], Category.objects.count()


def index_get() -> Index:
    """The index for the current catalogue: rebuilt when the catalogue version moves (every
    service write), when the products' fingerprint changes (looked at every RECHECK_SECONDS:
    the version restarts with the shared cache) and at least every FRAGMENT_SECONDS, so a
    data fix outside the services shows too. One rebuild per change, per process."""
    version = catalog_version()
    now = time.monotonic()
    fresh = now - _cached.built <= FRAGMENT_SECONDS
    if (_cached.index is not None and fresh and _cached.key[0] == version
            and now - _cached.checked <= RECHECK_SECONDS):
        return _cached.index
    with _lock:
        key = _fingerprint()
        _cached.checked = now
        if _cached.index is None or _cached.key != key or now - _cached.built > FRAGMENT_SECONDS:
            _cached.index = index_build()
            _cached.key = key
            _cached.built = now
        return _cached.index


def index_reset() -> None:
    """Forget the built index (tests: the shared cache, and with it the version, restarts)."""
    with _lock:
        _cached.key, _cached.index, _cached.built, _cached.checked = (None,), None, 0.0, 0.0


def suggest(query: str | None) -> tuple[list[Entry], list[Entry]]:
    """Products and categories for what the shopper has typed so far (2 characters or more)."""
    text = normalize((query or "")[:MAX_QUERY_LENGTH])
    if len(text.replace(" ", "")) < MIN_QUERY:
        return [], []
    found = index_get().search(text)
    products = [e for e in found if e.kind == "product"][:PRODUCTS_SHOWN]
    categories = [e for e in found if e.kind == "category"][:CATEGORIES_SHOWN]
    return products, categories


def fuzzy_product_ids(query: str, *, limit: int = FALLBACK_LIMIT) -> list[int]:
    """Active product ids the forgiving search finds, best first (the shop search's fallback)."""
    return [e.pk for e in index_get().search(query, kinds=("product",))[:limit]]
