from django.conf import settings
from django.db import transaction
from django.http import HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.urls import translate_url
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.cache import never_cache

from shop import health


@never_cache
@transaction.non_atomic_requests
def healthz(request):
    """Report the database and broker; 503 when either is down."""
    checks = {"database": health.database_ok(), "broker": health.broker_ok()}
    ok = all(checks.values())
    body = {"status": "ok" if ok else "error", **{k: "ok" if v else "down" for k, v in checks.items()}}
    return JsonResponse(body, status=200 if ok else 503)


def set_language(request, language):
    """Switch language: remember it in a cookie and go to the same page in it."""
    if language not in dict(settings.LANGUAGES):
        language = settings.LANGUAGE_CODE
    target = request.GET.get("next", "/")
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        target = "/"
    response = HttpResponseRedirect(translate_url(target, language))
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )
    return response


def home(request):
    from catalog.models import Product

    featured = Product.objects.filter(is_active=True, is_featured=True).select_related("category")[:3]
    return render(request, "shop/home.html", {"featured": featured})


def page_not_found(request, exception=None):
    return render(request, "404.html", status=404)


def server_error(request):
    # No context processors that need the database: it may be what failed.
    from django.template import loader
    from django.http import HttpResponseServerError

    template = loader.get_template("500.html")
    return HttpResponseServerError(template.render({}))
