"""Delivery by governorate: rate, working-day dates, COD per governorate, one totals function."""

from datetime import date, datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
import time_machine

from orders.calculations import order_totals
from orders.delivery import add_working_days, delivery_window, window_text
from orders.models import Order
from shop.store_settings import store_settings_get, store_settings_update

pytestmark = pytest.mark.django_db

# a Thursday morning in Cairo
THURSDAY = datetime(2026, 11, 26, 9, 0, tzinfo=ZoneInfo("Africa/Cairo"))


def test_the_governorate_is_an_input_of_the_one_totals_function(make_product):
    # given a 300 EGP tea and the seeded table (Cairo 50, Aswan 70, the Sinai 90)
    lines = [(make_product(price="300.00"), 1)]
    # when the totals are computed for each governorate
    cairo = order_totals(lines=lines, governorate="Cairo")
    aswan = order_totals(lines=lines, governorate="أسوان")  # the Arabic name is the same governorate
    sinai = order_totals(lines=lines, governorate="South Sinai")
    nowhere = order_totals(lines=lines)
    # then Cairo is cheaper than Upper Egypt and the Sinai, and no governorate is the default row
    assert (cairo.shipping, aswan.shipping, sinai.shipping, nowhere.shipping) == (
        Decimal("50.00"), Decimal("70.00"), Decimal("90.00"), Decimal("50.00"))
    assert aswan.total == Decimal("370.00") and aswan.governorate == "Aswan"


def test_free_shipping_still_applies_in_every_governorate(make_product):
    lines = [(make_product(price="1000.00"), 1)]
    assert order_totals(lines=lines, governorate="North Sinai").shipping == Decimal("0.00")


def test_working_days_skip_friday_and_the_holidays():
    store = store_settings_get()
    store.delivery_holidays = ["2026-11-29"]  # Sunday
    # Thursday + 1 working day: Friday is off → Saturday; + 2: Sunday is a holiday → Monday
    assert add_working_days(date(2026, 11, 26), 1, store) == date(2026, 11, 28)
    assert add_working_days(date(2026, 11, 26), 2, store) == date(2026, 11, 30)


def test_a_change_to_the_days_off_or_the_holidays_moves_the_dates_at_once():
    """The working days are worked out once per start, days off and holidays: a change is a new answer."""
    store = store_settings_get()
    store.delivery_days_off, store.delivery_holidays = [4], []  # Friday off
    assert add_working_days(date(2026, 11, 26), 2, store) == date(2026, 11, 29)  # Sat, Sun
    store.delivery_holidays = ["2026-11-29"]
    assert add_working_days(date(2026, 11, 26), 2, store) == date(2026, 11, 30)
    store.delivery_days_off = [4, 5]  # Friday and Saturday off
    assert add_working_days(date(2026, 11, 26), 2, store) == date(2026, 12, 1)  # Mon, Tue
    store.delivery_days_off, store.delivery_holidays = [4], []
    assert add_working_days(date(2026, 11, 26), 2, store) == date(2026, 11, 29)


@time_machine.travel(THURSDAY, tick=False)
def test_the_estimate_is_localised_with_latin_digits():
    store = store_settings_get()
    # Cairo: 1-2 working days from Thursday → Saturday 28 – Sunday 29 November
    window = delivery_window(governorate="Cairo", store=store)
    assert window == (date(2026, 11, 28), date(2026, 11, 29))
    assert window_text(window, "en") == "Arrives Sat 28\u00a0Nov – Sun 29\u00a0Nov"
    assert window_text(window, "ar") == "يصل بين السبت 28\u00a0نوفمبر والأحد 29\u00a0نوفمبر"


@time_machine.travel(THURSDAY, tick=False)
def test_the_cart_summary_api_gives_rate_and_date_and_remembers_the_governorate(api, make_product):
    # given a cart
    tea = make_product(price="300.00")
    api.post("/api/cart/items", {"productId": tea.pk, "quantity": 1}, format="json")
    # then before any governorate there is the default rate and no date
    body = api.get("/api/cart").json()
    assert (body["shipping"], body["delivery"], body["governorate"]) == ("50.00", "", "")
    # when the shopper chooses Aswan
    body = api.post("/api/cart/summary", {"governorate": "Aswan"}, format="json").json()
    # then the rate and the date are Aswan's (3-5 working days, Friday off)
    assert body["shipping"] == "70.00" and body["total"] == "370.00"
    assert body["delivery"] == "Arrives Mon 30\u00a0Nov – Wed 2\u00a0Dec"
    # and the next cart read (and the product page) remembers it, in Arabic too
    assert api.get("/api/cart").json()["governorate"] == "Aswan"
    assert api.get("/api/cart", HTTP_ACCEPT_LANGUAGE="ar").json()["delivery"] == \
        "يصل بين الاثنين 30\u00a0نوفمبر والأربعاء 2\u00a0ديسمبر"
    page = api.get(f"/product/{tea.slug}").content.decode()
    assert "Delivery to Aswan: E£70.00" in page and "Arrives Mon 30\u00a0Nov – Wed 2\u00a0Dec" in page


@time_machine.travel(THURSDAY, tick=False)
def test_the_product_page_estimates_for_cairo_when_the_governorate_is_unknown(client, make_product):
    tea = make_product()
    page = client.get(f"/ar/product/{tea.slug}").content.decode()
    assert "التوصيل إلى القاهرة" in page and "يصل بين السبت 28\u00a0نوفمبر والأحد 29\u00a0نوفمبر" in page


@time_machine.travel(THURSDAY, tick=False)
def test_the_order_keeps_its_rate_and_promised_dates(api, make_product, checkout_body):
    tea = make_product(price="300.00")
    api.post("/api/cart/items", {"productId": tea.pk, "quantity": 1}, format="json")
    body = checkout_body(paymentMethod="cod")
    body["billingAddress"] = {**body["billingAddress"], "state": "Luxor", "city": "Luxor"}
    assert api.post("/api/payment/create-intention", body, format="json").status_code == 201
    order = Order.objects.get()
    assert order.shipping_amount == Decimal("70.00") and order.total_amount == Decimal("370.00")
    assert (order.delivery_min_date, order.delivery_max_date) == (date(2026, 11, 30), date(2026, 12, 2))


def test_cash_on_delivery_is_refused_where_the_governorate_does_not_allow_it(api, make_product, checkout_body):
    tea = make_product()
    api.post("/api/cart/items", {"productId": tea.pk, "quantity": 1}, format="json")
    # the summary tells the checkout island first
    assert api.post("/api/cart/summary", {"governorate": "North Sinai"}, format="json").json()["codAvailable"] is False
    body = checkout_body(paymentMethod="cod")
    body["billingAddress"] = {**body["billingAddress"], "state": "North Sinai"}
    response = api.post("/api/payment/create-intention", body, format="json")
    assert response.status_code == 400
    assert response.json()["field"] == "paymentMethod" and not Order.objects.exists()


def test_staff_edit_the_table_days_off_and_holidays(api, owner, make_product):
    api.force_authenticate(owner)
    body = api.get("/api/admin/settings").json()
    # the table holds the 27 with the seeded rows and a default row
    assert len(body["shippingZones"]) == 27 and body["deliveryDaysOff"] == [4]
    giza = next(r for r in body["shippingZones"] if r["governorate"] == "Giza")
    assert giza == {"governorate": "Giza", "nameAr": "الجيزة", "rate": "50.00", "minDays": 1, "maxDays": 2,
                    "cod": True}
    rows = [{**r, "rate": "40.00", "cod": False} if r["governorate"] == "Giza" else r for r in body["shippingZones"]]
    saved = api.put("/api/admin/settings", {"shippingZones": rows, "deliveryHolidays": ["2026-12-25", "2026-12-24"],
                                            "whatsappNumber": "+20 100 123 4567"}, format="json")
    assert saved.status_code == 200, saved.content
    store = store_settings_get()
    # only the changed row is stored; holidays sorted; the number as digits
    assert store.shipping_zones == {"Giza": {"rate": "40.00", "minDays": 1, "maxDays": 2, "cod": False}}
    assert store.delivery_holidays == ["2026-12-24", "2026-12-25"] and store.whatsapp_number == "201001234567"
    assert order_totals(lines=[(make_product(price="100.00"), 1)], governorate="Giza").shipping == Decimal("40.00")
    # and nonsense is a field error
    bad = [{**rows[0], "minDays": 5, "maxDays": 2}, *rows[1:]]
    response = api.put("/api/admin/settings", {"shippingZones": bad}, format="json")
    assert response.status_code == 400 and response.json()["field"] == "shippingZones.0.maxDays"
    response = api.put("/api/admin/settings", {"deliveryHolidays": ["25/12/2026"]}, format="json")
    assert response.status_code == 400 and response.json()["field"] == "deliveryHolidays"


@pytest.mark.parametrize(("body", "field", "arabic"), [
    ({"deliveryMinDays": 5}, "deliveryMinDays", "لا يمكن أن تكون أقصر مدة توصيل أطول من أطولها"),
    ({"deliveryMaxDays": 1}, "deliveryMaxDays", "لا يمكن أن تكون أطول مدة توصيل أقصر من أقصرها"),
])
def test_one_delivery_day_sent_alone_is_checked_against_the_stored_other(client, manager, body, field, arabic):
    # given: the stored window is 2 to 4 working days
    client.force_login(manager)
    # when: a save sends only one side, past the other
    response = client.put("/api/admin/settings", body, content_type="application/json")
    in_arabic = client.put("/api/admin/settings", body, content_type="application/json", HTTP_ACCEPT_LANGUAGE="ar")
    # then: refused on the side sent, and the window shoppers see still runs forwards
    assert response.status_code == 400 and response.json()["field"] == field
    assert in_arabic.json()["message"] == arabic
    store = store_settings_get()
    assert (store.delivery_min_days, store.delivery_max_days) == (2, 4)
    earliest, latest = delivery_window(governorate=None, store=store)
    assert earliest <= latest
    # and one side that keeps the window the right way round is taken
    assert client.put("/api/admin/settings", {"deliveryMinDays": 4}, content_type="application/json").status_code == 200


def test_a_store_without_a_default_change_keeps_its_shipping_rate_outside_egypt(make_product):
    store_settings_update(shipping_rate=Decimal("75.00"))
    assert order_totals(lines=[(make_product(price="100.00"), 1)], governorate="Riyadh").shipping == Decimal("75.00")


@pytest.mark.parametrize("days", ["²", "𝟏", "1" * 19])
def test_a_delivery_time_that_is_not_ascii_digits_is_a_field_error(api, owner, days):
    # given: the shipping table as the settings page has it
    api.force_authenticate(owner)
    rows = api.get("/api/admin/settings").json()["shippingZones"]
    # when: "²" passes str.isdigit(), which int() then refused with a 500 ("𝟏" it read as 1)
    response = api.put("/api/admin/settings", {"shippingZones": [{**rows[0], "minDays": days}, *rows[1:]]},
                       format="json")
    # then
    assert response.status_code == 400 and response.json()["field"] == "shippingZones.0.minDays"


def test_a_delivery_time_in_eastern_arabic_digits_is_still_read(api, owner):
    api.force_authenticate(owner)
    rows = api.get("/api/admin/settings").json()["shippingZones"]
    response = api.put("/api/admin/settings", {"shippingZones": [{**rows[0], "minDays": "١", "maxDays": "٣"},
                                                                 *rows[1:]]}, format="json")
    assert response.status_code == 200, response.content
    assert store_settings_get().shipping_zones[rows[0]["governorate"]]["maxDays"] == 3


@pytest.mark.parametrize(("change", "field"), [
    # a rate is stored to the piastre: a third decimal is refused as the flat shipping rate refuses it,
    # never rounded away without a word
    ({"rate": "40.005"}, "rate"), ({"rate": 40.125}, "rate"), ({"rate": "-1"}, "rate"),
    # "cod" is a yes or no: the text "false" was read as yes (bool("false"))
    ({"cod": "false"}, "cod"), ({"cod": 0}, "cod"), ({"cod": None}, "cod"),
])
def test_a_governorate_row_of_the_wrong_kind_is_refused_not_rounded_or_guessed(api, owner, change, field):
    api.force_authenticate(owner)
    rows = api.get("/api/admin/settings").json()["shippingZones"]
    giza = next(i for i, r in enumerate(rows) if r["governorate"] == "Giza")
    rows[giza] = {**rows[giza], **change}
    response = api.put("/api/admin/settings", {"shippingZones": rows}, format="json")
    assert response.status_code == 400 and response.json()["field"] == f"shippingZones.{giza}.{field}"
    assert store_settings_get().shipping_zones == {}


def test_a_governorate_rate_sent_as_a_number_with_two_decimals_is_taken(api, owner):
    api.force_authenticate(owner)
    rows = api.get("/api/admin/settings").json()["shippingZones"]
    rows = [{**r, "rate": 40.1} if r["governorate"] == "Giza" else r for r in rows]
    assert api.put("/api/admin/settings", {"shippingZones": rows}, format="json").status_code == 200
    assert store_settings_get().shipping_zones["Giza"]["rate"] == "40.10"
