"""Alerts (issue 17): stock e-mails once per crossing, the opt-in daily summary, the overview's counts."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.db import DatabaseError, connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from backoffice.alerts import daily_summary_send, stock_levels_check
from backoffice.products import stock_adjust
from backoffice.selectors import dashboard_stats
from orders.actions import order_cash_refund, order_set_status
from orders.stock import stock_release, stock_reserve
from shop.celery import app
from shop.models import FailedJob, OutboundEmail
from shop.store_settings import store_settings_update
from tests.factories import make_message, make_order, make_product
from tests.threads import at_once

pytestmark = pytest.mark.django_db


def _mail_to(address):
    return list(OutboundEmail.objects.filter(to=address).order_by("pk"))


@pytest.fixture
def stock_staff(owner, manager, head_support, support):
    return owner, manager, head_support, support


def test_a_sale_that_takes_stock_into_low_mails_the_stock_roles_once(stock_staff):
    # given
    owner, manager, head_support, support = stock_staff
    tea = make_product(title_en="Kericho Gold", stock=12)
    # when: three sales, the first crosses 10
    for _sale in range(3):
        stock_reserve(lines=[(tea.pk, 1)])
    # then
    assert [m.subject for m in _mail_to(owner.email)] == ["Stock alert: products running low"]
    assert "\u2068Kericho Gold\u2069: low stock, 10 left" in _mail_to(manager.email)[0].text
    assert _mail_to(head_support.email) == [] and _mail_to(support.email) == []


def test_out_of_stock_is_a_second_crossing_and_a_restock_re_arms_the_alert(owner, manager):
    # given
    tea = make_product(title_en="Green Mist", stock=3)
    tea.stock_alert_level = "low"
    tea.save(update_fields=["stock_alert_level"])
    # when
    stock_adjust(actor=manager, product=tea, action="subtract", amount=3)
    stock_release(lines=[(tea.pk, 1)])  # a cancelled order gives one back: no mail
    stock_adjust(actor=manager, product=tea, action="set", amount=50)  # restocked: no mail
    stock_adjust(actor=manager, product=tea, action="set", amount=4)  # low again: mail
    # then
    subjects = [m.subject for m in _mail_to(owner.email)]
    assert subjects == ["Stock alert: products out of stock", "Stock alert: products running low"]
    assert "\u2068Green Mist\u2069: out of stock" in _mail_to(owner.email)[0].text


def test_a_rolled_back_sale_sends_nothing_and_forgets_nothing(owner):
    # given
    tea = make_product(stock=11)
    # when
    with pytest.raises(RuntimeError), transaction.atomic():
        stock_reserve(lines=[(tea.pk, 5)])
        raise RuntimeError("payment refused")
    # then
    tea.refresh_from_db()
    assert (tea.stock, tea.stock_alert_level) == (11, "in")
    assert _mail_to(owner.email) == []


def test_a_product_saved_with_less_stock_is_heard_too(owner):
    # given: a staff edit through the product form saves the model
    tea = make_product(stock=30)
    # when
    tea.stock = 0
    tea.save()
    # then
    assert [m.subject for m in _mail_to(owner.email)] == ["Stock alert: products out of stock"]


def test_a_new_product_at_zero_is_no_crossing(owner):
    # when
    make_product(stock=0)
    # then
    assert _mail_to(owner.email) == []


def test_arabic_staff_get_the_alert_in_arabic(owner):
    # given
    owner.language = "ar"
    owner.save()
    tea = make_product(title_en="Kericho Gold", title_ar="كيريتشو جولد", stock=1)
    # when
    stock_reserve(lines=[(tea.pk, 1)])
    # then
    mail = _mail_to(owner.email)[0]
    assert mail.language == "ar" and "كيريتشو جولد" in mail.text and "نفد" in mail.subject


def test_two_checks_of_one_crossing_report_it_once(owner):
    # given
    tea = make_product(stock=20)
    from catalog.models import Product

    Product.objects.filter(pk=tea.pk).update(stock_alert_level="in")
    # when: the level is already moved by the first check
    stock_reserve(lines=[(tea.pk, 15)])
    again = stock_levels_check(product_ids=[tea.pk])
    # then
    assert again == [] and len(_mail_to(owner.email)) == 1


# --- daily summary --------------------------------------------------------------------------------

@pytest.fixture
def a_busy_day():
    store_settings_update(free_shipping_threshold=Decimal("0"))  # each order's total is its one price
    now = timezone.now()
    make_order(price="300", created_at=now - timedelta(hours=2))
    make_order(price="150", payment_status="cod", status="processing", created_at=now - timedelta(hours=5))
    make_order(price="99", payment_status="cod", status="shipped", created_at=now - timedelta(days=3))
    make_order(price="500", status="cancelled", created_at=now - timedelta(hours=1))
    make_order(price="70", created_at=now - timedelta(days=2))
    make_message(status="new")
    make_message(status="read")
    make_message(status="replied")


def test_the_daily_summary_goes_to_staff_who_opted_in_once_a_day(owner, manager, support, a_busy_day):
    # given
    owner.daily_summary = support.daily_summary = True
    owner.save()
    support.save()
    # when
    first = daily_summary_send()
    second = daily_summary_send()
    # then
    assert (first, second) == (2, 0)
    owner_mail, = _mail_to(owner.email)
    assert "Orders placed: 3" in owner_mail.text
    assert "Revenue (paid and cash on delivery): E£450.00" in owner_mail.text
    assert "Cash-on-delivery orders not yet paid: 2 (E£249.00)" in owner_mail.text
    assert "Unanswered messages: 2" in owner_mail.text
    support_mail, = _mail_to(support.email)
    assert "Revenue" not in support_mail.text and "E£" not in support_mail.text  # no analytics right
    assert _mail_to(manager.email) == []


def test_the_next_day_it_goes_again(owner):
    # given
    owner.daily_summary = True
    owner.save()
    daily_summary_send(now=timezone.now() - timedelta(days=1))
    # when
    sent = daily_summary_send()
    # then
    assert sent == 1 and len(_mail_to(owner.email)) == 2


@pytest.mark.django_db(transaction=True)
def test_two_summary_jobs_at_once_send_one_summary(owner):
    # given: the job delivered twice (beat's catch-up, a late acknowledgement), both picked up at once
    owner.daily_summary = True
    owner.save()
    for day in range(30):  # thirty mornings: two jobs started together do not always overlap
        now = timezone.now() + timedelta(days=day)
        # when
        counts = at_once(*[lambda now=now: daily_summary_send(now=now)] * 2)
        # then
        assert sorted(counts) == [0, 1], day
        assert len(_mail_to(owner.email)) == day + 1


def test_a_summary_job_that_dies_halfway_sends_every_summary_when_it_runs_again(owner, manager, monkeypatch):
    # given: the job fails on the second recipient (the database drops, the worker is killed)
    import backoffice.alerts

    owner.daily_summary = manager.daily_summary = True
    owner.save()
    manager.save()
    real_queue = backoffice.alerts.mail_queue

    def queue_then_fail(**mail):
        if mail["to"] == manager.email:
            raise DatabaseError("server closed the connection unexpectedly")
        return real_queue(**mail)

    monkeypatch.setattr(backoffice.alerts, "mail_queue", queue_then_fail)
    with pytest.raises(DatabaseError):
        daily_summary_send()
    # when: the job runs again (Celery redelivers it, or an operator starts it)
    monkeypatch.undo()
    sent = daily_summary_send()
    # then: each one summary, not the first recipient's twice nor the second's never
    assert sent == 2
    assert len(_mail_to(owner.email)) == 1 and len(_mail_to(manager.email)) == 1


def test_the_summary_is_in_the_staff_members_language(owner):
    # given
    owner.daily_summary, owner.language = True, "ar"
    owner.save()
    # when
    daily_summary_send()
    # then
    assert "ملخص" in _mail_to(owner.email)[0].subject


def test_beat_runs_the_daily_summary_job_every_morning():
    import backoffice.tasks  # noqa: F401 (the worker autodiscovers it)

    entry = app.conf.beat_schedule["daily-summary"]
    assert entry["task"] == "backoffice.tasks.daily_summary_task"
    assert app.tasks[entry["task"]] is not None


def test_each_staff_member_switches_their_own_summary(client, support):
    # given
    client.force_login(support)
    # when
    response = client.put("/api/admin/me/daily-summary", {"enabled": True}, content_type="application/json")
    # then
    assert response.json() == {"enabled": True}
    support.refresh_from_db()
    assert support.daily_summary is True
    assert client.get("/api/admin/dashboard").json()["dailySummary"] is True


def test_a_customer_cannot_switch_it(client, alice):
    client.force_login(alice)
    response = client.put("/api/admin/me/daily-summary", {"enabled": True}, content_type="application/json")
    assert response.status_code == 401


# --- overview -------------------------------------------------------------------------------------

@app.task(name="backoffice.tests.always_fails")
def _always_fails():
    raise ValueError("the producer's site said 500")


def test_the_overview_shows_failed_jobs_to_managers(client, manager, support):
    # given
    assert _always_fails.apply(throw=False).failed()  # a worker does not propagate: it records
    FailedJob.objects.create(task="old.job", failed_at=timezone.now() - timedelta(days=8))
    # when
    client.force_login(manager)
    body = client.get("/api/admin/dashboard").json()
    # then
    assert body["failedJobs"] == 1
    assert body["failedJobList"][0]["task"] == "backoffice.tests.always_fails"
    assert "the producer's site said 500" in body["failedJobList"][0]["error"]
    client.force_login(support)
    assert "failedJobs" not in client.get("/api/admin/dashboard").json()


def test_the_overview_shows_money_captured_on_cancelled_orders(client, support):
    # given
    store_settings_update(free_shipping_threshold=Decimal("0"))  # each order's total is its one price
    make_order(price="300", status="cancelled", payment_status="paid")
    make_order(price="120", status="cancelled", payment_status="paid")
    make_order(price="80", status="cancelled", payment_status="refunded")
    make_order(price="999", status="cancelled", payment_status="failed")
    client.force_login(support)
    # when
    body = client.get("/api/admin/dashboard").json()
    # then
    assert Decimal(body["capturedOnCancelled"]) == Decimal("420.00")


def _cod_cancelled(price, *, steps=("delivered", "cancelled")):
    order = make_order(price=price, payment_status="cod", status=steps[0])
    for status in steps[1:]:
        order_set_status(order=order, status=status)
    return order


def test_the_overview_counts_cash_collected_on_cod_orders_cancelled_after_delivery_in_one_query(
        client, support, manager):
    # given a card order paid then cancelled, and cash-on-delivery orders cancelled: after delivery (cash
    # collected), one of them with part of its cash given back, and before delivery (no cash collected)
    store_settings_update(free_shipping_threshold=Decimal("0"))  # each order's total is its one price
    make_order(price="300", status="cancelled", payment_status="paid")
    _cod_cancelled("200")
    returned = _cod_cancelled("150")
    order_cash_refund(order=returned, amount=Decimal("50"), actor=manager)
    _cod_cancelled("999", steps=("processing", "cancelled"))
    _cod_cancelled("888", steps=("delivered", "shipped", "cancelled"))  # a mistaken "delivered" undone first
    make_order(price="777", payment_status="cod", status="delivered")  # delivered, not cancelled
    # when the overview's figures are read
    with CaptureQueriesContext(connection) as few:
        stats = dashboard_stats()
    # then the cash the shop holds for cancelled orders is in the money paid on cancelled orders
    assert stats["captured_on_cancelled"] == Decimal("300") + Decimal("200") + Decimal("100")
    # and more such orders cost no query of their own
    for _ in range(3):
        _cod_cancelled("10")
    with CaptureQueriesContext(connection) as more:
        stats = dashboard_stats()
    assert stats["captured_on_cancelled"] == Decimal("630") and len(more) == len(few)
    client.force_login(support)
    assert Decimal(client.get("/api/admin/dashboard").json()["capturedOnCancelled"]) == Decimal("630.00")


def test_the_overview_names_a_failed_job_in_the_reader_s_language_with_its_error_as_the_detail(client, manager):
    # given
    FailedJob.objects.create(task="importer.tasks.crawl_run_task", error="ConnectionError: producer down")
    FailedJob.objects.create(task="someone.elses.job", error="")
    client.force_login(manager)
    # when
    arabic = client.get("/api/admin/dashboard", HTTP_ACCEPT_LANGUAGE="ar").json()["failedJobList"]
    english = client.get("/api/admin/dashboard", HTTP_ACCEPT_LANGUAGE="en").json()["failedJobList"]
    # then
    assert [job["label"] for job in arabic] == ["مهمة في الخلفية", "قراءة موقع المنتج (الاستيراد)"]
    assert [job["label"] for job in english] == ["A background job", "Reading the producer's site (importer)"]
    assert english[1]["task"] == "importer.tasks.crawl_run_task"
    assert english[1]["error"] == "ConnectionError: producer down"


def test_every_job_of_the_shop_has_a_name_staff_can_read():
    from shop.tasks import failed_job_label

    app.loader.import_default_modules()
    ours = [name for name in app.tasks if not name.startswith("celery.") and ".tests." not in name]
    assert len(ours) >= 17
    assert [name for name in ours if failed_job_label(name) == "A background job"] == []
