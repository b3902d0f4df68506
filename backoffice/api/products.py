"""Admin API: products."""

urlpatterns = []
