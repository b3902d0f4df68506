"""The store settings in the shared cache: unpickled once per process for the same bytes (issue 14),
yet every reader gets a row of their own, and a change reaches the next read."""

import pickle
from decimal import Decimal
from types import SimpleNamespace
from unittest import mock

import pytest
from django.core.cache import cache

from shop.models import STORE_SETTINGS_CACHE_KEY, StoreSettings
from shop.store_settings import store_settings_get, store_settings_update

pytestmark = pytest.mark.django_db


@pytest.fixture
def loads():
    """pickle.loads as shop.store_settings calls it, counted (the caches' own calls are not)."""
    counted = mock.Mock(side_effect=pickle.loads)
    module = SimpleNamespace(loads=counted, dumps=pickle.dumps, HIGHEST_PROTOCOL=pickle.HIGHEST_PROTOCOL)
    with mock.patch("shop.store_settings.pickle", module):
        yield counted


def test_the_same_bytes_are_unpickled_once(loads):
    store_settings_update(shipping_rate=Decimal("45.00"))
    first, second = store_settings_get(), store_settings_get()
    assert loads.call_count == 0  # this process read the row and stored its bytes: nothing to unpickle
    assert first.shipping_rate == second.shipping_rate == Decimal("45.00")
    assert first.pk == second.pk == 1 and not first._state.adding and first._state.db == "default"


def test_each_reader_gets_a_row_of_its_own():
    first = store_settings_get()
    first.shipping_rate = Decimal("1.00")  # set and never saved
    first._state.adding = True
    second = store_settings_get()
    assert second is not first
    assert second.shipping_rate == StoreSettings.objects.get(pk=1).shipping_rate != Decimal("1.00")
    assert second._state.adding is False


def test_a_saved_change_reaches_the_next_read(loads):
    store_settings_get()
    store_settings_update(cod_fee=Decimal("12.50"))
    assert store_settings_get().cod_fee == Decimal("12.50")


def test_another_process_s_bytes_are_unpickled(loads):
    row = store_settings_get()
    row.store_name = "Another process's name"
    cache.set(STORE_SETTINGS_CACHE_KEY, pickle.dumps(row), 300)  # as that process's store_settings_get
    assert store_settings_get().store_name == "Another process's name"
    assert loads.call_count == 1
    the_row = StoreSettings.objects.get(pk=1)
    assert the_row.store_name != "Another process's name"  # only the cache held it; a save drops it
    the_row.save()
    assert store_settings_get().store_name == the_row.store_name
