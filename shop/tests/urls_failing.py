"""A URLconf for tests: a view that writes and then fails."""

from django.urls import path

from django.views.decorators.csrf import csrf_exempt

from shop.models import ContactMessage


@csrf_exempt
def write_then_fail(request):
    ContactMessage.objects.create(name="A", email="a@example.com", subject="s", message="m")
    raise RuntimeError("fails after writing")


urlpatterns = [path("write-then-fail", write_then_fail)]
