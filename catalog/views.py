"""Storefront catalogue pages: shop, sale, explore and product detail."""

import json
from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

from django.core.cache import cache
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from catalog import selectors
from catalog.cache import FRAGMENT_SECONDS, catalog_version
from catalog.models import Product
from catalog.pricing import ON_SALE, Availability, PriceInfo, price_info
from catalog.services import review_is_allowed_shown
from catalog.stock_alerts import stock_alert_by_token, stock_alert_cancel, stock_alert_confirm, stock_alert_request
from orders.delivery import CAIRO, delivery_estimate, shopper_governorate, store_today
from shop.errors import ShopError
from shop.mail import isolate
from shop.models import StoreSettings
from shop.money import format_egp, money_text
from shop.page_cache import page_inputs
from shop.paths import island_urls
from shop.ratelimit import rate_limit_posts
from shop.rates import kes_egp_rate
from shop.site_url import site_url
from shop.store_settings import store_settings_get
from shop.templatetags.shop_tags import asset
from shop.units import keep_units
from shop.validation import id_parse, safe_url

PAGE_SIZE = 24
MAX_STEPPER = 99


def _filters_from(request: HttpRequest) -> dict[str, Any]:
    params = request.GET
    filters = selectors.clean_filters(
        category=params.get("category"), search=params.get("search"),
        price=params.get("price"), sort=params.get("sort"),
    )
    filters["view"] = "list" if params.get("view") == "list" else "grid"
    return filters


def _page_number(request: HttpRequest) -> int:
    """The `?page=` asked for: 1 for anything but ASCII digits, at most 10,000."""
    return min(id_parse(request.GET.get("page", "")) or 1, 10_000)


def _query(filters: dict[str, Any], **changes: Any) -> str:
    """The shop URL's query for `filters` with `changes`; defaults are left out."""

    merged = {**filters, **changes}
    pairs = [(k, merged[k]) for k in ("category", "search", "price", "sort", "view", "page") if merged.get(k)]
    pairs = [(k, v) for k, v in pairs if (k, v) not in {("sort", "featured"), ("view", "grid"), ("page", 1)}]
    return "?" + urlencode(pairs) if pairs else ""


def _rate_props() -> dict[str, Any]:
    rate = kes_egp_rate()
    return {"rate": f"{rate.rate}", "updated": rate.last_updated.isoformat() if rate.last_updated else None}


def shop(request: HttpRequest, *, title: str | None = None, sale_only: bool = False) -> HttpResponse:
    """The filtered product list; the filters island fetches the `results` fragment of this view.

    The rendered body is kept in the shared cache per page input (shop.page_cache.page_inputs) and
    catalogue version, so a render that the page cache did not spare (a visitor with a session
    and no stored page, staff) costs no catalogue query (bench/RESULTS.md: fragment caches).
    """
    filters = _filters_from(request)
    fragment = request.headers.get("X-Fragment") == "results"
    key = page_inputs(request, get_language()).key("shop-results" if fragment else "shop-body", catalog_version())
    body = cache.get(key)
    if body is None:
        context = _shop_context(request, filters, title=title, sale_only=sale_only)
        template = "catalog/_shop_results.html" if fragment else "catalog/_shop_body.html"
        body = render_to_string(template, context, request)
        cache.set(key, body, FRAGMENT_SECONDS)
    if fragment:
        response = HttpResponse(body)
    else:
        # the body was rendered (and escaped) by our own template above
        response = render(request, "catalog/shop.html", {"body": mark_safe(body), "page_title": title or _("Shop")})
    # the same URL answers a page or a fragment: never let a cache mix them up
    patch_vary_headers(response, ["X-Fragment"])
    return response


def _shop_context(request: HttpRequest, filters: dict[str, Any], *, title: str | None,
                  sale_only: bool) -> dict[str, Any]:
    products = selectors.product_list(**{k: filters[k] for k in ("category", "search", "price", "sort")})
    if sale_only:
        products = products.filter(ON_SALE)
    paginator = Paginator(products, PAGE_SIZE)
    page = paginator.get_page(_page_number(request))
    categories = list(selectors.category_list_with_counts())
    category_names = {c.slug: c.name for c in categories}
    chips = []
    if filters["category"]:
        label = category_names.get(filters["category"]) or (request.GET.get("category") or "")[:40]
        chips.append((label, _query(filters, category="", page=None)))
    if filters["search"]:
        # Translators: the shopper's search words on the chip that removes them, in this language's quotes
        chips.append((_("“%(search)s”") % {"search": filters["search"]}, _query(filters, search="", page=None)))
    if filters["price"]:
        chips.append((str(dict(price_choices())[filters["price"]]), _query(filters, price="", page=None)))
    return {
        "filters": filters,
        "page": page,
        "total": paginator.count,
        "chips": chips,
        "grid_query": _query(filters, view="grid"),
        "list_query": _query(filters, view="list"),
        "categories": categories,
        "page_title": title or _("Shop"),
        "sale_only": sale_only,
        "prev_query": _query(filters, page=page.previous_page_number()) if page.has_previous() else None,
        "next_query": _query(filters, page=page.next_page_number()) if page.has_next() else None,
        "island_props": {
            "filters": filters,
            "categories": [
                {"slug": c.slug, "name": c.name, "count": c.product_count} for c in categories if c.is_assignable
            ],
            "prices": [{"value": v, "label": str(label)} for v, label in price_choices()],
            "sorts": [{"value": v, "label": str(label)} for v, label in sort_choices()],
            "basePath": request.path,
        },
        "price_choices": price_choices(),
        "sort_choices": sort_choices(),
        "rate_props": _rate_props(),
    }


def sale(request: HttpRequest) -> HttpResponse:
    return shop(request, title=_("Sale"), sale_only=True)


def explore(request: HttpRequest) -> HttpResponse:
    categories = [c for c in selectors.category_list_with_counts() if c.is_assignable]
    pictures = selectors.category_pictures(categories=categories)
    for category in categories:
        category.picture = pictures.get(category.pk, "")
    return render(request, "catalog/explore.html", {"categories": categories})


def price_choices() -> list[tuple[str, str]]:
    return [
        ("under-100", _("Under E£100")),
        ("100-200", _("E£100 – E£200")),
        ("200-300", _("E£200 – E£300")),
        ("over-300", _("Over E£300")),
    ]


def sort_choices() -> list[tuple[str, str]]:
    return [
        ("featured", _("Featured")),
        ("newest", _("Newest")),
        ("price-asc", _("Price: Low to High")),
        ("price-desc", _("Price: High to Low")),
        ("top-rated", _("Top Rated")),
    ]


def product_detail(request: HttpRequest, slug: str) -> HttpResponse:
    """A product page. Everything but the review form is the same for every visitor,
    so those parts are cached, keyed by the page's inputs (shop.page_cache.page_inputs), the
    catalogue version and the product's own row."""
    product = selectors.product_get(slug=slug)
    if product is None:
        return render(request, "catalog/product_not_found.html", status=404)
    store = store_settings_get()
    language = get_language()
    # the product's own stamp too: a write that bypasses the services (the Django admin) shows at once here
    inputs = page_inputs(request, language)
    stamp = (catalog_version(), product.pk, product.updated_at.timestamp(), product.stock)
    keys = {part: inputs.key(f"product-{part}", *stamp) for part in ("top", "bottom", "json_ld")}
    found = cache.get_many(keys.values())
    if len(found) < len(keys):
        context = _product_context(request, product, store, language)
        found = {
            keys["top"]: render_to_string("catalog/_product_top.html", context, request),
            keys["bottom"]: render_to_string("catalog/_product_bottom.html", context, request),
            keys["json_ld"]: context["json_ld"],
        }
        cache.set_many(found, FRAGMENT_SECONDS)
    top = found[keys["top"]]
    if STOCK_ALERT_MARK in top:  # out of stock: "Notify me", with this visitor's CSRF token and e-mail
        user = request.user
        top = top.replace(STOCK_ALERT_MARK, render_to_string("catalog/_stock_alert_form.html", {
            "product": product, "email": user.email if user.is_authenticated else ""}, request), 1)
    return render(request, "catalog/product_detail.html", {
        "product": product,
        # rendered (and escaped) by our own templates above; the delivery estimate is per shopper and day
        "top": mark_safe(top.replace(DELIVERY_SLOT, _delivery_estimate(request, store, language), 1)),
        "bottom": mark_safe(found[keys["bottom"]]),
        "json_ld": found[keys["json_ld"]],
        "review_props": review_props(request, product_id=product.pk),
    })


def review_form_part(request: HttpRequest, arg: str) -> dict[str, Any]:
    """The review form for this visitor (a visitor part of the product page: shop.stitch)."""
    return {"review_props": review_props(request, product_id=int(arg))}


def review_props(request: HttpRequest, *, product_id: int) -> dict[str, Any]:
    """The review form's props for this visitor (a visitor part of the product page: shop.stitch)."""
    user = request.user
    if not user.is_authenticated:
        reason = "login"
    elif not review_is_allowed_shown(user=user, product_id=product_id):
        reason = "not-buyer"
    else:
        reason = ""
    return {
        "productId": product_id,
        "reason": reason,
        "loginUrl": f"{reverse('accounts:login')}?next={request.path}",
    }


DELIVERY_SLOT = "<!--delivery-estimate-->"


def _delivery_estimate(request: HttpRequest, store: StoreSettings, language: str) -> str:
    """"Delivery to Cairo: E£50.00 · Arrives Sun 29 Nov – Tue 1 Dec" for the shopper's last governorate."""
    return render_to_string("catalog/_delivery_estimate.html", delivery_estimate_context(request, store, language),
                            request)


def delivery_estimate_part(request: HttpRequest, _arg: str) -> dict[str, Any]:
    """The delivery estimate for this visitor (a visitor part of the product page: shop.stitch)."""
    return delivery_estimate_context(request, store_settings_get(), get_language())


# The rendered estimate depends on nothing of the shopper's but their governorate: a web process keeps it
# per governorate, language, settings (saved at) and store day, for every shopper alike (shop.stitch).
_estimates: dict[tuple[Any, ...], str] = {}
_ESTIMATES_KEPT = 500


def delivery_estimate_memo(request: HttpRequest, _key: object, render_part: Callable[[], str]) -> str:
    """The delivery estimate part for this shopper's governorate, rendered once per process and day."""
    store = store_settings_get()
    key = (shopper_governorate(request) or CAIRO, get_language(), store.pk, store.updated_at, store_today(store))
    text = _estimates.get(key)
    if text is None:
        if len(_estimates) >= _ESTIMATES_KEPT:
            _estimates.clear()  # yesterday's and superseded settings' texts
        text = _estimates[key] = render_part()
    return text


def delivery_estimates_forget() -> None:
    """Drop the kept estimates (tests: settings rows of equal `updated_at` under a frozen clock)."""
    _estimates.clear()


def delivery_estimate_context(request: HttpRequest, store: StoreSettings, language: str) -> dict[str, Any]:
    """The delivery estimate's context: the shopper's last governorate, else Cairo."""
    governorate = shopper_governorate(request) or CAIRO
    return {"estimate": delivery_estimate(governorate=governorate, store=store, language=language), "store": store}


def _product_context(request: HttpRequest, product: Product, store: StoreSettings, language: str) -> dict[str, Any]:
    info = price_info(product)
    # the stepper offers what one cart line may hold: the stock, and the store's cap per line
    top = max(0, min(product.stock, store.max_quantity_per_line, MAX_STEPPER))
    return {
        "product": product,
        "info": info,
        "stock_status": Availability.status(product.stock),
        "reviews": selectors.review_list_approved(product=product)[:50],
        "related": selectors.product_related(product=product),
        "show_kes": store.show_kes_conversion and product.kes_price_amount is not None,
        "cart_props": {
            "productId": product.pk,
            "stock": product.stock,
            # the phone's sticky bar repeats the title and price
            "title": keep_units(product.title),
            "price": format_egp(info.price, language),
            # line totals come from the server, one per quantity the stepper allows
            "lineTotals": [format_egp(info.price * n, language) for n in range(1, top + 1)],
            "urls": island_urls(),  # the mini-cart's links
            "sheetStyles": asset("mini-cart.css"),  # loaded when the sheet first opens
        },
        "rate_props": _rate_props(),
        "tab_props": {"tabs": [
            {"id": "details", "label": _("Details")}, {"id": "care", "label": _("Care Guide")},
            {"id": "reviews", "label": _("Reviews")},
        ]},
        "json_ld": _script_safe(json.dumps(_product_json_ld(request, product, info), ensure_ascii=False)),
    }


def _script_safe(text: str) -> str:
    """JSON that cannot close its <script> element, whatever a title contains."""
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _product_json_ld(request: HttpRequest, product: Product, info: PriceInfo) -> dict[str, Any]:
    """schema.org Product with its offer, for search engines."""
    data = {
        "@context": "https://schema.org",
        "@type": "Product",
        "name": product.title,
        "description": product.short_description or product.description[:300],
        "sku": str(product.pk),
        "brand": {"@type": "Brand", "name": product.brand or "Kericho Gold"},
        "category": product.category.name,
        "url": request.build_absolute_uri(request.path),
        "offers": {
            "@type": "Offer",
            "price": money_text(info.price),
            "priceCurrency": "EGP",
            "availability": "https://schema.org/InStock" if product.stock > 0 else "https://schema.org/OutOfStock",
            "url": request.build_absolute_uri(request.path),
        },
    }
    if product.images:
        data["image"] = [request.build_absolute_uri(url) for url in filter(None, map(safe_url, product.images[:5]))]
    if product.review_count:
        data["aggregateRating"] = {
            "@type": "AggregateRating", "ratingValue": f"{product.rating:.1f}", "reviewCount": product.review_count,
        }
    return data


STOCK_ALERT_MARK = "<!--stock-alert-form-->"


@never_cache
@rate_limit_posts("stock_alert")
@require_POST
def stock_alert_request_view(request: HttpRequest) -> HttpResponse:
    """The product page's "Notify me" form (works without JavaScript)."""
    product_id = id_parse(request.POST.get("product", ""))
    try:
        if product_id is None:
            raise ShopError(_("Product not found"), field="productId", status=404)
        stock_alert_request(product_id=product_id, email=request.POST.get("email", ""),
                            language=get_language(), base_url=site_url(request))
    except ShopError as exc:
        return render(request, "catalog/stock_alert_done.html", {"message": exc.message, "ok": False},
                      status=exc.status if exc.status in (400, 404) else 400)
    return render(request, "catalog/stock_alert_done.html", {
        "message": _("Almost done: we sent you an e-mail. Open its link to confirm the alert."), "ok": True})


@never_cache
def stock_alert_confirm_view(request: HttpRequest) -> HttpResponse:
    """The confirmation link: a button (POST) confirms, so mail scanners that open links confirm nothing."""
    token = request.POST.get("token") or request.GET.get("token") or ""
    alert = stock_alert_by_token(token)
    if alert is None:
        return render(request, "catalog/stock_alert_done.html",
                      {"message": _("This link is not valid any more."), "ok": False}, status=404)
    if request.method == "POST":
        stock_alert_confirm(token=token)
        return render(request, "catalog/stock_alert_done.html", {
            "message": _("Confirmed: we will e-mail you once when %(title)s is back in stock.")
            % {"title": isolate(alert.product.title)}, "ok": True, "product": alert.product})
    return render(request, "catalog/stock_alert_confirm.html", {"alert": alert, "token": token})


@never_cache
def stock_alert_cancel_view(request: HttpRequest) -> HttpResponse:
    token = request.POST.get("token") or request.GET.get("token") or ""
    if stock_alert_by_token(token) is None:
        return render(request, "catalog/stock_alert_done.html",
                      {"message": _("This link is not valid any more."), "ok": False}, status=404)
    if request.method == "POST":
        stock_alert_cancel(token=token)
        return render(request, "catalog/stock_alert_done.html",
                      {"message": _("Done: you will not get this alert."), "ok": True})
    return render(request, "catalog/stock_alert_confirm.html", {"token": token, "cancel": True})
