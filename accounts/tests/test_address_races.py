"""Saved addresses changed at the same moment (real threads on PostgreSQL): never a 500."""

import pytest
from django.db import connection

from accounts.addresses import address_create, address_delete, address_set_default
from accounts.models import Address
from tests.threads import at_once

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL row locks"),
]

HOME = {"first_name": "Alice", "last_name": "Hassan", "phone": "01012345678", "street": "12 Nile St",
        "city": "Zamalek", "state": "Cairo"}


def test_two_addresses_made_default_at_once_leave_one_default(alice):
    # given: three addresses, the first the default; each row was locked alone, so two requests both
    # cleared the old default and both set theirs (the one-default index then answered 500)
    for attempt in range(10):  # two requests started together do not always overlap
        Address.objects.all().delete()
        _home, work, other = (address_create(user=alice, fields={**HOME, "label": str(n)}) for n in range(3))
        # when
        outcomes = at_once(lambda: address_set_default(user=alice, address_id=work.pk),
                           lambda: address_set_default(user=alice, address_id=other.pk))
        # then
        assert not [o for o in outcomes if isinstance(o, Exception)], (attempt, outcomes)
        assert Address.objects.filter(user=alice, is_default=True).count() == 1


def test_the_default_deleted_while_another_is_made_default_leaves_one_default(alice):
    for attempt in range(10):
        Address.objects.all().delete()
        home, work, _other = (address_create(user=alice, fields={**HOME, "label": str(n)}) for n in range(3))
        # when: the default goes (the oldest left takes over) while the customer picks another
        outcomes = at_once(lambda: address_delete(user=alice, address_id=home.pk),
                           lambda: address_set_default(user=alice, address_id=work.pk))
        # then
        assert not [o for o in outcomes if isinstance(o, Exception)], (attempt, outcomes)
        assert Address.objects.filter(user=alice, is_default=True).count() == 1


def test_two_first_addresses_saved_at_once_leave_one_default(alice):
    for attempt in range(10):
        Address.objects.all().delete()
        # when: no address yet, so each request took its own for the first, the default
        outcomes = at_once(lambda: address_create(user=alice, fields={**HOME, "label": "a"}),
                           lambda: address_create(user=alice, fields={**HOME, "label": "b"}))
        # then
        assert not [o for o in outcomes if isinstance(o, Exception)], (attempt, outcomes)
        assert Address.objects.filter(user=alice).count() == 2
        assert Address.objects.filter(user=alice, is_default=True).count() == 1
