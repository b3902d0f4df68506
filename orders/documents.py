"""Order documents: the invoice (PDF, English or Arabic), packing slips and the print view.

One HTML template per document, rendered in the document's language and laid
out by WeasyPrint (Pango shapes the Arabic, Noto fonts draw it). Several
orders make one PDF, one order per page. Who may open an order's invoice is
decided here too (`invoice_allowed`), so the account page, the thank-you page,
the tracking page (for its owner only) and the dashboard all link the same URL
(`invoice_url`).
"""

from collections.abc import Sequence
from dataclasses import dataclass

from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from accounts.roles import has_permission
from orders.models import Order, OrderItem
from orders.selectors import session_owns
from shop.store_settings import store_settings_get

LANGUAGES = ("en", "ar")


class Kind:
    INVOICE = "invoice"
    PACKING_SLIP = "packing-slip"


@dataclass(frozen=True)
class DocumentLine:
    title: str
    quantity: int
    unit_price: object
    line_total: object


def invoice_url(*, order: Order, language: str = "en") -> str:
    """The invoice PDF's address in `language` (it opens only for those `invoice_allowed` lets in)."""
    with translation.override(language if language in LANGUAGES else "en"):
        return reverse("orders:invoice", kwargs={"number": order.number})


def invoice_allowed(request: HttpRequest, order: Order) -> bool:
    """The customer who owns it (or the session that placed it), or staff who may see orders.

    The invoice carries the full address, phone and e-mail, so no link opens it for whoever holds it: the
    tracking link and a number + phone lookup show only the masked address (README, "Decisions")."""
    return session_owns(request, order) or has_permission(getattr(request, "user", None), "orders", "view")


def _line_title(item: OrderItem, language: str) -> str:
    """The product's name in the document's language when the product still exists, else the title bought."""
    product = item.product
    if product is not None:
        title = getattr(product, f"title_{language}", "") or ""
        if title.strip():
            return title
    return item.product_title


def _lines(order: Order, language: str) -> list[DocumentLine]:
    return [DocumentLine(_line_title(item, language), item.quantity, item.unit_price_amount, item.line_total_amount)
            for item in order.items.all()]


def document_section(*, order: Order, kind: str, language: str) -> str:
    """One order's page of a document, rendered in `language` (HTML)."""
    language = language if language in LANGUAGES else "en"
    template = "orders/documents/packing_slip.html" if kind == Kind.PACKING_SLIP else "orders/documents/invoice.html"
    with translation.override(language):
        lines = _lines(order, language)
        return render_to_string(template, {
            "order": order, "lines": lines, "units": sum(line.quantity for line in lines),
            "store": store_settings_get(), "LANG": language, "dir": "rtl" if language == "ar" else "ltr",
        })


def document_html(*, orders: Sequence[Order], kind: str, language: str | None = None) -> str:
    """The whole document as HTML: one section per order; `language` None means each order's own language."""
    sections = [document_section(order=order, kind=kind, language=language or order.language) for order in orders]
    page_language = language or (orders[0].language if orders else "en")
    with translation.override(page_language if page_language in LANGUAGES else "en"):
        return render_to_string("orders/documents/document.html", {
            "sections": sections, "kind": kind, "LANG": page_language,
            "dir": "rtl" if page_language == "ar" else "ltr",
        })


def document_pdf(*, orders: Sequence[Order], kind: str, language: str | None = None) -> bytes:
    """The document as PDF bytes (WeasyPrint), one order per page."""
    # imported on first use: WeasyPrint (Pango, fonts, its default CSS) takes about 3 s to import,
    # which every process (web, worker, manage.py, tests) would otherwise pay at start-up
    from weasyprint import HTML  # noqa: PLC0415

    pdf: bytes = HTML(string=document_html(orders=orders, kind=kind, language=language)).write_pdf()
    return pdf


def document_filename(*, orders: Sequence[Order], kind: str) -> str:
    if len(orders) == 1:
        return f"{kind}-{orders[0].number}.pdf"
    return f"{kind}s-{len(orders)}.pdf"
