"""Issue 14: a request reads the store settings and the catalogue version from the shared cache once,
in one round trip, and still sees its own changes; a write deletes a generation token once on
commit, however many of the owner's rows it writes, and before it reads the token again."""

from unittest import mock

import pytest
from django.core.cache import cache
from django.db import connection, transaction
from django.http import HttpResponse
from django.test import Client

from accounts.models import User
from catalog.cache import catalog_changed, catalog_version
from shop.generations import Generations, delete_now_and_on_commit, delete_on_commit
from shop.models import STORE_SETTINGS_CACHE_KEY, StoreSettings
from shop.request_scope import RequestScopeMiddleware, shared_prefetch
from shop.store_settings import store_settings_get, store_settings_update
from shop.tests.test_page_cache_fast_path import CacheReads
from tests.factories import make_product

pytestmark = pytest.mark.django_db

PRODUCT = "/product/kenya-gold"


@pytest.fixture
def tea(db):
    store_settings_get()
    return make_product(slug="kenya-gold", stock=50, price="300.00")


def _in_a_request(work):
    """Run `work()` as a view would, inside the request scope; return what it returned."""
    seen = []
    RequestScopeMiddleware(lambda request: (seen.append(work()), HttpResponse())[1])(None)
    return seen[0]


def test_a_request_sees_its_own_settings_change():
    def work():
        before = store_settings_get().maintenance_mode
        store_settings_update(maintenance_mode=True)
        return before, store_settings_get().maintenance_mode

    assert _in_a_request(work) == (False, True)


def test_a_request_sees_its_own_catalogue_change():
    def work():
        before = catalog_version()
        catalog_changed()
        return before, catalog_version()

    before, after = _in_a_request(work)
    assert after == before + 1


def test_each_request_reads_the_shared_cache_again():
    _in_a_request(store_settings_get)
    StoreSettings.objects.filter(pk=1).update(maintenance_mode=True)  # as another process's save:
    cache.delete(STORE_SETTINGS_CACHE_KEY)  # the row and the dropped shared copy
    assert _in_a_request(lambda: store_settings_get().maintenance_mode) is True


def test_outside_a_request_every_read_goes_to_the_shared_cache():
    store_settings_get()
    with CacheReads() as counted:
        store_settings_get()
        store_settings_get()
    assert [name for name, _args in counted.reads] == ["get", "get"]


def test_the_copy_goes_with_the_response_even_after_an_error():
    def failing(request):
        store_settings_get()
        raise RuntimeError

    with pytest.raises(RuntimeError):
        RequestScopeMiddleware(failing)(None)
    with CacheReads() as counted:
        store_settings_get()
    assert counted.reads == [("get", (STORE_SETTINGS_CACHE_KEY,))]


class TestTokensDeleted:
    @pytest.fixture
    def deleted(self):
        calls = []
        real = cache.delete_many
        with mock.patch.object(cache, "delete_many", side_effect=lambda keys: (calls.append(list(keys)),
                                                                                   real(keys))[1]):
            yield calls

    @pytest.mark.django_db(transaction=True)  # each request commits for real
    @pytest.mark.parametrize("who", ["cart", "signed in"])
    def test_a_cart_write_deletes_the_token_once_on_commit(self, who, deleted):
        store_settings_get()
        tea = make_product(slug="kenya-gold", stock=50, price="300.00")
        shopper = Client()
        if who == "signed in":
            shopper.force_login(User.objects.create_user("ada", "ada@example.com", "x-long-password-1"))
        shopper.post("/api/cart/items", {"productId": tea.pk}, content_type="application/json")
        deleted.clear()
        response = shopper.patch(f"/api/cart/items/{tea.pk}", {"quantity": 3}, content_type="application/json")
        assert response.status_code == 200
        # the cart changed, and the write answered from the rows it wrote: the token goes once, on commit
        tokens = [keys for keys in deleted if any("generation" in key for key in keys)]
        assert len(tokens) == 1, deleted
        # and the change holds from the next read
        assert shopper.get("/api/cart").json()["items"][0]["quantity"] == 3

    def test_a_transaction_reads_its_own_change(self, deleted):
        owners = Generations("test:generation", size=10)
        before = owners.current("o")
        with transaction.atomic():
            owners.changed(["o"])
            owners.changed(["o"])
            assert deleted == []  # nobody else can see the change before the commit
            during = owners.current("o")  # this transaction reads: the token goes first, a new one is made
            assert deleted == [["test:generation:o"]] and during != before
            assert owners.current("o") == during  # and only once
            owners.changed(["o"])
            assert owners.current("o") != during
        assert deleted == [["test:generation:o"], ["test:generation:o"]]

    def test_a_rolled_back_change_leaves_the_token(self, deleted):
        owners = Generations("test:generation", size=10)
        before = owners.current("p")
        with pytest.raises(ZeroDivisionError), transaction.atomic():
            owners.changed(["p"])
            1 / 0
        assert owners.current("p") == before and deleted == []

    def test_outside_a_transaction_now(self, deleted):
        owners = Generations("test:generation", size=10)
        with mock.patch.object(connection, "in_atomic_block", False):
            owners.changed(["q"])
            delete_on_commit({"b:2"})
            delete_now_and_on_commit({"a:1"})
        assert deleted == [["test:generation:q"], ["b:2"], ["a:1"]]

    def test_one_deletion_on_commit_and_none_lost_to_a_rollback(self, deleted, django_capture_on_commit_callbacks):
        with django_capture_on_commit_callbacks() as callbacks:
            with pytest.raises(ZeroDivisionError), transaction.atomic():
                delete_now_and_on_commit({"a:1"})
                1 / 0
            with transaction.atomic():
                delete_now_and_on_commit({"b:2"})
                delete_now_and_on_commit({"b:2", "c:3"})
        assert deleted == [["a:1"], ["b:2"], ["b:2", "c:3"]]
        deleted.clear()
        for callback in callbacks:
            callback()
        # the rolled-back transaction's token goes too: one deletion too many is harmless
        # (with whatever earlier tests' rolled-back transactions left in this thread)
        assert len(deleted) == 1 and {"a:1", "b:2", "c:3"} <= set(deleted[0])


class TestTokensInTheRequest:
    """A token the request read (or had named for its first read) is kept for the request, and every
    change to it that the request makes forgets that copy (shop.generations, shop.sessions)."""

    def test_a_named_token_comes_with_the_first_read_and_is_not_read_again(self, db):
        owners = Generations("test:generation", size=10)
        made = owners.current("r")

        def work():
            shared_prefetch(owners.key("r"))
            store_settings_get()  # the request's first read
            with CacheReads() as counted:
                return owners.current("r"), owners.current("r"), counted.reads

        assert _in_a_request(work) == (made, made, [])

    @pytest.mark.django_db(transaction=True)  # the transaction commits for real
    @pytest.mark.parametrize("in_a_transaction", [False, True])
    def test_the_request_s_own_change_is_read_again(self, in_a_transaction):
        owners = Generations("test:generation", size=10)
        made = owners.current("s")

        def work():
            before = owners.current("s")
            if in_a_transaction:
                with transaction.atomic():
                    owners.changed(["s"])
                    during = owners.current("s")  # the transaction reads its own change
                after = owners.current("s")
                return before, during, after
            with mock.patch.object(connection, "in_atomic_block", False):
                owners.changed(["s"])
            return before, owners.current("s")

        seen = _in_a_request(work)
        assert seen[0] == made and made not in seen[1:]
        if in_a_transaction:
            assert seen[2] != seen[1]  # the commit deleted the token again; a new one after it

    def test_a_token_made_in_the_request_is_the_one_it_reads_next(self, db):
        owners = Generations("test:generation", size=10)
        cache.delete(owners.key("t"))

        def work():
            first = owners.current("t")  # none: made now
            with CacheReads() as counted:
                return first, owners.current("t"), counted.reads

        first, again, reads = _in_a_request(work)
        assert first is not None and again == first and reads == []
