"""Staff documents: bulk invoices and packing slips as one PDF, and the order print view.

Plain GET pages beside the dashboard shell (a link or a new tab prints them);
staff whose role may see orders only.
"""

from django.http import Http404, HttpResponseForbidden, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache

from accounts.roles import bulk_cap, has_permission, is_staff_member
from backoffice.orders import SELECTION_MAX
from orders.documents import LANGUAGES, Kind, document_section, invoice_url
from orders.models import Order
from orders.views import pdf_response
from shop.validation import id_parse

MAX_ORDERS = SELECTION_MAX  # one print run; more would be a very long PDF to build in a request


def _staff_gate(request):
    if not is_staff_member(request.user):
        return HttpResponseRedirect(reverse("backoffice:adminauth"))
    if not has_permission(request.user, "orders", "view"):
        return HttpResponseForbidden(_("Admin permissions required"))
    return None


def _ids(raw):
    ids = []
    for part in (raw or "").split(","):
        order_id = id_parse(part.strip())
        if order_id is not None:
            ids.append(order_id)
    return ids[:MAX_ORDERS]


@never_cache
def orders_documents_pdf(request):
    """`?kind=invoice|packing-slip&ids=3,1,2`: the selected orders in one PDF, in the order given.

    Packing slips are in the dashboard's language (staff read them); invoices
    in each order's own language unless `lang` asks for one.
    """
    if (refused := _staff_gate(request)) is not None:
        return refused
    kind = request.GET.get("kind") or Kind.PACKING_SLIP
    if kind not in (Kind.INVOICE, Kind.PACKING_SLIP):
        raise Http404
    ids = _ids(request.GET.get("ids"))
    most = bulk_cap(request.user, "print_orders", MAX_ORDERS)
    if len(set(ids)) > most:  # Support (accounts.roles.BULK_CAPS): a few customers' addresses at a time
        return HttpResponseForbidden(
            ngettext("Your role may print at most %(most)d order at a time: select fewer orders.",
                     "Your role may print at most %(most)d orders at a time: select fewer orders.", most)
            % {"most": most}, content_type="text/plain; charset=utf-8")
    found = {o.pk: o for o in Order.objects.filter(pk__in=ids).prefetch_related("items__product")}
    orders = [found[i] for i in dict.fromkeys(ids) if i in found]
    if not orders:
        raise Http404
    language = request.GET.get("lang")
    if language not in LANGUAGES:
        language = get_language() if kind == Kind.PACKING_SLIP else None
    return pdf_response(orders=orders, kind=kind, language=language)


@never_cache
def order_print(request, order_id):
    """The order detail as a printable page (the browser's Print), with links to its PDFs."""
    if (refused := _staff_gate(request)) is not None:
        return refused
    order = Order.objects.filter(pk=order_id).prefetch_related("items__product").first()
    if order is None:
        raise Http404
    language = get_language()
    context = {
        "sections": [document_section(order=order, kind=Kind.INVOICE, language=language)],
        "order": order, "kind": Kind.INVOICE, "LANG": language, "dir": "rtl" if language == "ar" else "ltr",
        "nonce": str(getattr(request, "csp_nonce", "")),  # str(): the lazy nonce is falsy until read
        "invoice_links": [(code, invoice_url(order=order, language=code)) for code in LANGUAGES],
        "packing_url": f"{reverse('backoffice:order-documents')}?kind={Kind.PACKING_SLIP}&ids={order.pk}",
    }
    return render(request, "backoffice/order_print.html", context)
