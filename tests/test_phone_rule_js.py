"""The checkout's phone check in the browser (static_src/lib/phone.js) says what the server's does."""

import json

from accounts.services import phone_is_valid
from shop.validation import western_digits
from tests.node_harness import node_results

NUMBERS = [
    "01012345678", "010 1234 5678", "010-1234-5678", "(010) 1234.5678", "٠١٠١٢٣٤٥٦٧٨", "+201012345678",
    "00201012345678", "0223456789", "+971501234567", "12345", "", "01312345678", "0101234567", "+0123456789",
    "call me after 5", "010123456789", "+20 10 1234 5678", "۰۱۰۱۲۳۴۵۶۷۸",
    # other scripts' digits (full-width, Devanagari): not read as 0-9 anywhere, so no number (the server's
    # \d took them, and stored them as the phone a courier is to call)
    "０１０１２３４５６７８", "010１2345678", "+२०1012345678",
]


def test_the_browser_and_the_server_take_the_same_phone_numbers(tmp_path):
    source = ('import { phoneValid } from "./static_src/lib/phone.js";\n'
              f"console.log(JSON.stringify({json.dumps(NUMBERS)}.map(phoneValid)));\n")
    browser = node_results(source, tmp_path, "phone-rule")
    # the server reads Eastern Arabic digits as 0-9 where input enters (shop.middleware), then checks
    server = {number: phone_is_valid(western_digits(number)) for number in NUMBERS}
    assert dict(zip(NUMBERS, browser, strict=True)) == server
    assert any(browser) and not all(browser)
