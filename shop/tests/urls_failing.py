"""A URLconf for tests: views that show how requests use transactions."""

from django.db import connection
from django.http import JsonResponse
from django.urls import path
from django.views.decorators.csrf import csrf_exempt

from shop.models import ContactMessage


@csrf_exempt
def write_then_fail(request):
    ContactMessage.objects.create(name="A", email="a@example.com", subject="s", message="m")
    raise RuntimeError("fails after writing")


def in_transaction(request):
    return JsonResponse({"inTransaction": connection.in_atomic_block})


urlpatterns = [
    path("write-then-fail", write_then_fail),
    path("in-transaction", csrf_exempt(in_transaction)),
]
