"""Issue 14: a visitor's session is found in the request's first shared-cache read, with no query;
the database keeps every session, so a lost copy is read from it, and a sign-out is final."""

from datetime import timedelta

import pytest
import time_machine
from django.contrib.sessions.models import Session
from django.core.cache import cache, caches
from django.test import Client
from django.utils import timezone

from catalog.cache import VERSION_KEY
from shop import sessions
from shop.cache import FailOpenRedisCache
from shop.models import STORE_SETTINGS_CACHE_KEY
from shop.sessions import SessionStore
from shop.tests.test_page_cache_fast_path import CacheReads
from tests.factories import make_product
from tests.pages import without_random_parts

pytestmark = pytest.mark.django_db

PRODUCT = "/product/kenya-gold"


@pytest.fixture
def tea(db):
    return make_product(slug="kenya-gold", stock=50, price="300.00")


def _with_cart(tea, client=None):
    shopper = client or Client()
    assert shopper.post("/api/cart/items", {"productId": tea.pk}, content_type="application/json").status_code == 200
    return shopper


@pytest.mark.parametrize("who", ["cart", "signed in"])
def test_a_stitched_page_finds_the_session_and_the_visitor_s_tokens_in_its_one_read_and_sends_no_query(
        tea, alice, who, django_assert_num_queries):
    shopper = Client()
    if who == "signed in":
        shopper.force_login(alice)
    _with_cart(tea, shopper)
    Client().get(PRODUCT)  # stored
    shopper.get(PRODUCT)  # the visitor's parts kept, and whose the session is seen by this process
    session = shopper.cookies["sessionid"].value
    tokens = ([f"user:generation:{alice.pk}", f"user-cart:generation:{alice.pk}"] if who == "signed in"
              else [f"cart:generation:session:{session}"])
    with CacheReads() as counted, django_assert_num_queries(0):
        response = shopper.get(PRODUCT)
    assert response.status_code == 200
    # one round trip, whichever is read first: the session (the user is read at once) or the settings
    [(name, (keys,))] = counted.reads
    assert name == "get_many"
    assert sorted(keys) == sorted([STORE_SETTINGS_CACHE_KEY, VERSION_KEY, SessionStore.cache_key_prefix + session,
                                   *tokens])
    assert (b"Alice" in response.content) == (who == "signed in")


def test_a_customer_s_first_request_to_a_process_reads_their_tokens_after_their_session(tea, alice):
    shopper = Client()
    shopper.force_login(alice)
    _with_cart(tea, shopper)
    sessions._users_found.clear()  # a process that has not seen this session yet
    Client().get(PRODUCT)  # stored
    with CacheReads() as counted:
        assert b"Alice" in shopper.get(PRODUCT).content
    assert [keys for _name, (keys,) in counted.reads[1:2]] == [
        [f"user:generation:{alice.pk}", f"user-cart:generation:{alice.pk}"]]
    with CacheReads() as counted:
        assert b"Alice" in shopper.get(PRODUCT).content
    assert len(counted.reads) == 1  # from then on, with the session


def test_a_token_named_for_a_session_that_is_no_longer_the_user_s_is_read_but_not_used(tea, alice, bob):
    shopper = Client()
    shopper.force_login(alice)
    _with_cart(tea, shopper)
    sessions._users_found[shopper.cookies["sessionid"].value] = str(bob.pk)  # a wrong guess
    Client().get(PRODUCT)
    page = without_random_parts(shopper.get(PRODUCT).content.decode())
    assert "Alice" in page and "Bob" not in page


def test_a_session_whose_copy_is_lost_is_read_from_the_database_and_copied_again(tea, alice):
    shopper = Client()
    shopper.force_login(alice)
    _with_cart(tea, shopper)
    cache.clear()  # a flushed or restarted Redis
    response = shopper.get("/api/cart")
    assert response.status_code == 200 and response.json()["items"][0]["quantity"] == 1
    assert shopper.get("/api/auth/me").json()["email"] == alice.email
    assert cache.get(SessionStore.cache_key_prefix + shopper.cookies["sessionid"].value) is not None


def test_a_signed_out_session_stays_signed_out(alice):
    shopper = Client()
    shopper.force_login(alice)
    old_cookie = shopper.cookies["sessionid"].value
    assert shopper.get("/api/auth/me").status_code == 200  # its copy is in the cache now
    assert shopper.post("/api/auth/logout").status_code in (200, 204)
    # the old cookie, replayed, signs no one in: both the row and the copy are gone
    replay = Client()
    replay.cookies["sessionid"] = old_cookie
    assert replay.get("/api/auth/me").status_code in (401, 403)
    assert not Session.objects.filter(session_key=old_cookie).exists()
    assert cache.get(SessionStore.cache_key_prefix + old_cookie) is None


def test_a_malformed_session_cookie_is_a_visitor_without_a_session(tea):
    shopper = Client()
    shopper.cookies["sessionid"] = "x"
    assert shopper.get(PRODUCT).status_code == 200
    assert shopper.get("/api/cart").json()["items"] == []


@pytest.mark.parametrize("remember, days", [({}, 1), ({"rememberMe": "1"}, 30)])
def test_the_copy_lives_as_long_as_the_session(alice, password, remember, days):
    shopper = Client()
    assert shopper.post("/login", {"email": alice.email, "password": password, **remember}).status_code == 302
    key = SessionStore.cache_key_prefix + shopper.cookies["sessionid"].value
    lifetime = timedelta(days=days).total_seconds()
    if isinstance(caches["default"], FailOpenRedisCache):  # Redis: its own clock, so read the key's time to live
        ttl = cache._cache.get_client().ttl(cache.make_and_validate_key(key))
        assert lifetime - 60 < ttl <= lifetime
    else:  # the file cache keeps time by this process's clock
        with time_machine.travel(timezone.now() + timedelta(seconds=lifetime - 60)):
            assert cache.get(key) is not None
        with time_machine.travel(timezone.now() + timedelta(seconds=lifetime + 60)):
            assert cache.get(key) is None
