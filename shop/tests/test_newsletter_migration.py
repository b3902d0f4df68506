"""Migration shop 0010 (newsletter double opt-in) on a shop with subscribers, forward and back, and
orders 0014 (Payment.integration_ids) on one with payments."""

import time
from datetime import UTC, datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.migrations import migrate_to

BEFORE = [("shop", "0009_exchange_rate_refused")]
AFTER = [("shop", "0010_newsletter_double_opt_in")]
SUBSCRIBERS = 100_000




@pytest.mark.django_db(transaction=True)
def test_subscribers_from_before_double_opt_in_stay_on_the_list_in_one_update(latest_schema_after):
    # given 100,000 addresses subscribed before double opt-in, one of them unsubscribed since
    old = migrate_to(BEFORE).get_model("shop", "NewsletterSubscriber")
    signed_up = datetime(2025, 3, 1, 9, 30, tzinfo=UTC)
    old.objects.bulk_create([old(email=f"reader{n}@example.com", unsubscribe_token=f"t{n}", is_active=n != 7)
                             for n in range(SUBSCRIBERS)], batch_size=5000)
    old.objects.update(created_at=signed_up)
    # when
    started = time.monotonic()
    with CaptureQueriesContext(connection) as queries:
        new = migrate_to(AFTER).get_model("shop", "NewsletterSubscriber")
    elapsed = time.monotonic() - started
    # then every one is confirmed as of when it subscribed (they were told they were subscribed), in one UPDATE
    updates = [q["sql"] for q in queries if q["sql"].lstrip().upper().startswith("UPDATE")
               and "newslettersubscriber" in q["sql"]]
    assert len(updates) == 1, updates
    assert elapsed < 30
    assert new.objects.filter(confirmed_at=signed_up).count() == SUBSCRIBERS
    # and the one who unsubscribed stays off the list
    assert not new.objects.get(email="reader7@example.com").is_active


@pytest.mark.django_db(transaction=True)
def test_going_back_before_double_opt_in_mails_no_address_its_owner_never_confirmed(latest_schema_after):
    # given a confirmed subscriber, one awaiting confirmation (anyone may have typed it in) and one unsubscribed
    from django.utils import timezone

    new = migrate_to(AFTER).get_model("shop", "NewsletterSubscriber")
    new.objects.create(email="sara@example.com", unsubscribe_token="a", confirmed_at=timezone.now())
    new.objects.create(email="typed-by-someone@example.com", unsubscribe_token="b")
    new.objects.create(email="left@example.com", unsubscribe_token="c", is_active=False, confirmed_at=timezone.now())
    # when the release is rolled back, whose newsletter goes to every active address
    old = migrate_to(BEFORE).get_model("shop", "NewsletterSubscriber")
    # then only the confirmed address is still on the list
    assert sorted(old.objects.filter(is_active=True).values_list("email", flat=True)) == ["sara@example.com"]
    assert old.objects.count() == 3


@pytest.mark.django_db(transaction=True)
def test_payments_from_before_integration_ids_get_none_and_keep_them_back_and_forth(latest_schema_after):
    from tests.factories import make_order

    order = make_order(payment_status="awaiting", status="pending")
    payment_id = order.payments.get().payment_id
    # when the column is taken away and added again
    migrate_to([("orders", "0013_order_attention_reasons")])
    payment = migrate_to([("orders", "0014_payment_integration_ids")]).get_model("orders", "Payment")
    # then the payment is there with no integrations (checked as before)
    assert payment.objects.get(payment_id=payment_id).integration_ids == []


@pytest.mark.django_db(transaction=True)
def test_a_process_still_running_the_older_release_can_record_a_payment_after_the_migration():
    # given orders 0014 applied while a web process of the release before it still runs: its INSERT names no
    # integration_ids (a rolling upgrade; the README says to stop them, but one left running must not fail checkouts)
    from tests.factories import make_order

    order = make_order(payment_status="cod", status="pending")
    columns = ["order_id", "provider", "payment_id", "provider_order_id", "transaction_id", "amount", "currency",
               "status", "redirect_url", "created_at", "updated_at"]
    # when
    with connection.cursor() as cursor:
        cursor.execute(f"INSERT INTO orders_payment ({', '.join(columns)}) VALUES "
                       f"({', '.join(['%s'] * len(columns))})",
                       [order.pk, "paymob", "pay-old-release", "", "", "150.00", "EGP", "awaiting", "",
                        "2026-11-29 10:00:00+00", "2026-11-29 10:00:00+00"])
    # then the payment is there with no integrations, as the migration gives the payments before it
    from orders.models import Payment

    assert Payment.objects.get(payment_id="pay-old-release").integration_ids == []
