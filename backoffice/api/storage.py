"""Admin API: storage."""

urlpatterns = []
