"""Every staff API endpoint × every caller, against the role matrix itself (accounts.roles.MATRIX).

Each row names the endpoint and the right it needs (area, action), as DECISIONS.md's table says;
who may call it is read from the matrix. Allowed roles get a 2xx, the others 403, anonymous
callers and signed-in customers 401 ("Admin authentication required").
"""

from datetime import timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import URLResolver, get_resolver
from django.utils import timezone

from accounts.models import AuthToken, Role, User
from accounts.roles import MATRIX
from importer.models import ExternalProduct, ImporterRun
from orders.actions import order_refund_to_check
from orders.models import Coupon
from shop.models import Announcement, NewsletterSubscriber, OutboundEmail
from tests.factories import make_category, make_message, make_order, make_product, make_review

STAFF = "any staff member"  # no area: every role


def _refund_to_check(order):
    order_refund_to_check(order=order, note="refund of another transaction")
    return order


# what a placeholder in a path or body stands for, built only when a row uses it
THINGS = {
    "product": lambda: make_product().pk,
    "order": lambda: make_order().pk,
    "flagged": lambda: _refund_to_check(make_order()).pk,
    "cod_order": lambda: make_order(payment_status="cod", status="delivered").pk,
    "customer": lambda: User.objects.create_user(username="mona@example.com", email="mona@example.com",
                                                 password="x").pk,
    "staff": lambda: User.objects.create_user(username="target", email="t@staff.example", password="x",
                                              is_staff=True, role=Role.SUPPORT).pk,
    "email": lambda: OutboundEmail.objects.create(to="a@example.com", subject="s", text="t", status="failed").pk,
    "message": lambda: make_message().pk,
    "review": lambda: make_review().pk,
    "announcement": lambda: Announcement.objects.create(
        title="Sale", content="10% off", display_end_date=timezone.now() + timedelta(days=3)).pk,
    "coupon": lambda: Coupon.objects.create(code="TEA10", type="percentage", value=10).pk,
    "subscriber": lambda: NewsletterSubscriber.objects.create(email="fan@example.com").pk,
    "category": lambda: make_category().slug,
    "crawl": lambda: ImporterRun.objects.create(base_url="https://producer.example/", status="running").pk,
    "external": lambda: ExternalProduct.objects.create(
        name="Love Tea", price="350.00", source_url="https://producer.example/love-tea").pk,
}

# (method, path, body, area, action)
ENDPOINTS = [
    ("get", "/api/admin/verify", None, None, None),
    ("get", "/api/admin/roles", None, None, None),
    ("put", "/api/admin/me/daily-summary", {"enabled": True}, None, None),
    ("get", "/api/admin/dashboard", None, "overview", "view"),
    ("post", "/api/admin/emails/{email}/retry", {}, "settings", "edit"),
    ("get", "/api/admin/products", None, "products", "view"),
    ("get", "/api/admin/products?page=2&pageSize=5&search=tea&category={category}&arabic=any&sort=-price", None,
     "products", "view"),
    ("get", "/api/admin/products/ids", None, "products", "view"),
    ("post", "/api/admin/products", {"title": "New tea", "price": "10.00", "category": "{category}"},
     "products", "create"),
    ("delete", "/api/admin/products", None, "delete_all_products", "delete"),
    ("put", "/api/admin/products/{product}", {"title": "Renamed"}, "products", "edit"),
    ("delete", "/api/admin/products/{product}", None, "products", "delete"),
    ("post", "/api/admin/products/{product}/categorize", {}, "products", "edit"),
    ("post", "/api/admin/products/{product}/describe", {}, "products", "edit"),
    ("post", "/api/admin/products/categorize", {"ids": ["{product}"]}, "products", "edit"),
    ("post", "/api/admin/products/suggest-category", {"title": "Green sencha"}, "products", "view"),
    ("get", "/api/admin/products/export", None, "products", "view"),
    ("post", "/api/admin/products/import", "csv", "products", "create"),
    ("post", "/api/admin/products/images", "image", "products", "edit"),
    ("get", "/api/admin/inventory", None, "products", "view"),
    ("put", "/api/admin/inventory/{product}", {"action": "add", "stock": 1}, "products", "edit"),
    ("get", "/api/admin/scrape/status", None, "products", "view"),
    ("get", "/api/admin/scrape/preview", None, "products", "view"),
    ("get", "/api/admin/scrape/products/{product}/prices", None, "products", "view"),
    ("post", "/api/admin/scrape/import", {"ids": ["{external}"]}, "products", "create"),
    ("post", "/api/admin/scrape/cancel?run={crawl}", {}, "products", "edit"),
    ("delete", "/api/admin/scrape/cache", None, "products", "delete"),
    ("get", "/api/admin/customers", None, "customers", "view"),
    ("get", "/api/admin/users", None, "customers", "view"),
    ("post", "/api/admin/users", {"firstName": "Mona", "lastName": "Said", "email": "new@example.com"},
     "customers", "create"),
    ("put", "/api/admin/users/{customer}", {"isActive": False}, "customers", "edit"),
    ("get", "/api/admin/orders", None, "orders", "view"),
    ("get", "/api/admin/orders/export", None, "orders", "export"),
    ("get", "/api/admin/orders/{order}", None, "orders", "view"),
    ("put", "/api/admin/orders/{order}/status", {"status": "shipped"}, "orders", "status"),
    ("post", "/api/admin/orders/{flagged}/checked", {"reason": "refund_to_check"}, "orders", "edit"),
    ("post", "/api/admin/orders/{cod_order}/cash-refund", {"amount": "10.00"}, "orders", "edit"),
    ("put", "/api/admin/bulk/orders", {"orderIds": ["{order}"], "status": "delivered"}, "orders", "status"),
    ("get", "/api/admin/analytics?period=7d", None, "analytics", "view"),
    ("get", "/api/admin/analytics/export?period=7d", None, "analytics", "view"),
    ("get", "/api/admin/announcements", None, "coupons", "view"),
    ("post", "/api/admin/announcements", {"title": "Eid", "content": "Eid hours"}, "coupons", "create"),
    ("put", "/api/admin/announcements/{announcement}", {"title": "Eid sale"}, "coupons", "edit"),
    ("delete", "/api/admin/announcements/{announcement}", None, "coupons", "delete"),
    ("get", "/api/admin/coupons", None, "coupons", "view"),
    ("post", "/api/admin/coupons", {"code": "eid5", "type": "fixed", "value": "5"}, "coupons", "create"),
    ("put", "/api/admin/coupons/{coupon}", {"isActive": False}, "coupons", "edit"),
    ("post", "/api/admin/coupons/generate", {"type": "fixed", "value": "5", "count": 2}, "coupons", "create"),
    ("get", "/api/admin/coupons/{coupon}/orders", None, "coupons", "view"),
    ("get", "/api/admin/newsletter?s={subscriber}", None, "coupons", "view"),
    ("get", "/api/admin/newsletter/export?s={subscriber}", None, "coupons", "export"),
    ("get", "/api/admin/contact-messages", None, "messages", "view"),
    ("put", "/api/admin/contact-messages/{message}", {"status": "read"}, "messages", "edit"),
    ("post", "/api/admin/messages/{message}/reply", {"replyMessage": "On its way!"}, "messages", "reply"),
    ("get", "/api/reviews/admin?status=pending", None, "messages", "view"),
    ("put", "/api/reviews/admin/{review}/approve", {"isApproved": True}, "messages", "edit"),
    ("put", "/api/reviews/admin/{review}/reject", {}, "messages", "edit"),
    ("put", "/api/reviews/admin/{review}/response", {"adminResponse": "Thank you!"}, "messages", "reply"),
    ("delete", "/api/reviews/admin/{review}", None, "messages", "delete"),
    ("get", "/api/admin/settings", None, "settings", "view"),
    ("put", "/api/admin/settings", {"maintenanceMode": False}, "settings", "edit"),
    ("get", "/api/admin/users/admin", None, "system", "view"),
    ("post", "/api/admin/users/admin", {"username": "newbie", "email": "n@staff.example",
                                        "password": "a long pass phrase 9"}, "system", "create"),
    ("put", "/api/admin/users/admin/{staff}", {"role": "manager"}, "system", "edit"),
    ("delete", "/api/admin/users/admin/{staff}", None, "system", "delete"),
    ("get", "/api/admin/lockouts", None, "system", "view"),
    ("post", "/api/admin/users/admin/{staff}/two-step/reset", None, "system", "edit"),
    ("get", "/api/admin/two-step", None, None, None),
    ("post", "/api/admin/two-step/setup", None, None, None),
    ("post", "/api/admin/lockouts/unlock", {"username": "alice@example.com"}, "system", "edit"),
    ("get", "/api/admin/storage/status", None, "system", "view"),
    ("post", "/api/admin/storage/refresh", {}, "system", "create"),
    ("post", "/api/admin/storage/clear", {}, "system", "create"),
    ("put", "/api/admin/storage/config", {"enabled": True, "refreshInterval": 5}, "system", "edit"),
    ("get", "/api/admin/system/info", None, "system", "view"),
    ("post", "/api/admin/database/init", {}, "system", "edit"),
]
# endpoints whose success needs the producer's site; importer/tests/test_api.py calls them with it
NEEDS_THE_PRODUCER = {("post", "/api/admin/scrape"), ("post", "/api/admin/scrape/apply")}
# the sign-in pair is open to everyone by design
OPEN = {("post", "/api/admin/login"), ("post", "/api/admin/logout")}
# one's own two-step sign-in: answers 2xx only with a code from the app (backoffice/tests/test_two_step.py)
NEEDS_A_CODE = {("post", "/api/admin/two-step/confirm"), ("post", "/api/admin/two-step/disable")}

CALLERS = ["anonymous", "alice", "owner", "manager", "head_support", "support"]

PNG = (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89"
       b"\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\x00\x00\x00\x00IEND\xaeB`\x82")


def allowed_roles(area, action):
    """The roles the matrix gives `action` in `area` (every staff role when there is no area)."""
    if area is None:
        return set(MATRIX)
    return {role for role, rights in MATRIX.items() if action in rights.get(area, frozenset())}


def _fill(text, built):
    for name, build in THINGS.items():
        if "{" + name + "}" in text:
            built.setdefault(name, build())
            text = text.replace("{" + name + "}", str(built[name]))
    return text


def _value(value, built):
    if isinstance(value, list):
        return [_value(v, built) for v in value]
    if isinstance(value, str) and value.startswith("{"):
        text = _fill(value, built)
        return int(text) if text.isdigit() else text
    return value


def _body(body, built):
    if isinstance(body, dict):
        return {k: _value(value, built) for k, value in body.items()}
    return body


def _call(client, method, path, body):
    if body == "csv":
        upload = SimpleUploadedFile("p.csv", b"title,price\nCSV tea,12.00\n", content_type="text/csv")
        return client.post(path, {"file": upload})
    if body == "image":
        return client.post(path, {"image": SimpleUploadedFile("a.png", PNG, content_type="image/png")})
    if body is None:
        return getattr(client, method)(path)
    return getattr(client, method)(path, body, content_type="application/json")


@pytest.mark.django_db
@pytest.mark.parametrize("caller", CALLERS)
@pytest.mark.parametrize(("method", "path", "body", "area", "action"), ENDPOINTS,
                         ids=[f"{e[0]} {e[1]}" for e in ENDPOINTS])
def test_each_endpoint_answers_each_caller_as_the_matrix_says(request, client, settings, tmp_path,
                                                              caller, method, path, body, area, action):
    # given
    settings.MEDIA_ROOT = tmp_path
    built = {}
    path = _fill(path, built)
    body = _body(body, built)
    if caller != "anonymous":
        client.force_login(request.getfixturevalue(caller))
    # when
    response = _call(client, method, path, body)
    # then
    if caller in ("anonymous", "alice"):
        assert response.status_code == 401, (response.status_code, response.content)
        assert response.json()["message"] == "Admin authentication required"
    elif caller in allowed_roles(area, action):
        assert 200 <= response.status_code < 300, (response.status_code, response.content)
    else:
        assert response.status_code == 403, (response.status_code, response.content)
        assert response.json()["message"] == "Admin permissions required"


def _staff_routes():
    """(method, path pattern) of every view behind the staff permission."""
    def walk(patterns, prefix=""):
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                yield from walk(pattern.url_patterns, prefix + str(pattern.pattern))
            else:
                yield "/" + prefix + str(pattern.pattern), getattr(pattern.callback, "view_class", None)

    for route, view in walk(get_resolver().url_patterns):
        if view is not None and route.startswith(("/api/admin", "/api/reviews/admin")):
            for method in ("get", "post", "put", "patch", "delete"):
                if hasattr(view, method):
                    yield method, route


def _pattern(path):
    """/api/admin/orders/12/status?x → /api/admin/orders/<id>/status, the shape of a route."""
    return "/".join("<id>" if part.isdigit() or part.startswith("{") else part
                    for part in path.split("?")[0].split("/"))


def test_the_table_names_every_staff_endpoint():
    # given
    tabled = {(method, _pattern(path)) for method, path, *_rest in ENDPOINTS} | NEEDS_THE_PRODUCER | OPEN | NEEDS_A_CODE
    # when
    routes = {(method, "/".join("<id>" if part.startswith("<") else part for part in route.split("/")))
              for method, route in _staff_routes()}
    # then
    assert ("put", "/api/admin/orders/<id>/status") in routes and len(routes) > 60  # the walk finds them
    assert routes - tabled == set()


@pytest.mark.django_db
def test_a_bearer_token_from_the_login_works_like_the_session(client, support, password):
    # given
    token = client.post("/api/admin/login", {"username": "support", "password": password},
                        content_type="application/json").json()["sessionToken"]
    client.logout()
    # when / then
    assert client.get("/api/admin/dashboard", HTTP_AUTHORIZATION=f"Bearer {token}").status_code == 200
    assert client.get("/api/admin/settings", HTTP_AUTHORIZATION=f"Bearer {token}").status_code == 403


@pytest.mark.django_db
def test_a_customer_token_gets_no_admin_access(client, alice):
    _token, key = AuthToken.issue(user=alice, lifetime=timedelta(hours=1))
    assert client.get("/api/admin/dashboard", HTTP_AUTHORIZATION=f"Bearer {key}").status_code == 401


@pytest.mark.django_db
def test_a_staff_bearer_token_works_without_a_session(client, head_support):
    # given
    _token, key = AuthToken.issue(user=head_support, lifetime=timedelta(hours=1))
    # when
    response = client.get("/api/admin/analytics", headers={"Authorization": f"Bearer {key}"})
    # then
    assert response.status_code == 200
    assert "data" in response.json()


@pytest.mark.django_db
def test_every_part_b_endpoint_is_in_the_openapi_schema(client):
    # when
    schema = client.get("/api/schema/", headers={"Accept": "application/vnd.oai.openapi+json"}).json()
    # then
    for path in [
        "/api/admin/orders", "/api/admin/orders/{order_id}", "/api/admin/orders/{order_id}/status",
        "/api/admin/orders/{order_id}/cash-refund",
        "/api/admin/bulk/orders", "/api/admin/analytics", "/api/admin/announcements",
        "/api/admin/announcements/{announcement_id}", "/api/admin/coupons", "/api/admin/coupons/{coupon_id}",
        "/api/admin/newsletter", "/api/admin/newsletter/export", "/api/admin/contact-messages",
        "/api/admin/contact-messages/{message_id}", "/api/admin/messages/{message_id}/reply",
        "/api/reviews/admin", "/api/reviews/admin/{review_id}/approve", "/api/reviews/admin/{review_id}/response",
        "/api/reviews/admin/{review_id}",
    ]:
        assert path in schema["paths"], path
