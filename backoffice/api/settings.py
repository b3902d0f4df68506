"""Admin API: settings."""

urlpatterns = []
