"""Issue 14: the signed-in user's row (and what the storefront shows about them) is read once per
change, not once per request, and every change holds from the next request (accounts.user_cache)."""

import re

import pytest
from django.contrib import auth
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts.models import Role, User
from accounts.user_cache import generation_key, user_cache_clear
from orders.models import Order, OrderStatus
from shop.store_settings import store_settings_get
from tests.factories import make_delivered_order, make_order, make_product
from tests.pages import without_random_parts

# what a real sign-in records in the session (authenticate() names the backend that said yes)
BACKEND = "accounts.backends.EmailOrUsernameBackend"


@pytest.fixture(autouse=True)
def _fresh_process_copies():
    user_cache_clear()
    yield
    user_cache_clear()


@pytest.fixture
def tea(db):
    store_settings_get()
    return make_product(slug="kenya-gold", stock=50)


def _signed_in(user):
    client = Client()
    client.force_login(user, backend=BACKEND)
    return client


def _user_queries(queries):
    return [q["sql"] for q in queries if 'FROM "accounts_user"' in q["sql"]]


def _get(client, url):
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    return response, queries


def _store(url):
    assert Client().get(url).status_code == 200  # a visitor without a session stores the page


@pytest.mark.django_db
class TestTheUserRow:
    def test_is_read_once_then_kept(self, tea, alice):
        _store("/shop")
        customer = _signed_in(alice)
        first, queries = _get(customer, "/shop")
        assert "Welcome, <bdi>Alice</bdi>" in first.content.decode()
        assert len(_user_queries(queries)) == 1
        for _ in range(2):
            again, queries = _get(customer, "/shop")
            assert "Welcome, <bdi>Alice</bdi>" in again.content.decode()
            assert _user_queries(queries) == []

    def test_a_stitched_signed_in_page_sends_no_query(self, tea, alice, django_assert_num_queries):
        _store("/shop")
        customer = _signed_in(alice)
        customer.get("/shop")
        # the session comes with the first cache read (shop.sessions), the cart badge is kept (orders.cart.cart_memo)
        with django_assert_num_queries(0):
            assert "Welcome, <bdi>Alice</bdi>" in customer.get("/shop").content.decode()

    @pytest.mark.parametrize("how", ["save", "update"])
    def test_a_deactivated_customer_is_signed_out_on_the_next_request(self, tea, alice, how):
        _store("/shop")
        customer = _signed_in(alice)
        assert "Welcome" in customer.get("/shop").content.decode()
        if how == "save":
            alice.is_active = False
            alice.save()
        else:
            User.objects.filter(pk=alice.pk).update(is_active=False)
        page = without_random_parts(customer.get("/shop").content.decode())
        assert "Welcome" not in page and "Alice" not in page
        assert customer.get("/api/auth/me").status_code in (401, 403)

    @pytest.mark.parametrize("how", ["save", "update"])
    def test_a_new_password_signs_other_sessions_out(self, tea, alice, how):
        _store("/shop")
        customer = _signed_in(alice)
        assert "Welcome" in customer.get("/shop").content.decode()
        if how == "save":
            alice.set_password("another long secret 7")
            alice.save()
        else:
            User.objects.filter(pk=alice.pk).update(password=make_password("another long secret 7"))
        assert "Welcome" not in customer.get("/shop").content.decode()

    def test_a_sign_out_holds_on_the_next_request(self, tea, alice):
        _store("/shop")
        customer = _signed_in(alice)
        assert "Welcome" in customer.get("/shop").content.decode()
        customer.post("/logout")
        assert "Welcome" not in customer.get("/shop").content.decode()

    def test_a_new_role_holds_on_the_next_request(self, db, owner):
        staff = _signed_in(owner)
        assert staff.get("/api/admin/settings").status_code == 200
        User.objects.filter(pk=owner.pk).update(role=Role.SUPPORT)  # support may not see the settings
        assert staff.get("/api/admin/settings").status_code == 403
        owner.refresh_from_db()
        owner.role = Role.OWNER
        owner.save()
        assert staff.get("/api/admin/settings").status_code == 200

    def test_a_new_name_is_greeted_on_the_next_page(self, tea, alice):
        _store("/shop")
        customer = _signed_in(alice)
        assert "Welcome, <bdi>Alice</bdi>" in customer.get("/shop").content.decode()
        alice.first_name = "Aliya"
        alice.save()
        page = without_random_parts(customer.get("/shop").content.decode())
        assert "Welcome, <bdi>Aliya</bdi>" in page and "Alice" not in page

    def test_a_change_made_by_another_process_holds_through_the_shared_token(self, tea, alice):
        _store("/shop")
        customer = _signed_in(alice)
        customer.get("/shop")
        # another process writes the row: this process's copy is stale until the shared token goes
        with connection.cursor() as cursor:
            cursor.execute('UPDATE "accounts_user" SET "first_name" = %s WHERE "id" = %s', ["Aliya", alice.pk])
        assert "Welcome, <bdi>Alice</bdi>" in customer.get("/shop").content.decode()  # this process's copy
        cache.delete(generation_key(alice.pk))  # what that process's write does
        assert "Welcome, <bdi>Aliya</bdi>" in customer.get("/shop").content.decode()

    def test_a_row_read_before_a_commit_is_not_kept_after_it(self, tea, alice, django_capture_on_commit_callbacks):
        customer = _signed_in(alice)
        customer.get("/shop")
        with django_capture_on_commit_callbacks(execute=True):
            alice.first_name = "Aliya"
            alice.save()
            # a request in another process reads the old row before the commit and stores its token
            cache.set(generation_key(alice.pk), "read-before-the-commit")
        assert cache.get(generation_key(alice.pk)) is None  # the commit dropped it again

    def test_without_the_shared_cache_every_request_reads_the_row(self, tea, alice, monkeypatch):
        customer = _signed_in(alice)
        monkeypatch.setattr(cache, "get", lambda *args, **kwargs: None)
        monkeypatch.setattr(cache, "add", lambda *args, **kwargs: False)
        for _ in range(2):
            response, queries = _get(customer, "/api/auth/me")
            assert response.status_code == 200 and len(_user_queries(queries)) == 1

    def test_the_request_carries_the_user_itself_read_once(self, tea, alice, monkeypatch):
        # shop.middleware.UserAuthenticationMiddleware: no lazy object whose every attribute read runs
        # Python code of its own, and the session's password hash still checked on every request
        _store("/shop")
        customer = _signed_in(alice)
        reads = []
        real_get_user = auth.get_user
        monkeypatch.setattr(auth, "get_user", lambda request: reads.append(request) or real_get_user(request))
        response = customer.get("/shop")
        assert type(response.wsgi_request.user) is User and response.wsgi_request.user.pk == alice.pk
        assert len(reads) == 1
        assert type(Client().get("/cart").wsgi_request.user) is AnonymousUser
        User.objects.filter(pk=alice.pk).update(password=make_password("another long secret 7"))
        assert type(customer.get("/shop").wsgi_request.user) is AnonymousUser

    def test_every_request_gets_its_own_instance(self, tea, alice):
        from accounts.user_cache import user_get

        one, two = user_get(alice.pk), user_get(str(alice.pk))
        assert one == two and one is not two
        one.first_name = "changed, not saved"
        assert user_get(alice.pk).first_name == "Alice"
        assert user_get("not a number") is None and user_get(10**9) is None


@pytest.mark.django_db
def test_the_account_parts_are_rendered_once_per_user_and_language(tea, alice, monkeypatch):
    from shop import stitch

    rendered = []
    render = stitch._render_part
    monkeypatch.setattr(stitch, "_render_part", lambda request, label, token: (
        rendered.append(label.split("#")[1]), render(request, label, token))[1])
    for url in ("/shop", "/ar/shop"):
        _store(url)
    customer = _signed_in(alice)
    # the cart badge is kept with the cart (orders.cart.cart_memo), per language too
    everything = ["account", "account-menu", "cart-badge"]
    for url, parts in (("/shop", everything), ("/shop", []), ("/ar/shop", everything), ("/ar/shop", [])):
        rendered.clear()
        page = customer.get(url).content.decode()
        assert sorted(rendered) == parts, url
        assert page.count("<bdi>Alice</bdi>") == 2  # the header's greeting and the drawer's
    _store("/product/kenya-gold")
    # the account parts are kept from /shop; the review form once per product page, and the
    # delivery estimate once per governorate (catalog.views.delivery_estimate_memo)
    for parts in (["delivery-estimate", "review-form"], []):
        rendered.clear()
        page = customer.get("/product/kenya-gold").content.decode()
        assert sorted(rendered) == sorted(parts)  # the review form is the customer's own, kept with them
        assert REVIEW.search(page).group(1) == "not-buyer"


REVIEW = re.compile(r'"reason": "([^"]*)"')


def _orders_queries(queries):
    return [q["sql"] for q in queries if '"orders_order' in q["sql"]]


@pytest.mark.django_db
class TestWhatIsKeptPerCustomer:
    def test_the_review_form_asks_the_orders_once(self, tea, alice):
        make_delivered_order(user=alice, product=tea)
        _store("/product/kenya-gold")
        customer = _signed_in(alice)
        first, queries = _get(customer, "/product/kenya-gold")
        assert REVIEW.search(first.content.decode()).group(1) == ""
        assert _orders_queries(queries) != []
        again, queries = _get(customer, "/product/kenya-gold")
        assert REVIEW.search(again.content.decode()).group(1) == ""
        assert _orders_queries(queries) == []

    def test_a_delivery_opens_the_review_form_on_the_next_page(self, tea, alice):
        order = make_delivered_order(user=alice, product=tea, status="shipped")
        _store("/product/kenya-gold")
        customer = _signed_in(alice)
        assert REVIEW.search(customer.get("/product/kenya-gold").content.decode()).group(1) == "not-buyer"
        order.status = OrderStatus.DELIVERED
        order.save()
        assert REVIEW.search(customer.get("/product/kenya-gold").content.decode()).group(1) == ""
        Order.objects.filter(pk=order.pk).update(status=OrderStatus.SHIPPED)
        assert REVIEW.search(customer.get("/product/kenya-gold").content.decode()).group(1) == "not-buyer"

    def test_a_new_order_moves_the_delivery_estimate(self, tea, alice):
        make_order(user=alice, state="Aswan", lines=[(tea, 1)])
        _store("/product/kenya-gold")
        customer = _signed_in(alice)
        assert "Delivery to Aswan" in customer.get("/product/kenya-gold").content.decode()
        _, queries = _get(customer, "/product/kenya-gold")
        assert _orders_queries(queries) == []  # kept
        make_order(user=alice, state="Giza", lines=[(tea, 1)])
        page = customer.get("/product/kenya-gold").content.decode()
        assert "Delivery to Giza" in page and "Delivery to Aswan" not in page


@pytest.mark.django_db
def test_the_session_hash_kept_per_password_and_secret_is_djangos(settings):
    """User._get_session_auth_hash keeps Django's HMAC per password hash and secret: a new password, a new
    secret key and every fallback key get their own, each exactly as Django works it out."""
    user = User(username="amina@example.com", password=make_password("first-pass-123"))
    settings.SECRET_KEY_FALLBACKS = ["an-older-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz"]
    first = user.get_session_auth_hash()
    for _ in range(2):  # worked out, then kept
        assert user.get_session_auth_hash() == AbstractBaseUser._get_session_auth_hash(user) == first
        assert list(user.get_session_auth_fallback_hash()) == [
            AbstractBaseUser._get_session_auth_hash(user, secret=settings.SECRET_KEY_FALLBACKS[0])]
    settings.SECRET_KEY = "a-new-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz-ABCDEF"
    assert user.get_session_auth_hash() == AbstractBaseUser._get_session_auth_hash(user) != first
    user.password = make_password("second-pass-456")
    assert user.get_session_auth_hash() == AbstractBaseUser._get_session_auth_hash(user) != first
