"""The importer reaches public producer sites only (issue 11: the SSRF bypasses).

These tests turn IMPORTER_ALLOW_PRIVATE_HOSTS off. Where a test needs the fake
site (on 127.0.0.1) to stand for a public producer, it names it `producer.test`
in a faked DNS and lets that one address pass as public; every other address
is judged by the real rule.
"""

import socket
from pathlib import Path

import pytest
import requests
from django.core.management import CommandError, call_command
from rest_framework.test import APIClient

from catalog.models import Product
from importer import addresses, services
from importer.addresses import target_parse
from importer.fetch import FetchError, PinnedAdapter, PoliteSession, check_url
from importer.models import ExternalProduct, ImporterRun
from importer.tests.fake_site import Answer, FakeServer, png_bytes
from shop.store_settings import store_settings_update

LOOKALIKES = [
    "http://127.0.0.1:9999\\@1.2.3.4/",  # urlsplit: 1.2.3.4; urllib3: 127.0.0.1
    "http://1.2.3.4\\@127.0.0.1/",
    "http://user:secret@1.2.3.4/",
    "http://1.2.3.4@127.0.0.1/",
    "http://2130706433/",  # 127.0.0.1 in decimal
    "http://0177.0.0.1/",  # in octal
    "http://0x7f.0.0.1/",
    "http://127.1/",
    "http://1.2.3.4:99999/",
    "http:/1.2.3.4/",
    "ftp://1.2.3.4/file",
    "file:///etc/passwd",
    "javascript:alert(1)",
    "http://1.2.3.4/\r\nHost: evil",
]
NOT_PUBLIC = [
    "http://127.0.0.1/", "http://10.0.0.1/", "http://172.16.5.4/", "http://192.168.1.1/",
    "http://100.64.0.1/", "http://100.127.255.254/",  # carrier-grade NAT
    "http://169.254.169.254/latest/meta-data/", "http://0.0.0.0/", "http://198.18.0.1/", "http://240.0.0.1/",
    "http://[::1]/", "http://[::]/", "http://[::ffff:127.0.0.1]/", "http://[::ffff:7f00:1]/",
    "http://[fe80::1]/", "http://[fc00::1]/", "http://[64:ff9b::7f00:1]/", "http://[2002:7f00:1::]/",
]


@pytest.fixture(autouse=True)
def _private_hosts_refused(settings):
    settings.IMPORTER_ALLOW_PRIVATE_HOSTS = False


@pytest.fixture
def public_producer(dns, monkeypatch):
    """The fake site as the public host producer.test (only 127.0.0.1 is let through)."""
    real = addresses.is_public
    monkeypatch.setattr(addresses, "is_public", lambda address: address == "127.0.0.1" or real(address))
    with FakeServer() as server:
        server.routes["/robots.txt"] = Answer(200, "User-agent: *\nAllow: /\n", content_type="text/plain")
        dns.table["producer.test"] = ["127.0.0.1"]
        server.public_url = f"http://producer.test:{server.httpd.server_address[1]}"
        yield server


@pytest.mark.parametrize("url", LOOKALIKES)
def test_it_refuses_urls_that_are_not_plainly_scheme_host_port_path(url):
    with pytest.raises(FetchError) as caught:
        check_url(url)
    assert caught.value.permanent


@pytest.mark.parametrize("url", NOT_PUBLIC)
def test_it_refuses_every_address_that_is_not_global(url):
    with pytest.raises(FetchError, match="not a public address"):
        check_url(url)


def test_it_refuses_a_name_that_resolves_to_loopback_or_to_any_private_address(dns):
    # given
    dns.table["evil.test"] = ["127.0.0.1"]
    dns.table["mixed.test"] = ["8.8.8.8", "10.0.0.7"]
    dns.table["fine.test"] = ["8.8.8.8"]
    # then
    with pytest.raises(FetchError, match="not a public address"):
        check_url("http://evil.test/")
    with pytest.raises(FetchError, match="not a public address"):
        check_url("https://mixed.test/shop/")
    assert check_url("https://fine.test/shop/?page=2#top").url == "https://fine.test/shop/?page=2"


def test_the_backslash_url_never_reaches_the_loopback_server():
    # given a server on 127.0.0.1, and the URL that urllib3 would send to it
    with FakeServer() as server:
        server.routes["/"] = Answer(200, "secret")
        port = server.httpd.server_address[1]
        url = f"http://127.0.0.1:{port}\\@1.2.3.4/"
        # when / then: neither as a base URL nor through the adapter
        with pytest.raises(FetchError):
            PoliteSession(base_url=url)
        http = requests.Session()
        http.mount("http://", PinnedAdapter(allow_private=False))
        with pytest.raises(FetchError):
            http.get(f"http://127.0.0.1:{port}/")
        assert server.requests == []


def test_the_connection_goes_to_the_checked_address_and_the_name_is_resolved_once(public_producer, dns,
                                                                                  monkeypatch):
    # given: a second lookup (the DNS-rebinding trick) would answer an unroutable address
    public_producer.routes["/page"] = Answer(200, "<p>tea</p>")
    seen_by_the_system_resolver = []
    system = socket.getaddrinfo
    monkeypatch.setattr(socket, "getaddrinfo",
                        lambda host, *a, **kw: (seen_by_the_system_resolver.append(host), system(host, *a, **kw))[1])
    session = PoliteSession(base_url=public_producer.public_url + "/", delay=0)
    dns.table["producer.test"] = ["127.0.0.1"]
    dns.asked.clear()
    # when
    page = session.get(public_producer.public_url + "/page")
    # then: one lookup per request (robots.txt, the page), and the socket went to that address
    assert page.text == "<p>tea</p>"
    assert dns.asked == ["producer.test", "producer.test"]
    assert "producer.test" not in seen_by_the_system_resolver
    assert public_producer.host_headers[-1] == f"producer.test:{public_producer.httpd.server_address[1]}"


def test_https_connections_keep_the_name_for_sni_and_the_certificate(dns):
    # given
    dns.table["producer.test"] = ["8.8.8.8"]
    adapter = PinnedAdapter(allow_private=False)
    request = requests.Request("GET", "https://producer.test/shop/").prepare()
    request.pinned = (target_parse(request.url), "8.8.8.8")
    # when
    pool = adapter.get_connection_with_tls_context(request, verify=True)
    # then
    assert pool.host == "8.8.8.8" and pool.port == 443
    assert pool.conn_kw["server_hostname"] == "producer.test" and pool.assert_hostname == "producer.test"
    assert pool.cert_reqs == "CERT_REQUIRED"


@pytest.mark.parametrize("location", [
    "http://127.0.0.1:{port}\\@1.2.3.4/", "http://[::1]:{port}/", "http://100.64.0.1/", "http://2130706433:{port}/",
])
def test_a_redirect_to_a_private_or_lookalike_address_is_refused(public_producer, location):
    # given
    port = public_producer.httpd.server_address[1]
    public_producer.routes["/moved"] = Answer(302, headers={"Location": location.format(port=port)})
    session = PoliteSession(base_url=public_producer.public_url + "/", delay=0)
    # when / then
    with pytest.raises(FetchError) as caught:
        session.get(public_producer.public_url + "/moved")
    assert caught.value.permanent
    assert [p for _t, p, _ua in public_producer.requests] == ["/robots.txt", "/moved"]


@pytest.mark.django_db
def test_a_product_picture_on_a_private_or_lookalike_address_is_never_stored(public_producer, settings, tmp_path):
    # given a cached product whose picture points at the loopback server
    settings.MEDIA_ROOT = str(tmp_path)
    port = public_producer.httpd.server_address[1]
    public_producer.routes["/secret.png"] = Answer(200, png_bytes(), content_type="image/png")
    store_settings_update(external_base_url=public_producer.public_url)
    for n, image in enumerate([f"http://127.0.0.1:{port}\\@1.2.3.4/secret.png", f"http://[::1]:{port}/secret.png",
                               "http://169.254.169.254/latest/meta-data/"]):
        ExternalProduct.objects.create(name=f"Tea {n}", price=100, image=image,
                                       source_url=f"{public_producer.public_url}/product/{n}/")
    # when
    result = services.external_products_import()
    # then
    assert len(result.created) == 3 and all(p.images == [] for p in Product.objects.all())
    assert public_producer.hits("/secret.png") == 0 and not list(Path(tmp_path).rglob("*.png"))


@pytest.mark.django_db
@pytest.mark.parametrize("url", [LOOKALIKES[0], "http://user@1.2.3.4/", "http://100.64.0.1/", "http://[::1]/",
                                 "http://2130706433/", "http://evil.test/"])
def test_the_settings_api_refuses_such_a_base_url_with_a_field_error(owner, dns, url):
    # given
    dns.table["evil.test"] = ["127.0.0.1"]
    client = APIClient()
    client.force_login(owner)
    # when
    response = client.put("/api/admin/settings", {"externalProducts": {"baseUrl": url}}, format="json")
    # then
    assert response.status_code == 400, response.content
    assert response.json()["field"] == "externalProducts.baseUrl"
    assert "not allowed" in response.json()["message"]


@pytest.mark.django_db
def test_the_scrape_api_refuses_a_stored_base_url_that_is_not_allowed(owner):
    # given an address saved before the check existed
    store_settings_update(external_base_url="http://100.64.0.1/")
    client = APIClient()
    client.force_login(owner)
    # when
    response = client.post("/api/admin/scrape", {"forceRefresh": True}, format="json")
    # then
    assert response.status_code == 400 and response.json()["field"] == "externalProducts.baseUrl"
    assert ImporterRun.objects.count() == 0


@pytest.mark.django_db
def test_the_import_command_refuses_such_a_base_url():
    with pytest.raises(CommandError, match="--base-url: The producer site address is not allowed"):
        call_command("import_products", "--base-url", LOOKALIKES[0], "--dry-run")
