"""Orders section: list with search and status filter, detail, status changes (one and bulk).

Every status change goes through `backoffice.orders` (its audit entry) and
`orders.actions.order_set_status`, which owns the transition table, the stock
release on cancel and the customer's e-mail.
"""

from django.db.models import Count, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce
from django.http import StreamingHttpResponse
from django.shortcuts import get_object_or_404
from django.urls import path, reverse
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, OpenApiTypes, extend_schema
from rest_framework import serializers
from rest_framework.response import Response

from backoffice.api.base import StaffApi
from backoffice.api.tables import PAGING_PARAMETERS, page_serializer, paginate
from backoffice.exports import orders_csv
from backoffice.orders import order_attention_mark_checked, order_status_change, order_status_change_bulk
from orders.actions import (
    COURIER_MAX,
    NOTE_MAX,
    TRACKING_MAX,
    order_attention_to_check,
    order_cash_collected,
    order_cash_refund,
)
from orders.documents import Kind, invoice_url
from orders.models import Order, OrderItem, OrderStatus, Payment, PaymentStatus
from orders.places import country_name, governorate_name
from orders.selectors import order_kiosk_reference, reported_pending, status_note_text
from shop.errors import ShopError
from shop.store_time import store_localdate

BULK_STATUSES = [OrderStatus.PROCESSING, OrderStatus.SHIPPED, OrderStatus.DELIVERED, OrderStatus.CANCELLED]
SEARCH_FIELDS = ["number", "email", "first_name", "last_name", "phone"]


def order_list_queryset():
    latest_payment = Payment.objects.filter(order=OuterRef("pk")).order_by("-created_at", "-pk")
    # counted per listed row, not by grouping every order: a page reads 20 orders, not 50,000
    items = OrderItem.objects.filter(order=OuterRef("pk")).order_by().values("order").annotate(n=Count("pk"))
    return Order.objects.annotate(
        item_count=Coalesce(Subquery(items.values("n")), 0),
        latest_payment_id=Subquery(latest_payment.values("payment_id")[:1]),
        payment_reported_pending=reported_pending(),
    ).order_by("-created_at", "-pk")


class OrderRowSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.CharField()
    customer_name = serializers.CharField()
    customer_email = serializers.EmailField(source="email")
    phone = serializers.CharField()
    total = serializers.DecimalField(source="total_amount", max_digits=12, decimal_places=2)
    status = serializers.CharField()
    payment_status = serializers.CharField()
    payment_method = serializers.CharField()
    payment_id = serializers.CharField(source="latest_payment_id", allow_null=True)
    item_count = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    # paid through the local test page: not real money, never revenue
    is_test = serializers.BooleanField()
    # flagged for staff: every reason still open, oldest first (money captured on a cancelled order, a
    # refund due, money returned to check...); `attention_reason` the latest of them ("" when none). The
    # next staff status change of this order alone (not with a selection), or a full refund of money on a
    # cancelled order, settles them, except those checked by hand (orders.actions.CHECKED_BY_HAND)
    needs_attention = serializers.BooleanField()
    attention_reasons = serializers.ListField(child=serializers.CharField())
    attention_reason = serializers.CharField()
    # the open reasons staff settle with "Mark as checked" (a check in the provider's dashboard)
    attention_to_check = serializers.SerializerMethodField()
    # awaiting the cash its customer pays at an Aman or Masary outlet, hours later (orders.selectors
    # .order_awaits_kiosk_cash, from order_list_queryset's annotation): not to be shipped before
    awaits_kiosk_cash = serializers.SerializerMethodField()

    def get_attention_to_check(self, order) -> list[str]:
        return order_attention_to_check(order)

    def get_awaits_kiosk_cash(self, order) -> bool:
        return bool(order.payment_reported_pending) and (order.status, order.payment_status) == (
            OrderStatus.PENDING, PaymentStatus.AWAITING)


def _search(orders, text):
    """Match number, customer name, e-mail, phone or a payment id."""
    text = text.strip()
    if not text:
        return orders
    match = Q(pk__in=Payment.objects.filter(payment_id__icontains=text).values("order_id"))
    for field in SEARCH_FIELDS:
        match |= Q(**{f"{field}__icontains": text})
    first, _space, last = text.partition(" ")
    if last.strip():  # "Alice Hassan"
        match |= Q(first_name__icontains=first, last_name__icontains=last.strip())
    return orders.filter(match)


def _filtered(request):
    """The orders matching the list's search text, status filter and `attention=1` (flagged orders only)."""
    orders = _search(order_list_queryset(), request.query_params.get("search") or "")
    status = request.query_params.get("status") or ""
    if status and status != "all":
        if status not in OrderStatus.values:
            raise ShopError(_("Unknown order status"), field="status")
        orders = orders.filter(status=status)
    if request.query_params.get("attention") == "1":
        orders = orders.filter(needs_attention=True)
    return orders


_ATTENTION = OpenApiParameter("attention", str, enum=["1"], description="1: only the orders flagged for staff")


class OrderListApi(StaffApi):
    area = "orders"

    @extend_schema(
        parameters=[*PAGING_PARAMETERS, OpenApiParameter("status", str, enum=OrderStatus.values), _ATTENTION],
        responses=page_serializer("OrderPage", OrderRowSerializer),
    )
    def get(self, request):
        orders = _filtered(request)
        return Response(paginate(request, orders, lambda rows: OrderRowSerializer(rows, many=True).data))


class OrderExportApi(StaffApi):
    """The listed orders (same search and status filter) as CSV, test orders marked: every customer's name,
    e-mail and phone, so the "export" right (Owner, Manager), not "view"."""

    area = "orders"
    area_actions = {"GET": "export"}

    @extend_schema(parameters=[OpenApiParameter("search", str), OpenApiParameter("status", str), _ATTENTION],
                   responses={(200, "text/csv"): OpenApiTypes.STR})
    def get(self, request):
        rows = orders_csv(orders=_filtered(request))
        response = StreamingHttpResponse(rows, content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="orders-{store_localdate().isoformat()}.csv"'
        return response


class OrderItemSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    product_id = serializers.IntegerField(allow_null=True)
    title = serializers.CharField(source="product_title")
    slug = serializers.CharField(source="product_slug")
    unit_price = serializers.DecimalField(source="unit_price_amount", max_digits=12, decimal_places=2)
    quantity = serializers.IntegerField()
    line_total = serializers.DecimalField(source="line_total_amount", max_digits=12, decimal_places=2)


class PaymentSerializer(serializers.Serializer):
    payment_id = serializers.CharField()
    provider = serializers.CharField()
    transaction_id = serializers.CharField()
    amount = serializers.DecimalField(max_digits=12, decimal_places=2)
    status = serializers.CharField()
    created_at = serializers.DateTimeField()


class StatusChangeSerializer(serializers.Serializer):
    from_status = serializers.CharField()
    to_status = serializers.CharField()
    # the shop's own notes ("Order placed", "Payment declined (…)") in the dashboard's language
    note = serializers.SerializerMethodField()
    tracking_number = serializers.CharField()
    courier = serializers.CharField()
    customer_note = serializers.CharField()
    actor = serializers.SerializerMethodField()
    created_at = serializers.DateTimeField()

    def get_actor(self, change) -> str:
        return change.actor.username if change.actor else ""

    def get_note(self, change) -> str:
        return status_note_text(change.note, by_staff=change.actor_id is not None)


class OrderDetailSerializer(OrderRowSerializer):
    first_name = serializers.CharField()
    last_name = serializers.CharField()
    customer_id = serializers.IntegerField(source="user_id", allow_null=True)
    language = serializers.CharField()
    address = serializers.SerializerMethodField()
    subtotal = serializers.DecimalField(source="subtotal_amount", max_digits=12, decimal_places=2)
    discount = serializers.DecimalField(source="discount_amount", max_digits=12, decimal_places=2)
    shipping = serializers.DecimalField(source="shipping_amount", max_digits=12, decimal_places=2)
    cod_fee = serializers.DecimalField(source="cod_fee_amount", max_digits=12, decimal_places=2)
    tax = serializers.DecimalField(source="tax_amount", max_digits=12, decimal_places=2)
    # returned through the payment provider; revenue counts the rest
    refunded = serializers.DecimalField(source="refunded_amount", max_digits=12, decimal_places=2)
    prices_include_tax = serializers.BooleanField()
    coupon_code = serializers.CharField()
    paid_at = serializers.DateTimeField(allow_null=True)
    items = OrderItemSerializer(many=True)
    payments = PaymentSerializer(many=True)
    history = StatusChangeSerializer(source="status_changes", many=True)
    documents = serializers.SerializerMethodField()
    # the number its customer pays with at the kiosk, while the order awaits that cash ("" otherwise)
    kiosk_reference = serializers.SerializerMethodField()
    # "Record cash refund" is offered: a cash-on-delivery order whose cash the courier collected (delivered,
    # or cancelled once delivered) and not all given back (orders.actions.order_cash_collected)
    cash_refundable = serializers.SerializerMethodField()

    def get_cash_refundable(self, order) -> bool:
        return order_cash_collected(order)

    def get_kiosk_reference(self, order) -> str:
        return order_kiosk_reference(order)

    def get_documents(self, order) -> dict:
        """The invoice (in the order's language), the packing slip and the print view, in the dashboard's language."""
        return {
            "invoice": invoice_url(order=order, language=order.language),
            "packing_slip": f"{reverse('backoffice:order-documents')}?kind={Kind.PACKING_SLIP}&ids={order.pk}",
            "print": reverse("backoffice:order-print", args=[order.pk]),
        }

    def get_address(self, order) -> dict:
        fields = ["street", "building", "apartment", "floor", "city", "state", "postal_code", "country"]
        # the governorate and country in the reader's language, never an ISO code
        language = get_language()
        return {**{field: getattr(order, field) for field in fields},
                "state_name": governorate_name(order.state, language),
                "country_name": country_name(order.country, language)}


class OrderDetailApi(StaffApi):
    area = "orders"

    @extend_schema(operation_id="admin_order_detail", responses=OrderDetailSerializer)
    def get(self, request, order_id):
        order = get_object_or_404(
            order_list_queryset().prefetch_related("items", "payments", "status_changes__actor"),
            pk=order_id,
        )
        return Response(OrderDetailSerializer(order).data)


class OrderStatusApi(StaffApi):
    area = "orders"
    area_actions = {"PUT": "status"}

    class InputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "OrderStatusInput"

        status = serializers.ChoiceField(choices=OrderStatus.values)
        note = serializers.CharField(max_length=NOTE_MAX, required=False, allow_blank=True, default="")
        tracking_number = serializers.CharField(max_length=TRACKING_MAX, required=False, allow_blank=True, default="")
        # at shipped: the courier and a note shown to the customer (tracking page, e-mail, WhatsApp)
        courier = serializers.CharField(max_length=COURIER_MAX, required=False, allow_blank=True, default="")
        customer_note = serializers.CharField(max_length=NOTE_MAX, required=False, allow_blank=True, default="")

    @extend_schema(request=InputSerializer, responses=OrderRowSerializer)
    def put(self, request, order_id):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        order = get_object_or_404(Order, pk=order_id)
        order_status_change(actor=request.user, order=order, **data.validated_data)
        return Response(OrderRowSerializer(order_list_queryset().get(pk=order.pk)).data)


class OrderAttentionCheckedApi(StaffApi):
    """"Mark as checked": staff checked in the provider's dashboard what the order is flagged with
    `reason` for: `refund_to_check` (money returned that did not match its payment), `paid_twice`
    (a second payment) or `amount_to_check` (a payment of another amount). That reason is cleared, the
    others and the status are not touched. Saying money was refunded or matched settles money, not a
    status: the right is orders "edit" (Owner, Manager), not the "status" right support roles hold."""

    area = "orders"
    area_actions = {"POST": "edit"}

    class InputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "OrderCheckedInput"

        # any text: backoffice.orders.order_attention_mark_checked says which reasons a check settles
        reason = serializers.CharField()

    @extend_schema(request=InputSerializer, responses=OrderRowSerializer)
    def post(self, request, order_id):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        order = get_object_or_404(Order, pk=order_id)
        order_attention_mark_checked(actor=request.user, order=order, reason=data.validated_data["reason"])
        return Response(OrderRowSerializer(order_list_queryset().get(pk=order.pk)).data)


class OrderCashRefundApi(StaffApi):
    """"Record cash refund": staff gave money back in cash for a paid cash-on-delivery order (tea returned),
    `amount` of it (orders.actions.order_cash_refund says what may be refunded). Money, not a status: the
    orders "edit" right (Owner, Manager), as "Mark as checked"."""

    area = "orders"
    area_actions = {"POST": "edit"}

    class InputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "OrderCashRefundInput"

        # a decimal string in EGP ("150.50"); the service checks it is above 0 and not more than is left
        amount = serializers.DecimalField(max_digits=12, decimal_places=2)

    @extend_schema(request=InputSerializer, responses=OrderRowSerializer)
    def post(self, request, order_id):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        order = get_object_or_404(Order, pk=order_id)
        order_cash_refund(order=order, amount=data.validated_data["amount"], actor=request.user)
        return Response(OrderRowSerializer(order_list_queryset().get(pk=order.pk)).data)


class OrderBulkStatusApi(StaffApi):
    area = "orders"
    area_actions = {"PUT": "status"}

    class InputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "OrderBulkStatusInput"

        order_ids = serializers.ListField(child=serializers.IntegerField(), required=False, default=list)
        status = serializers.ChoiceField(choices=BULK_STATUSES)
        note = serializers.CharField(max_length=NOTE_MAX, required=False, allow_blank=True, default="")

    class OutputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "OrderBulkStatusOutput"

        updated = serializers.IntegerField()
        failed = serializers.ListField(child=serializers.DictField())
        message = serializers.CharField()

    @extend_schema(request=InputSerializer, responses=OutputSerializer)
    def put(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        result = order_status_change_bulk(actor=request.user, **data.validated_data)
        message = ngettext("%(count)d order updated", "%(count)d orders updated", result.updated) % {
            "count": result.updated}
        return Response({"updated": result.updated, "failed": result.failed, "message": message})


urlpatterns = [
    path("admin/orders", OrderListApi.as_view(), name="admin-orders"),
    path("admin/orders/export", OrderExportApi.as_view(), name="admin-orders-export"),
    path("admin/orders/<id:order_id>", OrderDetailApi.as_view(), name="admin-order-detail"),
    path("admin/orders/<id:order_id>/status", OrderStatusApi.as_view(), name="admin-order-status"),
    path("admin/orders/<id:order_id>/checked", OrderAttentionCheckedApi.as_view(), name="admin-order-checked"),
    path("admin/orders/<id:order_id>/cash-refund", OrderCashRefundApi.as_view(), name="admin-order-cash-refund"),
    path("admin/bulk/orders", OrderBulkStatusApi.as_view(), name="admin-bulk-orders"),
]
