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


def test_a_field_the_import_changed_since_the_read_is_marked_staff_edited_when_the_edit_writes_it(manager):
    # given an imported product nobody on staff has edited
    from catalog.products import product_update
    from importer.models import ImportedProduct

    product = make_product(title_en="Kericho Gold", source_url="https://producer.example/p/kericho")
    ImportedProduct.objects.create(product=product, staff_edited=[])
    read_by_manager = Product.objects.get(pk=product.pk)  # the manager's request reads it …
    # … the scheduled import renames it (no actor: the import's own write) …
    product_update(product=Product.objects.get(pk=product.pk), title_en="Kericho Gold (new crop)")
    # … and the manager's edit, from the first read, sends the title as it read it and a price
    product_save(actor=manager, product=read_by_manager,
                 data={"title_en": "Kericho Gold", "price_amount": Decimal("180.00")})

    # then the edit put the manager's title back, says so, and the next import keeps it
    assert Product.objects.get(pk=product.pk).title_en == "Kericho Gold"
    entry = AuditEntry.objects.get(action="product.update")
    assert {change["field"] for change in entry.changes} == {"title_en", "price_amount"}
    assert ImportedProduct.objects.get(product=product).staff_edited == ["price_amount", "title_en"]


def test_the_slug_is_compared_with_the_product_under_the_lock(manager, head_support):
    # given a product whose slug head support changes after the manager's request read it
    product = make_product(title_en="Kericho Gold", slug="kericho-gold")
    read_by_manager = Product.objects.get(pk=product.pk)
    product_save(actor=head_support, product=Product.objects.get(pk=product.pk), data={"slug": "kericho-reserve"})
    AuditEntry.objects.all().delete()
    # when the manager's edit, from the first read, sends the slug as it read it
    product_save(actor=manager, product=read_by_manager, data={"slug": "kericho-gold", "title_en": "Kericho Gold"})

    # then the slug is written as sent, as every other field is, and the audit entry says so
    assert Product.objects.get(pk=product.pk).slug == "kericho-gold"
    entry = AuditEntry.objects.get(action="product.update")
    assert entry.changes == [{"field": "slug", "old": "kericho-reserve", "new": "kericho-gold"}]
