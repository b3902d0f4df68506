"""A product edit's audit entry: the "old" values are the product's as the edit's row lock found them, not as
the request read it before another member of staff's edit."""

from decimal import Decimal

import pytest

from backoffice.models import AuditEntry
from backoffice.products import product_save
from catalog.models import Product
from tests.factories import make_product

pytestmark = pytest.mark.django_db


def test_an_edit_from_a_stale_read_audits_the_values_it_replaced(manager, head_support):
    product = make_product(title_en="Kericho Gold", price_amount=Decimal("150.00"))
    read_by_manager = Product.objects.get(pk=product.pk)  # the manager's request reads it …
    # … head support renames it and changes its price …
    product_save(actor=head_support, product=Product.objects.get(pk=product.pk),
                 data={"title_en": "Kericho Gold Reserve", "price_amount": Decimal("180.00")})
    AuditEntry.objects.all().delete()
    # … and the manager's edit, from the first read, renames it and sets the price head support set
    product_save(actor=manager, product=read_by_manager,
                 data={"title_en": "Kericho Gold Select", "price_amount": Decimal("180.00")})

    entry = AuditEntry.objects.get(action="product.update")
    # the title it replaced is head support's, and the price it did not change is no change
    assert entry.changes == [{"field": "title_en", "old": "Kericho Gold Reserve", "new": "Kericho Gold Select"}]
