"""Concurrent stock changes of one product: each audit entry tells the change it made."""

import re

import pytest

from backoffice.models import AuditEntry
from backoffice.products import StockAction, stock_adjust
from catalog.models import Product
from tests.factories import make_product
from tests.threads import at_once


@pytest.mark.django_db(transaction=True)
def test_adds_at_once_each_audit_their_own_before_and_after(manager):
    product = make_product(stock=0)

    def add_one():
        return stock_adjust(actor=manager, product=Product.objects.get(pk=product.pk), action=StockAction.ADD,
                            amount=1)

    outcomes = at_once(*[add_one] * 8)

    assert not [o for o in outcomes if isinstance(o, Exception)]
    product.refresh_from_db()
    assert product.stock == 8
    changes = sorted(tuple(map(int, re.search(r"(\d+) → (\d+)$", e.details).groups()))
                     for e in AuditEntry.objects.filter(action="inventory.add"))
    # read unlocked, two adds saw the same stock before and one entry claimed a change of 2 for an add of 1
    assert changes == [(n, n + 1) for n in range(8)]
