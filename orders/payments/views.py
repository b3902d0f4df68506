"""Provider-facing HTTP: Paymob's server-to-server callback and the sandbox page."""

import logging

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest, HttpResponseForbidden
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from orders.models import Payment, PaymentStatus
from orders.payments import sandbox_enabled
from orders.payments.sandbox import SandboxProvider
from orders.payments.services import CallbackRejected, callback_process
from orders.selectors import session_owns
from shop.api.parsers import json_loads

logger = logging.getLogger("orders.payments")


@csrf_exempt
@require_POST
def paymob_callback(request: HttpRequest) -> HttpResponse:
    """Paymob's transaction-processed callback: raw JSON body, `?hmac=` in the query."""
    try:
        body = json_loads(request.body.decode("utf-8"))
    except ValueError:  # not UTF-8, not JSON, too deep, NaN or a huge number
        logger.warning("paymob callback with a malformed body rejected")
        return HttpResponseBadRequest("malformed body")
    try:
        callback_process(provider_name="paymob", body=body, received_hmac=request.GET.get("hmac", ""))
    except CallbackRejected as exc:
        if exc.status == 403:
            return HttpResponseForbidden("bad hmac")
        return HttpResponseBadRequest(exc.reason)
    return HttpResponse("ok")


@require_http_methods(["GET", "POST"])
def sandbox_page(request: HttpRequest, payment_id: str) -> HttpResponse:
    """The local 'Test payment' page: Pay or Decline, then the Paymob-like return.

    It does not exist when the sandbox is off or cards go to Paymob, and only
    the visitor who placed the order may see it (404 for anyone else holding
    the payment id, so nothing is disclosed).
    """
    if not sandbox_enabled():
        raise Http404
    payment = get_object_or_404(Payment.objects.select_related("order"), payment_id=payment_id,
                                provider="sandbox")
    if not session_owns(request, payment.order):
        raise Http404
    if request.method == "POST" and payment.status == PaymentStatus.AWAITING:
        body, signature = SandboxProvider().transaction(payment=payment, success=request.POST.get("action") == "pay")
        try:
            callback_process(provider_name="sandbox", body=body, received_hmac=signature)
        except CallbackRejected as exc:
            logger.warning("sandbox callback rejected: %s", exc.reason)
    if request.method == "POST":
        return redirect(f"{reverse('orders:payment-success')}?payment_id={payment.payment_id}")
    return render(request, "orders/sandbox.html", {"payment": payment, "order": payment.order})
