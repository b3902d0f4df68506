"""The API view base for writes that commit in their services' own transactions."""

from typing import Any

from django.db import transaction
from rest_framework.views import APIView


class OwnTransactionsApiView(APIView):
    """An API view left out of the request's transaction (shop.middleware.AtomicWritesMiddleware): its
    services commit their writes themselves. For a view that calls an outside service (shop.outbound),
    and for one that must not hold the database while it reads its input and builds its answer."""

    @classmethod
    def as_view(cls, **initkwargs: Any) -> Any:
        return transaction.non_atomic_requests(super().as_view(**initkwargs))
