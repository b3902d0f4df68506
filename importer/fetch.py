"""A polite HTTP client for the producer's site.

One request at a time per host with a delay between them, a descriptive
User-Agent, robots.txt respected, a body size cap, redirects followed only on
the configured site, and private or loopback hosts refused unless
IMPORTER_ALLOW_PRIVATE_HOSTS is set. The retry policy is the spec's, written
out by hand rather than through urllib3's Retry so the attempt count and the
waits are exactly the ones the spec names (and the tests can count them):

- 2xx: the body; 404 and 410: empty, no retry; other 4xx/3xx: empty;
- 429: wait Retry-After seconds, else 500 ms doubling; retry;
- 5xx and network errors: wait 500 ms doubling; retry;
- at most 5 attempts, then FetchError (the caller logs it and moves on).
"""

import ipaddress
import logging
import socket
import time
from dataclasses import dataclass, field
from email.utils import parsedate_to_datetime
from urllib import robotparser
from urllib.parse import urljoin, urlsplit

import requests
from django.conf import settings

log = logging.getLogger(__name__)

USER_AGENT = (
    "NileHighlandsTea-importer/1.0 (+catalogue import for an authorised reseller; "
    "one request at a time)"
)
PAGE_TIMEOUT = 15  # seconds
MAX_ATTEMPTS = 5
FIRST_BACKOFF = 0.5  # seconds, doubled per attempt
MAX_RETRY_AFTER = 30  # never park a worker longer than this on one page
MAX_PAGE_BYTES = 3 * 1024 * 1024
MAX_REDIRECTS = 5


class FetchError(Exception):
    """A page could not be fetched; `permanent` when asking again cannot help."""

    def __init__(self, message, *, url="", permanent=False, attempts=0):
        super().__init__(message)
        self.url = url
        self.permanent = permanent
        self.attempts = attempts


@dataclass
class Page:
    url: str  # final URL after same-site redirects
    status: int
    body: bytes = b""
    content_type: str = ""
    encoding: str | None = None
    attempts: int = 1
    retry_after: str | None = None

    @property
    def ok(self):
        return 200 <= self.status < 300 and bool(self.body)

    @property
    def text(self):
        return decode_body(self.body, self.encoding)


def decode_body(body, encoding=None):
    """Decode a page whatever it claims: the header charset, else UTF-8, else Latin-1."""
    if encoding:
        try:
            return body.decode(encoding, errors="replace")
        except LookupError:
            pass
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError:
        return body.decode("cp1252", errors="replace")


def _is_private(host):
    try:
        infos = socket.getaddrinfo(host, None)
    except (socket.gaierror, UnicodeError) as exc:
        raise FetchError(f"cannot resolve {host}", permanent=True) from exc
    for info in infos:
        address = ipaddress.ip_address(info[4][0].split("%")[0])
        if (address.is_private or address.is_loopback or address.is_link_local
                or address.is_reserved or address.is_multicast or address.is_unspecified):
            return True
    return False


def check_url(url, *, allow_private=None):
    """Refuse anything but http(s) on a public host; return the URL's host."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise FetchError(f"not an http(s) URL: {url[:200]}", url=url, permanent=True)
    allow = settings.IMPORTER_ALLOW_PRIVATE_HOSTS if allow_private is None else allow_private
    if not allow and _is_private(parts.hostname):
        raise FetchError(
            f"{parts.hostname} is a private or loopback address", url=url, permanent=True
        )
    return parts.hostname.lower()


def _site(url):
    parts = urlsplit(url)
    return (parts.hostname or "").lower().removeprefix("www.")


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
    """Fetch pages from one site, politely. Inject `sleep`/`clock` in tests."""

    base_url: str
    delay: float = None
    timeout: float = PAGE_TIMEOUT
    max_bytes: int = None
    allow_private: bool = None
    sleep: callable = time.sleep
    clock: callable = time.monotonic
    user_agent: str = USER_AGENT
    requests_made: int = 0
    _last_request: dict = field(default_factory=dict)
    _robots: dict = field(default_factory=dict)

    def __post_init__(self):
        if self.delay is None:
            self.delay = settings.IMPORTER_DELAY_SECONDS
        if self.max_bytes is None:
            self.max_bytes = MAX_PAGE_BYTES
        if self.allow_private is None:
            self.allow_private = settings.IMPORTER_ALLOW_PRIVATE_HOSTS
        check_url(self.base_url, allow_private=self.allow_private)
        self.site = _site(self.base_url)
        self.http = requests.Session()
        self.http.headers.update({
            "User-Agent": self.user_agent,
            "Accept": "text/html,application/xhtml+xml,application/json;q=0.9,*/*;q=0.5",
            "Accept-Language": "en",
        })

    # -- politeness ---------------------------------------------------------

    def _wait_turn(self, host):
        last = self._last_request.get(host)
        if last is not None:
            remaining = self.delay - (self.clock() - last)
            if remaining > 0:
                self.sleep(remaining)
        self._last_request[host] = self.clock()

    def allowed(self, url):
        """Whether robots.txt lets us fetch `url` (an unreadable robots.txt allows all)."""
        parts = urlsplit(url)
        root = f"{parts.scheme}://{parts.netloc}"
        parser = self._robots.get(root)
        if parser is None:
            parser = robotparser.RobotFileParser()
            try:
                page = self._request(urljoin(root, "/robots.txt"), retry=False)
                lines = page.text.splitlines() if page.ok else []
            except FetchError:
                lines = []
            parser.parse(lines)
            self._robots[root] = parser
        return parser.can_fetch(self.user_agent, url)

    # -- fetching -----------------------------------------------------------

    def get(self, url):
        """Return a Page (empty for 404/410/other statuses) or raise FetchError."""
        if _site(url) != self.site:
            raise FetchError(f"off-site URL refused: {url[:200]}", url=url, permanent=True)
        if not self.allowed(url):
            raise FetchError(f"disallowed by robots.txt: {url[:200]}", url=url, permanent=True)
        return self._request(url, retry=True)

    def _request(self, url, *, retry):
        backoff = FIRST_BACKOFF
        attempts = 0
        while True:
            attempts += 1
            wait = None
            try:
                page = self._one_attempt(url)
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
                        f"HTTP {page.status} after {attempts} attempts: {url[:200]}",
                        url=url, attempts=attempts,
                    )
            if wait is None:
                wait, backoff = backoff, backoff * 2
            else:
                backoff *= 2
            self.sleep(min(wait, MAX_RETRY_AFTER))

    def _one_attempt(self, url):
        for _hop in range(MAX_REDIRECTS + 1):
            host = check_url(url, allow_private=self.allow_private)
            self._wait_turn(host)
            self.requests_made += 1
            try:
                response = self.http.get(url, timeout=self.timeout, stream=True, allow_redirects=False)
            except requests.RequestException as exc:
                raise FetchError(f"network error ({exc.__class__.__name__}): {url[:200]}", url=url) from exc
            with response:
                if response.is_redirect:
                    target = urljoin(url, response.headers.get("Location", ""))
                    if _site(target) != self.site:
                        raise FetchError(
                            f"redirect to another site refused: {target[:200]}", url=url, permanent=True
                        )
                    url = target
                    continue
                page = Page(url=url, status=response.status_code,
                            content_type=response.headers.get("Content-Type", ""),
                            encoding=requests.utils.get_encoding_from_headers(response.headers)
                            if "charset" in response.headers.get("Content-Type", "") else None)
                page.retry_after = response.headers.get("Retry-After")
                if 200 <= response.status_code < 300:
                    page.body = self._read_capped(response, url)
                return page
        raise FetchError(f"too many redirects: {url[:200]}", url=url, permanent=True)

    def _read_capped(self, response, url):
        declared = response.headers.get("Content-Length")
        if declared and declared.isdigit() and int(declared) > self.max_bytes:
            raise FetchError(f"page larger than {self.max_bytes // 1024} KB: {url[:200]}",
                             url=url, permanent=True)
        chunks, size = [], 0
        try:
            for chunk in response.iter_content(64 * 1024):
                size += len(chunk)
                if size > self.max_bytes:
                    raise FetchError(f"page larger than {self.max_bytes // 1024} KB: {url[:200]}",
                                     url=url, permanent=True)
                chunks.append(chunk)
        except requests.RequestException as exc:
            raise FetchError(f"network error ({exc.__class__.__name__}): {url[:200]}", url=url) from exc
        return b"".join(chunks)

    def close(self):
        self.http.close()


def download(url, *, max_bytes, allowed_types, timeout=PAGE_TIMEOUT, allow_private=None):
    """Fetch one file (a product image) with a size cap and a content-type check.

    Redirects are followed by hand so every hop is checked (no private hosts).
    """
    try:
        for _hop in range(MAX_REDIRECTS + 1):
            check_url(url, allow_private=allow_private)
            with requests.get(url, timeout=timeout, stream=True, allow_redirects=False,
                              headers={"User-Agent": USER_AGENT}) as response:
                if response.is_redirect:
                    url = urljoin(url, response.headers.get("Location", ""))
                    continue
                return _read_image(response, url, max_bytes, allowed_types)
        raise FetchError(f"too many redirects: {url[:200]}", url=url, permanent=True)
    except requests.RequestException as exc:
        raise FetchError(f"network error ({exc.__class__.__name__}): {url[:200]}", url=url) from exc


def _read_image(response, url, max_bytes, allowed_types):
    if response.status_code != 200:
        raise FetchError(f"HTTP {response.status_code}: {url[:200]}", url=url, permanent=response.status_code < 500)
    content_type = response.headers.get("Content-Type", "").split(";")[0].strip().lower()
    if content_type not in allowed_types:
        raise FetchError(f"not an image ({content_type or 'no type'}): {url[:200]}", url=url, permanent=True)
    declared = response.headers.get("Content-Length")
    if declared and declared.isdigit() and int(declared) > max_bytes:
        raise FetchError(f"image larger than {max_bytes // 1024} KB: {url[:200]}", url=url, permanent=True)
    chunks, size = [], 0
    for chunk in response.iter_content(64 * 1024):
        size += len(chunk)
        if size > max_bytes:
            raise FetchError(f"image larger than {max_bytes // 1024} KB: {url[:200]}", url=url, permanent=True)
        chunks.append(chunk)
    return b"".join(chunks), content_type
