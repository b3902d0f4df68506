"""Saved addresses changed at the same moment (real threads on PostgreSQL): never a 500."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.contrib.sessions.backends.db import SessionStore
from django.db import connection
from django.test import RequestFactory

from accounts.addresses import AddressError, address_create, address_delete, address_set_default
from accounts.models import Address, User
from accounts.privacy import customer_account_delete
from tests.threads import at_once

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL row locks"),
]

HOME = {"first_name": "Alice", "last_name": "Hassan", "phone": "01012345678", "street": "12 Nile St",
        "city": "Zamalek", "state": "Cairo"}


def _raced(alice, *, saved, first, second, left):
    """Ten times (two requests started together do not always overlap): alice with `saved` addresses, the
    first her default, then `first(addresses)` and `second(addresses)` at once. Neither fails, and `left`
    addresses are left, exactly one of them the default."""
    for attempt in range(10):
        Address.objects.all().delete()
        addresses = [address_create(user=alice, fields={**HOME, "label": str(n)}) for n in range(saved)]
        outcomes = at_once(lambda: first(addresses), lambda: second(addresses))
        assert not [o for o in outcomes if isinstance(o, Exception)], (attempt, outcomes)
        assert Address.objects.filter(user=alice).count() == left, attempt
        assert Address.objects.filter(user=alice, is_default=True).count() == 1, attempt


def test_two_addresses_made_default_at_once_leave_one_default(alice):
    # each row was locked alone, so two requests both cleared the old default and both set theirs (the
    # one-default index then answered 500)
    _raced(alice, saved=3, left=3,
           first=lambda addresses: address_set_default(user=alice, address_id=addresses[1].pk),
           second=lambda addresses: address_set_default(user=alice, address_id=addresses[2].pk))


def test_the_default_deleted_while_another_is_made_default_leaves_one_default(alice):
    # the default goes (the oldest left takes over) while the customer picks another
    _raced(alice, saved=3, left=2,
           first=lambda addresses: address_delete(user=alice, address_id=addresses[0].pk),
           second=lambda addresses: address_set_default(user=alice, address_id=addresses[1].pk))


def test_two_first_addresses_saved_at_once_leave_one_default(alice):
    # no address yet, so each request took its own for the first, the default
    _raced(alice, saved=0, left=2,
           first=lambda _addresses: address_create(user=alice, fields={**HOME, "label": "a"}),
           second=lambda _addresses: address_create(user=alice, fields={**HOME, "label": "b"}))


def test_the_account_deleted_while_an_address_is_made_default_is_no_deadlock(alice):
    # given: deleting the account removed the address rows before the user row, and address writes lock
    # the user row before the addresses, so the two waited on each other until PostgreSQL gave one a 500
    for attempt in range(15):
        User.objects.filter(pk=alice.pk).delete()
        User.objects.create_user(pk=alice.pk, username=alice.username, email=alice.email, password="pass 1234!",
                                 first_name="Alice")
        home, work, _other = (address_create(user=alice, fields={**HOME, "label": str(n)}) for n in range(3))
        request = RequestFactory().post("/account")
        request.session, request.user = SessionStore(), AnonymousUser()
        # when
        outcomes = at_once(lambda: customer_account_delete(request=request, user=User.objects.get(pk=alice.pk),
                                                           password="pass 1234!"),
                           lambda: address_set_default(user=alice, address_id=work.pk))
        # then: the account is gone; the address change came first or found no address (404)
        assert outcomes[0] is None, (attempt, outcomes)
        assert not isinstance(outcomes[1], Exception) or isinstance(outcomes[1], AddressError), (attempt, outcomes)
        assert not User.objects.filter(pk=alice.pk).exists() and not Address.objects.exists()
