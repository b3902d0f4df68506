from decimal import Decimal

from shop.money import format_egp, format_kes, quantize, round_whole, to_decimal, to_minor_units


def test_it_rounds_half_up_to_piasters():
    assert quantize(Decimal("1.005")) == Decimal("1.01")
    assert quantize(Decimal("2.675")) == Decimal("2.68")


def test_it_formats_egp_in_both_languages():
    assert format_egp(Decimal("1234.5"), "en") == "E£1,234.50"
    assert format_egp(Decimal("1234.5"), "ar") == "1,234.50\u00a0ج.م"


def test_it_formats_kes_in_whole_shillings():
    assert format_kes(Decimal("1234.4")) == "KSh\u00a01,234"


def test_it_formats_kes_in_arabic_as_decided():
    # DECISIONS.md: `1,234 شلن`, never the Latin "KSh" on an Arabic page
    assert format_kes(Decimal("320"), "ar") == "320\u00a0شلن"
    assert format_kes(Decimal("1234.4"), "ar") == "1,234\u00a0شلن"


def test_it_reads_input_without_floats():
    assert to_decimal("1,250.00") == Decimal("1250.00")
    assert to_decimal("abc") is None
    assert to_decimal("NaN") is None
    assert to_decimal(True) is None


def test_minor_units_and_whole_rounding():
    assert to_minor_units(Decimal("315.00")) == 31500
    assert round_whole(Decimal("263.5")) == Decimal("264")


def test_an_amount_taken_off_keeps_its_minus_left_of_its_digits():
    # right-to-left text would move a bare minus to the number's right ("50.00-")
    assert format_egp(Decimal("-50"), "ar") == "\u200e-50.00\u00a0ج.م"
    assert format_egp(Decimal("-1234.5"), "en") == "\u200e-E£1,234.50"
