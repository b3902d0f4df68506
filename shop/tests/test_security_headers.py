"""Security headers on every answer: CSP with a per-response nonce, Permissions-Policy,
Referrer-Policy, COOP, and HSTS to every request that arrived over HTTPS (issue 11)."""

import os
import re
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.test import Client
from django.utils import timezone

from shop.models import Announcement

ROOT = Path(__file__).resolve().parents[2]
NONCE = re.compile(r'nonce="([^"]+)"')

pytestmark = pytest.mark.django_db


def _directives(response):
    policy = response["Content-Security-Policy"]
    return {part.split()[0]: part.split()[1:] for part in policy.split(";") if part.strip()}


@pytest.mark.parametrize("path", ["/", "/shop", "/ar/about", "/login", "/adminauth", "/api/products", "/nope"])
def test_every_answer_carries_a_csp_without_inline_script_or_style(path):
    # when
    response = Client().get(path)
    # then
    directives = _directives(response)
    assert "'unsafe-inline'" not in directives["script-src"]
    assert "'unsafe-inline'" not in directives["style-src"]
    assert "'unsafe-eval'" not in directives["script-src"]
    assert directives["object-src"] == ["'none'"] and directives["frame-ancestors"] == ["'none'"]
    assert "camera=()" in response["Permissions-Policy"] and "payment=()" in response["Permissions-Policy"]
    assert response["Referrer-Policy"] == "same-origin"
    assert response["Cross-Origin-Opener-Policy"] == "same-origin"
    assert response["X-Content-Type-Options"] == "nosniff"


def test_the_dashboard_carries_the_csp_too(client, owner):
    client.force_login(owner)
    response = client.get("/admindash")
    assert "'unsafe-inline'" not in _directives(response)["script-src"]


def test_the_scripts_of_a_page_carry_this_responses_nonce(client):
    # when
    response = client.get("/about")
    # then: the nonce in the page is the one in the header, and it is fresh each time
    nonces = set(NONCE.findall(response.content.decode()))
    assert len(nonces) == 1
    nonce = nonces.pop()
    assert f"'nonce-{nonce}'" in _directives(response)["script-src"]
    assert NONCE.search(client.get("/about").content.decode()).group(1) != nonce


@pytest.mark.parametrize("path", ["/api/cart", "/robots.txt"])
def test_a_nonce_asked_for_after_the_header_went_out_is_refused_on_every_answer(path):
    """django-csp's guard: once the policy is written, reading request.csp_nonce raises, answer after answer."""
    from csp.exceptions import CSPNonceError

    for _ in range(2):
        request = Client().get(path).wsgi_request
        with pytest.raises(CSPNonceError):
            str(request.csp_nonce)
        assert not request.csp_nonce  # still lazy: no nonce was made after the fact


def test_the_announcement_colours_come_in_a_nonced_style_sheet_not_a_style_attribute():
    # given
    now = timezone.now()
    Announcement.objects.create(title="Sale", content="Now", banner_color="#123456", text_color="#ffffff",
                                display_start_date=now - timedelta(hours=1), display_end_date=now + timedelta(days=1))
    # when
    response = Client().get("/about")
    body = response.content.decode()
    # then
    assert 'style="' not in body
    nonce = re.search(r'<style nonce="([^"]+)">[^<]*#123456', body).group(1)
    assert f"'nonce-{nonce}'" in _directives(response)["style-src"]


@pytest.mark.parametrize("https", [{"secure": True}, {"headers": {"X-Forwarded-Proto": "https"}}])
def test_hsts_is_sent_to_every_request_that_arrived_over_https(https):
    for path in ("/", "/api/products", "/healthz", "/nope"):
        response = Client().get(path, **https)
        assert response["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains", path


def test_hsts_is_not_sent_over_plain_http_and_plain_http_is_not_redirected():
    response = Client().get("/")
    assert response.status_code == 200
    assert "Strict-Transport-Security" not in response


def _settings_value(expression, **env):
    environment = {**os.environ, "DJANGO_SETTINGS_MODULE": "shop.settings", **env}
    code = f"import django; django.setup(); from django.conf import settings; print(repr(({expression})))"
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=environment,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_the_tls_settings_come_from_the_environment(tmp_path):
    value = _settings_value(
        "settings.SECURE_HSTS_SECONDS, settings.SECURE_HSTS_INCLUDE_SUBDOMAINS, settings.SECURE_HSTS_PRELOAD, "
        "settings.SECURE_SSL_REDIRECT",
        DATA_DIR=str(tmp_path), SECURE_HSTS_SECONDS="600", SECURE_HSTS_INCLUDE_SUBDOMAINS="0",
        SECURE_HSTS_PRELOAD="1", SECURE_SSL_REDIRECT="1",
    )
    assert value == "(600, False, True, True)"


def test_the_csp_can_be_switched_to_report_only(tmp_path):
    value = _settings_value(
        "settings.CONTENT_SECURITY_POLICY, "
        "settings.CONTENT_SECURITY_POLICY_REPORT_ONLY['DIRECTIVES']['report-uri']",
        DATA_DIR=str(tmp_path), CSP_REPORT_ONLY="1", CSP_REPORT_URI="https://reports.example/csp",
    )
    assert value == "(None, 'https://reports.example/csp')"


def test_only_the_api_docs_page_allows_inline_styles_and_never_inline_script():
    # Swagger UI injects inline styles; its start-up script is a file of its own
    directives = _directives(Client().get("/api/docs/"))
    assert "'unsafe-inline'" in directives["style-src"]
    assert "'unsafe-inline'" not in directives["script-src"]


def test_the_importer_panel_may_show_the_producers_pictures_and_no_other_page_does(client, owner):
    # given
    from shop.store_settings import store_settings_update

    store_settings_update(external_base_url="https://producer.example/shop/")
    client.force_login(owner)
    # when / then
    assert "https://producer.example" in _directives(client.get("/admindash/external-products"))["img-src"]
    assert "https://producer.example" not in _directives(client.get("/admindash/products"))["img-src"]


def test_a_report_address_cannot_smuggle_directives_into_the_policy(tmp_path):
    environment = {**os.environ, "DJANGO_SETTINGS_MODULE": "shop.settings", "DATA_DIR": str(tmp_path),
                   "CSP_REPORT_URI": "https://reports.example/csp; script-src *"}
    result = subprocess.run([sys.executable, "manage.py", "check"], cwd=ROOT, env=environment,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and "CSP_REPORT_URI" in result.stderr


@pytest.mark.django_db
def test_with_the_https_redirect_on_the_health_check_still_answers_over_plain_http(settings):
    # a load balancer or monitor asks the web process directly, over http, without X-Forwarded-Proto:
    # a redirect there reads as "down" and takes every process out of rotation
    settings.SECURE_SSL_REDIRECT = True
    client = Client()
    health = client.get("/healthz")
    assert health.status_code in (200, 503) and "status" in health.json()
    assert client.get("/").status_code == 301
    assert client.get("/healthz/x").status_code == 301  # only the health check itself
