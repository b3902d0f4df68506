"""Admin API: overview."""

urlpatterns = []
