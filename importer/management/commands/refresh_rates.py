from django.core.management.base import BaseCommand, CommandError

from shop.rates import RATE_MAX_DAILY_MOVE, RateError, rate_set_by_hand, rates_refresh


class Command(BaseCommand):
    help = "Refresh the KES→EGP exchange rate from the provider chain now."

    def add_arguments(self, parser):
        parser.add_argument("--if-stale", action="store_true",
                            help="Ask the providers only when the stored rate is older than 6 hours.")
        parser.add_argument("--set", metavar="RATE",
                            help="Set 1 KES = RATE EGP by hand (a real move the services' answers were refused for).")

    def handle(self, *args, **options):
        if options["set"]:
            try:
                rate = rate_set_by_hand(rate=options["set"])
            except RateError as exc:
                raise CommandError(str(exc)) from None
            self.stdout.write(self.style.SUCCESS(f"1 KES = {rate.rate} EGP, set by hand"))
            return
        result = rates_refresh("KES", "EGP", force=not options["if_stale"])
        for line in result.errors:
            self.stderr.write(f"  failed: {line}")
        rate = result.rate
        if result.refreshed:
            self.stdout.write(self.style.SUCCESS(f"1 KES = {rate.rate} EGP (from {rate.source})"))
        elif rate.is_fallback:
            self.stdout.write(self.style.WARNING(f"All providers failed: using the fallback 1 KES = {rate.rate} EGP"))
        else:
            if result.refused is not None:
                self.stdout.write(self.style.WARNING(
                    f"Refused 1 KES = {result.refused} EGP: more than {RATE_MAX_DAILY_MOVE * 100:.0f} % a day "
                    "from the stored rate (staff were told; --set RATE takes it by hand)"))
            self.stdout.write(self.style.WARNING(
                f"Kept the stored rate 1 KES = {rate.rate} EGP "
                f"(from {rate.source}, {rate.last_updated:%Y-%m-%d %H:%M})"))
