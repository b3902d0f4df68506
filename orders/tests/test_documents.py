"""Invoices and packing slips: PDF text in English and Arabic, who may open them, bulk print."""

import io
import shutil
import subprocess
from decimal import Decimal
from pathlib import Path

import pytest
from pypdf import PdfReader

from orders.documents import Kind, document_pdf, invoice_url
from orders.models import Coupon, Order
from shop.store_settings import store_settings_update
from tests.factories import make_order, make_product

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def _text(pdf_bytes):
    reader = PdfReader(io.BytesIO(pdf_bytes))
    return [page.extract_text() for page in reader.pages]


def _fonts(pdf_bytes):
    reader = PdfReader(io.BytesIO(pdf_bytes))
    names = set()
    for page in reader.pages:
        for font in (page["/Resources"].get("/Font") or {}).values():
            names.add(str(font.get_object()["/BaseFont"]))
    return names


@pytest.fixture
def order(db):
    # 2 × 250.00 − 50.00 coupon + 50.00 shipping + 15.00 COD fee = 515.00, VAT 14% of 450.00 included
    product = make_product(price="250.00", title="Kericho Gold Pure Black 250 g",
                           title_ar="شاي كريتشو الأسود 250 g")
    Coupon.objects.create(code="SAVE50", type="fixed", value=Decimal("50.00"))
    store_settings_update(store_name="Nile Highlands Tea", tax_registration_number="123-456-789",
                          cod_fee=Decimal("15.00"))
    return make_order(lines=[(product, 2)], payment_status="cod", coupon_code="SAVE50")


def test_invoice_pdf_in_english_lists_store_tax_number_lines_and_every_total(order):
    pages = _text(document_pdf(orders=[order], kind=Kind.INVOICE, language="en"))
    assert len(pages) == 1
    text = pages[0]
    for expected in ("Nile Highlands Tea", "Tax registration number", "123-456-789", order.number,
                     "Kericho Gold Pure Black", "E£500.00", "SAVE50", "-E£50.00", "Shipping", "E£50.00",
                     "Cash on delivery fee", "E£15.00", "Includes VAT", "E£63.25", "Total", "E£515.00"):
        assert expected in text, expected


def test_invoice_pdf_in_arabic_is_arabic_with_an_arabic_font(order):
    pdf = document_pdf(orders=[order], kind=Kind.INVOICE, language="ar")
    text = _text(pdf)[0]
    for expected in ("فاتورة", "رقم التسجيل الضريبي", "شاي كريتشو الأسود", "515.00", "ضريبة القيمة المضافة",
                     "رسوم الدفع عند الاستلام", "SAVE50"):
        assert expected in text, expected
    assert "Kericho Gold Pure Black" not in text  # the product's Arabic title, not the English snapshot
    assert any("NotoSansArabic" in name.replace("-", "") for name in _fonts(pdf))


def test_invoice_pdf_in_arabic_keeps_latin_addresses_and_the_discount_left_to_right(order):
    # WeasyPrint gives <bdi> no direction of its own (no dir="auto"): "12 Tahrir St" printed as "Tahrir St 12",
    # and the discount's minus sign right of its digits ("50.00-")
    Order.objects.filter(pk=order.pk).update(street="12 Tahrir St", building="5B")
    order.refresh_from_db()
    text = _text(document_pdf(orders=[order], kind=Kind.INVOICE, language="ar"))[0]
    assert "12 Tahrir St" in text
    assert "-50.00" in text and "50.00-" not in text


@pytest.mark.skipif(not shutil.which("pdftoppm"), reason="poppler-utils (make test installs it)")
@pytest.mark.parametrize("language", ["en", "ar"])
def test_invoice_renders_to_a_picture(order, language, tmp_path):
    """A page as PNG in test-artifacts/, to look at (RTL layout, shaped Arabic)."""
    pdf = tmp_path / "invoice.pdf"
    pdf.write_bytes(document_pdf(orders=[order], kind=Kind.INVOICE, language=language))
    ARTIFACTS.mkdir(exist_ok=True)
    target = ARTIFACTS / f"invoice-{language}"
    subprocess.run(["pdftoppm", "-png", "-r", "80", "-singlefile", str(pdf), str(target)], check=True)
    assert (ARTIFACTS / f"invoice-{language}.png").stat().st_size > 10_000


def test_packing_slip_has_lines_and_cash_to_collect_but_no_prices(order):
    text = _text(document_pdf(orders=[order], kind=Kind.PACKING_SLIP, language="en"))[0]
    assert "Packing slip" in text and "Kericho Gold Pure Black" in text
    assert "Collect on delivery" in text and "E£515.00" in text
    assert "E£250.00" not in text  # unit prices are not the packer's business


def test_owner_of_the_order_downloads_it_in_the_page_language(client, alice, order):
    order.user = alice
    order.save()
    client.force_login(alice)
    answer = client.get(f"/ar/orders/{order.number}/invoice.pdf")
    assert answer.status_code == 200
    assert answer["Content-Type"] == "application/pdf"
    assert f"invoice-{order.number}.pdf" in answer["Content-Disposition"]
    assert "فاتورة" in _text(answer.content)[0]
    english = client.get(f"/orders/{order.number}/invoice.pdf")
    assert "Invoice" in _text(english.content)[0]


def test_others_get_404_whatever_link_they_hold(client, bob, order):
    url = invoice_url(order=order, language="ar")
    assert url == f"/ar/orders/{order.number}/invoice.pdf"
    assert client.get(url).status_code == 404
    client.force_login(bob)
    assert client.get(url).status_code == 404
    assert client.get(url + "?t=" + "0" * 32).status_code == 404


def test_staff_with_orders_open_any_invoice(client, support, order):
    client.force_login(support)
    assert client.get(f"/orders/{order.number}/invoice.pdf").status_code == 200


def test_bulk_packing_slips_are_one_pdf_one_page_per_order_in_the_given_order(client, support, order):
    other = make_order(lines=[(make_product(title="Green Tea", price="100.00"), 1)])
    client.force_login(support)
    answer = client.get(f"/admindash/orders/documents.pdf?kind=packing-slip&ids={other.pk},{order.pk},abc")
    assert answer.status_code == 200 and answer["Content-Type"] == "application/pdf"
    pages = _text(answer.content)
    assert len(pages) == 2
    assert other.number in pages[0] and "Green Tea" in pages[0]
    assert order.number in pages[1]
    arabic = client.get(f"/ar/admindash/orders/documents.pdf?kind=packing-slip&ids={order.pk}")
    assert "قائمة التعبئة" in _text(arabic.content)[0]
    invoices = client.get(f"/admindash/orders/documents.pdf?kind=invoice&ids={order.pk},{other.pk}")
    assert len(_text(invoices.content)) == 2


def test_bulk_print_is_for_staff_only(client, alice, order):
    url = f"/admindash/orders/documents.pdf?kind=invoice&ids={order.pk}"
    assert client.get(url).status_code == 302  # to /adminauth
    client.force_login(alice)
    assert client.get(url).status_code == 302
    assert client.get("/admindash/orders/documents.pdf?kind=invoice&ids=").status_code in (302,)


def test_bulk_print_without_known_orders_is_404(client, owner):
    client.force_login(owner)
    assert client.get("/admindash/orders/documents.pdf?kind=invoice&ids=999999").status_code == 404
    assert client.get("/admindash/orders/documents.pdf?kind=nonsense&ids=1").status_code == 404


def test_order_print_view_shows_the_order_and_links_its_pdfs(client, support, order):
    client.force_login(support)
    answer = client.get(f"/admindash/orders/{order.pk}/print")
    assert answer.status_code == 200
    body = answer.content.decode()
    assert order.number in body and "E£515.00" in body
    assert f"/orders/{order.number}/invoice.pdf" in body and f"/ar/orders/{order.number}/invoice.pdf" in body
    assert "kind=packing-slip" in body
    assert client.get("/admindash/orders/999999/print").status_code == 404


def test_tax_registration_number_is_a_store_setting_staff_can_save(owner, order):
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(owner)
    answer = api.put("/api/admin/settings", {"taxRegistrationNumber": "987-654-321"}, format="json")
    assert answer.status_code == 200 and answer.json()["taxRegistrationNumber"] == "987-654-321"
    assert "987-654-321" in _text(document_pdf(orders=[order], kind=Kind.INVOICE, language="en"))[0]
    bad = api.put("/api/admin/settings", {"taxRegistrationNumber": "1\n2"}, format="json")
    assert bad.status_code == 400


def test_dashboard_order_detail_links_its_documents(owner, order):
    from rest_framework.test import APIClient

    order.language = "ar"
    order.save()
    api = APIClient()
    api.force_authenticate(owner)
    documents = api.get(f"/api/admin/orders/{order.pk}").json()["documents"]
    assert documents == {
        "invoice": f"/ar/orders/{order.number}/invoice.pdf",  # the customer's language
        "packingSlip": f"/admindash/orders/documents.pdf?kind=packing-slip&ids={order.pk}",
        "print": f"/admindash/orders/{order.pk}/print",
    }
