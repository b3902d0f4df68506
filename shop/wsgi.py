import gc
import os

from django.core.wsgi import get_wsgi_application

from shop.config import run_or_explain

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "shop.settings")
application = run_or_explain(get_wsgi_application)

# What start-up loaded (Django, the apps, the URL conf) lives as long as the process: out of the
# garbage collector's way, its collections no longer walk through all of it (a tenth of a page with a
# session was the collector's; issue 14).
gc.freeze()
