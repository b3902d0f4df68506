"""Support (the lowest role) takes customers' data a little at a time: a list page holds at most 20 rows
and one print run at most 10 orders' packing slips or invoices. Owner, Manager and Head Support keep the
dashboard's caps (100 rows, 200 orders). One Support login could otherwise page the customer base a
hundred at a time and print 200 customers' addresses in one PDF."""

import pytest
from django.http import HttpResponse

from accounts.models import User
from backoffice import print_views
from tests.factories import make_order

pytestmark = pytest.mark.django_db


@pytest.fixture
def many_customers():
    User.objects.bulk_create([User(username=f"c{n}", email=f"c{n}@example.com", first_name="Customer")
                              for n in range(25)])


@pytest.fixture
def printed(monkeypatch):
    """The PDF answers how many orders it would print (building 11 pages proves nothing more here)."""
    monkeypatch.setattr(print_views, "pdf_response",
                        lambda *, orders, kind, language: HttpResponse(str(len(orders))))


def _page(client, user, size):
    client.force_login(user)
    data = client.get(f"/api/admin/customers?pageSize={size}").json()
    return data["pageSize"], len(data["results"]), data["totalPages"]


@pytest.mark.parametrize(("role", "most_rows", "most_printed"), [("support", 20, 10), ("manager", 100, 200)])
def test_the_dashboard_offers_each_role_only_what_it_is_served(client, request, role, most_rows, most_printed):
    # the page-size menu (the answer's maxPageSize) and the print buttons (the page's printMost)
    client.force_login(request.getfixturevalue(role))
    assert client.get("/api/admin/customers").json()["maxPageSize"] == most_rows
    page = client.get("/admindash/orders").content.decode()
    assert f'"printMost": {most_printed}' in page


def test_support_lists_at_most_20_rows_a_page(client, support, many_customers):
    assert _page(client, support, 100) == (20, 20, 2)
    assert _page(client, support, 10) == (10, 10, 3)  # below the cap: as asked


@pytest.mark.parametrize("role", ["owner", "manager", "head_support"])
def test_other_roles_keep_pages_of_100(client, request, role, many_customers):
    assert _page(client, request.getfixturevalue(role), 100) == (100, 25, 1)


def _print(client, user, ids, language=""):
    client.force_login(user)
    return client.get(f"{language}/admindash/orders/documents.pdf?kind=packing-slip&ids={','.join(map(str, ids))}")


def test_support_prints_up_to_10_orders_at_once(client, support, printed):
    # given
    order = make_order()
    # when
    answer = _print(client, support, [order.pk, *range(10**6, 10**6 + 9)])
    # then
    assert answer.status_code == 200 and answer.content == b"1"


@pytest.mark.parametrize(("language", "text"), [
    ("", "Your role may print at most 10 orders at a time: select fewer orders."),
    ("/ar", "يسمح دورك بطباعة 10 طلبات على الأكثر في كل مرة: اختر طلبات أقل."),
])
def test_support_is_refused_11_orders_in_its_language(client, support, printed, language, text):
    # given
    order = make_order()
    # when
    answer = _print(client, support, [order.pk, *range(10**6, 10**6 + 10)], language)
    # then
    assert answer.status_code == 403
    assert answer.content.decode() == text


def test_one_order_named_twice_is_one_order(client, support, printed):
    order = make_order()
    assert _print(client, support, [order.pk] * 12).status_code == 200


@pytest.mark.parametrize("role", ["owner", "manager", "head_support"])
def test_other_roles_print_up_to_200_orders_at_once(client, request, role, printed):
    # given
    order = make_order()
    # when
    answer = _print(client, request.getfixturevalue(role), [order.pk, *range(10**6, 10**6 + 199)])
    # then
    assert answer.status_code == 200 and answer.content == b"1"


def test_an_id_that_is_not_a_number_is_left_out_of_the_print(client, support, printed):
    # given: "²" passes str.isdigit(), which int() then refused with a 500
    order = make_order()
    # when
    answer = _print(client, support, [order.pk, "²", "x"])
    # then
    assert answer.status_code == 200 and answer.content == b"1"
