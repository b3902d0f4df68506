"""Admin API: roles."""

urlpatterns = []
