"""Issue 13 in the islands: Eastern digits read as Western, dates with Latin digits in Arabic,
lists joined with the Arabic comma, arrows that point the reading way, isolates for typed text.

Runs static_src/lib/digits.js, lib/store-day.js and static_src/lib/bidi.js in Node (bundled by esbuild)."""

import re

import pytest

from tests.node_harness import ROOT, node_results

CHECKS = r"""
import { westernDigits, formatNumber } from "./static_src/lib/digits.js";
import { formatDate, formatTime } from "./static_src/lib/store-day.js";
import { formatEgp, formatKes } from "./static_src/lib/money.js";
import { initI18n } from "./static_src/lib/i18n.js";
import { dateLocale, joinList, forwardArrow, isolate } from "./static_src/lib/bidi.js";
globalThis.document = { documentElement: { lang: "ar" } };
await initI18n("ar");
const date = new Date(Date.UTC(2026, 10, 23, 10, 5));
console.log(JSON.stringify({
  digits: westernDigits("٠١٢٣٤٥٦٧٨٩ ۰۱۲۳۴۵۶۷۸۹ +٢٠ ١٠٠"),
  arabicDate: date.toLocaleString(dateLocale("ar"), { dateStyle: "medium", timeZone: "UTC" }),
  list: joinList(["الجيزة", "", "مصر"]),
  englishList: joinList(["Giza", "Egypt"], "en"),
  arrow: forwardArrow(),
  isolated: isolate("Do you sell?"),
  oldRow: isolate("Ali\u2069\u202egpj"),
  // what the browser would print without the rule: proves the checks below can fail
  unforced: date.toLocaleString("ar-EG", { dateStyle: "medium", timeZone: "UTC" }),
  formatted: [
    formatTime(date, "ar"),
    formatTime(date, "ar", { hour: "2-digit", minute: "2-digit" }),  // Cairo's: 12:05 (+2 in November)
    formatDate(date, "ar", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }),
    formatDate(date.toISOString(), "ar", { day: "numeric", month: "numeric", timeZone: "UTC" }),
    formatDate(date, "ar", { weekday: "short", timeZone: "UTC" }),
    formatNumber(1234567.5, { minimumFractionDigits: 2 }),
    formatEgp("1234.5", "ar"), formatKes("320", "ar"),
  ],
  englishDate: formatDate(date, "en", { dateStyle: "medium", timeZone: "UTC" }),
}));
"""


@pytest.fixture
def results(tmp_path):
    return node_results(CHECKS, tmp_path, "text-rules-check")


def test_eastern_and_persian_digits_become_western(results):
    assert results["digits"] == "0123456789 0123456789 +20 100"


def test_arabic_dates_keep_latin_digits(results):
    assert "2026" in results["arabicDate"] and not any("\u0660" <= c <= "\u0669" for c in results["arabicDate"])


def test_lists_arrows_and_isolates_follow_the_language(results):
    assert results["list"] == "الجيزة، مصر" and results["englishList"] == "Giza, Egypt"
    assert results["arrow"] == "←"
    assert results["isolated"] == "\u2068Do you sell?\u2069"


def test_text_cannot_close_its_isolate_early(results):
    # an override inside ends at the isolate's own PDI, so it cannot run on past the text
    assert results["oldRow"] == "\u2068Ali\u202egpj\u2069"


def test_every_number_date_and_time_helper_writes_latin_digits_in_arabic(results):
    assert any("\u0660" <= c <= "\u0669" for c in results["unforced"])  # the browser's Arabic default
    time, short_time, date_time, day_month, weekday, number, egp, kes = results["formatted"]
    assert not any("\u0660" <= c <= "\u0669" or "\u06f0" <= c <= "\u06f9" for c in "".join(results["formatted"]))
    assert "12:05" in short_time and "2026" in date_time and "23" in date_time and "11" in day_month
    assert any("\u0600" <= c <= "\u06ff" for c in weekday + date_time)  # Arabic names stay
    assert number == "1,234,567.50" and egp == "1,234.50\u00a0ج.م" and kes == "320\u00a0شلن"
    assert results["englishDate"] == "23 Nov 2026"


def test_no_island_formats_numbers_or_dates_outside_the_latin_digit_helpers():
    """toLocale*String and Intl.*Format pick the locale's digits (Arabic-Indic in Arabic): only
    static_src/lib/digits.js and the dashboard's lib/store-day.js may call them, and both force Latin
    digits (digits.js's LATIN)."""
    pattern = re.compile(r"\.toLocale(?:Date|Time)?String\(|\bIntl\.[A-Za-z]+")
    offenders = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in sorted((ROOT / "static_src").rglob("*"))
        if path.suffix in (".js", ".jsx", ".mjs", ".ts", ".tsx") and path.name not in ("digits.js", "store-day.js")
        for number, line in enumerate(path.read_text().splitlines(), 1) if pattern.search(line)
    ]
    assert offenders == []
