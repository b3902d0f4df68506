from shop.units import keep_units

NBSP = "\u00a0"


def test_it_joins_a_number_and_its_unit_with_a_no_break_space():
    assert keep_units("Kenya Black Tea 250 g") == f"Kenya Black Tea 250{NBSP}g"
    assert keep_units("Green Tea, 20 bags") == f"Green Tea, 20{NBSP}bags"
    assert keep_units("Loose Leaf 1 KG tin") == f"Loose Leaf 1{NBSP}KG tin"


def test_it_joins_arabic_units_and_arabic_digits():
    assert keep_units("شاي أسود، ٢٥٠ جم") == f"شاي أسود، ٢٥٠{NBSP}جم"
    assert keep_units("شاي كيريتشو، 100 كيس") == f"شاي كيريتشو، 100{NBSP}كيس"


def test_it_leaves_words_that_only_start_like_a_unit_alone():
    assert keep_units("Top 10 green teas") == "Top 10 green teas"
    assert keep_units("2 large mugs") == "2 large mugs"
    assert keep_units("") == "" and keep_units(None) is None
