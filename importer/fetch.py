"""The one polite HTTP client for the producer's site: nothing else talks to it.

Pages, feeds, robots.txt and pictures all go through `PoliteSession`:

- every URL is read by `addresses.target_parse` (no backslash, no userinfo,
  only http(s)://host[:port]/path), its host resolved once, every address
  checked to be public (IMPORTER_ALLOW_PRIVATE_HOSTS lets tests reach
  127.0.0.1), and the connection made to that checked address
  (`PinnedAdapter`), keeping the name for the Host header, TLS SNI and the
  certificate check; each redirect hop is checked again;
- one request at a time per host, process-wide, with the delay counted from
  the end of the previous response; a descriptive User-Agent; robots.txt
  respected for pages; size caps;
- the spec's retry policy, written out by hand rather than through urllib3's
  Retry so the attempt count and the waits are exactly the ones the spec names
  (and the tests can count them):
  - 2xx: the body; 404 and 410: empty, no retry; other 4xx/3xx: empty;
  - 429: wait Retry-After seconds, else 500 ms doubling; retry;
  - 5xx and network errors: wait 500 ms doubling; retry;
  - at most 5 attempts, then FetchError (the caller logs it and moves on).
"""

import codecs
import logging
import re
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from email.utils import parsedate_to_datetime
from urllib import robotparser
from urllib.parse import urljoin

import requests
import urllib3
from django.conf import settings
from requests.adapters import HTTPAdapter

from importer import crawl_errors as errors
from importer.addresses import AddressRefused, address_resolve, target_parse
from shop.outbound import DeadlinePassed, call_within, outside_transaction
from shop.validation import id_parse

log = logging.getLogger(__name__)

USER_AGENT = (
    "NileHighlandsTea-importer/1.0 (+catalogue import for an authorised reseller; "
    "one request at a time)"
)
PAGE_TIMEOUT = 15  # seconds
PAGE_DEADLINE = 30  # seconds for all of one page (each hop of its redirects), however slowly it comes
MAX_ATTEMPTS = 5
FIRST_BACKOFF = 0.5  # seconds, doubled per attempt
MAX_RETRY_AFTER = 30  # never park a worker longer than this on one page
MAX_PAGE_BYTES = 3 * 1024 * 1024
MAX_REDIRECTS = 5
DISALLOW_ALL = ["User-agent: *", "Disallow: /"]


class FetchError(Exception):
    """A page could not be fetched; `permanent` when asking again cannot help."""

    def __init__(self, message, *, url="", permanent=False, attempts=0, refused=""):
        super().__init__(message)
        self.url = url
        self.permanent = permanent
        self.attempts = attempts
        self.refused = refused  # an address refused before any request: AddressRefused.kind


class RobotsDisallowed(FetchError):
    """robots.txt asks us not to fetch this URL: not an error, the crawl skips it."""


@dataclass
class Page:
    url: str  # final URL after redirects
    status: int
    body: bytes = b""
    content_type: str = ""
    encoding: str | None = None  # the charset the Content-Type header declares
    attempts: int = 1
    retry_after: str | None = None
    headers: dict = field(default_factory=dict)  # the answer's headers, names lower-cased

    def header(self, name):
        return self.headers.get(name.lower(), "")

    @property
    def ok(self):
        return 200 <= self.status < 300 and bool(self.body)

    @property
    def text(self):
        return decode_body(self.body, self.encoding)


# -- decoding ----------------------------------------------------------------------

META_CHARSET = re.compile(rb"""<meta[^>]*?charset\s*=\s*["']?\s*([a-z0-9_.:-]+)""", re.I)
BOMS = [(codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16")]


def _codec(label):
    """Python codec for a charset label, as browsers read it (Latin-1 and ASCII mean cp1252)."""
    try:
        name = codecs.lookup(label.strip().strip("'\"")).name
    except (LookupError, ValueError):
        return None
    if name.startswith(("utf-16", "utf-32")):  # without a BOM such a label is wrong (HTML reads it as UTF-8)
        return "utf-8"
    return "cp1252" if name in ("latin-1", "iso8859-1", "ascii") else name


def _utf8(body):
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError:
        return None


def decode_body(body, encoding=None):
    """Decode a page by its BOM, the header charset, then its own <meta> charset, then detection.

    Detection: valid UTF-8 stays UTF-8, anything else is read as windows-1252. A
    single-byte declaration on a body that is valid UTF-8 with non-ASCII bytes is
    a wrong label (a real windows-1252 text is almost never valid UTF-8), so
    valid UTF-8 is never turned into mojibake.
    """
    for bom, codec in BOMS:
        if body.startswith(bom):
            return body.decode(codec, errors="replace")
    meta = META_CHARSET.search(body[:4096])
    labels = [encoding, meta.group(1).decode("ascii") if meta else None]
    for codec in filter(None, (_codec(label) for label in labels if label)):
        if codec == "utf-8":
            text = _utf8(body)
            if text is not None:
                return text
            continue  # declared UTF-8 but is not: try the next declaration
        if not body.isascii() and _utf8(body) is not None:
            return body.decode("utf-8")
        return body.decode(codec, errors="replace")
    text = _utf8(body)
    return text if text is not None else body.decode("cp1252", errors="replace")


# -- addresses ---------------------------------------------------------------------


def _allow_private(value=None):
    return settings.IMPORTER_ALLOW_PRIVATE_HOSTS if value is None else value


def check_url(url, *, allow_private=None):
    """Refuse anything but a plain http(s) URL on a public host; return its Target."""
    try:
        target = target_parse(url)
        address_resolve(target, allow_private=_allow_private(allow_private))
    except AddressRefused as exc:
        raise FetchError(str(exc), url=str(url)[:200], permanent=True, refused=exc.kind) from None
    return target


class PinnedAdapter(HTTPAdapter):
    """Connect to the address that was checked, never to a second DNS answer.

    The prepared URL is read by the same parser as the check, its host resolved
    once and checked, and urllib3 given that address as the pool's host; the Host
    header, TLS SNI and the certificate check keep the name.
    """

    def __init__(self, *, allow_private):
        self.allow_private = allow_private
        super().__init__(max_retries=0)

    def send(self, request, **kwargs):
        try:
            target = target_parse(request.url)
            address = address_resolve(target, allow_private=self.allow_private)
        except AddressRefused as exc:
            raise FetchError(str(exc), url=request.url[:200], permanent=True) from None
        request.pinned = (target, address)
        request.headers["Host"] = target.netloc
        return super().send(request, **kwargs)

    def build_connection_pool_key_attributes(self, request, verify, cert=None):
        host_params, pool_kwargs = super().build_connection_pool_key_attributes(request, verify, cert)
        target, address = request.pinned
        host_params = {"scheme": target.scheme, "host": address, "port": target.port}
        if target.scheme == "https":
            pool_kwargs = {**pool_kwargs, "server_hostname": target.host, "assert_hostname": target.host}
        return host_params, pool_kwargs


# -- politeness --------------------------------------------------------------------


class _Turns:
    """One request at a time per host in this process, `delay` after the last one ended."""

    def __init__(self):
        self._lock = threading.Lock()
        self._host_locks = {}
        self._last_end = {}

    @contextmanager
    def turn(self, host, *, delay, sleep, clock):
        with self._lock:
            host_lock = self._host_locks.setdefault(host, threading.Lock())
        with host_lock:
            last = self._last_end.get(host)
            if last is not None:
                remaining = delay - (clock() - last)
                if remaining > 0:
                    sleep(remaining)
            try:
                yield
            finally:
                self._last_end[host] = clock()


TURNS = _Turns()


def _network_error(exc, url):
    """A failed connection or read, in the words staff read (crawl_errors): a timeout said as one."""
    timed_out = isinstance(exc, (requests.Timeout, urllib3.exceptions.TimeoutError))
    return (errors.TIMED_OUT if timed_out else errors.NETWORK) % {"error": exc.__class__.__name__, "url": url[:200]}


def _retry_after(value):
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


@dataclass
class PoliteSession:
    """Fetch pages and pictures of one producer, politely. Inject `sleep`/`clock` in tests."""

    base_url: str
    delay: float = None
    timeout: float = PAGE_TIMEOUT
    max_bytes: int = None
    allow_private: bool = None
    sleep: callable = time.sleep
    clock: callable = time.monotonic
    user_agent: str = USER_AGENT
    requests_made: int = 0
    _robots: dict = field(default_factory=dict)

    def __post_init__(self):
        if self.delay is None:
            self.delay = settings.IMPORTER_DELAY_SECONDS
        if self.max_bytes is None:
            self.max_bytes = MAX_PAGE_BYTES
        self.allow_private = _allow_private(self.allow_private)
        self.site = check_url(self.base_url, allow_private=self.allow_private).site
        self.http = requests.Session()
        self.http.trust_env = False  # a proxy would resolve the name itself, past the check
        adapter = PinnedAdapter(allow_private=self.allow_private)
        self.http.mount("http://", adapter)
        self.http.mount("https://", adapter)
        self.http.headers.update({
            "User-Agent": self.user_agent,
            "Accept": "text/html,application/xhtml+xml,application/json;q=0.9,*/*;q=0.5",
            "Accept-Language": "en",
        })

    def _target(self, url):
        try:
            return target_parse(url)
        except AddressRefused as exc:
            raise FetchError(str(exc), url=str(url)[:200], permanent=True) from None

    def allowed(self, url):
        """Whether robots.txt lets us fetch `url`. As RFC 9309 says: a robots.txt that is not there (4xx)
        allows all; one the site cannot serve now (5xx, unreachable) disallows all, since the rules it
        holds are unknown, and the crawl finds nothing and fails, to be tried again later."""
        origin = self._target(url).origin
        parser = self._robots.get(origin)
        if parser is None:
            parser = robotparser.RobotFileParser()
            try:
                page = self._request(origin + "/robots.txt", retry=False)
                lines = page.text.splitlines() if page.ok else [] if page.status < 500 else DISALLOW_ALL
            except FetchError:
                lines = DISALLOW_ALL
            parser.parse(lines)
            self._robots[origin] = parser
        return parser.can_fetch(self.user_agent, url)

    # -- fetching -----------------------------------------------------------

    def get(self, url):
        """Return a Page of the producer's site (empty for 404/410/other statuses) or raise FetchError."""
        url = self._target(url).url
        if self._target(url).site != self.site:
            raise FetchError(errors.OFF_SITE % {"url": url[:200]}, url=url, permanent=True)
        if not self.allowed(url):
            raise RobotsDisallowed(errors.ROBOTS % {"url": url[:200]}, url=url, permanent=True)
        return self._request(url, retry=True)

    def download(self, url, *, max_bytes, allowed_types):
        """Fetch one picture (any public host, a CDN too) with a size cap and a type check."""
        page = self._request(self._target(url).url, retry=True, any_site=True,
                             max_bytes=max_bytes, allowed_types=allowed_types)
        if page.status != 200:
            raise FetchError(errors.HTTP_STATUS % {"status": page.status, "url": url[:200]}, url=url, permanent=True)
        return page.body, page.content_type

    def _request(self, url, *, retry, any_site=False, max_bytes=None, allowed_types=None):
        backoff = FIRST_BACKOFF
        attempts = 0
        while True:
            attempts += 1
            wait = None
            try:
                page = self._one_attempt(url, any_site=any_site, max_bytes=max_bytes or self.max_bytes,
                                         allowed_types=allowed_types)
            except FetchError as exc:
                exc.attempts = attempts
                if exc.permanent or not retry or attempts >= MAX_ATTEMPTS:
                    raise
                log.info("importer: %s (attempt %s), retrying", exc, attempts)
            else:
                page.attempts = attempts
                if page.status == 429:
                    wait = _retry_after(page.retry_after)
                elif page.status < 500:
                    return page
                if not retry or attempts >= MAX_ATTEMPTS:
                    raise FetchError(
                        errors.HTTP_RETRIED % {"status": page.status, "attempts": attempts, "url": url[:200]},
                        url=url, attempts=attempts,
                    )
            if wait is None:
                wait, backoff = backoff, backoff * 2
            else:
                backoff *= 2
            self.sleep(min(wait, MAX_RETRY_AFTER))

    def _one_attempt(self, url, *, any_site, max_bytes, allowed_types):
        for _hop in range(MAX_REDIRECTS + 1):
            target = self._target(url)
            with TURNS.turn(target.netloc, delay=self.delay, sleep=self.sleep, clock=self.clock):
                self.requests_made += 1
                outside_transaction("the producer's site")
                try:
                    # the whole exchange, its headers too, within the deadline (shop.outbound): the timeout
                    # bounds only each wait for bytes, and a site trickling its answer never ran it out
                    page, url = call_within(PAGE_DEADLINE, "the producer's site", self._exchange, url, target.url,
                                            any_site=any_site, max_bytes=max_bytes, allowed_types=allowed_types)
                except DeadlinePassed:
                    raise FetchError(errors.TOO_SLOW % {"seconds": PAGE_DEADLINE, "url": url[:200]}, url=url) from None
                if page is not None:
                    return page
        raise FetchError(errors.TOO_MANY_REDIRECTS % {"url": url[:200]}, url=url, permanent=True)

    def _exchange(self, url, target_url, *, any_site, max_bytes, allowed_types):
        """Ask for `target_url` (the checked address of `url`): (its Page, `url`), or (None, where it redirects)."""
        try:
            response = self.http.get(target_url, timeout=self.timeout, stream=True, allow_redirects=False)
        except requests.RequestException as exc:
            raise FetchError(_network_error(exc, url), url=url) from exc
        with response:
            if response.is_redirect:
                return None, self._redirect(url, response, any_site=any_site)
            return self._page(url, response, max_bytes=max_bytes, allowed_types=allowed_types), url

    def _redirect(self, url, response, *, any_site):
        target = self._target(urljoin(url, response.headers.get("Location", "")))
        if not any_site and target.site != self.site:
            raise FetchError(errors.REDIRECT_OFF_SITE % {"url": target.url[:200]}, url=url, permanent=True)
        return target.url

    def _page(self, url, response, *, max_bytes, allowed_types):
        content_type = response.headers.get("Content-Type", "")
        page = Page(url=url, status=response.status_code, content_type=content_type,
                    encoding=requests.utils.get_encoding_from_headers(response.headers)
                    if "charset" in content_type.lower() else None,
                    retry_after=response.headers.get("Retry-After"),
                    headers={name.lower(): value for name, value in response.headers.items()})
        if not 200 <= response.status_code < 300:
            return page
        if allowed_types is not None:
            page.content_type = content_type.split(";")[0].strip().lower()
            if page.content_type not in allowed_types:
                raise FetchError(errors.NOT_AN_IMAGE % {"type": page.content_type or "no type", "url": url[:200]},
                                 url=url, permanent=True)
        page.body = self._read_capped(response, url, max_bytes)
        return page

    def _read_capped(self, response, url, max_bytes):
        too_big = FetchError(errors.TOO_LARGE % {"size": max_bytes // 1024, "url": url[:200]}, url=url, permanent=True)
        declared = id_parse(response.headers.get("Content-Length"))  # str.isdigit() took "²", int() refused it
        if declared is not None and declared > max_bytes:
            raise too_big
        chunks, size, started = [], 0, time.monotonic()
        try:
            # read1: what has arrived, however little, so that the page's deadline is checked as it trickles
            # in: call_within gave the page up at its deadline already, and this ends the thread reading it
            while chunk := response.raw.read1(64 * 1024, decode_content=True):
                size += len(chunk)
                if size > max_bytes:
                    raise too_big
                chunks.append(chunk)
                if time.monotonic() - started > PAGE_DEADLINE:
                    raise FetchError(errors.TOO_SLOW % {"seconds": PAGE_DEADLINE, "url": url[:200]}, url=url)
        except (requests.RequestException, urllib3.exceptions.HTTPError) as exc:
            raise FetchError(_network_error(exc, url), url=url) from exc
        return b"".join(chunks)

    def close(self):
        self.http.close()
