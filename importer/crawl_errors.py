"""Why a page of the producer's site was not read: stored in English, shown in the reader's language.

A crawl keeps its errors (ImporterRun.errors, ImporterRun.error for a refused base URL) as English sentences:
the logs, Django's admin and the operator's command read them so, and rows stored before this module read the
same. The fetcher, the crawler and the address check write them from the templates below, and `crawl_error_text`
reads one back into the active language by the template that wrote it, its technical parts (a URL, a status
code, an exception's name) isolated left-to-right inside an Arabic sentence. Anything no template wrote (a
library's or the site's own words) is shown as it is.
"""

from functools import cache

from django.utils.translation import get_language_bidi, gettext_noop

from shop.mail import FSI, PDI, isolate, isolate_ltr
from shop.stored_texts import Patterns, stored_text_patterns, stored_text_placeholders, stored_text_read

# importer.fetch: one request's outcome
HTTP_STATUS = gettext_noop("HTTP %(status)s: %(url)s")
HTTP_EMPTY = gettext_noop("HTTP %(status)s, empty: %(url)s")
HTTP_RETRIED = gettext_noop("HTTP %(status)s after %(attempts)s attempts: %(url)s")
NETWORK = gettext_noop("network error (%(error)s): %(url)s")
TIMED_OUT = gettext_noop("timed out (%(error)s): %(url)s")
TOO_SLOW = gettext_noop("slower than %(seconds)s s for one page: %(url)s")
TOO_LARGE = gettext_noop("larger than %(size)s KB: %(url)s")
TOO_MANY_REDIRECTS = gettext_noop("too many redirects: %(url)s")
REDIRECT_OFF_SITE = gettext_noop("redirect to another site refused: %(url)s")
OFF_SITE = gettext_noop("off-site URL refused: %(url)s")
ROBOTS = gettext_noop("disallowed by robots.txt: %(url)s")
NOT_AN_IMAGE = gettext_noop("not an image (%(type)s): %(url)s")
# importer.crawler: a page that answered and could not be used
PAGE_SKIPPED = gettext_noop("page skipped (%(error)s): %(url)s")
FEED_UNREADABLE = gettext_noop("feed page %(number)s of %(total)s unreadable (HTTP %(status)s): %(url)s")
FEED_NOT_READ = gettext_noop("feed page %(number)s not read, disallowed by robots.txt: %(url)s")
# importer.addresses: an address refused before any request
EMPTY_URL = gettext_noop("empty URL")
URL_TOO_LONG = gettext_noop("URL too long")
BAD_CHARACTER = gettext_noop("backslash or control character in URL: %(url)s")
USER_INFO = gettext_noop("a user name or password in the URL is not allowed: %(url)s")
NOT_HTTP = gettext_noop("not an http(s) URL of the form scheme://host[:port]/path: %(url)s")
BAD_PORT = gettext_noop("bad port in URL: %(url)s")
NOT_IPV6 = gettext_noop("not an IPv6 address: %(host)s")
NOT_IPV4 = gettext_noop("not a dotted-decimal IPv4 address: %(host)s")
BAD_HOST = gettext_noop("not a valid host name: %(host)s")
UNRESOLVED = gettext_noop("cannot resolve %(host)s")
NOT_PUBLIC = gettext_noop("%(host)s is not a public address (%(address)s)")

TEMPLATES = (
    HTTP_STATUS, HTTP_EMPTY, HTTP_RETRIED, NETWORK, TIMED_OUT, TOO_SLOW, TOO_LARGE, TOO_MANY_REDIRECTS,
    REDIRECT_OFF_SITE, OFF_SITE, ROBOTS, NOT_AN_IMAGE, PAGE_SKIPPED, FEED_UNREADABLE, FEED_NOT_READ, EMPTY_URL,
    URL_TOO_LONG, BAD_CHARACTER, USER_INFO, NOT_HTTP, BAD_PORT, NOT_IPV6, NOT_IPV4, BAD_HOST, UNRESOLVED,
    NOT_PUBLIC,
)
_NUMBERS = {"status", "attempts", "seconds", "size", "number", "total"}
_VALUES = {name for template in TEMPLATES for name in stored_text_placeholders(template)}


@cache
def _patterns() -> Patterns:
    return stored_text_patterns(TEMPLATES, numbers=_NUMBERS)


def crawl_error_text(stored: str, *, isolated: bool = False) -> str:
    """`stored` (a crawl's error, as kept) in the active language, the same text when no template wrote it;
    with `isolated` wrapped in its own direction for a sentence around it (an e-mail's reason)."""
    keep = isolate_ltr if get_language_bidi() else str  # a URL, a status code, an exception's name
    text = stored_text_read(stored, _patterns(), values=dict.fromkeys(_VALUES, keep))
    if text is None:
        return isolate(stored) if isolated else stored
    # not shop.mail.isolate, which drops the isolates inside: these are ours, and well nested
    return f"{FSI}{text}{PDI}" if isolated else text
