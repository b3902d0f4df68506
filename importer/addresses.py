"""Which URLs and addresses the importer may reach, read one way only.

urllib.parse and urllib3 disagree on URLs such as `http://127.0.0.1:9999\\@1.2.3.4/`
(urlsplit sees the host 1.2.3.4, urllib3 connects to 127.0.0.1). So the importer
reads every URL with `target_parse` alone and refuses anything that is not
plainly scheme://host[:port]/path?query; the check and the connection both use
its answer, and the connection goes to the address `address_resolve` checked
(importer.fetch.PinnedAdapter), never to a second DNS answer.
"""

import ipaddress
import re
import socket
from dataclasses import dataclass

from requests.utils import requote_uri

from importer import crawl_errors as errors

DEFAULT_PORTS = {"http": 80, "https": 443}
URL_MAX = 2000
URL = re.compile(
    r"(?P<scheme>[a-z][a-z0-9+.-]*)://(?P<host>\[[0-9a-f:.]+\]|[^\[\]/?#@:]+)"
    r"(?::(?P<port>[0-9]{1,5}))?(?P<rest>[/?#].*)?",
    re.I | re.S,
)
LABEL = re.compile(r"(?!-)[a-z0-9_-]{1,63}(?<!-)")
# WHATWG reads a host whose last label is a number as an IPv4 address in some
# spelling (2130706433, 0177.0.0.1, 0x7f.1); only the dotted-decimal one is accepted
NUMERIC_LABEL = re.compile(r"0x[0-9a-f]*|[0-9]+", re.I)
NAT64 = ipaddress.IPv6Network("64:ff9b::/96")


class AddressRefused(ValueError):
    """A URL or address the importer must not reach; the message says why (in English, for the logs and the
    crawl's errors). `kind` is what a person is told: "form" (not a plain http(s) URL), "unknown" (its host
    name does not resolve) or "private" (not on the internet)."""

    def __init__(self, message, *, kind="form"):
        super().__init__(message)
        self.kind = kind


@dataclass(frozen=True)
class Target:
    """A URL as the importer reads it: what is checked is what is connected to."""

    scheme: str
    host: str  # lower-case ASCII (IDNA); an IPv6 address without brackets
    port: int
    path: str  # path and query, always starting with "/"

    @property
    def netloc(self):
        host = f"[{self.host}]" if ":" in self.host else self.host
        return host if self.port == DEFAULT_PORTS[self.scheme] else f"{host}:{self.port}"

    @property
    def origin(self):
        return f"{self.scheme}://{self.netloc}"

    @property
    def url(self):
        return self.origin + self.path

    @property
    def site(self):
        """The host without `www.`: www.example.com and example.com are one site."""
        return self.host.removeprefix("www.")


def target_parse(url):
    """Read an http(s) URL strictly, or raise AddressRefused."""
    if not isinstance(url, str) or not url.strip():
        raise AddressRefused(errors.EMPTY_URL)
    url = url.strip()
    if len(url) > URL_MAX:
        raise AddressRefused(errors.URL_TOO_LONG)
    if "\\" in url or any(ord(ch) < 32 or ord(ch) == 127 for ch in url):
        raise AddressRefused(errors.BAD_CHARACTER % {"url": repr(url[:200])})
    scheme, sep, rest = url.partition("://")
    if sep and "@" in re.split(r"[/?#]", rest, maxsplit=1)[0]:
        raise AddressRefused(errors.USER_INFO % {"url": repr(url[:200])})
    match = URL.fullmatch(url)
    if not match or match["scheme"].lower() not in DEFAULT_PORTS:
        raise AddressRefused(errors.NOT_HTTP % {"url": repr(url[:200])})
    scheme = match["scheme"].lower()
    port = int(match["port"]) if match["port"] else DEFAULT_PORTS[scheme]
    if not 0 < port < 65536:
        raise AddressRefused(errors.BAD_PORT % {"url": repr(url[:200])})
    path = (match["rest"] or "/").split("#", 1)[0]
    path = requote_uri(path if path.startswith("/") else "/" + path)
    return Target(scheme=scheme, host=_host(match["host"]), port=port, path=path)


def _host(raw):
    host = raw.lower()
    if host.startswith("["):
        try:
            return str(ipaddress.IPv6Address(host[1:-1]))
        except ValueError:
            raise AddressRefused(errors.NOT_IPV6 % {"host": repr(raw[:100])}) from None
    host = host.removesuffix(".")
    if not host.isascii():
        try:
            host = host.encode("idna").decode("ascii")
        except UnicodeError:
            raise AddressRefused(errors.BAD_HOST % {"host": repr(raw[:100])}) from None
    labels = host.split(".")
    if NUMERIC_LABEL.fullmatch(labels[-1]):
        try:
            return str(ipaddress.IPv4Address(host))
        except ValueError:
            raise AddressRefused(errors.NOT_IPV4 % {"host": repr(raw[:100])}) from None
    if not all(LABEL.fullmatch(label) for label in labels):
        raise AddressRefused(errors.BAD_HOST % {"host": repr(raw[:100])})
    return host


def is_public(address):
    """Whether an IP address is globally reachable, embedded IPv4 forms included."""
    address = ipaddress.ip_address(address)
    if address.version == 6:
        embedded = [address.ipv4_mapped, address.sixtofour, (address.teredo or (None, None))[1]]
        if address in NAT64:
            embedded.append(ipaddress.IPv4Address(int(address) & 0xFFFFFFFF))
        if any(v4 is not None and not v4.is_global for v4 in embedded):
            return False
    return address.is_global


def resolve_host(host, port):
    """Every address DNS gives for `host` (tests replace this to fake DNS)."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(info[4][0].split("%")[0] for info in infos))


def address_resolve(target, *, allow_private):
    """Resolve the target's host once and return the address to connect to.

    Every address the name has must be public (unless `allow_private`, for tests
    and a producer on the local network), so a name cannot slip one in.
    """
    try:
        addresses = [str(ipaddress.ip_address(target.host))]
    except ValueError:
        try:
            addresses = resolve_host(target.host, target.port)
        except (OSError, UnicodeError):
            raise AddressRefused(errors.UNRESOLVED % {"host": target.host}, kind="unknown") from None
    if not addresses:
        raise AddressRefused(errors.UNRESOLVED % {"host": target.host}, kind="unknown")
    if not allow_private:
        for address in addresses:
            if not is_public(address):
                raise AddressRefused(errors.NOT_PUBLIC % {"host": target.host, "address": address}, kind="private")
    return addresses[0]
