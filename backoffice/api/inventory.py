"""Admin API: inventory."""

urlpatterns = []
