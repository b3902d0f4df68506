"""The islands write money as shop/money.py does (static_src/lib/money.js), run in Node."""

from tests.node_harness import node_results

CHECKS = r"""
import { formatEgp } from "./static_src/lib/money.js";
console.log(JSON.stringify({
  ar: formatEgp("1234.5", "ar"), en: formatEgp("1234.5", "en"),
  offAr: formatEgp(-50, "ar"), offEn: formatEgp(-50, "en"),
}));
"""


def test_it_writes_egp_like_the_server_a_discount_with_its_minus_left_of_its_digits(tmp_path):
    # the cart's discount line in Arabic showed "50.00−": right-to-left text moves a bare minus right
    from shop.money import format_egp

    results = node_results(CHECKS, tmp_path, "money-check")
    assert results == {"ar": format_egp("1234.5", "ar"), "en": format_egp("1234.5", "en"),
                       "offAr": format_egp(-50, "ar"), "offEn": format_egp(-50, "en")}
