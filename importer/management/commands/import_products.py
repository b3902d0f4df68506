from datetime import timedelta

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from importer import services
from importer.crawler import DEFAULT_PAGES, MAX_PAGES, MIN_PAGES, Crawl
from importer.fetch import FetchError
from importer.models import ExternalProduct, ImporterRun, RunStatus
from shop.rates import rates_refresh

BAR = 30


class Command(BaseCommand):
    help = "Crawl the producer's site and import its products (EGP prices, categories, images)."

    def add_arguments(self, parser):
        parser.add_argument("--base-url", help="Producer site (default: store settings' external base URL).")
        parser.add_argument("--max-pages", type=int, default=DEFAULT_PAGES, help="1 to 100 pages (default 20).")
        parser.add_argument("--dry-run", action="store_true", help="Crawl and show the table; change nothing.")

    def _bar(self, progress):
        planned = max(progress.pages_planned, progress.pages_fetched, 1)
        done = int(BAR * progress.pages_fetched / planned)
        line = (f"\r[{'#' * done}{'.' * (BAR - done)}] {progress.pages_fetched}/{planned} pages, "
                f"{progress.products_found} products, {len(progress.errors)} errors")
        self.stdout.write(line, ending="")
        self.stdout.flush()

    def handle(self, *args, base_url=None, max_pages=DEFAULT_PAGES, dry_run=False, **options):
        if not MIN_PAGES <= max_pages <= MAX_PAGES:
            raise CommandError("--max-pages must be from 1 to 100")
        config = services.importer_config()
        base_url = base_url or config["base_url"]
        try:
            services.base_url_check(base_url)
        except services.ImporterError as exc:
            raise CommandError(f"--base-url: {exc.message}") from exc
        rates_refresh("KES", "EGP")
        config = services.importer_config()
        try:
            result = Crawl(base_url=base_url, max_pages=max_pages, on_progress=self._bar).run()
        except FetchError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write("")
        for error in result.errors:
            self.stderr.write(f"  skipped: {error}")
        rows = [(p.name[:44], f"{p.price:,.2f}", f"{services.egp_price(p.price, config=config):,.0f}",
                 p.category or "-")
                for p in result.products]
        self._table(("Product", "KES", "EGP", "Source category"), rows)
        self.stdout.write(f"{result.pages_fetched} pages in {result.seconds:.1f} s; "
                          f"rate {config['exchange_rate']} ({config['rate_source']}), markup {config['markup']} %")
        if dry_run or not result.products:
            self.stdout.write("Dry run: nothing imported." if dry_run else "Nothing to import.")
            return
        run = ImporterRun.objects.create(
            base_url=base_url, max_pages=max_pages, status=RunStatus.DONE, pages_planned=result.pages_fetched,
            pages_fetched=result.pages_fetched, products_found=len(result.products), errors=result.errors[-50:],
            started_at=timezone.now() - timedelta(seconds=result.seconds), finished_at=timezone.now())
        services.cache_replace(run=run, products=result.products)
        outcome = services.external_products_import(external_products=list(ExternalProduct.objects.order_by("pk")))
        for error in outcome.errors:
            self.stderr.write(f"  not imported: {error}")
        self.stdout.write(self.style.SUCCESS(
            f"Imported: {len(outcome.created)} created, {len(outcome.updated)} updated, {len(outcome.errors)} failed."))

    def _table(self, header, rows):
        widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
        line = "  ".join("{:<%d}" % w for w in widths)
        self.stdout.write(line.format(*header))
        self.stdout.write("  ".join("-" * w for w in widths))
        for row in rows:
            self.stdout.write(line.format(*row))

