"""An island tells a failed request in the page's language. An ApiError's own message is the server's words
only when the server sent some; otherwise it is the client's ("network", "timeout", "parse", "HTTP 502") or
the browser's ("Failed to fetch"), English on an Arabic page. The audit found the coupon field, the
newsletter and review forms, the shop's filters and the dashboard's product delete showing it; they now go
through lib/api.js `userMessage(err, fallback)`, which keeps the server's message and else says the fallback.

An error's `.message` may still be read where the server named a field (`err.field`): that text is the
server's, in the visitor's language."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_RAW_MESSAGE = re.compile(r"\b(?:err|error|e|exc|failure)\??\.message\b")


def test_no_island_shows_an_errors_own_message():
    shown = []
    for path in sorted((ROOT / "static_src").rglob("*.js*")):
        if "i18n" in path.relative_to(ROOT).parts:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("//")[0]
            if _RAW_MESSAGE.search(code) and ".field" not in code:
                shown.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert shown == [], "use userMessage(err, fallback) from lib/api.js:\n" + "\n".join(shown)
