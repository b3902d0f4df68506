"""The admin API: one module per dashboard section, each with its own urlpatterns."""
