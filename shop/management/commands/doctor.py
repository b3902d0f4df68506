"""manage.py doctor: print what is misconfigured for production; exit 1 when something is wrong."""

from django.core.management.base import BaseCommand

from shop.doctor import PROBLEM, doctor_run


class Command(BaseCommand):
    help = "Check the settings and routines a production shop needs (keys, hosts, HTTPS, e-mail, " \
           "payments, backups, jobs). Exits 1 when a problem is found; notes alone exit 0."

    def handle(self, *args, **options):
        findings = doctor_run()
        problems = [f for f in findings if f.level == PROBLEM]
        for finding in findings:
            mark = self.style.ERROR("PROBLEM") if finding.level == PROBLEM else self.style.WARNING("note   ")
            self.stdout.write(f"{mark} {finding.topic}: {finding.text}")
        if problems:
            self.stdout.write(self.style.ERROR(f"{len(problems)} problem(s) to fix before going live."))
            raise SystemExit(1)
        self.stdout.write(self.style.SUCCESS("Nothing wrong found."))
