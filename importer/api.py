"""Staff API for the producer-site importer (spec 7: /api/admin/scrape…)."""

from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.roles import StaffAreaPermission
from catalog.models import Category, Product
from importer import records, selectors, services, sync
from importer.crawler import DEFAULT_PAGES, MAX_PAGES, MIN_PAGES
from importer.models import ExternalProduct
from importer.pricing import plain
from shop.api.views import OwnTransactionsApiView
from shop.errors import ShopError
from shop.money import quantize


class ExternalProductSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    price = serializers.DecimalField(max_digits=12, decimal_places=2)  # KES
    original_price = serializers.DecimalField(max_digits=12, decimal_places=2, allow_null=True)
    original_currency = serializers.CharField(source="currency")
    price_egp = serializers.SerializerMethodField()
    image = serializers.CharField()
    description = serializers.CharField()
    source = serializers.CharField()
    source_url = serializers.CharField()
    category = serializers.CharField()
    in_stock = serializers.BooleanField()

    original_price_egp = serializers.SerializerMethodField()
    shop_category = serializers.SerializerMethodField()

    def get_price_egp(self, obj) -> str:
        return str(services.egp_price(obj.price, config=self.context["config"]))

    def get_original_price_egp(self, obj) -> str | None:
        if not obj.original_price:
            return None
        return str(services.egp_price(obj.original_price, config=self.context["config"]))

    def get_shop_category(self, obj) -> str:
        """The name, in the request's language, of the category the import will give it (the
        rule-based categoriser); its slug until the import creates it."""
        if "category_names" not in self.context:  # read once per list
            self.context["category_names"] = {c.slug: c.name for c in Category.objects.all()}
        names = self.context["category_names"]
        slug = services.category_for(obj, config=self.context["config"])
        return names.get(slug) or slug


class ProgressSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.CharField()
    base_url = serializers.CharField()
    max_pages = serializers.IntegerField()
    pages_planned = serializers.IntegerField()
    pages_fetched = serializers.IntegerField()
    products_found = serializers.IntegerField()
    errors = serializers.ListField(child=serializers.CharField())
    error_count = serializers.IntegerField()
    error = serializers.CharField()
    failure = serializers.CharField()  # "", or why a crawl that ran to its end failed (importer.models.RunFailure)
    percent = serializers.IntegerField()
    elapsed_seconds = serializers.FloatField()
    cancel_requested = serializers.BooleanField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    finished = serializers.BooleanField()


class ConfigSerializer(serializers.Serializer):
    enabled = serializers.BooleanField()
    base_url = serializers.CharField()
    refresh_interval = serializers.IntegerField()
    auto_import = serializers.BooleanField()
    markup = serializers.DecimalField(max_digits=6, decimal_places=2)
    exchange_rate = serializers.DecimalField(max_digits=18, decimal_places=4)
    rate_source = serializers.CharField()
    rate_is_fallback = serializers.BooleanField()
    rate_is_stale = serializers.BooleanField()  # the last refresh failed; an older stored rate is used
    # a service's rate refused for moving too far from the stored one, and by how many %
    rate_refused = serializers.DecimalField(max_digits=18, decimal_places=4, allow_null=True)
    rate_refused_percent = serializers.IntegerField(allow_null=True)
    rate_updated = serializers.DateTimeField(allow_null=True)
    last_fetch = serializers.DateTimeField(allow_null=True)


def _products(config):
    items = selectors.external_product_list()
    return ExternalProductSerializer(items, many=True, context={"config": config}).data


def _scrape_body(*, config, run=None, cached=False):
    """The spec's scrape response: success, products, count, errors/error, timestamp (+ job)."""
    progress = selectors.run_progress(run)
    products = _products(config)
    body = {
        "success": True, "cached": cached, "products": products, "count": len(products),
        "errors": progress["errors"] if progress else [], "error": "",
        "timestamp": config["last_fetch"] or timezone.now(), "job": progress,
    }
    if run is not None and run.status == "failed":
        body["error"] = _("Server-side scraper failed: %(error)s") % {"error": selectors.run_error(run, isolated=True)}
        body["success"] = bool(products)  # spec 4: on failure the cache is still served
    return body


def status_payload():
    """What GET /api/admin/scrape/status answers (also the panel's first paint)."""
    config = services.importer_config()
    # reads only: polled every few seconds while a crawl runs; a dead run shows ended (run_progress)
    products = _products(config)
    return {
        "config": ConfigSerializer(config).data, "job": selectors.run_progress(selectors.run_latest()),
        "products": products, "count": len(products), "timestamp": config["last_fetch"],
    }


class ScrapeApi(APIView):
    """Start a crawl of the producer's site, or answer from the fresh cache."""

    permission_classes = [StaffAreaPermission]
    area = "products"

    class InputSerializer(serializers.Serializer):
        force_refresh = serializers.BooleanField(default=False)
        max_pages = serializers.IntegerField(default=DEFAULT_PAGES, min_value=MIN_PAGES, max_value=MAX_PAGES)
        # the producer really lists far fewer products than the last good crawl found: not a failure this time
        accept_fewer = serializers.BooleanField(default=False)

    @extend_schema(
        request=InputSerializer,
        responses={200: OpenApiResponse(description="Finished or cached: success, products, count, errors, timestamp"),
                   202: OpenApiResponse(description="Crawl started: job progress to poll at /api/admin/scrape/status")},
    )
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        config = services.importer_config()
        if not config["enabled"]:
            return Response({"success": True, "cached": False, "products": [], "count": 0, "errors": [],
                             "error": "", "timestamp": timezone.now(), "job": None})
        if not data.validated_data["force_refresh"] and services.cache_is_fresh():
            return Response(_scrape_body(config=config, cached=True))
        # an ImporterError (a refused base URL names its settings field) is shaped by the handler
        run = services.run_start(user=request.user, max_pages=data.validated_data["max_pages"],
                                 accept_fewer=data.validated_data["accept_fewer"])
        config = services.importer_config()
        body = _scrape_body(config=config, run=run)
        done = body["job"]["finished"]
        return Response(body, status=status.HTTP_200_OK if done else status.HTTP_202_ACCEPTED)


class ScrapeStatusApi(APIView):
    """The importer configuration, the running (or last) job's progress and the cache."""

    permission_classes = [StaffAreaPermission]
    area = "products"

    @extend_schema(responses=inline_serializer("ScrapeStatus", {
        "config": ConfigSerializer(), "job": ProgressSerializer(allow_null=True),
        "products": ExternalProductSerializer(many=True), "count": serializers.IntegerField(),
        "timestamp": serializers.DateTimeField(allow_null=True),
    }))
    def get(self, request):
        return Response(status_payload())


class ScrapeCacheApi(APIView):
    permission_classes = [StaffAreaPermission]
    area = "products"

    @extend_schema(request=None, responses=inline_serializer("ScrapeCacheCleared", {
        "success": serializers.BooleanField(), "deleted": serializers.IntegerField()}))
    def delete(self, request):
        deleted = services.cache_clear(actor=request.user)
        return Response({"success": True, "deleted": deleted})


class ScrapeCancelApi(APIView):
    permission_classes = [StaffAreaPermission]
    area = "products"
    area_actions = {"POST": "edit"}

    @extend_schema(request=None, responses=inline_serializer("ScrapeCancelled", {
        "success": serializers.BooleanField(), "job": ProgressSerializer(allow_null=True)}))
    def post(self, request):
        run = services.run_active()
        if run is None:
            raise ShopError(_("No crawl is running."), status=409)
        run = services.run_cancel(run=run, actor=request.user)
        return Response({"success": True, "job": selectors.run_progress(run)})


class ScrapeImportApi(OwnTransactionsApiView):
    """Import cached products into the shop: all of them, or the ones selected. Each product is
    committed on its own, its picture fetched from the producer before its transaction."""

    permission_classes = [StaffAreaPermission]
    area = "products"

    class InputSerializer(serializers.Serializer):
        ids = serializers.ListField(child=serializers.IntegerField(), required=False, allow_empty=True)
        all = serializers.BooleanField(default=False)

    @extend_schema(request=InputSerializer, responses=inline_serializer("ScrapeImported", {
        "success": serializers.BooleanField(), "created": serializers.IntegerField(),
        "updated": serializers.IntegerField(), "errors": serializers.ListField(child=serializers.CharField()),
        "products": serializers.ListField(child=serializers.DictField()),
    }))
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        items = None
        if not data.validated_data["all"]:
            ids = data.validated_data.get("ids") or []
            items = list(ExternalProduct.objects.filter(pk__in=ids).order_by("pk"))
        result = services.external_products_import(external_products=items, user=request.user)
        done = result.created + result.updated
        return Response({
            "success": not result.errors, "created": len(result.created), "updated": len(result.updated),
            "errors": result.errors,
            "products": [{"id": p.pk, "slug": p.slug, "title": p.title, "price": str(p.price_amount),
                          "kes_price": str(p.kes_price_amount)} for p in done],
        })


# -- the preview diff, applying it, price history ----------------------------------


def diff_payload(diff):
    """The preview: new products, price changes (old → new EGP), products gone."""
    def egp(value):
        return None if value is None else str(quantize(value))

    return {
        "runId": diff.run.pk if diff.run else None,
        "runStatus": diff.run.status if diff.run else None,
        "goneChecked": diff.gone_checked,
        # the rate and markup these prices were worked out at: the apply sends them back (sync.diff_apply)
        "pricing": {key: str(value) for key, value in sync.diff_pricing(diff.config).items()},
        "new": [{"id": item.pk, "name": item.name, "priceEgp": egp(p.current),
                 "originalPriceEgp": egp(p.price) if p.sale is not None else None,
                 "kes": str(item.price), "image": item.image, "sourceUrl": item.source_url, "inStock": item.in_stock}
                for item, p in ((item, records.prices_for(item, config=diff.config)) for item in diff.new)],
        "changed": [_changed_payload(product, item, prices, egp) for product, item, prices in diff.changed],
        "gone": [{"id": product.pk, "title": product.title_en, "sourceUrl": product.source_url,
                  "price": str(product.price_amount), "stock": product.stock} for product in diff.gone],
        # the producer's price makes 0 EGP or too much, or none could be read (kes null): the price on sale stays
        "refused": [{"id": product.pk, "title": product.title_en, "sourceUrl": product.source_url,
                     "kes": str(item.price) if item is not None else None} for product, item in diff.refused],
    }


def _changed_payload(product, item, prices, egp):
    """A changed product's row. A refused producer's price (0 EGP, too much for a price) is never applied
    (only the stock is): the row shows the price on sale as the new one, as the apply leaves it."""
    old_egp = product.sale_price_amount if product.sale_price_amount is not None else product.price_amount
    if prices.sellable:
        new_price, new_sale, new_egp = egp(prices.price), egp(prices.sale), egp(prices.current)
    else:
        new_price, new_sale, new_egp = str(product.price_amount), egp(product.sale_price_amount), str(old_egp)
    return {"id": product.pk, "title": product.title_en, "sourceUrl": product.source_url,
            "oldPrice": str(product.price_amount), "oldSalePrice": egp(product.sale_price_amount),
            "newPrice": new_price, "newSalePrice": new_sale, "oldEgp": str(old_egp), "newEgp": new_egp,
            "kes": str(prices.kes), "priceRefused": not prices.sellable,
            "stock": product.stock, "inStock": item.in_stock}


class ScrapePreviewApi(APIView):
    """What an import would change: new, repriced and gone products (nothing is written)."""

    permission_classes = [StaffAreaPermission]
    area = "products"

    @extend_schema(responses=OpenApiResponse(description="runId, runStatus, goneChecked, new, changed, gone"))
    def get(self, request):
        config = services.importer_config()
        diff = sync.diff_build(config=config)
        return Response(diff_payload(diff))


class ScrapeApplyApi(OwnTransactionsApiView):
    """Apply only the changes staff ticked in the preview (each committed on its own: a new product's
    picture is fetched from the producer outside any transaction)."""

    permission_classes = [StaffAreaPermission]
    area = "products"
    area_actions = {"POST": "create"}

    class InputSerializer(serializers.Serializer):
        new = serializers.ListField(child=serializers.IntegerField(), required=False, default=list)
        changed = serializers.ListField(child=serializers.IntegerField(), required=False, default=list)
        gone = serializers.ListField(child=serializers.IntegerField(), required=False, default=list)
        # the preview's pricing: when the rate or markup changed since, nothing is applied (409)
        rate = serializers.DecimalField(max_digits=18, decimal_places=8, required=False, allow_null=True, default=None)
        markup = serializers.DecimalField(max_digits=6, decimal_places=2, required=False, allow_null=True,
                                          default=None)
        # the preview's runId: when another crawl ran since, nothing is applied (409)
        run_id = serializers.IntegerField(required=False, allow_null=True, default=None)

    @extend_schema(request=InputSerializer, responses=inline_serializer("ScrapeApplied", {
        "created": serializers.IntegerField(), "updated": serializers.IntegerField(),
        "deactivated": serializers.IntegerField(), "errors": serializers.ListField(child=serializers.CharField())}))
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        result = sync.diff_apply(user=request.user, **data.validated_data)
        return Response({"created": len(result.created), "updated": len(result.updated),
                         "deactivated": len(result.deactivated), "errors": result.errors})


class ProductPriceHistoryApi(APIView):
    """An imported product's prices over time: KES, rate, markup, EGP, when."""

    permission_classes = [StaffAreaPermission]
    area = "products"

    @extend_schema(responses=inline_serializer("PriceHistory", {
        "history": serializers.ListField(child=serializers.DictField())}))
    def get(self, request, pk):
        product = get_object_or_404(Product, pk=pk)
        rows = records.price_history(product=product)
        return Response({"history": [
            {"kes": str(r.kes), "kesOriginal": None if r.kes_original is None else str(r.kes_original),
             "rate": plain(r.rate), "markup": plain(r.markup), "egp": str(r.egp),
             "saleEgp": None if r.sale_egp is None else str(r.sale_egp), "reason": r.reason,
             "recordedAt": r.recorded_at} for r in rows]})
