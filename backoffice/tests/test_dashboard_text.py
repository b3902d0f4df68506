"""Dashboard writes pass their text through the shared gate (one field error, nothing stored).

The store name goes into every order e-mail's headers and a customer's name
into the headers of every mail to them: a line break there must be refused.
"""

import pytest

from accounts.models import User
from backoffice.inbox import contact_message_reply
from catalog.models import Product
from orders.models import Coupon
from shop.errors import ShopError
from shop.models import Announcement, ContactMessage
from shop.store_settings import store_settings_get
from tests.factories import make_product

pytestmark = pytest.mark.django_db


def _send(client, method, url, body):
    return getattr(client, method)(url, body, content_type="application/json")


def test_the_store_name_refuses_a_line_break(client, owner):
    # given
    client.force_login(owner)
    # when
    response = _send(client, "put", "/api/admin/settings", {"storeName": "Tea\r\nBcc: victim@example.com"})
    # then
    assert response.status_code == 400
    assert response.json()["field"] == "storeName"
    assert "\n" not in store_settings_get().store_name


def test_a_social_link_with_a_control_character_names_its_nested_field(client, owner):
    # given
    client.force_login(owner)
    # when
    response = _send(client, "put", "/api/admin/settings", {"socialMedia": {"facebook": "https://fb.example/\x1b"}})
    # then
    assert response.status_code == 400
    assert response.json()["field"] == "socialMedia.facebook"
    assert "\x1b" not in str(store_settings_get().social_media)


def test_a_product_title_refuses_control_characters(client, owner):
    # given
    client.force_login(owner)
    # when
    response = _send(client, "post", "/api/admin/products", {"title": "Kericho\x07 Gold", "price": "100.00"})
    # then
    assert response.status_code == 400
    assert response.json()["field"] == "title"
    assert not Product.objects.exists()


def test_a_product_tag_refuses_a_line_break(client, owner):
    # given
    product = make_product()
    client.force_login(owner)
    # when
    response = _send(client, "put", f"/api/admin/products/{product.pk}", {"tags": ["fine", "two\nlines"]})
    # then
    assert response.status_code == 400
    assert response.json()["field"] == "tags"


def test_a_customer_name_refuses_a_line_break(client, owner):
    # given
    client.force_login(owner)
    # when
    response = _send(client, "post", "/api/admin/users",
                     {"firstName": "Sara\r\nBcc: x@example.com", "lastName": "Adel", "email": "sara@example.com"})
    # then
    assert response.status_code == 400
    assert response.json()["field"] == "firstName"
    assert not User.objects.filter(email="sara@example.com").exists()


def test_an_announcement_title_refuses_a_line_break(client, owner):
    # given
    client.force_login(owner)
    # when
    response = _send(client, "post", "/api/admin/announcements",
                     {"title": "Sale\ntoday", "content": "Ten percent", "displayStartDate": "2026-01-01T00:00:00Z",
                      "displayEndDate": "2026-12-31T00:00:00Z"})
    # then
    assert response.status_code == 400
    assert response.json()["field"] == "title"
    assert not Announcement.objects.exists()


def test_a_coupon_code_refuses_control_characters(client, owner):
    # given
    client.force_login(owner)
    # when
    response = _send(client, "post", "/api/admin/coupons",
                     {"code": "SAVE\x1b10", "type": "percentage", "value": "10", "minimumOrder": "0"})
    # then
    assert response.status_code == 400
    assert response.json()["field"] == "code"
    assert not Coupon.objects.exists()


def test_a_staff_username_refuses_over_long_text(client, owner):
    # given
    client.force_login(owner)
    # when
    response = _send(client, "post", "/api/admin/users/admin",
                     {"username": "u" * 1000, "email": "new@staff.example", "password": "Sweep-pass-2026!",
                      "role": "support"})
    # then
    assert response.status_code == 400
    assert response.json()["field"] == "username"


def test_the_staff_login_page_refuses_an_over_long_username_without_recording_it(client):
    # given
    from axes.models import AccessAttempt

    # when
    response = client.post("/adminauth", {"username": "u" * 100_000, "password": "whatever"})
    # then
    assert response.status_code == 401
    assert not AccessAttempt.objects.exists()


def test_a_reply_refuses_control_characters(owner):
    # given
    message = ContactMessage.objects.create(name="Sara", email="sara@example.com", subject="Hi", message="Hello")
    # when
    with pytest.raises(ShopError) as caught:
        contact_message_reply(actor=owner, message=message, reply="Thanks\x1b")
    # then
    assert caught.value.field == "replyMessage"
    message.refresh_from_db()
    assert message.reply_message == ""
