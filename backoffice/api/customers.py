"""Admin API: customers."""

urlpatterns = []
