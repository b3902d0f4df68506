"""The notes the shop writes itself in an order's status history (orders.notes): each is written in English
and read in Arabic, and every writer takes its note from there, so none is read back in English on an
Arabic page (a note added without its Arabic text fails here, and so does a note written as a literal)."""

import ast
import re
from pathlib import Path

import pytest
from django.utils import translation

from orders import notes
from orders.notes import SYSTEM_NOTES, note_placeholders, note_write
from orders.selectors import status_note_text

ROOT = Path(__file__).resolve().parents[2]
# a value kept as written, direction-isolated in the Arabic text
_ISOLATED = re.compile(r"\u2068[^\u2069]*\u2069")
_LATIN_LETTER = re.compile(r"[A-Za-z]")


def _sample_values(note):
    # digits: a value the Arabic keeps as written is told apart from English words left in it
    return {name: str(1000 + i) for i, name in enumerate(note_placeholders(note))}


@pytest.mark.parametrize("note", SYSTEM_NOTES)
def test_every_note_written_with_its_values_is_read_in_arabic(note):
    # given the note as a writer stores it
    values = _sample_values(note)
    written = note_write(note, **values)
    # when it is read on an Arabic page
    with translation.override("ar"):
        read = status_note_text(written, by_staff=False)
    # then it is Arabic (a Latin name only direction-isolated), with each value as written
    assert read != written
    assert not _LATIN_LETTER.search(_ISOLATED.sub("", read)), read
    assert all(value in read for value in values.values())
    # and in English as it was written
    with translation.override("en"):
        assert status_note_text(written, by_staff=False) == written


def test_a_value_that_looks_like_more_of_a_note_is_kept_whole():
    # given a decline note whose kiosk reference still awaits the cash, and a provider's reason with brackets
    declined = note_write(notes.PAYMENT_DECLINED_KIOSK_OPEN, reference="880002")
    silent = note_write(notes.UNPAID_PROVIDER_SILENT, hours="24", provider="Paymob", reason="timeout (10 s)")
    # when / then the longer note is read as itself, not as the shorter one it begins with
    with translation.override("ar"):
        assert status_note_text(declined, by_staff=False) == (
            translation.gettext(notes.PAYMENT_DECLINED_KIOSK_OPEN) % {"reference": "880002"})
        assert "\u2068timeout (10 s)\u2069" in status_note_text(silent, by_staff=False)


def test_a_note_written_before_the_constants_is_read_as_the_same_note():
    # given the English a row written by the old code holds
    with translation.override("ar"):
        # when / then
        assert status_note_text("Paid (paymob 12345)", by_staff=False) == "مدفوع (\u2068paymob 12345\u2069)"
        assert status_note_text("Unpaid for 24 hours, its payment reported pending (kiosk)", by_staff=False) == (
            "لم يُدفع خلال 24 ساعة، وكان دفعه معلّقًا (الدفع نقدًا في منفذ)")


def test_a_note_is_written_with_exactly_its_values():
    with pytest.raises(ValueError):
        note_write(notes.PAID)
    with pytest.raises(ValueError):
        note_write(notes.ORDER_PLACED, reference="1")


# what writes a status change's note: a literal passed to one of these is a note the reader cannot translate
_WRITERS = {"order_set_status", "order_cancel", "order_expire_unpaid", "order_mark_paid", "order_payment_failed",
            "order_stock_hand_over", "create"}
_APPS = ("shop", "accounts", "catalog", "orders", "backoffice", "importer")


def _literal(value):
    """Whether `value` is, or may be (`note or "…"`, `"…" if … else …`), text written in place."""
    if isinstance(value, ast.BoolOp):
        return any(_literal(operand) for operand in value.values)
    if isinstance(value, ast.IfExp):
        return _literal(value.body) or _literal(value.orelse)
    return isinstance(value, ast.Constant | ast.JoinedStr | ast.BinOp)


def _literal_notes(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if name not in _WRITERS:
                continue
            for keyword in node.keywords:
                if keyword.arg == "note" and _literal(keyword.value):
                    yield f"{path.relative_to(ROOT)}:{node.lineno}"
        elif isinstance(node, ast.FunctionDef) and node.name in _WRITERS:
            positional = node.args.args[len(node.args.args) - len(node.args.defaults):]
            for argument, default in [*zip(positional, node.args.defaults, strict=True),
                                      *zip(node.args.kwonlyargs, node.args.kw_defaults, strict=True)]:
                if argument.arg == "note" and isinstance(default, ast.Constant) and default.value:
                    yield f"{path.relative_to(ROOT)}:{node.lineno}"


def test_every_status_note_the_shop_writes_comes_from_orders_notes():
    sources = [path for app in _APPS for path in (ROOT / app).rglob("*.py")
               if "tests" not in path.parts and "migrations" not in path.parts]
    assert [where for path in sources for where in _literal_notes(path)] == []
