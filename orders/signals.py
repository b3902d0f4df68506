"""Signals the orders app sends to whoever listens (the sales figures cache in backoffice.analytics)."""

from django.dispatch import Signal

# Sent inside the write's transaction by every write to an order or an order item
# (create, save, queryset update, bulk create, delete: orders.models), with
# placed=[datetime, …], the created_at of each order written (before and after
# the write when it moved), or placed=None when the write cannot say which.
sales_written = Signal()
