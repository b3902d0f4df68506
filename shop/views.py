import sys

from django.conf import settings
from django.contrib.sitemaps.views import sitemap
from django.db import transaction
from django.http import (
    Http404,
    HttpResponse,
    HttpResponsePermanentRedirect,
    HttpResponseRedirect,
    HttpResponseServerError,
    JsonResponse,
)
from django.shortcuts import render
from django.template import loader
from django.templatetags.static import static
from django.urls import translate_url
from django.utils import timezone, translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from accounts.services import customer_language_set
from catalog.models import Category
from catalog.selectors import featured_products
from shop import health
from shop.contact import contact_message_create
from shop.errors import ShopError, database_busy
from shop.newsletter import SUBSCRIBE_ANSWER, newsletter_by_token, newsletter_confirm, newsletter_subscribe
from shop.newsletter import newsletter_unsubscribe as unsubscribe
from shop.ratelimit import rate_limit_posts
from shop.site_url import site_url
from shop.sitemaps import SITEMAPS
from shop.store_settings import store_settings_get


@never_cache
@transaction.non_atomic_requests
def healthz(request):
    """Report the database, cache, broker, worker and the e-mail and WhatsApp outboxes; 503 only when
    the database is down.

    The cache failing open, the job broker down, a silent worker (no heartbeat from beat for 3
    minutes) and e-mail or WhatsApp messages their server has not taken for 15 minutes
    (`outbox_late`, `whatsapp_late`; `outbox_failed`, `whatsapp_failed` count those given up) leave
    the shop serving (jobs wait in the database: the outboxes, the expiry of unpaid orders on the
    next tick), so they make the status "degraded" with a 200: a load balancer keeps sending
    shoppers, a monitor reading the body still alerts. A 503 would take every web process out at once."""
    checks = {"database": health.database_ok(), "cache": health.cache_ok(), "broker": health.broker_ok()}
    try:
        worker_ok, worker_seen = health.worker_seen_recently()
    except Exception:  # the database is down: no heartbeat to read
        worker_ok, worker_seen = False, None
    checks["worker"] = worker_ok
    counts = {}
    for key, model in health.OUTBOXES.items():
        try:
            late, failed = health.outbox_counts(model)
        except Exception:  # the database is down: no outbox to read
            late, failed = None, None
        checks[key] = late == 0
        counts |= {f"{key}_late": late, f"{key}_failed": failed}
    essential = checks["database"]
    status = "ok" if all(checks.values()) else "degraded" if essential else "error"
    body = {"status": status, **{k: "ok" if v else "down" for k, v in checks.items()},
            "worker_last_seen": worker_seen.isoformat() if worker_seen else None, **counts}
    return JsonResponse(body, status=200 if essential else 503)


def favicon(request):
    return HttpResponsePermanentRedirect(static("shop/favicon.svg"))


def set_language(request, language):
    """Switch language: remember it in a cookie and go to the same page in it."""
    if language not in dict(settings.LANGUAGES):
        language = settings.LANGUAGE_CODE
    target = request.GET.get("next", "/")
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()},
                                           require_https=request.is_secure()):
        target = "/"
    customer_language_set(user=request.user, language=language)  # their account's mails follow the choice
    response = HttpResponseRedirect(translate_url(target, language))
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )
    return response


HOME_CATEGORIES = ("black-tea", "green-tea", "herbal-tea", "luxury-gifts")


def home(request):

    categories = {c.slug: c for c in Category.objects.filter(slug__in=HOME_CATEGORIES)}
    tiles = [categories[slug] for slug in HOME_CATEGORIES if slug in categories]
    return render(request, "shop/home.html", {"featured": featured_products(limit=3), "tiles": tiles})


def about(request):
    return render(request, "shop/about.html")


@rate_limit_posts("contact")
def contact(request):
    """The contact page; its form posts here and works without JavaScript."""

    values, error, sent = {}, None, request.GET.get("sent") == "1"
    if request.method == "POST":
        values = {k: request.POST.get(k, "") for k in ("name", "email", "subject", "message")}
        try:
            contact_message_create(**values)
        except ShopError as exc:
            error = exc
        else:
            return HttpResponseRedirect(f"{request.path}?sent=1")
    return render(
        request, "shop/contact.html", {"values": values, "error": error, "sent": sent},
        status=400 if error else 200,
    )


def terms(request):
    return render(request, "shop/terms.html", {"today": timezone.localdate()})


def privacy(request):
    return render(request, "shop/privacy.html", {"today": timezone.localdate()})


@require_POST
@rate_limit_posts("newsletter")
def newsletter(request):
    """The footer form without JavaScript: subscribe and say so."""

    try:
        newsletter_subscribe(email=request.POST.get("email"), language=get_language(), site_url=site_url(request))
    except ShopError as exc:
        return render(request, "shop/newsletter_done.html", {"message": exc.message, "ok": False}, status=400)
    return render(request, "shop/newsletter_done.html", {"message": SUBSCRIBE_ANSWER, "ok": True})


@never_cache
def newsletter_confirm_view(request, token):
    """The confirmation link: a button (POST) confirms, so mail scanners that open links subscribe nobody."""
    subscriber = newsletter_by_token(token)
    # an address that unsubscribed since: its old confirmation link puts nothing back (subscribing again
    # sends a new one), so it must not say "subscribed"
    if subscriber is None or subscriber.status == "unsubscribed":
        return render(request, "shop/newsletter_done.html",
                      {"message": _("This link is not valid any more."), "ok": False, "resubscribe": True},
                      status=404)
    if request.method == "POST":
        newsletter_confirm(token=token, site_url=site_url(request))
        return render(request, "shop/newsletter_done.html",
                      {"message": _("You are subscribed. Thank you!"), "ok": True})
    return render(request, "shop/newsletter_confirm.html")


@never_cache
def newsletter_unsubscribe(request, token):
    """The unsubscribe link: a button (POST) unsubscribes, so mail scanners that open links take nobody off."""
    if newsletter_by_token(token) is None:
        return render(request, "shop/newsletter_done.html",
                      {"message": _("This unsubscribe link is not valid."), "ok": False, "unsubscribe_dead": True},
                      status=404)
    if request.method == "POST":
        unsubscribe(token=token)
        return render(request, "shop/newsletter_done.html",
                      {"message": _("You have been unsubscribed. We will not e-mail you again."), "ok": True})
    return render(request, "shop/newsletter_confirm.html", {"unsubscribe": True})


def robots_txt(request):

    if store_settings_get().disable_discovery:
        lines = ["User-agent: *", "Disallow: /"]
    else:
        lines = [
            # the cart and checkout stay crawlable (Lighthouse SEO 100, issue 14): without a session they show
            # an empty cart, and they are not in the sitemap
            "User-agent: *", "Disallow: /admindash", "Disallow: /ar/admindash", "Disallow: /api/",
            "Disallow: /django-admin/",
            f"Sitemap: {request.build_absolute_uri('/sitemap.xml')}",
        ]
    response = HttpResponse("\n".join(lines) + "\n", content_type="text/plain")
    if store_settings_get().disable_discovery:
        response["X-Robots-Tag"] = "noindex, nofollow"
    return response


def sitemap_xml(request):
    """Pages and active products, each in English and Arabic with hreflang alternates."""

    if store_settings_get().disable_discovery:
        raise Http404
    return sitemap(request, sitemaps=SITEMAPS)


def page_not_found(request, exception=None):
    if request.path.startswith("/api/"):
        # an API client reads JSON in the one error shape, even for an unknown URL
        message = _("Not found.")
        return JsonResponse({"error": message, "message": message}, status=404)
    return render(request, "404.html", status=404)


def _error_page(request, status, title, text):
    """The shop's page for a refused request, in the language of its path: a request refused before the
    language middleware ran (too many fields) still reads Arabic under /ar/."""
    language = translation.get_language_from_path(request.path_info) or translation.get_language()
    with translation.override(language):
        title, text = str(title), str(text)
        if request.path.startswith("/api/"):
            return JsonResponse({"error": title, "message": text}, status=status)
        return render(request, "error.html", {"code": status, "title": title, "text": text}, status=status)


def bad_request(request, exception=None):
    return _error_page(request, 400, gettext_lazy("Bad request"),
                       gettext_lazy("We could not read what your browser sent. Go back and try again."))


def permission_denied(request, exception=None):
    return _error_page(request, 403, gettext_lazy("Access denied"),
                       gettext_lazy("You do not have permission to open this page."))


def csrf_failure(request, reason=""):
    """A form sent without its security token: mostly a page left open past its session, or cookies off."""
    return _error_page(request, 403, gettext_lazy("This page has expired"),
                       gettext_lazy("For your security, forms are only accepted from an open page of the shop with "
                                    "cookies allowed. Go back, reload the page and try again."))


def server_error(request):
    """Any unhandled exception: JSON under /api/ (the spec's error shape), else the bilingual page.

    A write that gave up waiting for a lock another session holds (shop.errors.database_busy) was rolled
    back whole: 503, saying that nothing was saved and that trying again will do (a checkout the shopper
    would otherwise not know to have placed or not)."""
    if database_busy(sys.exc_info()[1]):
        return _error_page(request, 503, gettext_lazy("The shop is busy"),
                           gettext_lazy("The shop is busy right now and nothing was saved. "
                                        "Please try again in a moment."))
    # No context processors that need the database: it may be what failed.

    if request.path.startswith("/api/"):
        message = _("Something went wrong")
        return JsonResponse({"error": message, "message": message}, status=500)
    template = loader.get_template("500.html")
    return HttpResponseServerError(template.render({}))
