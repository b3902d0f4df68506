"""No outside service is called while a database transaction is open (shop.outbound)."""

import pytest
from django.db import transaction

from shop.outbound import TransactionHeld, outside_transaction

pytestmark = pytest.mark.django_db


def test_a_call_inside_a_transaction_is_refused():
    with transaction.atomic(), pytest.raises(TransactionHeld, match="Paymob called inside"):
        outside_transaction("Paymob")


def test_a_call_outside_any_transaction_goes_ahead():
    outside_transaction("Paymob")  # the test case's own transaction does not count
