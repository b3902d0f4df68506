"""Signals the catalogue sends to whoever listens (stock alerts in backoffice.alerts)."""

from django.dispatch import Signal

# sent with product_ids=[…] after any write that set Product.stock, inside its transaction
stock_changed = Signal()
