"""Django's lazily compiled patterns on the request path are compiled once at start-up (shop.apps)."""

import importlib
import re

import pytest
from django.http import HttpResponse
from django.utils.cache import patch_vary_headers

from shop.apps import LAZY_PATTERNS


@pytest.mark.parametrize("module_name, name", LAZY_PATTERNS)
def test_each_pattern_is_a_plain_compiled_pattern(module_name, name):
    # a name Django renamed or dropped would leave the lazy object (or nothing) here: look again on upgrade
    assert isinstance(getattr(importlib.import_module(module_name), name), re.Pattern)


def test_the_responses_and_headers_they_read_are_still_djangos():
    response = HttpResponse("مرحبا", content_type="text/plain; charset=utf-16")
    assert response.charset == "utf-16" and response.content == "مرحبا".encode("utf-16")
    patch_vary_headers(response, ("Cookie",))
    patch_vary_headers(response, ("accept-language", "cookie"))
    assert response["Vary"] == "Cookie, accept-language"
