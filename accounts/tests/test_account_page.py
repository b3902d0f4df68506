"""/account: profile, password change and the customer's own order history."""

import re
from datetime import datetime
from unittest import mock
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.conf import settings
from django.test import Client
from django.utils.module_loading import import_string

from accounts.models import AuthToken
from accounts.views import ORDERS_PER_PAGE
from orders.models import Order, OrderStatus, PaymentStatus
from tests.factories import make_order, make_order_history, make_product

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice_client(client, alice, password):
    client.post("/login", {"email": "alice@example.com", "password": password})
    return client


def test_it_asks_strangers_to_sign_in_first(client):
    # when
    response = client.get("/account")

    # then
    assert response.status_code == 302
    assert response.url == "/login?next=/account"


def test_it_lists_the_customers_orders_with_items_totals_and_statuses(alice_client, alice):
    # given
    black = make_product(title="Kericho Gold Black Tea", price="150.00")
    purple = make_product(title="Purple Tea", price="99.50")
    older = make_order(user=alice, lines=[(black, 2), (purple, 1)], status=OrderStatus.SHIPPED,
                       payment_status=PaymentStatus.PAID)
    newer = make_order(user=alice, lines=[(black, 1)], status=OrderStatus.PENDING, payment_status=PaymentStatus.COD)

    # when
    page = alice_client.get("/account").content.decode()

    # then
    assert page.index(newer.number) < page.index(older.number)  # newest first
    assert "Kericho Gold Black Tea" in page and "Purple Tea" in page
    assert "E£399.50" in page  # subtotal
    assert "E£449.50" in page  # total
    assert "Shipped" in page and "Paid" in page
    assert "Pending" in page and "Cash on delivery" in page
    assert "2&nbsp;× E£150.00" in page  # the quantity never ends a phone's line apart from its sign


def test_bob_never_sees_alices_orders(client, alice, bob, password):
    # given
    alices = make_order(user=alice)
    bobs = make_order(user=bob)
    client.post("/login", {"email": "bob@example.com", "password": password})

    # when
    page = client.get("/account").content.decode()

    # then
    assert bobs.number in page
    assert alices.number not in page


def test_the_order_history_takes_a_constant_number_of_queries(alice_client, alice, django_assert_max_num_queries):
    # given
    for _ in range(6):
        make_order(user=alice)

    # when / then
    with django_assert_max_num_queries(12):
        alice_client.get("/account")


def _shown_orders(page):
    return re.findall(r'data-order="([^"]+)"', page)


def test_a_long_order_history_comes_a_page_at_a_time_newest_first(alice_client, alice):
    # given a returning customer with 60 orders
    orders = make_order_history(user=alice, count=60)  # newest first

    # when they open their account
    page = alice_client.get("/account").content.decode()

    # then the page shows only the newest ones, and links on to the older ones
    assert _shown_orders(page) == [order.number for order in orders[:ORDERS_PER_PAGE]]
    assert "Page 1 of 6" in page


def _pager_links(page):
    return dict(re.findall(r'rel="(prev|next)" href="([^"]+)"', page))


def test_the_pages_of_the_order_history_link_to_each_other_and_back_to_the_orders(alice_client, alice):
    # given 25 orders: three pages
    orders = make_order_history(user=alice, count=25)

    # when the customer walks through them
    first = alice_client.get("/account").content.decode()
    second = alice_client.get("/account?page=2").content.decode()
    last = alice_client.get("/account?page=3").content.decode()

    # then every order is on one page only, newest first, and the links land on the order history
    assert _shown_orders(first) + _shown_orders(second) + _shown_orders(last) == [o.number for o in orders]
    assert _pager_links(first) == {"next": "/account?page=2#orders-heading"}
    assert _pager_links(second) == {"prev": "/account#orders-heading", "next": "/account?page=3#orders-heading"}
    assert _pager_links(last) == {"prev": "/account?page=2#orders-heading"}
    assert "Page 2 of 3" in second and "Page 3 of 3" in last
    assert 'id="orders-heading"' in second


def test_orders_placed_in_the_same_instant_are_each_on_one_page(alice_client, alice):
    # given 25 orders with one time (an import, or a clock's coarse tick), the newest row first
    orders = make_order_history(user=alice, count=25)
    Order.objects.filter(user=alice).update(created_at=orders[0].created_at)
    newest_row_first = sorted((o.number for o in orders), key=lambda n: -Order.objects.get(number=n).pk)

    # when the customer walks through the pages
    pages = [alice_client.get(f"/account?page={n}").content.decode() for n in (1, 2, 3)]
    shown = [number for page in pages for number in _shown_orders(page)]

    # then each order shows once, in one order from page to page
    assert shown == newest_row_first


def test_a_short_order_history_has_no_pager(alice_client, alice):
    # given as many orders as one page holds
    make_order_history(user=alice, count=ORDERS_PER_PAGE)

    # when
    page = alice_client.get("/account").content.decode()

    # then
    assert len(_shown_orders(page)) == ORDERS_PER_PAGE
    assert "data-orders-pager" not in page


@pytest.mark.parametrize(("value", "shown"), [
    ("abc", 1), ("²", 1), ("0", 1), ("-2", 1), ("", 1), ("2.0", 1), (" 2", 1),
    ("3", 3), ("٣", 3), ("4", 3), ("999999999999999999", 3), ("9" * 40, 1),
])
def test_a_bad_page_number_shows_the_first_or_last_page(alice_client, alice, value, shown):
    # given three pages of orders (an Arabic "٣" is read as a 3, as the shop reads every typed digit)
    orders = make_order_history(user=alice, count=25)
    pages = [orders[:10], orders[10:20], orders[20:]]

    # when
    response = alice_client.get("/account", {"page": value})

    # then
    assert response.status_code == 200
    assert _shown_orders(response.content.decode()) == [o.number for o in pages[shown - 1]]


def test_the_order_pager_points_the_way_arabic_reads(client, alice, password):
    # given
    make_order_history(user=alice, count=25)
    client.post("/login", {"email": "alice@example.com", "password": password})

    # when
    english = client.get("/account?page=2").content.decode()
    arabic = client.get("/ar/account?page=2").content.decode()

    # then Previous points to the start of the line and Next to its end: left and right in English, mirrored in Arabic
    assert '<span aria-hidden="true">←</span> Previous' in english
    assert 'Next <span aria-hidden="true">→</span>' in english
    assert '<span aria-hidden="true">→</span> السابق' in arabic
    assert 'التالي <span aria-hidden="true">←</span>' in arabic
    assert "صفحة 2 من 3" in arabic and 'aria-label="صفحات سجل الطلبات"' in arabic
    assert _pager_links(arabic) == {"prev": "/ar/account#orders-heading", "next": "/ar/account?page=3#orders-heading"}


def test_the_account_forms_work_on_any_page_of_the_orders(alice_client, alice):
    # given the customer on the second page of their orders
    make_order_history(user=alice, count=25)
    page = alice_client.get("/account?page=2").content.decode()
    assert 'value="profile"' in page and 'value="address_add"' in page

    # when they save their profile and an address from there
    profile = alice_client.post("/account?page=2", {"action": "profile", "firstName": "Alia", "lastName": "Hassan",
                                                    "phone": ""})
    refused = alice_client.post("/account?page=2", {"action": "profile", "firstName": "", "lastName": "Hassan"})

    # then the profile is saved, and a refused form still shows the page of orders they were on
    assert profile.status_code == 302
    alice.refresh_from_db()
    assert alice.first_name == "Alia"
    assert refused.status_code == 400
    assert refused.context["orders"].number == 2


def test_it_updates_the_profile(alice_client, alice):
    # when
    response = alice_client.post("/account", {"action": "profile", "firstName": "Alia", "lastName": "Hassan",
                                              "phone": "+20 100 000 0000"})

    # then
    assert response.status_code == 302
    alice.refresh_from_db()
    assert (alice.first_name, alice.phone, alice.subscribe_newsletter) == ("Alia", "+201000000000", False)
    assert "Your profile has been saved." in alice_client.get("/account").content.decode()


@pytest.mark.parametrize(("changes", "field", "message"), [
    ({"firstName": ""}, "firstName", "First name is required"),
    ({"lastName": ""}, "lastName", "Last name is required"),
    ({"phone": "12"}, "phone", "Please enter a valid phone number, for example 01012345678"),
])
def test_the_profile_form_shows_each_message(alice_client, changes, field, message):
    # when
    form = {"action": "profile", "firstName": "Alice", "lastName": "Hassan", "phone": "", **changes}
    response = alice_client.post("/account", form)

    # then
    assert response.status_code == 400
    assert response.context["profile_errors"][field] == message


def test_changing_the_password_keeps_this_session_and_ends_the_others(alice_client, alice, password):
    # given
    phone = Client()
    phone.post("/login", {"email": "alice@example.com", "password": password})
    AuthToken.issue(user=alice, lifetime=__import__("datetime").timedelta(days=1))

    # when
    response = alice_client.post("/account", {"action": "password", "currentPassword": password,
                                              "password": "Brand-new-pass-5", "confirmPassword": "Brand-new-pass-5"})

    # then
    assert response.status_code == 302
    assert alice_client.get("/account").status_code == 200
    assert phone.get("/account").status_code == 302
    assert not AuthToken.objects.filter(user=alice).exists()


@pytest.mark.parametrize(("changes", "field", "message"), [
    ({"currentPassword": "wrong"}, "currentPassword", "Your current password is incorrect"),
    ({"password": "", "confirmPassword": ""}, "password", "Password is required"),
    ({"password": "Ab1!x", "confirmPassword": "Ab1!x"}, "password", "Password must be at least 8 characters long"),
    ({"confirmPassword": ""}, "confirmPassword", "Please confirm your password"),
    ({"confirmPassword": "Brand-new-pass-6"}, "confirmPassword", "Passwords do not match"),
])
def test_the_password_form_shows_each_message(alice_client, password, changes, field, message):
    # when
    form = {"action": "password", "currentPassword": password, "password": "Brand-new-pass-5",
            "confirmPassword": "Brand-new-pass-5", **changes}
    response = alice_client.post("/account", form)

    # then
    assert response.status_code == 400
    assert response.context["password_errors"][field] == message


def test_guesses_of_the_current_password_count_against_the_sign_in_limit(alice_client, alice, password, settings):
    # given the sign-in limit at 2 an hour, spent on two wrong guesses
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "sign_in": "2/hour"}
    form = {"action": "password", "password": "Brand-new-pass-5", "confirmPassword": "Brand-new-pass-5"}
    for guess in ("wrong-1", "wrong-2"):
        alice_client.post("/account", {**form, "currentPassword": guess})
    # when the right one comes third, from the Arabic page
    response = alice_client.post("/ar/account", {**form, "currentPassword": password})
    # then it is refused, translated, and the password stays
    assert response.status_code == 400
    assert response.context["password_errors"]["currentPassword"] == (
        "طلبات كثيرة جدًا. يُرجى الانتظار قليلًا ثم المحاولة مرة أخرى.")
    alice.refresh_from_db()
    assert alice.check_password(password)


def test_a_request_that_shows_and_adds_no_message_makes_no_message_storage(client):
    # shop.middleware.LazyMessageMiddleware: Django made one, its cookie signer included, for every request
    storage = import_string(settings.MESSAGE_STORAGE)
    with mock.patch.object(storage, "__init__", side_effect=AssertionError("made")) as made:
        assert client.get("/api/cart").status_code == 200
    made.assert_not_called()


def test_a_message_waits_through_requests_that_do_not_show_it(alice_client):
    alice_client.post("/account", {"action": "profile", "firstName": "Alia", "lastName": "Hassan",
                                   "phone": "+20 100 000 0000"})
    assert alice_client.get("/api/cart").status_code == 200
    assert "Your profile has been saved." in alice_client.get("/account").content.decode()
    assert "Your profile has been saved." not in alice_client.get("/account").content.decode()  # shown once


@pytest.mark.parametrize(("prefix", "this_year", "last_year"), [
    ("", "Sun 29\u00a0Nov", "Sat 29\u00a0Nov 2025"),  # the day and its month never part at a line's end
    ("/ar", "الأحد 29\u00a0نوفمبر", "السبت 29\u00a0نوفمبر 2025"),
])
def test_order_dates_read_as_the_rest_of_the_shop_writes_days(client, alice, password, prefix, this_year, last_year):
    # given an order placed at 01:30 on Sunday 29 November in Cairo (still the 28th in UTC), and one a year before
    cairo = ZoneInfo("Africa/Cairo")
    recent = make_order(user=alice, created_at=datetime(2026, 11, 29, 1, 30, tzinfo=cairo))
    older = make_order(user=alice, created_at=datetime(2025, 11, 29, 12, 0, tzinfo=cairo))

    # when the customer opens their account in December
    with time_machine.travel(datetime(2026, 12, 2, 10, 0, tzinfo=cairo)):
        client.post("/login", {"email": "alice@example.com", "password": password})
        page = client.get(f"{prefix}/account").content.decode()

    # then each order shows its Cairo day like the delivery and tracking dates do, the year only when it is not this one
    def shown_date(order):
        card = page[page.index(f'data-order="{order.number}"'):]
        return card[card.index("<time"):card.index("</time>")].split(">", 1)[1]

    assert shown_date(recent) == this_year
    assert shown_date(older) == last_year
    assert "Nov." not in page
