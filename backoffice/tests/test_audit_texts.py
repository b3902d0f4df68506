"""The audit log's details the shop writes as sentences (backoffice.audit_texts): stored in English, read in
Arabic on the Arabic overview's recent activity; data (a title, an e-mail address) as written. A sentence
added without its Arabic text fails here, and so does one written in place in the modules that use them."""

import ast
import re
from pathlib import Path

import pytest
from django.utils import translation

from backoffice import audit_texts as texts
from backoffice.audit import audit_record
from backoffice.audit_texts import ACTION_TEXTS, AUDIT_TEXTS, audit_details_text, audit_text
from backoffice.models import AuditEntry
from orders import notes
from orders.actions import order_cancel, order_mark_paid
from orders.notes import note_write
from shop.stored_texts import stored_text_placeholders
from tests.factories import make_order

ROOT = Path(__file__).resolve().parents[2]
_ISOLATED = re.compile(r"\u2068[^\u2069]*\u2069")
_LATIN_LETTER = re.compile(r"[A-Za-z]")


def _action_of(text):
    return next(action for action, texts in ACTION_TEXTS.items() if text in texts)


def test_every_sentence_is_some_actions_own():
    assert {text for texts in ACTION_TEXTS.values() for text in texts} == set(AUDIT_TEXTS)


@pytest.mark.parametrize("text", AUDIT_TEXTS)
def test_every_sentence_written_with_its_values_is_read_in_arabic(text):
    # given the sentence as a writer stores it, with values of digits (kept as written, told apart from words)
    values = {name: str(1000 + i) for i, name in enumerate(stored_text_placeholders(text))}
    written = audit_text(text, **values)
    action = _action_of(text)
    # when it is read on an Arabic page
    with translation.override("ar"):
        read = audit_details_text(written, action)
    # then it is Arabic (a Latin name only direction-isolated), with each value as written
    assert read != written
    assert not _LATIN_LETTER.search(_ISOLATED.sub("", read)), read
    assert all(value in read for value in values.values())
    with translation.override("en"):
        assert audit_details_text(written, action) == written


@pytest.mark.django_db
def test_the_arabic_overview_reads_the_shops_sentences_in_arabic_and_data_as_written(client, owner, manager):
    # given a paid order cancelled by staff (a refund due), money captured on a cancelled order (its note the
    # provider's), a two-step reset and a customer's e-mail address as details
    paid = make_order(payment_status="paid")
    order_cancel(order=paid, actor=manager)
    captured = make_order(payment_status="awaiting", status="cancelled")
    order_mark_paid(order=captured, note=note_write(notes.PAID, reference="paymob 77"))
    audit_record(actor=owner, action="staff.two_step_reset", details=audit_text(texts.TWO_STEP_RESET,
                                                                                username="hoda"))
    audit_record(actor=owner, action="customer.create", details="mona@example.com")
    client.force_login(owner)
    # when
    arabic = [a["details"] for a in client.get("/api/admin/dashboard", HTTP_ACCEPT_LANGUAGE="ar").json()[
        "recentActivity"]]
    english = [a["details"] for a in client.get("/api/admin/dashboard", HTTP_ACCEPT_LANGUAGE="en").json()[
        "recentActivity"]]
    # then
    assert arabic == [
        "mona@example.com",
        "أُعيد ضبط التحقق بخطوتين لـ\u2068hoda\u2069",
        f"\u2068{captured.number}\u2069: استُلم {captured.total_amount} جنيه على طلب ملغى "
        f"(\u2068paid_after_cancel\u2069؛ \u2068مدفوع (\u2068paymob 77\u2069)\u2069). استرده أو أعد تفعيل الطلب.",
        f"\u2068{paid.number}\u2069: أُلغي وقد دُفع {paid.total_amount} جنيه. استرده من لوحة تحكم مزوّد الدفع.",
    ]
    assert english == [
        "mona@example.com",
        "Two-step sign-in reset for hoda",
        f"{captured.number}: {captured.total_amount} EGP captured on a cancelled order (paid_after_cancel; "
        f"Paid (paymob 77)). Refund it or restore the order.",
        f"{paid.number}: cancelled with {paid.total_amount} EGP paid. Refund it in the payment provider's "
        f"dashboard.",
    ]


@pytest.mark.django_db
def test_money_captured_on_a_cancelled_order_without_a_note_is_read_wholly_in_arabic():
    # given money captured on a cancelled order, its payment without a note
    order = make_order(payment_status="awaiting", status="cancelled")
    order_mark_paid(order=order, note="")
    entry = AuditEntry.objects.get(action="order.captured_on_cancelled")
    # when it is read on an Arabic page
    with translation.override("ar"):
        read = audit_details_text(entry.details, entry.action)
    # then its payment is named in Arabic, no English word "payment" in the sentence
    assert "payment" not in read.lower()
    assert "تم استلام الدفعة" in read
    with translation.override("en"):
        assert "(paid_after_cancel; Payment received)" in audit_details_text(entry.details, entry.action)


# the modules whose audit entries say a sentence: each takes it from backoffice.audit_texts
_WRITERS = ("orders/actions.py", "backoffice/orders.py", "backoffice/two_step.py", "backoffice/database.py",
            "backoffice/storage.py")


def _says_words(value):
    """Whether `value`, a text written in place, says words of its own (its values aside: an order's number
    and a staff member's note are data)."""
    if isinstance(value, ast.JoinedStr):
        return any(_says_words(part) for part in value.values if isinstance(part, ast.Constant))
    return isinstance(value, ast.Constant) and bool(re.search(r"[A-Za-z]{3}", str(value.value)))


def test_every_sentence_those_modules_audit_comes_from_audit_texts():
    found = []
    for name in _WRITERS:
        for node in ast.walk(ast.parse((ROOT / name).read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") in ("audit_record", "_order_flag"):
                found += [f"{name}:{node.lineno}" for keyword in node.keywords
                          if keyword.arg == "details" and _says_words(keyword.value)]
    assert found == []


@pytest.mark.django_db
def test_a_status_set_by_staff_is_read_with_the_statuses_names_in_arabic(client, manager):
    # given
    order = make_order(status="processing")
    client.force_login(manager)
    client.put(f"/api/admin/orders/{order.pk}/status", {"status": "shipped"}, content_type="application/json")
    # when
    entry = client.get("/api/admin/dashboard", HTTP_ACCEPT_LANGUAGE="ar").json()["recentActivity"][0]
    # then the arrow points from the status it left to the one it took, right to left
    assert (entry["action"], entry["details"]) == (
        "order.status", f"\u2068{order.number}\u2069: \u2068قيد التجهيز\u2069 ← \u2068تم الشحن\u2069")


@pytest.mark.parametrize("action, details, arabic", [
    # a contact message's status: the arrow points the Arabic reader's way too
    ("message.status", "mona@example.com: new → replied",
     "\u2068mona@example.com\u2069: \u2068جديدة\u2069 ← \u2068تم الرد\u2069"),
    # data, and a sentence no longer written, as written
    ("product.update", "Kenya Gold (250 g)", "Kenya Gold (250 g)"),
    ("order.refund_due", "Something the shop once wrote", "Something the shop once wrote"),
])
def test_other_details_are_read_as_the_reader_reads_them(action, details, arabic):
    with translation.override("ar"):
        assert audit_details_text(details, action) == arabic


@pytest.mark.parametrize("action, details", [
    # stock counted by hand, a product's title: data of their own actions, whatever sentence they look like
    ("inventory.set", "Kenya Gold: 10 → 5"),
    ("inventory.set", "Kenya Gold: processing → shipped"),
    ("product.update", "Two-step sign-in reset for hoda"),
    ("importer.crawl_cancel", "all tables"),
])
def test_data_is_read_as_written_whatever_sentence_it_looks_like(action, details):
    with translation.override("ar"):
        assert audit_details_text(details, action) == details
