"""Back-in-stock alerts: Notify me (page and API), double opt-in, one e-mail when stock returns, staff counts."""

import re

import pytest
from rest_framework.test import APIClient

from backoffice.products import stock_adjust
from catalog.models import StockAlert
from catalog.stock_alerts import stock_alert_request, stock_alerts_sweep
from shop.models import OutboundEmail
from tests.factories import make_product


@pytest.fixture
def sold_out(db):
    return make_product(title="Pure Black", title_ar="شاي أسود نقي", stock=0)


def _link(mail, path):
    return re.search(rf"https?://[^\s]+{path}\?token=[\w-]+", mail.text).group(0)


def test_notify_me_form_shows_only_when_out_of_stock(client, sold_out):
    page = client.get(f"/product/{sold_out.slug}").content.decode()
    assert "data-stock-alert" in page and "csrfmiddlewaretoken" in page.split("data-stock-alert")[1][:400]
    in_stock = make_product(title="Green", stock=5)
    assert "data-stock-alert" not in client.get(f"/product/{in_stock.slug}").content.decode()


def test_guest_double_opt_in_then_exactly_one_email_when_stock_returns(client, sold_out, owner,
                                                                       django_capture_on_commit_callbacks):
    guest_mail = OutboundEmail.objects.filter(to="guest@example.com")  # staff get their own stock alerts
    answer = client.post("/ar/stock-alert", {"product": sold_out.pk, "email": "Guest@Example.com"})
    assert answer.status_code == 200 and "أرسلنا إليك رسالة" in answer.content.decode()
    confirm = guest_mail.get()
    assert confirm.language == "ar"
    assert "شاي أسود نقي" in confirm.subject
    link = _link(confirm, "/ar/stock-alert/confirm")
    path = link.split("testserver", 1)[1]
    # opening the link confirms nothing (mail scanners); its button does
    assert client.get(path).status_code == 200
    assert StockAlert.objects.get().confirmed_at is None
    with django_capture_on_commit_callbacks(execute=True):
        stock_adjust(actor=owner, product=sold_out, action="set", amount=3)
    assert guest_mail.count() == 1  # not confirmed: nothing sent
    stock_adjust(actor=owner, product=sold_out, action="set", amount=0)
    token = path.split("token=")[1]
    client.post("/ar/stock-alert/confirm", {"token": token})
    assert StockAlert.objects.get().confirmed_at is not None
    with django_capture_on_commit_callbacks(execute=True):
        stock_adjust(actor=owner, product=sold_out, action="add", amount=5)
    back = guest_mail.exclude(pk=confirm.pk).get()
    assert "متوفر من جديد" in back.subject and back.language == "ar"
    assert f"/ar/product/{sold_out.slug}" in back.text and "/ar/stock-alert/cancel?token=" in back.text
    with django_capture_on_commit_callbacks(execute=True):
        stock_adjust(actor=owner, product=sold_out, action="add", amount=5)
    assert stock_alerts_sweep() == 0
    assert guest_mail.count() == 2  # sent once


@pytest.mark.parametrize("product", ["²", "x", "1" * 19])
def test_notify_me_for_a_product_number_that_is_not_one_is_not_found(client, sold_out, product):
    # when: "²" passes str.isdigit(), which int() then refused with a 500
    answer = client.post("/stock-alert", {"product": product, "email": "guest@example.com"})
    # then
    assert answer.status_code == 404
    assert not StockAlert.objects.exists()


def test_cancelled_order_returning_stock_triggers_the_alert(sold_out, django_capture_on_commit_callbacks):
    from orders.stock import stock_release

    alert = stock_alert_request(product_id=sold_out.pk, email="a@example.com")
    from catalog.stock_alerts import stock_alert_confirm

    stock_alert_confirm(token=alert.token)
    with django_capture_on_commit_callbacks(execute=True):
        stock_release(lines=[(sold_out.pk, 1)])
    assert OutboundEmail.objects.filter(to="a@example.com").count() == 2


def test_asking_twice_while_waiting_sends_no_second_confirmation(sold_out):
    from catalog.stock_alerts import stock_alert_confirm

    alert = stock_alert_request(product_id=sold_out.pk, email="a@example.com")
    stock_alert_confirm(token=alert.token)
    stock_alert_request(product_id=sold_out.pk, email="a@example.com")
    assert OutboundEmail.objects.count() == 1


def test_api_refuses_in_stock_products_and_bad_addresses(db, sold_out):
    api = APIClient()
    answer = api.post(f"/api/products/{sold_out.pk}/stock-alert", {"email": "x@example.com"}, format="json")
    assert answer.status_code == 202
    bad = api.post(f"/api/products/{sold_out.pk}/stock-alert", {"email": "nope"}, format="json")
    assert bad.status_code == 400 and bad.json()["field"] == "email"
    in_stock = make_product(stock=4)
    assert api.post(f"/api/products/{in_stock.pk}/stock-alert", {"email": "x@example.com"},
                    format="json").status_code == 400
    assert api.post("/api/products/999999/stock-alert", {"email": "x@example.com"}, format="json").status_code == 404


def test_cancel_link_forgets_the_alert(client, sold_out):
    alert = stock_alert_request(product_id=sold_out.pk, email="a@example.com")
    assert client.post("/stock-alert/cancel", {"token": alert.token}).status_code == 200
    assert not StockAlert.objects.exists()
    assert client.post("/stock-alert/confirm", {"token": alert.token}).status_code == 404


def test_staff_see_the_waiting_count_per_product(sold_out, owner):
    from catalog.stock_alerts import stock_alert_confirm

    for n in range(3):
        alert = stock_alert_request(product_id=sold_out.pk, email=f"s{n}@example.com")
        if n < 2:
            stock_alert_confirm(token=alert.token)  # the third never confirmed
    api = APIClient()
    api.force_authenticate(owner)
    rows = {p["id"]: p for p in api.get("/api/admin/inventory").json()["products"]}
    assert rows[sold_out.pk]["waitingAlerts"] == 2


def test_the_sweep_sends_what_a_missed_hook_left(sold_out):
    from catalog.models import Product
    from catalog.stock_alerts import stock_alert_confirm

    alert = stock_alert_request(product_id=sold_out.pk, email="a@example.com")
    stock_alert_confirm(token=alert.token)
    Product.objects.filter(pk=sold_out.pk).update(stock=2)  # a write that did not call the hook
    assert stock_alerts_sweep() == 1
    assert stock_alerts_sweep() == 0


def test_one_address_gets_at_most_three_confirmations_an_hour_however_often_it_is_named(db):
    # given five sold-out teas, and a script naming a stranger's address for each (and again for the first)
    teas = [make_product(title=f"Tea {n}", stock=0) for n in range(5)]

    # when
    for tea in [*teas, teas[0]]:
        answer = APIClient().post(f"/api/products/{tea.pk}/stock-alert", {"email": "Victim@Example.com"},
                                  format="json")
        assert answer.status_code == 202, answer.content  # the same answer either way

    # then the stranger's mailbox gets three confirmation e-mails, not six
    assert OutboundEmail.objects.filter(to="victim@example.com").count() == 3


def test_an_alert_whose_mail_fails_holds_back_no_other_and_is_tried_again(sold_out, monkeypatch):
    # given two confirmed alerts, the first of which cannot be mailed
    from catalog import stock_alerts
    from catalog.models import Product

    alerts = [stock_alert_request(product_id=sold_out.pk, email=email) for email in ("x@example.com", "b@example.com")]
    for alert in alerts:
        stock_alerts.stock_alert_confirm(token=alert.token)
    mail = stock_alerts._mail

    def mail_or_break(alert, *args, **kwargs):
        if alert.email == "x@example.com":
            raise RuntimeError("a broken template")
        mail(alert, *args, **kwargs)

    monkeypatch.setattr(stock_alerts, "_mail", mail_or_break)
    Product.objects.filter(pk=sold_out.pk).update(stock=2)
    # when the sweep runs
    with pytest.raises(RuntimeError):
        stock_alerts_sweep()
    # then the other alert was sent, and the broken one is left unsent for the next run
    assert OutboundEmail.objects.filter(to="b@example.com", subject__icontains="back").exists()
    assert StockAlert.objects.get(email="x@example.com").notified_at is None
    monkeypatch.setattr(stock_alerts, "_mail", mail)
    assert stock_alerts_sweep() == 1
