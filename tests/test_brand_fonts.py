"""The Arabic heading face is a committed subset (static_src/fonts/subset.py): it must still hold
every Arabic character the shop writes, or headings would mix two typefaces."""

import re
from pathlib import Path

from fontTools.ttLib import TTFont

ROOT = Path(__file__).resolve().parents[1]
FONT = ROOT / "static_src/fonts/noto-kufi-arabic-700-arabic-core.woff2"


def _arabic_characters_the_shop_writes():
    texts = [path.read_text(encoding="utf-8") for path in ROOT.glob("*/locale/ar/LC_MESSAGES/*.po")]
    texts += [path.read_text(encoding="utf-8") for path in (ROOT / "static_src/i18n/ar").rglob("*.json")]
    return {char for text in texts for char in text if "\u0600" <= char <= "\u06ff"}


def test_the_arabic_subset_draws_every_arabic_character_in_the_shops_own_text():
    characters = _arabic_characters_the_shop_writes()
    assert len(characters) > 30  # the letters at least: the catalogues were found
    drawn = {chr(code) for code in TTFont(FONT).getBestCmap()}
    assert characters <= drawn, sorted(characters - drawn)


def test_the_css_declares_the_range_the_subset_was_cut_to():
    css = (ROOT / "static_src/css/fonts.css").read_text()
    script = (ROOT / "static_src/fonts/subset.py").read_text()
    declared = re.search(r'font-family: "Nile Kufi".*?unicode-range: ([^;]+);', css, re.S).group(1)
    cut = re.search(r'UNICODES = "([^"]+)"', script).group(1)
    assert declared.replace(" ", "") == cut
