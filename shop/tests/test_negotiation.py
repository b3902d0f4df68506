"""shop.api.negotiation: the usual Accept headers are answered as DRF would, without DRF's parsing."""

import pytest
from django.test import RequestFactory
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.settings import api_settings

from shop.api.money import CamelCaseJSONRenderer
from shop.api.negotiation import USUAL_ACCEPT, ShopContentNegotiation


def _request(accept=None, query=""):
    headers = {} if accept is None else {"HTTP_ACCEPT": accept}
    return Request(RequestFactory().patch(f"/api/cart/items/1{query}", **headers))


def _answer(negotiation, request, renderers):
    chosen, media_type = negotiation.select_renderer(request, renderers)
    return type(chosen), media_type


def test_the_api_negotiates_with_it():
    assert api_settings.DEFAULT_CONTENT_NEGOTIATION_CLASS is ShopContentNegotiation


@pytest.mark.parametrize("accept", [None, *sorted(USUAL_ACCEPT)])
def test_a_usual_header_gets_drfs_answer_without_drfs_parsing(accept, monkeypatch):
    renderers = [CamelCaseJSONRenderer()]
    expected = _answer(DefaultContentNegotiation(), _request(accept), renderers)
    request = _request(accept)
    monkeypatch.setattr(DefaultContentNegotiation, "select_renderer", None)  # the short way, or a TypeError
    assert _answer(ShopContentNegotiation(), request, renderers) == expected == (CamelCaseJSONRenderer,
                                                                                "application/json")


@pytest.mark.parametrize("accept, query", [
    ("application/json; indent=4", ""),  # DRF answers with the client's parameters
    ("*/*", "?format=json"),
    ("application/json, text/html;q=0.9", ""),
])
def test_anything_else_goes_through_drfs_negotiation(accept, query):
    renderers = [CamelCaseJSONRenderer()]
    assert (_answer(ShopContentNegotiation(), _request(accept, query), renderers)
            == _answer(DefaultContentNegotiation(), _request(accept, query), renderers))


@pytest.mark.django_db
@pytest.mark.parametrize("accept", ["text/html", ""])
def test_what_the_api_cannot_write_is_still_refused(client, accept):
    assert client.get("/api/cart", HTTP_ACCEPT=accept).status_code == 406


def _parsers():
    return [parser() for parser in api_settings.DEFAULT_PARSER_CLASSES]


def _body_request(content_type):
    return Request(RequestFactory().patch("/api/cart/items/1", data=b"{}", content_type=content_type))


@pytest.mark.parametrize("content_type", ["application/json", "application/json; charset=utf-8", "APPLICATION/JSON",
                                          "application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
                                          "text/plain", "application/*", ""])
def test_every_body_gets_drfs_parser(content_type):
    parsers = _parsers()
    expected = DefaultContentNegotiation().select_parser(_body_request(content_type), parsers)
    assert ShopContentNegotiation().select_parser(_body_request(content_type), parsers) is expected


def test_a_body_sent_as_json_gets_the_first_parser_without_drfs_parsing(monkeypatch):
    monkeypatch.setattr(DefaultContentNegotiation, "select_parser", None)  # the short way, or a TypeError
    parsers = _parsers()
    assert ShopContentNegotiation().select_parser(_body_request("application/json"), parsers) is parsers[0]


@pytest.mark.parametrize("accepted, context, indent", [
    ("application/json", {}, None), ("application/json", {"indent": 2}, 2),
    ("application/json; indent=4", {}, 4), ("application/json; indent=40", {"indent": 2}, 8),
    ("application/json; charset=utf-8", {"indent": 2}, 2), (None, {"indent": 3}, 3),
])
def test_the_renderer_indents_as_drfs_does(accepted, context, indent):
    assert CamelCaseJSONRenderer().get_indent(accepted, context) == JSONRenderer().get_indent(accepted, context) \
        == indent
