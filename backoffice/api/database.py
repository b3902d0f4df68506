"""Admin API: database."""

urlpatterns = []
