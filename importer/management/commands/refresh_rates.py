from django.core.management.base import BaseCommand

from shop.rates import rates_refresh


class Command(BaseCommand):
    help = "Refresh the KES→EGP exchange rate from the provider chain now."

    def add_arguments(self, parser):
        parser.add_argument("--if-stale", action="store_true",
                            help="Ask the providers only when the stored rate is older than 6 hours.")

    def handle(self, *args, **options):
        result = rates_refresh("KES", "EGP", force=not options["if_stale"])
        for line in result.errors:
            self.stderr.write(f"  failed: {line}")
        rate = result.rate
        if result.refreshed:
            self.stdout.write(self.style.SUCCESS(f"1 KES = {rate.rate} EGP (from {rate.source})"))
        elif rate.is_fallback:
            self.stdout.write(self.style.WARNING(f"All providers failed: using the fallback 1 KES = {rate.rate} EGP"))
        else:
            self.stdout.write(self.style.WARNING(
                f"Kept the stored rate 1 KES = {rate.rate} EGP "
                f"(from {rate.source}, {rate.last_updated:%Y-%m-%d %H:%M})"))
