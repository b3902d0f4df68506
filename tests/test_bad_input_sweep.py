"""A standing sweep: hostile input to every writable endpoint and form is a 4xx, never a 500.

Endpoints are enumerated from the URL resolver (drf-spectacular's
enumerator, so a new API view is swept without touching this file) and their
body fields from each view's own request serializer; page forms are found by
rendering every page without URL parameters (and a product page, the cart
and checkout) and reading their `<form method="post">`. Each is sent, as
anonymous, as a customer (alice) and as the Owner: over-long, NUL, lone
surrogate, control and CR/LF text in one field at a time, huge and
non-finite numbers, wrong types, 100,000-deep nesting and a few bodies that
are not objects. Every answer must be below 500 (and valid JSON under /api/),
and afterwards nothing stored may hold NUL, a lone surrogate or more
characters than its column allows.

Endpoints that take no body (DELETE, "init", "clear") are only called with an
id no database can hold: their work is not input handling, and running it
hundreds of times would only make the sweep slow.
"""

import json
import re
from datetime import timedelta
from decimal import Decimal

import pytest
from django.apps import apps
from django.db import models
from django.test import Client
from django.utils import timezone
from drf_spectacular.generators import EndpointEnumerator, SchemaGenerator
from lxml import html
from rest_framework import serializers

from catalog.models import Review
from orders.models import Coupon
from shop.models import Announcement, ContactMessage
from tests.factories import make_delivered_order, make_product

pytestmark = pytest.mark.django_db

LONG = "x" * 100_000
BAD_TEXT = {
    "long": LONG,
    "nul": "Tea\x00time",
    "surrogate": "Tea\ud800time",
    "control": "Tea\x1b[31m\x07time",
    "crlf": "Tea\r\nBcc: victim@example.com",
    "long-email": "a" * 50_000 + "@example.com",
}
BAD_NUMBERS = ["Infinity", "-Infinity", "NaN", "1e400", "1" + "0" * 30, "99999999999999999999",
               "-99999999999999999999", "3000000000", "1.5"]
WRONG_TYPES = [None, {"a": 1}, [1, [2]], True, "text"]
DEEP = "[" * 100_000 + "]" * 100_000
DEEP_OBJECT = '{"a":' * 50_000 + "1" + "}" * 50_000
HUGE_ID = "99999999999999999999999"
NOT_OBJECTS = ["[]", '"text"', "1", "null", "[" + "1," * 1000 + "1]"]

PERSONAS = ["anonymous", "alice", "owner"]


# --- what there is to sweep -------------------------------------------------

def _api_endpoints():
    """(path template, method, view callback) for every writable API operation."""
    found = []
    for path, _regex, method, callback in EndpointEnumerator().get_api_endpoints():
        if method in ("POST", "PUT", "PATCH", "DELETE"):
            found.append((path, method, callback))
    return found


def _request_serializer(path, method, callback):
    generator = SchemaGenerator()
    view = generator.create_view(callback, method)
    schema = view.schema
    schema.path, schema.path_regex, schema.method = path, path, method
    serializer = schema.get_request_serializer()
    if isinstance(serializer, type):
        serializer = serializer()
    return serializer if isinstance(serializer, serializers.BaseSerializer) else None


def _camel(name):
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


def _plausible(name, field):
    """A value this field would accept, so the one bad field is what the server sees."""
    if isinstance(field, serializers.ListSerializer):
        return []
    if isinstance(field, serializers.BaseSerializer):
        return {_camel(n): _plausible(n, f) for n, f in field.fields.items() if not f.read_only}
    if isinstance(field, serializers.BooleanField):
        return True
    if isinstance(field, serializers.ChoiceField):
        return next(iter(field.choices), "")
    if isinstance(field, serializers.IntegerField):
        return 1
    if isinstance(field, serializers.DecimalField | serializers.FloatField):
        return "10.00"
    if isinstance(field, serializers.ListField):
        return []
    if isinstance(field, serializers.DictField | serializers.JSONField):
        return {}
    if isinstance(field, serializers.DateTimeField):
        return "2026-01-01T00:00:00Z"
    if isinstance(field, serializers.DateField):
        return "2026-01-01"
    return _plausible_text(name)


def _plausible_text(name):
    name = name.lower()
    if "email" in name:
        return "sweep@example.com"
    if "password" in name:
        return "Sweep-pass-2026!"
    if "phone" in name:
        return "01012345678"
    if "url" in name or "link" in name:
        return "https://example.com/"
    if "color" in name:
        return "#123456"
    return "Sweep"


class _RawNumber(str):
    """A number literal written into the JSON text as it is (json.dumps cannot write NaN or 1e400)."""


def _bad_values(value):
    """(label, bad value) pairs fitting a leaf's type: text for text, numbers for numbers, and wrong types."""
    is_number = not isinstance(value, bool) and (
        isinstance(value, int | float) or (isinstance(value, str) and re.fullmatch(r"\d+\.\d+", value)))
    if is_number:
        yield from ((raw[:12], _RawNumber(raw)) for raw in BAD_NUMBERS)
    elif isinstance(value, str):
        yield from BAD_TEXT.items()
    elif isinstance(value, list):
        yield from ((f"[{label}]", [text]) for label, text in BAD_TEXT.items())
    yield from ((repr(wrong)[:20], wrong) for wrong in WRONG_TYPES if type(wrong) is not type(value))


def _leaves(template, prefix=()):
    """Paths to every value in a body template (nested objects included)."""
    for key, value in template.items():
        path = (*prefix, key)
        if isinstance(value, dict) and value:
            yield from _leaves(value, path)
        else:
            yield path, value


def _with(template, path, value):
    body = json.loads(json.dumps(template))
    target = body
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return body


def _raw_with(template, path, raw_number):
    """The body as JSON text with one value replaced by a raw number literal."""
    marker = "__SWEEP_NUMBER__"
    return json.dumps(_with(template, path, marker)).replace(f'"{marker}"', raw_number)


# --- the sweep ---------------------------------------------------------------

@pytest.fixture
def world(alice, owner, support):
    """One of each thing an id in a URL can name."""
    product = make_product(stock=50)
    order = make_delivered_order(user=alice, product=product)
    return {
        "product": product, "order": order,
        "review": Review.objects.create(product=product, user=alice, user_name="Alice H.",
                                        user_email=alice.email, rating=5, title="Good", comment="Nice"),
        "message": ContactMessage.objects.create(name="Sara", email="sara@example.com", subject="Hi",
                                                 message="Hello"),
        "announcement": Announcement.objects.create(title="Sale", content="Ten percent off",
                                                     display_end_date=timezone.now() + timedelta(days=7)),
        "coupon": Coupon.objects.create(code="SWEEP10", type="percentage", value=Decimal("10"),
                                        minimum_order_amount=Decimal("0")),
        "customer": alice, "staff": support,
    }


def _url(path, world):
    """Fill a path template with ids of things that exist."""
    def fill(match):
        name = match.group(1)
        if name == "payment_id":
            return "none"
        for word, key in (("announcement", "announcement"), ("coupon", "coupon"), ("message", "message"),
                          ("review", "review"), ("order", "order"), ("users/admin", "staff"),
                          ("users", "customer"), ("product", "product"), ("inventory", "product")):
            if word in name or word in path:
                return str(world[key].pk)
        return "1"
    return re.sub(r"{(\w+)}", fill, path)


def _client(persona, world):
    client = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="en")
    if persona == "alice":
        client.force_login(world["customer"])
    elif persona == "owner":
        client.force_login(apps.get_model("accounts", "User").objects.get(username="owner"))
    return client


class Sweep:
    def __init__(self, client):
        self.client = client
        self.failures = []

    def send(self, method, url, body, *, content_type="application/json", label=""):
        if content_type == "application/json" and not isinstance(body, str):
            body = json.dumps(body)
        response = getattr(self.client, method.lower())(url, data=body, content_type=content_type)
        self.check(response, method, url, label)
        return response

    def post_form(self, url, data, label=""):
        response = self.client.post(url, data)
        self.check(response, "POST", url, label)
        return response

    def check(self, response, method, url, label):
        where = f"{method} {url} [{label}]"
        if response.status_code >= 500:
            self.failures.append(f"{where}: {response.status_code}")
        elif url.startswith("/api/") and response.get("Content-Type", "").startswith("application/json"):
            try:
                json.loads(response.content.decode("utf-8"))
            except ValueError:
                self.failures.append(f"{where}: the answer is not valid JSON")


def _stored_text_problems():
    """Every stored value with NUL, a lone surrogate or more characters than its column holds."""
    problems = []
    unsafe = re.compile(r"[\x00\ud800-\udfff]")

    def walk(value):
        if isinstance(value, str):
            yield value
        elif isinstance(value, dict):
            for key, item in value.items():
                yield str(key)
                yield from walk(item)
        elif isinstance(value, list):
            for item in value:
                yield from walk(item)

    for model in apps.get_models():
        fields = [f for f in model._meta.concrete_fields
                  if isinstance(f, models.CharField | models.TextField | models.JSONField)]
        if not fields:
            continue
        for row in model.objects.values_list("pk", *[f.attname for f in fields]):
            for field, value in zip(fields, row[1:], strict=True):
                for text in walk(value):
                    limit = getattr(field, "max_length", None) or 20_000
                    if unsafe.search(text) or len(text) > limit:
                        problems.append(f"{model.__name__}.{field.name} #{row[0]}: {text[:40]!r}… ({len(text)})")
    return problems


def _endpoint_ids():
    return [f"{method} {path}" for path, method, _callback in _api_endpoints()]


@pytest.mark.parametrize("persona", PERSONAS)
@pytest.mark.parametrize("endpoint", _endpoint_ids())
def test_no_api_endpoint_answers_bad_input_with_a_server_error(endpoint, persona, world):
    # given
    method, path = endpoint.split(" ", 1)
    callback = next(c for p, m, c in _api_endpoints() if p == path and m == method)
    serializer = _request_serializer(path, method, callback)
    sweep = Sweep(_client(persona, world))
    url = _url(path, world)
    # when: an id no database can hold
    if "{" in path:
        sweep.send(method, re.sub(r"{\w+}", HUGE_ID, path), {}, label="huge id")
    template = _plausible("", serializer) if serializer is not None and serializer.fields else None
    if template is None:
        if method != "DELETE":
            sweep.send(method, url, DEEP, label="deep nesting")
    else:
        first = sweep.send(method, url, template, label="plausible")
        if first.status_code in (401, 403, 405):
            pass  # refused before the body is read: one try is enough
        else:
            for label, body in [("deep nesting", DEEP), ("deep object", DEEP_OBJECT),
                                *[(f"not an object {raw[:10]}", raw) for raw in NOT_OBJECTS]]:
                sweep.send(method, url, body, label=label)
            for leaf, value in _leaves(template):
                name = ".".join(leaf)
                for label, bad in _bad_values(value):
                    if isinstance(bad, _RawNumber):
                        sweep.send(method, url, _raw_with(template, leaf, bad), label=f"{name}={label}")
                    else:
                        sweep.send(method, url, _with(template, leaf, bad), label=f"{name}={label}")
    # then
    assert sweep.failures == []
    assert _stored_text_problems() == []


def test_the_paymob_callback_answers_malformed_bodies_with_400(client):
    # when / then
    for body in [DEEP, DEEP_OBJECT, '{"obj": {"amount_cents": Infinity}}', '{"obj": {"id": 1e400}}',
                 '{"obj": {"id": ' + "9" * 40 + "}}", "\ud800", b"\xff\xfe"]:
        data = body.encode("utf-8", "surrogatepass") if isinstance(body, str) else body
        response = client.post("/payment/callback/paymob?hmac=x", data=data, content_type="application/json")
        assert response.status_code == 400, body[:30]


# --- page forms --------------------------------------------------------------

def _page_urls(world):
    from django.urls import URLPattern, URLResolver, get_resolver

    found = set()

    def walk(patterns, prefix=""):
        for pattern in patterns:
            route = prefix + str(pattern.pattern)
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns, route)
            elif isinstance(pattern, URLPattern) and "<" not in route and "(?P" not in route:
                found.add("/" + route.lstrip("^").rstrip("$"))

    walk(get_resolver().url_patterns)
    skip = ("/api/", "/django-admin", "/media", "/payment/callback", "/lang/", "/healthz", "/favicon",
            "/robots", "/sitemap", "/en/", "/ar/", "/adminauth/logout", "/logout")
    urls = sorted(u for u in found if not u.startswith(skip) and u != "/en" and u != "/ar")
    return [*urls, f"/product/{world['product'].slug}", "/reset-password?token=x.y"]


def _forms(client, url):
    """(action, {name: value}) of each POST form on the page at `url`."""
    response = client.get(url)
    if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
        return []
    page = html.fromstring(response.content)
    forms = []
    for form in page.xpath("//form[translate(@method, 'POST', 'post')='post']"):
        fields = {}
        for element in form.xpath(".//input[@name] | .//textarea[@name] | .//select[@name]"):
            kind = (element.get("type") or "text").lower()
            if kind in ("submit", "button", "file", "image"):
                continue
            value = element.get("value") or ""
            if element.tag == "select":
                options = element.xpath(".//option/@value")
                value = next((o for o in options if o), "")
            if kind in ("checkbox", "radio"):
                value = element.get("value") or "on"
            if not value and kind not in ("hidden",):
                value = _plausible_text(element.get("name"))
            fields[element.get("name")] = value
        action = form.get("action") or url
        forms.append((action, fields))
    return forms


@pytest.mark.parametrize("persona", PERSONAS)
def test_no_page_form_answers_bad_input_with_a_server_error(persona, world):
    # given
    sweep = Sweep(_client(persona, world))
    sweep.client.post("/api/cart/items", {"productId": world["product"].pk}, content_type="application/json")
    seen = set()
    # when
    for url in _page_urls(world):
        for action, fields in _forms(sweep.client, url):
            editable = [name for name in fields if name not in ("csrfmiddlewaretoken", "next", "token", "action")]
            key = (action, tuple(sorted(fields)))
            if key in seen:
                continue
            seen.add(key)
            for name in editable:
                for label, text in BAD_TEXT.items():
                    sweep.post_form(action, {**fields, name: text.replace("\ud800", "\ufffd")},
                                    label=f"{url} {name}={label}")
                sweep.post_form(action, {**fields, name: ["a", "b"]}, label=f"{url} {name}=twice")
    # then
    assert seen, "no form found: the page enumeration is broken"
    assert sweep.failures == []
    assert _stored_text_problems() == []
