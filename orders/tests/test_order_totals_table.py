"""The one totals function, as a table: every money rule the shop promises, one row each.

Store defaults: shipping 50.00 below a 1,000.00 threshold, 14% VAT included in the prices (and
in shipping and the COD fee: VAT is charged on everything the customer pays), no COD fee.
A row changes only the settings it names.
"""

from decimal import Decimal

import pytest

from catalog.models import Product
from orders.calculations import order_totals
from orders.models import Coupon
from shop.store_settings import store_settings_get

D = Decimal

# id, lines [(unit price, quantity)], coupon (type, value) or None, payment method, store changes,
# expected (subtotal, discount, shipping, cod fee, tax, total)
ROWS = [
    ("empty cart: nothing to pay, not even shipping", [], None, "card", {},
     ("0.00", "0.00", "0.00", "0.00", "0.00", "0.00")),
    ("one piaster below the threshold pays shipping", [("999.99", 1)], None, "card", {},
     ("999.99", "0.00", "50.00", "0.00", "128.95", "1049.99")),
    ("exactly the threshold ships free", [("500.00", 2)], None, "card", {},
     ("1000.00", "0.00", "0.00", "0.00", "122.81", "1000.00")),
    ("the threshold is met before the discount", [("1000.00", 1)], ("fixed", "100"), "card", {},
     ("1000.00", "100.00", "0.00", "0.00", "110.53", "900.00")),
    ("included VAT is taken from the price after the discount, with shipping", [("150.00", 2)], ("fixed", "50"),
     "card", {},
     ("300.00", "50.00", "50.00", "0.00", "36.84", "300.00")),
    ("VAT on top is charged on the price after the discount, and on shipping", [("100.00", 2)],
     ("percentage", "10"), "card", {"prices_include_tax": False},
     ("200.00", "20.00", "50.00", "0.00", "32.20", "262.20")),
    ("VAT on top is charged on the COD fee too", [("100.00", 2)], None, "cod",
     {"prices_include_tax": False, "cod_fee": D("10.00")},
     ("200.00", "0.00", "50.00", "10.00", "36.40", "296.40")),
    ("cash on delivery adds the COD fee", [("150.00", 2)], None, "cod", {"cod_fee": D("15.00")},
     ("300.00", "0.00", "50.00", "15.00", "44.82", "365.00")),
    ("a card payment pays no COD fee", [("150.00", 2)], None, "card", {"cod_fee": D("15.00")},
     ("300.00", "0.00", "50.00", "0.00", "42.98", "350.00")),
    ("a coupon above the subtotal takes it to zero, never below", [("150.00", 2)], ("fixed", "500"), "card", {},
     ("300.00", "300.00", "50.00", "0.00", "6.14", "50.00")),
    ("a percentage above 100 is capped at the subtotal", [("150.00", 2)], ("percentage", "150"), "card", {},
     ("300.00", "300.00", "50.00", "0.00", "6.14", "50.00")),
    ("a half-piaster discount rounds half up (0.505 → 0.51)", [("10.10", 1)], ("percentage", "5"), "card",
     {"free_shipping_threshold": D("0")},
     ("10.10", "0.51", "0.00", "0.00", "1.18", "9.59")),
    ("a half-piaster tax rounds half up (1.225 → 1.23)", [("12.25", 1)], None, "card",
     {"prices_include_tax": False, "tax_rate": D("0.10"), "free_shipping_threshold": D("0")},
     ("12.25", "0.00", "0.00", "0.00", "1.23", "13.48")),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("lines", "coupon", "method", "store_changes", "expected"),
                         [row[1:] for row in ROWS], ids=[row[0] for row in ROWS])
def test_order_totals(lines, coupon, method, store_changes, expected):
    # given
    store = store_settings_get()
    for name, value in store_changes.items():
        setattr(store, name, value)
    products = [(Product(slug=f"tea-{n}", title=f"Tea {n}", price_amount=D(price)), quantity)
                for n, (price, quantity) in enumerate(lines)]
    coupon = Coupon(code="TABLE", type=coupon[0], value=D(coupon[1])) if coupon else None
    # when
    totals = order_totals(lines=products, coupon=coupon, payment_method=method, store=store)
    # then
    got = (totals.subtotal, totals.discount, totals.shipping, totals.cod_fee, totals.tax, totals.total)
    assert got == tuple(D(amount) for amount in expected)
    assert all(amount.as_tuple().exponent == -2 for amount in got)  # always whole piasters
