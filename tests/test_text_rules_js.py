"""Issue 13 in the islands: Eastern digits read as Western, dates with Latin digits in Arabic,
lists joined with the Arabic comma, arrows that point the reading way, isolates for typed text.

Runs static_src/lib/digits.js and static_src/lib/bidi.js in Node (bundled by esbuild)."""

import pytest

from tests.node_harness import node_results

CHECKS = r"""
import { westernDigits } from "./static_src/lib/digits.js";
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
