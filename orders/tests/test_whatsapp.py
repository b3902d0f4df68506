"""WhatsApp: click-to-chat links on five pages, opt-in order updates through the adapter and its outbox."""

from datetime import timedelta
from urllib.parse import quote

import pytest
from django.utils import timezone

from orders.actions import order_set_status
from orders.models import Order
from orders.tracking import tracking_path
from shop.models import OutboundWhatsApp, OutboundWhatsAppStatus
from shop.store_settings import store_settings_update
from shop.whatsapp import chat_url, whatsapp_send_due

pytestmark = pytest.mark.django_db


@pytest.fixture
def fake_whatsapp(settings):
    from shop.tests.fake_whatsapp import FakeWhatsApp

    fake = FakeWhatsApp().start()
    settings.WHATSAPP_BACKEND = "cloud"
    settings.WHATSAPP_API_URL = fake.url
    settings.WHATSAPP_PHONE_NUMBER_ID = fake.phone_number_id
    settings.WHATSAPP_ACCESS_TOKEN = fake.token
    settings.EMAIL_RETRY_SECONDS = 1
    yield fake
    fake.stop()


def _place(api, make_product, checkout_body, **extra):
    tea = make_product(price="300.00", title="Kericho Gold Breakfast")
    api.post("/api/cart/items", {"productId": tea.pk, "quantity": 1}, format="json")
    response = api.post("/api/payment/create-intention", checkout_body(paymentMethod="cod", **extra), format="json")
    assert response.status_code == 201, response.content
    return tea, Order.objects.get()


def _due_now():
    OutboundWhatsApp.objects.update(next_attempt_at=timezone.now())


def test_chat_links_name_the_product_or_order_in_the_page_language(api, client, make_product, checkout_body):
    # given a store WhatsApp number
    store_settings_update(whatsapp_number="+20 100 123 4567")
    tea, order = _place(api, make_product, checkout_body)
    base = "https://wa.me/201001234567?text="
    # then the product page (EN and AR), contact, thank-you and tracking pages link to it
    # the product's title is typed text, isolated in the message (FSI … PDI) as in every sentence
    assert base + quote("Hello, I have a question about \u2068Kericho Gold Breakfast\u2069.") in \
        client.get(f"/product/{tea.slug}").content.decode()
    assert base + quote("مرحبًا، لدي سؤال عن \u2068Kericho Gold Breakfast\u2069.") in \
        client.get(f"/ar/product/{tea.slug}").content.decode()
    assert base + quote("Hello, I have a question about your tea.") in client.get("/contact").content.decode()
    with_order = quote(f"Hello, I have a question about my order {order.number}.")
    assert base + with_order in api.get(f"/thankyou?order={order.number}").content.decode()
    assert base + quote(f"مرحبًا، لدي سؤال عن طلبي {order.number}.") in \
        client.get(tracking_path(order, "ar")).content.decode()
    # and the maintenance page
    store_settings_update(maintenance_mode=True)
    closed = client.get("/ar/")
    assert closed.status_code == 503 and base + quote("مرحبًا، لدي سؤال أثناء إغلاق المتجر للصيانة.") in \
        closed.content.decode()


def test_no_number_no_links(client, make_product):
    tea = make_product()
    assert "wa.me" not in client.get(f"/product/{tea.slug}").content.decode()
    assert chat_url("", "hi") == ""


def test_without_opt_in_no_message_is_queued(api, make_product, checkout_body):
    _place(api, make_product, checkout_body)
    assert not OutboundWhatsApp.objects.exists()


def test_opted_in_updates_go_through_the_cloud_api(api, make_product, checkout_body, fake_whatsapp):
    # given a customer who ticked the WhatsApp box at checkout
    _tea, order = _place(api, make_product, checkout_body, whatsappOptIn=True)
    assert order.whatsapp_opt_in
    # when the outbox is swept
    assert whatsapp_send_due() == 1
    # then the Cloud API got a text to the checkout phone with the country code and the tracking link
    sent = fake_whatsapp.messages[0]
    assert sent["to"] == "201012345678" and not fake_whatsapp.errors
    assert order.number in sent["text"]["body"] and "/track/" in sent["text"]["body"]
    message = OutboundWhatsApp.objects.get()
    assert message.status == OutboundWhatsAppStatus.SENT and message.provider_id == "wamid.TEST1"
    # and a shipment with its courier goes out too
    order_set_status(order=order, status="shipped", courier="Bosta", tracking_number="BX-1")
    whatsapp_send_due()
    assert "Bosta" in fake_whatsapp.messages[1]["text"]["body"] and "BX-1" in fake_whatsapp.messages[1]["text"]["body"]


def test_a_failed_send_is_retried_and_never_touches_the_order(api, make_product, checkout_body, fake_whatsapp):
    # given the Cloud API failing twice
    fake_whatsapp.fail_next = 2
    _tea, order = _place(api, make_product, checkout_body, whatsappOptIn=True)
    # when the sweep runs: the message is kept for a retry, the order is untouched
    assert whatsapp_send_due() == 0
    message = OutboundWhatsApp.objects.get()
    assert message.status == OutboundWhatsAppStatus.QUEUED and message.attempts == 1
    assert "HTTP 500" in message.last_error and message.next_attempt_at > timezone.now()
    assert Order.objects.get().status == "processing"
    # a retry before its time does nothing; once due it is tried again, then delivered
    assert whatsapp_send_due() == 0 and OutboundWhatsApp.objects.get().attempts == 1
    _due_now()
    assert whatsapp_send_due() == 0
    _due_now()
    assert whatsapp_send_due() == 1
    message.refresh_from_db()
    assert message.status == OutboundWhatsAppStatus.SENT and message.attempts == 3
    assert len(fake_whatsapp.messages) == 1


def test_a_message_the_service_took_is_never_sent_again_whatever_its_answer_says(fake_whatsapp):
    # given a message, and the Cloud API taking it but answering 200 with a body that is not Meta's
    OutboundWhatsApp.objects.create(to="201012345670", text="Your order is on its way.", next_attempt_at=timezone.now())
    fake_whatsapp.garble_next = 1
    # when the sweep runs, and runs again once any retry would be due
    assert whatsapp_send_due() == 1
    _due_now()
    whatsapp_send_due()
    # then the customer got it once: a 2xx is the service's "taken", and a retry would send it twice
    assert len(fake_whatsapp.messages) == 1
    message = OutboundWhatsApp.objects.get()
    assert (message.status, message.attempts) == (OutboundWhatsAppStatus.SENT, 1)


def test_a_sweep_stops_at_the_first_message_the_service_fails_and_leaves_the_rest_due(fake_whatsapp):
    # given three messages due and the Cloud API down
    for n in range(3):
        OutboundWhatsApp.objects.create(to=f"20101234567{n}", text="Your order is on its way.",
                                        next_attempt_at=timezone.now())
    fake_whatsapp.fail_next = 10
    # when the sweep runs
    assert whatsapp_send_due() == 0
    # then it tried one, not one after another; the other two wait, untried
    assert sorted(OutboundWhatsApp.objects.values_list("attempts", flat=True)) == [0, 0, 1]
    assert OutboundWhatsApp.objects.filter(status=OutboundWhatsAppStatus.QUEUED).count() == 3
    assert fake_whatsapp.fail_next == 9


def test_wrong_credentials_are_given_up_after_the_attempts(api, make_product, checkout_body, fake_whatsapp, settings):
    settings.WHATSAPP_ACCESS_TOKEN = "expired"
    settings.EMAIL_MAX_ATTEMPTS = 2
    _place(api, make_product, checkout_body, whatsappOptIn=True)
    whatsapp_send_due()
    _due_now()
    whatsapp_send_due()
    message = OutboundWhatsApp.objects.get()
    assert message.status == OutboundWhatsAppStatus.FAILED and "HTTP 401" in message.last_error


def test_the_console_sender_is_the_default(api, make_product, checkout_body, caplog):
    _place(api, make_product, checkout_body, whatsappOptIn=True)
    with caplog.at_level("INFO", logger="shop.whatsapp"):
        assert whatsapp_send_due() == 1
    assert "WhatsApp to …678" in caplog.text


def test_the_console_sender_logs_neither_the_phone_number_nor_the_tracking_link(api, make_product, checkout_body,
                                                                                caplog):
    # the default sender in production too: the link's token opens the order's page (name, address, phone)
    _tea, order = _place(api, make_product, checkout_body, whatsappOptIn=True)
    with caplog.at_level("INFO", logger="shop.whatsapp"):
        assert whatsapp_send_due() == 1
    token = tracking_path(order).rsplit("/", 1)[1]
    assert "/track/…" in caplog.text and "Track your order" in caplog.text
    assert token not in caplog.text and "201012345678" not in caplog.text


def test_a_failed_send_logs_no_phone_number(api, make_product, checkout_body, fake_whatsapp, caplog):
    fake_whatsapp.fail_next = 1
    _place(api, make_product, checkout_body, whatsappOptIn=True)
    with caplog.at_level("INFO", logger="shop.whatsapp"):
        assert whatsapp_send_due() == 0
    assert "failed (attempt 1)" in caplog.text and "201012345678" not in caplog.text


def test_a_message_whose_worker_dies_on_every_attempt_is_given_up(fake_whatsapp, settings):
    # given: the last allowed attempt's worker died while sending
    settings.EMAIL_MAX_ATTEMPTS = 3
    message = OutboundWhatsApp.objects.create(
        to="201012345670", text="Your order is on its way.", status=OutboundWhatsAppStatus.SENDING, attempts=3,
        locked_until=timezone.now() - timedelta(seconds=1))
    # when
    sent = whatsapp_send_due()
    # then: no fourth attempt; it is failed, not "sending" for ever
    message.refresh_from_db()
    assert sent == 0 and fake_whatsapp.messages == []
    assert (message.status, message.attempts) == (OutboundWhatsAppStatus.FAILED, 3)
    assert "worker stopped" in message.last_error


def test_a_service_that_trickles_its_answer_is_given_up_at_the_time_limit_and_the_message_kept(settings):
    # given a message due, and a WhatsApp service answering a byte every 0.1 s (each well within the wait for
    # bytes, the whole answer some 8 s) where the time limit is 1 s: a limit per read never ran out
    import time

    from shop.tests.trickle_server import TrickleServer

    OutboundWhatsApp.objects.create(to="201012345670", text="Your order is on its way.", next_attempt_at=timezone.now())
    settings.WHATSAPP_BACKEND = "cloud"
    settings.WHATSAPP_PHONE_NUMBER_ID, settings.WHATSAPP_ACCESS_TOKEN = "1055551234", "test-token"
    settings.WHATSAPP_TIMEOUT = 1.0  # stands in for the 10 s a message may take
    with TrickleServer() as service:
        settings.WHATSAPP_API_URL = service.url
        # when the sweep runs
        started = time.monotonic()
        sent = whatsapp_send_due()
        waited = time.monotonic() - started
    # then it gave up at the limit, the worker free again, and the message waits for a later sweep
    assert sent == 0 and waited < 1.0 + 0.6
    message = OutboundWhatsApp.objects.get()
    assert (message.status, message.attempts) == (OutboundWhatsAppStatus.QUEUED, 1)
    assert "DeadlinePassed" in message.last_error and message.next_attempt_at > timezone.now()
