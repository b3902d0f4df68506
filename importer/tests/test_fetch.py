"""The polite client: the spec's retry policy, robots.txt, delays, caps and refusals."""

import time
from urllib import robotparser

import pytest

from importer.fetch import FetchError, PoliteSession, check_url, decode_body
from importer.tests.fake_site import Answer, FakeServer


@pytest.fixture
def site():
    with FakeServer() as server:
        server.routes["/robots.txt"] = Answer(200, "User-agent: *\nDisallow: /private/\n", content_type="text/plain")
        yield server


def session_for(site, **kwargs):
    sleeps = []
    kwargs.setdefault("delay", 0)
    session = PoliteSession(base_url=site.url + "/", sleep=lambda s: sleeps.append(s), **kwargs)
    return session, sleeps


def test_it_retries_503_with_doubling_waits_then_reads_the_page(site):
    # given
    site.routes["/flaky"] = [Answer(503), Answer(503), Answer(200, "<p>ok</p>")]
    session, sleeps = session_for(site)
    # when
    page = session.get(site.url + "/flaky")
    # then
    assert page.ok and page.text == "<p>ok</p>" and page.attempts == 3
    assert site.hits("/flaky") == 3
    assert sleeps == [0.5, 1.0]


def test_it_waits_retry_after_seconds_on_429(site):
    # given
    site.routes["/busy"] = [Answer(429, headers={"Retry-After": "3"}), Answer(200, "fine")]
    session, sleeps = session_for(site)
    # when
    page = session.get(site.url + "/busy")
    # then
    assert page.ok and sleeps == [3.0]


def test_it_gives_up_after_5_attempts(site):
    # given
    site.routes["/down"] = Answer(500)
    session, sleeps = session_for(site)
    # when
    with pytest.raises(FetchError) as caught:
        session.get(site.url + "/down")
    # then
    assert site.hits("/down") == 5 and caught.value.attempts == 5 and not caught.value.permanent
    assert sleeps == [0.5, 1.0, 2.0, 4.0]


@pytest.mark.parametrize("status", [404, 410, 403, 400])
def test_it_answers_empty_without_retry_for_other_statuses(site, status):
    # given
    site.routes["/gone"] = Answer(status, "nope")
    session, sleeps = session_for(site)
    # when
    page = session.get(site.url + "/gone")
    # then
    assert not page.ok and page.status == status and site.hits("/gone") == 1 and sleeps == []


def test_it_respects_robots_txt(site):
    # given
    session, _ = session_for(site)
    # when
    with pytest.raises(FetchError, match="robots.txt"):
        session.get(site.url + "/private/page")
    # then
    assert site.hits("/private/page") == 0 and site.hits("/robots.txt") == 1


@pytest.mark.parametrize(("robots", "fetched"), [(Answer(404, "none"), True), (Answer(503, "busy"), False)])
def test_a_missing_robots_txt_allows_all_and_one_the_site_cannot_serve_allows_nothing(site, robots, fetched):
    # given robots.txt not there, or failing on the server (its rules unknown: RFC 9309 says disallow all)
    site.routes["/robots.txt"] = robots
    site.routes["/shop/"] = Answer(200, "<p>teas</p>")
    session, _ = session_for(site)
    # when / then
    if fetched:
        assert session.get(site.url + "/shop/").text == "<p>teas</p>"
    else:
        with pytest.raises(FetchError, match="robots.txt"):
            session.get(site.url + "/shop/")
    assert site.hits("/shop/") == int(fetched)


def test_it_sends_a_descriptive_user_agent(site):
    # given
    site.routes["/"] = Answer(200, "home")
    session, _ = session_for(site)
    # when
    session.get(site.url + "/")
    # then
    assert all("NileHighlandsTea-importer" in ua for _t, _p, ua in site.requests)


def test_it_waits_the_delay_between_requests_to_one_host(site):
    # given
    for n in range(4):
        site.routes[f"/p{n}"] = Answer(200, "x")
    session = PoliteSession(base_url=site.url + "/", delay=0.1)
    times, send = [], session.http.get
    session.http.get = lambda *a, **kw: (times.append(time.monotonic()), send(*a, **kw))[1]
    # when
    for n in range(4):
        session.get(site.url + f"/p{n}")
    # then robots.txt and four pages went out, each at least 100 ms after the one before
    assert len(times) == 5 and len(site.requests) == 5
    assert min(b - a for a, b in zip(times, times[1:])) >= 0.095


def test_it_refuses_a_redirect_to_another_site(site):
    # given
    site.routes["/away"] = Answer(302, headers={"Location": "http://example.org/elsewhere"})
    site.routes["/here"] = Answer(301, headers={"Location": "/there"})
    site.routes["/there"] = Answer(200, "arrived")
    session, _ = session_for(site)
    # when / then
    with pytest.raises(FetchError, match="another site") as caught:
        session.get(site.url + "/away")
    assert caught.value.permanent
    assert session.get(site.url + "/here").text == "arrived"


def test_it_caps_the_body_size(site):
    # given
    site.routes["/huge"] = Answer(200, "x" * 200_000)
    session, _ = session_for(site, max_bytes=100_000)
    # when / then
    with pytest.raises(FetchError, match="larger than"):
        session.get(site.url + "/huge")


@pytest.mark.parametrize("length", ["²", "9" * 5000])
def test_a_content_length_that_is_not_a_number_is_read_as_none_sent(site, length):
    # given: "²" (Latin-1, as a header can carry it) passes str.isdigit(), which int() then refused,
    # as it refuses a number past 4300 digits
    site.routes["/odd"] = Answer(200, "<p>ok</p>", headers={"Content-Length": length, "Connection": "close"})
    site.routes["/huge"] = Answer(200, "x" * 200_000, headers={"Content-Length": length, "Connection": "close"})
    session, _ = session_for(site, max_bytes=100_000)
    # when / then: the body is read, and still capped as it comes
    assert session.get(site.url + "/odd").text == "<p>ok</p>"
    with pytest.raises(FetchError, match="larger than"):
        session.get(site.url + "/huge")


def test_a_page_that_trickles_in_is_given_up_at_its_deadline(site, monkeypatch):
    # given a page that sends a byte every 50 ms (each byte well inside the timeout), and a 0.3 s deadline
    monkeypatch.setattr("importer.fetch.PAGE_DEADLINE", 0.3)
    site.routes["/slow"] = Answer(200, "x" * 200, trickle=0.05)
    session, _ = session_for(site)
    started = time.monotonic()
    # when / then it is given up, each try at the deadline, not after the 10 s the body would take
    with pytest.raises(FetchError, match="slower than"):
        session.get(site.url + "/slow")
    assert time.monotonic() - started < 5


def test_a_site_that_trickles_even_its_headers_is_given_up_at_the_deadline_to_be_tried_again(monkeypatch):
    # given a site whose answer, headers first, comes a byte every 50 ms (each byte well inside the timeout,
    # the whole some 4 s), and a 0.3 s deadline: the body's own check never started, a limit per read never ran out
    from shop.tests.trickle_server import TrickleServer

    monkeypatch.setattr("importer.fetch.PAGE_DEADLINE", 0.3)
    answer = b"HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: 4\r\n\r\nPNG!"
    with TrickleServer(answer, every=0.05) as slow:
        session, _ = session_for(slow)
        started = time.monotonic()
        # when
        with pytest.raises(FetchError, match="slower than") as failed:
            session.download(slow.url + "/tea.png", max_bytes=1000, allowed_types={"image/png"})
        waited = time.monotonic() - started
    # then each attempt was given up at the deadline, and the picture is to be tried again later
    assert failed.value.attempts == 5
    assert slow.connections <= 5  # the fifth may not have started: the threads for the site were all held
    assert waited < 5 * 0.3 + 1.5
    assert not failed.value.permanent


def test_it_refuses_off_site_urls_and_non_http_schemes(site):
    # given
    session, _ = session_for(site)
    # when / then
    with pytest.raises(FetchError, match="off-site"):
        session.get("http://example.org/")
    with pytest.raises(FetchError, match="http"):
        check_url("ftp://example.org/file")
    with pytest.raises(FetchError):
        check_url("javascript:alert(1)")


def test_it_refuses_private_and_loopback_hosts_unless_allowed():
    # when / then
    with pytest.raises(FetchError, match="not a public address"):
        check_url("http://127.0.0.1:8000/", allow_private=False)
    with pytest.raises(FetchError, match="not a public address"):
        check_url("http://10.1.2.3/", allow_private=False)
    with pytest.raises(FetchError, match="not a public address"):
        PoliteSession(base_url="http://localhost/", allow_private=False)
    assert check_url("http://127.0.0.1:8000/", allow_private=True).host == "127.0.0.1"


def test_it_retries_network_errors_then_gives_up():
    # given a port where nothing listens
    with FakeServer() as server:
        url = server.url
    sleeps = []
    session = PoliteSession(base_url=url + "/", delay=0, sleep=sleeps.append)
    session._robots[url] = robotparser.RobotFileParser()
    session._robots[url].parse([])
    # when
    with pytest.raises(FetchError, match="network error") as caught:
        session.get(url + "/x")
    # then
    assert caught.value.attempts == 5 and sleeps == [0.5, 1.0, 2.0, 4.0]


def test_it_decodes_wrong_encodings_without_crashing():
    # then
    assert decode_body("شاي".encode()) == "شاي"
    assert decode_body("café".encode("latin-1")) == "café"
    assert decode_body(b"\xff\xfe bad", "no-such-codec")



def test_image_downloads_check_type_size_and_every_redirect_hop(site):
    # given
    from importer.tests.fake_site import png_bytes

    site.routes["/a.png"] = Answer(200, png_bytes(), content_type="image/png")
    site.routes["/big.png"] = Answer(200, b"\x89PNG" + b"0" * 50_000, content_type="image/png")
    site.routes["/page.png"] = Answer(200, "<html></html>")
    site.routes["/hop.png"] = Answer(302, headers={"Location": "file:///etc/passwd"})
    site.routes["/missing.png"] = Answer(404, "no")
    session, _ = session_for(site)
    # then
    body, kind = session.download(site.url + "/a.png", max_bytes=10_000, allowed_types={"image/png"})
    assert body.startswith(b"\x89PNG") and kind == "image/png"
    with pytest.raises(FetchError, match="larger than"):
        session.download(site.url + "/big.png", max_bytes=10_000, allowed_types={"image/png"})
    with pytest.raises(FetchError, match="not an image"):
        session.download(site.url + "/page.png", max_bytes=10_000, allowed_types={"image/png"})
    with pytest.raises(FetchError, match="not an http"):
        session.download(site.url + "/hop.png", max_bytes=10_000, allowed_types={"image/png"})
    with pytest.raises(FetchError, match="HTTP 404") as caught:
        session.download(site.url + "/missing.png", max_bytes=10_000, allowed_types={"image/png"})
    assert caught.value.permanent and site.hits("/hop.png") == 1 and site.hits("/missing.png") == 1
