"""Every request to the producer's host, pictures included, waits the politeness delay."""

import pytest

from catalog.models import Product
from importer import services

pytestmark = pytest.mark.django_db

DELAY = 0.05


def test_a_crawl_and_import_with_pictures_never_sends_two_requests_closer_than_the_delay(
        crawl, shop_setup, owner, settings):
    # given
    settings.IMPORTER_DELAY_SECONDS = DELAY
    # when the site is crawled, then its products imported with their pictures
    crawl(user=owner, max_pages=100)
    services.external_products_import(user=owner)
    # then, by the fake server's own clock
    arrivals = sorted(t for t, _path, _ua in shop_setup.requests)
    pictures = [p for _t, p, _ua in shop_setup.requests if p.endswith(".png")]
    assert len(pictures) >= 8 and all(p.images for p in Product.objects.all())
    gaps = [b - a for a, b in zip(arrivals, arrivals[1:])]
    assert min(gaps) >= DELAY, sorted(gaps)[:3]
