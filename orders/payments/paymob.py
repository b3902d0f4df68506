"""Paymob: Intention API, unified checkout, HMAC-SHA512 callbacks, inquiry.

See docs/reference: the HMAC is over 20 fields in a fixed order, booleans as
lowercase `true`/`false`, empty for missing/null, compared in constant time.
"""

import hashlib
import hmac
import logging
import re
import time
from collections.abc import Mapping
from typing import Any

import requests
from django.conf import settings
from django.core.cache import cache

from orders.models import Order, Payment
from orders.payments.base import PaymentError, PaymentStart, TransactionResult
from shop.money import to_minor_units
from shop.outbound import DeadlinePassed, call_within, outside_transaction
from shop.validation import id_parse

logger = logging.getLogger(__name__)

HMAC_FIELDS = [
    "amount_cents", "created_at", "currency", "error_occured", "has_parent_transaction", "id",
    "integration_id", "is_3d_secure", "is_auth", "is_capture", "is_refunded",
    "is_standalone_payment", "is_voided", "order.id", "owner", "pending", "source_data.pan",
    "source_data.sub_type", "source_data.type", "success",
]


# Paymob's auth tokens last about an hour (Odoo refreshes after 55 minutes): one is reused until then
TOKEN_LIFETIME = 50 * 60


class _Unauthorized(PaymentError):
    """Paymob refused the credentials (401): a cached auth token it no longer accepts."""


def _text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _lookup(obj: Mapping[str, Any], dotted: str) -> Any:
    """Read `dotted` from a nested callback object or from flat redirect params."""
    if dotted in obj:  # flat GET params: "source_data.pan"
        return obj[dotted]
    if dotted == "order.id":
        order = obj.get("order")
        if isinstance(order, dict):
            return order.get("id")
        return order if order not in (None, "") else obj.get("order_id")
    value: Any = obj
    for part in dotted.split("."):
        if not isinstance(value, dict):
            return None
        value = value.get(part)
    return value


def hmac_message(obj: Mapping[str, Any]) -> str:
    """The concatenated string Paymob signs for a transaction object."""
    return "".join(_text(_lookup(obj, name)) for name in HMAC_FIELDS)


def hmac_sign(obj: Mapping[str, Any], secret: str) -> str:
    return hmac.new(secret.encode(), hmac_message(obj).encode(), hashlib.sha512).hexdigest()


# the signed fields that are booleans: each must be one, whole, for the signature to say what it seems to
HMAC_BOOLEANS = [name for name in HMAC_FIELDS
                 if name in ("error_occured", "has_parent_transaction", "pending", "success") or name.startswith("is_")]
# the shapes of the signed fields beside the amount: digits, a date that starts with its year, a currency code
# (ASCII digits: Python's \d also takes other scripts' digits, which int() reads as a number)
_SHAPES = {"amount_cents": re.compile(r"\d+", re.ASCII), "created_at": re.compile(r"\d{4}-\d\d-\d\dT.*", re.ASCII),
           "currency": re.compile(r"[A-Z]{3}")}


def _well_formed(obj: Mapping[str, Any]) -> bool:
    """Whether every signed boolean of `obj` is there and is `true` or `false`, and its amount, date and
    currency have their shapes.

    Paymob signs its fields run together with no separator, so the same signature holds for the same text
    split differently: "true false false false true false" (is_3d_secure … is_voided) also reads is_auth
    "falsefalse", is_refunded "true", is_standalone_payment "" (or left out); "35000" "2026-…" "EGP" (the
    amount, the date, the currency) also reads "3500" "02026-…", or the date's last digit on "6EGP". A
    payer holding the signed redirect of their own payment could so send reports Paymob never made."""
    return (all(_text(_lookup(obj, name)) in ("true", "false") for name in HMAC_BOOLEANS)
            and all(shape.fullmatch(_text(_lookup(obj, name))) for name, shape in _SHAPES.items()))


def hmac_verify(obj: object, received: object, secret: str) -> bool:
    """True only when `received` is the HMAC of `obj` under `secret` (constant time) and its signed fields
    are split as Paymob split them (_well_formed)."""
    if not secret or not received or not isinstance(obj, dict):
        return False
    return hmac.compare_digest(hmac_sign(obj, secret), str(received).lower()) and _well_formed(obj)


def _bool(value: object) -> bool:
    return value is True or str(value).lower() == "true"


def _returns(obj: Mapping[str, Any], cents: int) -> dict[str, Any]:
    """What a transaction says of money going back (TransactionResult.returns and the rest).

    Paymob's refund or void is a child transaction (`has_parent_transaction`, and not a capture, the other
    kind of child) whose `amount_cents` is what it returns; `parent_transaction`, unsigned, names what it
    returns. The parent is then sent again with `is_refunded` (and the unsigned total
    `refunded_amount_cents`, all of it when missing) or `is_voided`.
    """
    if _bool(_lookup(obj, "has_parent_transaction")) and not _bool(_lookup(obj, "is_capture")):
        return {"returns": "refund", "returns_transaction": _text(_lookup(obj, "parent_transaction"))}
    if _bool(_lookup(obj, "is_voided")):
        return {"returns": "voided"}
    if _bool(_lookup(obj, "is_refunded")):
        claimed = str(_lookup(obj, "refunded_amount_cents"))
        return {"returns": "refunded",
                "claimed_cents": int(claimed) if claimed.isdecimal() and len(claimed) < 12 else cents}
    return {}


def transaction_result(obj: Mapping[str, Any]) -> TransactionResult:
    """A TransactionResult from a callback `obj`, redirect params or inquiry answer."""
    try:
        cents = int(str(_lookup(obj, "amount_cents")))
    except (TypeError, ValueError):
        raise PaymentError("amount_cents missing", permanent=True) from None
    tx_id = _text(_lookup(obj, "id"))
    order_id = _text(_lookup(obj, "order.id"))
    if not tx_id or not order_id:
        raise PaymentError("transaction or order id missing", permanent=True)
    currency = _lookup(obj, "currency")
    if currency is None and isinstance(obj.get("order"), dict):
        currency = obj["order"].get("currency")
    return TransactionResult(
        transaction_id=tx_id, provider_order_id=order_id, success=_bool(_lookup(obj, "success")),
        pending=_bool(_lookup(obj, "pending")), amount_cents=cents, currency=_text(currency), raw=dict(obj),
        captures=_bool(_lookup(obj, "has_parent_transaction")) and _bool(_lookup(obj, "is_capture")),
        integration_id=_text(_lookup(obj, "integration_id")), **_returns(obj, cents),
    )


def intention_integrations(data: Mapping[str, Any]) -> tuple[str, ...]:
    """The numeric integration ids an intention answer says it was made for (`payment_methods[].
    integration_id`, `payment_keys[].integration`), as strings, each once; anything else is left out."""
    found: list[str] = []
    for key, field in (("payment_methods", "integration_id"), ("payment_keys", "integration")):
        entries = data.get(key)
        for entry in entries if isinstance(entries, list) else []:
            value = entry.get(field) if isinstance(entry, dict) else None
            if isinstance(value, (int, str)) and not isinstance(value, bool) and re.fullmatch(r"[0-9]+", str(value)):
                found.append(str(value))
    return tuple(dict.fromkeys(found))


class PaymobProvider:
    name = "paymob"

    def __init__(self) -> None:
        self.base_url = settings.PAYMOB_BASE_URL.rstrip("/")
        self.timeout = settings.PAYMOB_TIMEOUT

    @staticmethod
    def is_configured() -> bool:
        return bool(settings.PAYMOB_SECRET_KEY and settings.PAYMOB_PUBLIC_KEY
                    and settings.PAYMOB_HMAC_SECRET and settings.PAYMOB_INTEGRATION_IDS)

    @property
    def hmac_secret(self) -> str:
        return str(settings.PAYMOB_HMAC_SECRET)

    @staticmethod
    def integration_ours(result: TransactionResult, payment: Payment) -> bool:
        """Whether `result`, reported for `payment`, was made by one of the shop's integrations.

        Paymob signs its fields run together with no separator, so whoever holds one signed transaction (a
        payer, from the redirect of their own payment) can move digits between the transaction id and the
        integration id that follows it and keep the signature: "another transaction" of the same payment.
        Such a one names an integration that is not ours. Numeric PAYMOB_INTEGRATION_IDS are compared with
        it; integrations configured by name ("card") cannot be, so the numeric ids Paymob's intention answer
        gave for the payment are (PaymentStart.integration_ids). A payment started before those were kept
        has none, and is not checked.
        """
        ours = [str(i) for i in settings.PAYMOB_INTEGRATION_IDS]
        if not all(i.isdigit() for i in ours):
            ours = [str(i) for i in payment.integration_ids]
            if not ours:
                return True
        return result.integration_id in ours

    def _deadline(self) -> float:
        """When one of our operations (its calls together) must have its answer: PAYMOB_TIMEOUT from now.

        A request waits for Paymob in its web process; an inquiry's two calls, each given the whole
        limit, held it for up to twice the limit, well past the 30 s the browser waits. Each call is waited
        for at most what is left, however its bytes arrive (shop.outbound.call_within: requests' timeout
        bounds each wait for bytes, and an answer trickling in a byte at a time never ran it out)."""
        return time.monotonic() + self.timeout

    def _post(self, path: str, body: dict[str, Any], headers: dict[str, str], *, deadline: float) -> Any:
        url = f"{self.base_url}{path}"
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise PaymentError("Paymob timed out", timed_out=True)
        outside_transaction("Paymob")
        try:
            response = call_within(remaining, "Paymob", requests.post, url, json=body, headers=headers,
                                   timeout=remaining)
        except (requests.Timeout, DeadlinePassed):
            raise PaymentError("Paymob timed out", timed_out=True) from None
        except requests.RequestException as exc:
            raise PaymentError(f"Paymob unreachable: {exc.__class__.__name__}") from None
        if response.status_code >= 500:
            raise PaymentError(f"Paymob error {response.status_code}")
        if response.status_code == 401:
            raise _Unauthorized("Paymob refused the credentials (401)", permanent=True)
        try:
            data = response.json()
        except ValueError:
            raise PaymentError(f"Paymob answered non-JSON ({response.status_code})") from None
        if response.status_code >= 400:
            raise PaymentError(f"Paymob refused ({response.status_code}): {data}", permanent=True)
        if not isinstance(data, dict):  # every answer of Paymob's we read is an object
            raise PaymentError(f"Paymob answered a {type(data).__name__}, not an object")
        return data

    def intention_body(self, *, order: Order, payment: Payment, return_url: str,
                       notification_url: str) -> dict[str, Any]:
        """The intention request: Σ item amount × quantity equals `amount` exactly."""
        amount = to_minor_units(order.total_amount)
        items: list[dict[str, Any]] = [
            {"name": item.product_title[:50], "amount": to_minor_units(item.unit_price_amount),
             "description": item.product_title[:100], "quantity": item.quantity}
            for item in order.items.all()
        ]
        rest = amount - sum(i["amount"] * i["quantity"] for i in items)
        if rest > 0:
            items.append({"name": "Shipping and fees", "amount": rest, "description": "Shipping and fees",
                          "quantity": 1})
        elif rest < 0:
            # a discount: Paymob items cannot be negative, so send one summary line
            items = [{"name": f"Order {order.number}", "amount": amount,
                      "description": f"Order {order.number}", "quantity": 1}]
        return {
            "amount": amount,
            "currency": "EGP",
            "payment_methods": [int(i) if str(i).isdigit() else i for i in settings.PAYMOB_INTEGRATION_IDS],
            "items": items,
            # Paymob wants every billing field filled
            "billing_data": {
                "first_name": order.first_name, "last_name": order.last_name, "email": order.email,
                "phone_number": order.phone, "apartment": order.apartment or "NA",
                "floor": order.floor or "NA", "street": order.street or "NA", "building": order.building or "NA",
                "city": order.city or "NA", "state": order.state or "NA", "country": order.country or "NA",
                "postal_code": order.postal_code or "NA",
            },
            "customer": {"first_name": order.first_name, "last_name": order.last_name, "email": order.email},
            "extras": {"payment_id": payment.payment_id},
            "special_reference": order.number,
            "notification_url": notification_url,
            "redirection_url": return_url,
        }

    def start(self, *, order: Order, payment: Payment, return_url: str, notification_url: str) -> PaymentStart:
        body = self.intention_body(order=order, payment=payment, return_url=return_url,
                                   notification_url=notification_url)
        data = self._post("/v1/intention/", body, {"Authorization": f"Token {settings.PAYMOB_SECRET_KEY}"},
                          deadline=self._deadline())
        secret, order_id = data.get("client_secret"), data.get("intention_order_id")
        if not secret:
            raise PaymentError("Paymob answered without client_secret", permanent=True)
        if not order_id:
            # its callbacks name the payment by this signed id alone: a payment made without it could
            # never be matched to the order, the card charged and the order left to expire
            raise PaymentError("Paymob answered without intention_order_id", permanent=True)
        url = f"{self.base_url}/unifiedcheckout/?publicKey={settings.PAYMOB_PUBLIC_KEY}&clientSecret={secret}"
        return PaymentStart(payment_url=url, provider_order_id=str(order_id), reference=str(data.get("id") or ""),
                            integration_ids=intention_integrations(data))

    def _token_key(self) -> str:
        """The cache key of the auth token: named after the host and API key, so another key gets its own."""
        digest = hashlib.sha256(f"{self.base_url}\n{settings.PAYMOB_API_KEY}".encode()).hexdigest()[:32]
        return f"paymob:auth-token:{digest}"

    def _token_new(self, *, deadline: float) -> str:
        """Sign in to Paymob with the API key and keep the token for TOKEN_LIFETIME."""
        token = self._post("/api/auth/tokens", {"api_key": settings.PAYMOB_API_KEY}, {},
                           deadline=deadline).get("token")
        if not token or not isinstance(token, str):
            raise PaymentError("Paymob gave no auth token")
        cache.set(self._token_key(), token, TOKEN_LIFETIME)
        return token

    def inquire(self, *, payment: Payment) -> TransactionResult | None:
        """Ask Paymob for the latest transaction of the payment's order (server to server).

        None when there is nothing to report. The auth token is cached; one Paymob no longer accepts is
        dropped and a new one tried, once.
        """
        if not settings.PAYMOB_API_KEY:
            return None
        deadline = self._deadline()
        body: dict[str, Any] = {}
        order_id = id_parse(payment.provider_order_id)  # str.isdigit() took "²", which int() refused
        if order_id is not None:
            body["order_id"] = order_id
        else:
            body["merchant_order_id"] = payment.order.number
        cached = cache.get(self._token_key())
        token = cached if isinstance(cached, str) and cached else self._token_new(deadline=deadline)
        try:
            data = self._transaction_inquiry(body, token, deadline=deadline)
        except _Unauthorized:
            if token != cached:  # a token just given was refused: the API key is wrong, asking again won't help
                raise
            cache.delete(self._token_key())
            data = self._transaction_inquiry(body, self._token_new(deadline=deadline), deadline=deadline)
        if not data or not data.get("id"):
            return None
        return transaction_result(data)

    def _transaction_inquiry(self, body: dict[str, Any], token: str, *, deadline: float) -> Any:
        return self._post("/api/ecommerce/orders/transaction_inquiry", {"auth_token": token, **body},
                          {"Authorization": f"Bearer {token}"}, deadline=deadline)
