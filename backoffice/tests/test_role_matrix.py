"""Every admin endpoint of part A × every role (and anonymous) against DECISIONS.md's matrix."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from accounts.models import Role, User
from shop.models import OutboundEmail
from tests.factories import make_product

ALL = {"owner", "manager", "head_support", "support"}
MANAGERS = {"owner", "manager"}
OWNER = {"owner"}

# (method, path, body, roles allowed)
ENDPOINTS = [
    ("get", "/api/admin/verify", None, ALL),
    ("get", "/api/admin/dashboard", None, ALL),
    ("post", "/api/admin/emails/{email}/retry", {}, MANAGERS),
    ("get", "/api/admin/products", None, ALL),
    ("post", "/api/admin/products", {"title": "New tea", "price": "10.00"}, MANAGERS),
    ("delete", "/api/admin/products", None, OWNER),
    ("put", "/api/admin/products/{product}", {"title": "Renamed"}, MANAGERS),
    ("delete", "/api/admin/products/{product}", None, MANAGERS),
    ("post", "/api/admin/products/{product}/categorize", {}, MANAGERS),
    ("post", "/api/admin/products/{product}/describe", {}, MANAGERS),
    ("post", "/api/admin/products/categorize", {"ids": ["{product}"]}, MANAGERS),
    ("post", "/api/admin/products/suggest-category", {"title": "Green sencha"}, ALL),
    ("get", "/api/admin/products/export", None, ALL),
    ("post", "/api/admin/products/import", "csv", MANAGERS),
    ("post", "/api/admin/products/images", "image", MANAGERS),
    ("get", "/api/admin/inventory", None, ALL),
    ("put", "/api/admin/inventory/{product}", {"action": "add", "stock": 1}, MANAGERS),
    ("get", "/api/admin/users", None, ALL),
    ("post", "/api/admin/users", {"firstName": "Mona", "lastName": "Said", "email": "mona@example.com"}, MANAGERS),
    ("put", "/api/admin/users/{customer}", {"isActive": False}, MANAGERS | {"head_support"}),
    ("get", "/api/admin/settings", None, MANAGERS),
    ("put", "/api/admin/settings", {"maintenanceMode": False}, MANAGERS),
    ("get", "/api/admin/roles", None, ALL),
    ("get", "/api/admin/users/admin", None, OWNER),
    ("post", "/api/admin/users/admin", {"username": "newbie", "email": "n@staff.example",
                                        "password": "a long pass phrase 9"}, OWNER),
    ("put", "/api/admin/users/admin/{staff}", {"role": "manager"}, OWNER),
    ("delete", "/api/admin/users/admin/{staff}", None, OWNER),
    ("get", "/api/admin/lockouts", None, OWNER),
    ("post", "/api/admin/lockouts/unlock", {"username": "alice@example.com"}, OWNER),
    ("get", "/api/admin/storage/status", None, OWNER),
    ("post", "/api/admin/storage/refresh", {}, OWNER),
    ("post", "/api/admin/storage/clear", {}, OWNER),
    ("put", "/api/admin/storage/config", {"enabled": True, "refreshInterval": 5}, OWNER),
    ("get", "/api/admin/system/info", None, OWNER),
    ("post", "/api/admin/database/init", {}, OWNER),
]
PERSONAS = ["anonymous", "owner", "manager", "head_support", "support"]

PNG = (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89"
       b"\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\x00\x00\x00\x00IEND\xaeB`\x82")


def _call(client, method, path, body):
    if body == "csv":
        upload = SimpleUploadedFile("p.csv", b"title,price\nCSV tea,12.00\n", content_type="text/csv")
        return client.post(path, {"file": upload})
    if body == "image":
        return client.post(path, {"image": SimpleUploadedFile("a.png", PNG, content_type="image/png")})
    return getattr(client, method)(path, body, content_type="application/json") if body is not None \
        else getattr(client, method)(path)


@pytest.mark.django_db
@pytest.mark.parametrize("persona", PERSONAS)
@pytest.mark.parametrize("method,path,body,allowed", ENDPOINTS, ids=[f"{m} {p}" for m, p, _b, _a in ENDPOINTS])
def test_each_endpoint_answers_each_role_as_the_matrix_says(request, client, settings, tmp_path, alice,
                                                            persona, method, path, body, allowed):
    # given
    settings.MEDIA_ROOT = tmp_path
    product = make_product()
    staff = User.objects.create_user(username="target", email="t@staff.example", password="x", is_staff=True,
                                     role=Role.SUPPORT)
    email = OutboundEmail.objects.create(to="a@example.com", subject="s", text="t", status="failed")
    ids = {"product": product.pk, "customer": alice.pk, "staff": staff.pk, "email": email.pk}
    path = path.format(**ids)
    if isinstance(body, dict) and body.get("ids"):
        body = {"ids": [product.pk]}
    if persona != "anonymous":
        client.force_login(request.getfixturevalue(persona))
    # when
    response = _call(client, method, path, body)
    # then
    if persona == "anonymous":
        assert response.status_code == 401, response.content
        assert response.json()["message"] == "Admin authentication required"
    elif persona in allowed:
        assert response.status_code not in (401, 403), (response.status_code, response.content)
        # the rule-based generators answer 503 until the importer's module is merged
        generator = path.endswith(("/describe", "categorize", "suggest-category"))
        assert response.status_code < 500 or (generator and response.status_code == 503)
    else:
        assert response.status_code == 403, (response.status_code, response.content)
        assert response.json()["message"] == "Admin permissions required"


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
    from datetime import timedelta

    from accounts.models import AuthToken

    _token, key = AuthToken.issue(user=alice, lifetime=timedelta(hours=1))
    assert client.get("/api/admin/dashboard", HTTP_AUTHORIZATION=f"Bearer {key}").status_code == 401
