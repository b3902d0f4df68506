"""Two staff writes that take one username or e-mail at the same moment: one wins, the other is told
why (the unique index decides; the check before the insert cannot, both pass it)."""

import pytest

from accounts.models import User
from backoffice.customers import customer_admin_create
from backoffice.staff import staff_create
from shop.errors import ShopError
from tests.threads import at_once


@pytest.mark.django_db(transaction=True)
def test_two_staff_accounts_with_one_username_at_once_one_is_refused(owner):
    def create(email):
        return lambda: staff_create(actor=owner, username="nadia", email=email, password="correct horse 42",
                                    role="support")

    outcomes = at_once(create("nadia@example.com"), create("nadia2@example.com"))

    refused = [o for o in outcomes if isinstance(o, Exception)]
    assert len(refused) == 1 and isinstance(refused[0], ShopError), outcomes
    assert refused[0].field == "username"
    assert User.objects.filter(username="nadia").count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_customers_with_one_email_at_once_one_is_refused(owner):
    def create():
        return customer_admin_create(actor=owner, first_name="Sara", last_name="Ali", email="sara@example.com")

    outcomes = at_once(create, create)

    refused = [o for o in outcomes if isinstance(o, Exception)]
    assert len(refused) == 1 and isinstance(refused[0], ShopError), outcomes
    assert refused[0].field == "email"
    assert User.objects.filter(email="sara@example.com").count() == 1
