"""Issue 14: the cached path for visitors without a session is one cache read, no query,
served before the middleware a stored page does not need, and behaves like a rendered page."""

import pickle
import re
from unittest import mock

import pytest
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from catalog.models import Category
from catalog.services import product_upsert
from shop.models import STORE_SETTINGS_CACHE_KEY
from shop.store_settings import store_settings_get, store_settings_update
from tests.pages import without_random_parts

PAGES = ["/", "/shop", "/shop?category=black-tea&sort=price-asc", "/product/kenya-gold",
         "/ar/", "/ar/shop", "/ar/shop?category=black-tea&sort=price-asc", "/ar/product/kenya-gold"]
NONCE = re.compile(r'nonce="([^"]+)"')
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


@pytest.fixture
def tea(db):
    store_settings_get()
    category = Category.objects.create(slug="black-tea", name="Black Tea")
    return product_upsert(slug="kenya-gold", title="Kenya Gold", price_amount="120.00", category=category, stock=20)


class CacheReads:
    """Count the shared cache's reads during a request (a get_many is one read, however the backend does it)."""

    def __init__(self):
        self.reads = []
        self._depth = 0

    def _counted(self, name, real):
        def read(*args, **kwargs):
            if not self._depth:
                self.reads.append((name, args))
            self._depth += 1
            try:
                return real(*args, **kwargs)
            finally:
                self._depth -= 1
        return read

    def __enter__(self):
        self._patches = [mock.patch.object(cache, name, side_effect=self._counted(name, getattr(cache, name)))
                         for name in ("get", "get_many")]
        for patch in self._patches:
            patch.start()
        return self

    def __exit__(self, *exc):
        for patch in self._patches:
            patch.stop()


def _no_queries(queries):
    return [q["sql"] for q in queries if "SAVEPOINT" not in q["sql"]] == []


@pytest.mark.django_db
class TestTheCachedPath:
    @pytest.mark.parametrize("url", PAGES)
    def test_a_hit_is_one_cache_read_and_no_query(self, tea, url):
        rendered = Client().get(url)
        assert rendered.status_code == 200
        with CaptureQueriesContext(connection) as queries, CacheReads() as reads:
            hit = Client().get(url)
        assert _no_queries(queries)
        assert len(reads.reads) == 1, reads.reads
        assert hit.status_code == 200
        assert without_random_parts(hit.content.decode()) == without_random_parts(rendered.content.decode())

    def test_a_hit_is_served_before_the_session_and_auth_middleware(self, tea):
        Client().get("/shop")
        with mock.patch("django.contrib.sessions.middleware.SessionMiddleware.process_request") as session:
            assert Client().get("/shop").status_code == 200
        session.assert_not_called()

    def test_a_hit_builds_no_header_table(self, tea):
        # request.headers builds a table of every header; with the garbage collection its allocations
        # set off, that was a fifth of a hit's instructions
        Client().get("/shop")
        with mock.patch("django.http.request.HttpHeaders.__init__", side_effect=AssertionError("built")) as built:
            assert Client().get("/shop").status_code == 200
        built.assert_not_called()

    def test_a_hit_has_the_rendered_pages_headers(self, tea):
        rendered = Client().get("/about", secure=True)
        with CaptureQueriesContext(connection) as queries:
            hit = Client().get("/about", secure=True)
        assert _no_queries(queries)
        # same policy with its own nonce (tested below); each response its own request id
        ignore = {"Content-Security-Policy", "X-Request-ID"}
        assert hit["X-Request-ID"] != rendered["X-Request-ID"]
        same = {k: v for k, v in hit.items() if k not in ignore}
        assert same == {k: v for k, v in rendered.items() if k not in ignore}
        for header in ("Content-Security-Policy", "Permissions-Policy", "Referrer-Policy", "Cross-Origin-Opener-Policy",
                       "X-Content-Type-Options", "X-Frame-Options", "Strict-Transport-Security", "Content-Language"):
            assert hit.has_header(header), header

    def test_each_hit_has_its_own_nonce_and_its_header_allows_it(self, tea):
        Client().get("/shop")
        one, two = Client().get("/shop"), Client().get("/shop")
        nonces = [set(NONCE.findall(r.content.decode())) for r in (one, two)]
        assert all(len(n) == 1 for n in nonces) and nonces[0] != nonces[1]
        for response, nonce in zip((one, two), nonces):
            assert f"'nonce-{nonce.pop()}'" in response["Content-Security-Policy"]

    def test_a_hit_sets_a_csrf_cookie_whose_token_works(self, tea):
        Client().get("/contact")
        visitor = Client(enforce_csrf_checks=True)
        page = visitor.get("/contact")
        assert "csrftoken" in page.cookies
        token = TOKEN.search(page.content.decode()).group(1)
        response = visitor.post("/newsletter", {"email": "reader@example.com", "csrfmiddlewaretoken": token})
        assert response.status_code != 403
        # a returning visitor keeps their secret (the cookie is sent again, as a rendered page does)
        secret = visitor.cookies["csrftoken"].value
        again = visitor.get("/contact")
        assert again.cookies["csrftoken"].value == secret
        token = TOKEN.search(again.content.decode()).group(1)
        assert visitor.post("/newsletter", {"email": "b@example.com", "csrfmiddlewaretoken": token}).status_code != 403

    def test_maintenance_mode_hides_cached_pages_at_once(self, tea):
        for url in PAGES:
            Client().get(url)
        store_settings_update(maintenance_mode=True)
        for url in PAGES:
            response = Client().get(url)
            assert response.status_code == 503, url
            assert response["Retry-After"] == "3600"
            if not url.startswith("/ar/"):
                assert "Site Under Maintenance" in response.content.decode()
        store_settings_update(maintenance_mode=False)
        assert Client().get("/shop").status_code == 200

    def test_maintenance_mode_holds_even_when_a_page_read_the_old_settings_before_the_commit(
            self, tea, django_capture_on_commit_callbacks):
        old = store_settings_get()
        with django_capture_on_commit_callbacks(execute=True):
            store_settings_update(maintenance_mode=True)
            # a request of another process, before the switch commits, reads the old row and caches it
            cache.set(STORE_SETTINGS_CACHE_KEY, pickle.dumps(old), 300)  # as store_settings_get stores it
        assert store_settings_get().maintenance_mode is True
        assert Client().get("/shop").status_code == 503

    def test_a_first_visit_in_arabic_is_still_redirected(self, tea):
        Client().get("/shop")  # the English page is stored
        response = Client().get("/shop", HTTP_ACCEPT_LANGUAGE="ar-EG,ar;q=0.9")
        assert response.status_code == 302 and response["Location"] == "/ar/shop"
        visitor = Client()
        visitor.cookies[settings.LANGUAGE_COOKIE_NAME] = "ar"
        response = visitor.get("/shop?category=black-tea")
        assert response.status_code == 302 and response["Location"] == "/ar/shop?category=black-tea"
        # and an English browser gets the stored English page
        assert Client().get("/shop", HTTP_ACCEPT_LANGUAGE="en-US").status_code == 200

    def test_a_flash_message_or_a_session_is_never_served_a_stored_page(self, tea, alice):
        Client().get("/")
        signed_in = Client()
        signed_in.force_login(alice)
        assert "Welcome, <bdi>Alice</bdi>" in signed_in.get("/").content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("report_only", [False, True])
def test_the_policy_built_once_is_the_one_django_csp_builds(tea, settings, report_only):
    from csp.utils import build_policy

    names = ["CONTENT_SECURITY_POLICY", "CONTENT_SECURITY_POLICY_REPORT_ONLY"]
    name, other_name = reversed(names) if report_only else names
    setattr(settings, name, {"DIRECTIVES": {"default-src": ["'self'"], "script-src": ["'self'", "'nonce'"]}})
    setattr(settings, other_name, None)
    for _ in range(2):  # built, then from memory
        response = Client().get("/shop")
        nonce = NONCE.search(response.content.decode()).group(1)
        header = "Content-Security-Policy-Report-Only" if report_only else "Content-Security-Policy"
        assert response[header] == build_policy(nonce=nonce, report_only=report_only)
        other = "Content-Security-Policy" if report_only else "Content-Security-Policy-Report-Only"
        assert other not in response  # the other setting is None: no header, not an empty one
