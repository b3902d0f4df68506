import os

from django.core.wsgi import get_wsgi_application

from shop.config import run_or_explain

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "shop.settings")
application = run_or_explain(get_wsgi_application)
