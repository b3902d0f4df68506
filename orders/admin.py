"""Django admin for data fixes by superusers; staff work in /admindash."""

from django.contrib import admin

from orders.models import Coupon, Order, OrderItem, OrderStatusChange, Payment, PaymentEvent


class OrderItemInline(admin.TabularInline):
    model = OrderItem
    extra = 0
    readonly_fields = ["product", "product_title", "unit_price_amount", "quantity", "line_total_amount"]


class PaymentInline(admin.TabularInline):
    model = Payment
    extra = 0
    readonly_fields = ["provider", "payment_id", "provider_order_id", "transaction_id", "amount", "status"]


@admin.register(Order)
class OrderAdmin(admin.ModelAdmin):
    list_display = ["number", "email", "status", "payment_status", "payment_method", "total_amount", "created_at"]
    list_filter = ["status", "payment_status", "payment_method"]
    search_fields = ["number", "email", "last_name", "phone"]
    inlines = [OrderItemInline, PaymentInline]


@admin.register(Coupon)
class CouponAdmin(admin.ModelAdmin):
    list_display = ["code", "type", "value", "used_count", "usage_limit", "is_active", "expiry_date"]


@admin.register(PaymentEvent)
class PaymentEventAdmin(admin.ModelAdmin):
    list_display = ["payment", "kind", "transaction_id", "success", "created_at"]
    readonly_fields = ["payment", "kind", "transaction_id", "success", "payload", "created_at"]


admin.site.register(OrderStatusChange)
