from django.core.management.base import BaseCommand, CommandError

from importer import services
from importer.crawler import DEFAULT_PAGES, Crawl
from importer.fetch import FetchError
from importer.models import ExternalProduct, ImporterRun, RunFailure, RunStatus
from shop.rates import rates_refresh

BAR = 30


class Command(BaseCommand):
    help = ("Crawl the producer's site and import its products (EGP prices, categories, images). Held to the "
            "rules a scheduled or staff crawl is: a crawl finding no products, or far fewer than the last good "
            "one, fails (exit status 1) and imports nothing.")

    def add_arguments(self, parser):
        parser.add_argument("--base-url", help="Producer site (default: store settings' external base URL).")
        parser.add_argument("--max-pages", type=int, default=DEFAULT_PAGES, help="1 to 100 pages (default 20).")
        parser.add_argument("--dry-run", action="store_true", help="Crawl and show the table; change nothing.")
        parser.add_argument("--accept-fewer", action="store_true",
                            help="The producer really lists far fewer products than the last good crawl found: "
                                 "import them (the dashboard's acceptFewer).")

    def _bar(self, progress):
        planned = max(progress.pages_planned, progress.pages_fetched, 1)
        done = int(BAR * progress.pages_fetched / planned)
        line = (f"\r[{'#' * done}{'.' * (BAR - done)}] {progress.pages_fetched}/{planned} pages, "
                f"{progress.products_found} products, {len(progress.errors)} errors")
        self.stdout.write(line, ending="")
        self.stdout.flush()

    def handle(self, *args, base_url=None, max_pages=DEFAULT_PAGES, dry_run=False, accept_fewer=False, **options):
        if dry_run:
            self._dry_run(base_url=base_url, max_pages=max_pages, accept_fewer=accept_fewer)
            return
        try:  # the service path staff's and the scheduled crawls take, in this process
            run = services.run_open(base_url=base_url, max_pages=max_pages, accept_fewer=accept_fewer,
                                    by_command=True)
        except services.ImporterError as exc:
            raise self._refused(exc) from exc
        run = services.run_crawl(run_id=run.pk, on_progress=self._bar)
        self.stdout.write("")
        self._report(run.errors, [(p.name, p.price, p.category) for p in ExternalProduct.objects.filter(run=run)],
                     pages=run.pages_fetched,
                     seconds=(run.finished_at - run.started_at).total_seconds() if run.started_at else 0.0)
        if run.status != RunStatus.DONE:  # a done run found products: no products is a failure (_failure)
            self._fail(run)
        outcome = services.external_products_import(external_products=list(ExternalProduct.objects.order_by("pk")))
        for error in outcome.errors:
            self.stderr.write(f"  not imported: {error}")
        self.stdout.write(self.style.SUCCESS(
            f"Imported: {len(outcome.created)} created, {len(outcome.updated)} updated, {len(outcome.errors)} failed."))

    def _dry_run(self, *, base_url, max_pages, accept_fewer):
        """Crawl and judge as a real run would, writing nothing (no run, no cached product). Refused beside a
        running crawl, as a real one is (two crawls at once would double the load on the producer's site); it
        opens no run itself, so a crawl started while it runs is not refused: a run of its own would be the
        latest, refusing the apply of staff's open preview and calling no product gone until the next crawl."""
        run = ImporterRun(base_url=(base_url or services.importer_config()["base_url"]).strip(), max_pages=max_pages,
                          accept_fewer=accept_fewer, by_command=True)
        try:
            services.base_url_check(run.base_url)
            services.run_none_active()
        except services.ImporterError as exc:
            raise self._refused(exc) from exc
        rates_refresh("KES", "EGP")
        try:
            result = Crawl(base_url=run.base_url, max_pages=max_pages, on_progress=self._bar).run()
        except FetchError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write("")
        self._report(result.errors, [(p.name, p.price, p.category) for p in result.products],
                     pages=result.pages_fetched, seconds=result.seconds)
        run.error = services.run_judge(run, result)
        if run.error:
            self._fail(run)
        self.stdout.write("Dry run: nothing imported.")

    def _refused(self, exc):
        """The service's refusal, naming the option at fault."""
        option = {"external_products.base_url": "--base-url: "}.get(exc.field or "", "")
        return CommandError(f"{option}{exc.message}")

    def _fail(self, run):
        """Say why `run` failed (or that it was cancelled) and exit non-zero."""
        if run.status == RunStatus.CANCELLED:
            raise CommandError("The crawl was cancelled (from the dashboard): nothing imported.")
        hint = " If the producer really lists that few now, run again with --accept-fewer." \
            if run.failure == RunFailure.TOO_FEW else ""
        raise CommandError(f"The crawl failed, nothing imported: {run.error}{hint}")

    def _report(self, errors, products, *, pages, seconds):
        """The pages skipped, the products found as a table, and the rate and markup their EGP prices use."""
        config = services.importer_config()
        for error in errors:
            self.stderr.write(f"  skipped: {error}")
        rows = [(name[:44], f"{kes:,.2f}", f"{services.egp_price(kes, config=config):,.0f}", category or "-")
                for name, kes, category in products]
        self._table(("Product", "KES", "EGP", "Source category"), rows)
        self.stdout.write(f"{pages} pages in {seconds:.1f} s; "
                          f"rate {config['exchange_rate']} ({config['rate_source']}), markup {config['markup']} %")

    def _table(self, header, rows):
        widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
        line = "  ".join("{:<%d}" % w for w in widths)
        self.stdout.write(line.format(*header))
        self.stdout.write("  ".join("-" * w for w in widths))
        for row in rows:
            self.stdout.write(line.format(*row))
