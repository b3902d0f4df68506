"""Admin API: /api/admin/users (customers) GET/POST and /api/admin/users/<id> PUT."""

from django.shortcuts import get_object_or_404
from django.urls import path
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.response import Response

from backoffice.api.base import StaffApi
from backoffice.api.tables import PAGING_PARAMETERS, page_serializer, paginate
from backoffice.customers import customer_admin_create, customer_admin_update
from backoffice.selectors import buyer_details, customer_list, customers_by_email


class CustomerOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    first_name = serializers.CharField()
    last_name = serializers.CharField()
    email = serializers.EmailField()
    phone = serializers.CharField()
    is_active = serializers.BooleanField()
    total_orders = serializers.IntegerField()
    total_spent = serializers.DecimalField(max_digits=14, decimal_places=2)
    created_at = serializers.DateTimeField(source="date_joined")


class CustomerInputSerializer(serializers.Serializer):
    first_name = serializers.CharField(max_length=150, error_messages={
        "required": _("First name is required"), "blank": _("First name is required")})
    last_name = serializers.CharField(max_length=150, error_messages={
        "required": _("Last name is required"), "blank": _("Last name is required")})
    email = serializers.EmailField(max_length=254, error_messages={
        "required": _("Email is required"), "blank": _("Email is required"),
        "invalid": _("Please enter a valid email address")})
    phone = serializers.CharField(max_length=32, required=False, allow_blank=True)
    is_active = serializers.BooleanField(required=False)


class CustomerListApi(StaffApi):
    area = "customers"

    @extend_schema(parameters=PAGING_PARAMETERS[:2],  # page and pageSize: this list has no search
                   responses=page_serializer("CustomerAccountPage", CustomerOutputSerializer),
                   summary="Customer accounts with their order totals, paged")
    def get(self, request):
        # paged like every dashboard list: one call never reads (and sums the orders of) every account
        return Response(paginate(request, customer_list(),
                                 lambda rows: CustomerOutputSerializer(rows, many=True).data))

    @extend_schema(request=CustomerInputSerializer, responses={201: CustomerOutputSerializer},
                   summary="Add a customer")
    def post(self, request):
        data = CustomerInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = customer_admin_create(actor=request.user, **{"is_active": True, **data.validated_data})
        return Response(CustomerOutputSerializer(customer_list().get(pk=user.pk)).data, status=201)


class CustomerDetailApi(StaffApi):
    area = "customers"

    @extend_schema(request=CustomerInputSerializer, responses=CustomerOutputSerializer,
                   summary="Edit a customer, or send only isActive to toggle")
    def put(self, request, pk):
        customer = get_object_or_404(customer_list(), pk=pk)
        data = CustomerInputSerializer(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        customer_admin_update(actor=request.user, customer=customer, **data.validated_data)
        return Response(CustomerOutputSerializer(customer_list().get(pk=pk)).data)


class BuyerSerializer(serializers.Serializer):
    """One customer by e-mail: a guest (userId null) or an account."""

    email = serializers.EmailField()
    first_name = serializers.CharField()
    last_name = serializers.CharField()
    phone = serializers.CharField()
    user_id = serializers.IntegerField(allow_null=True)
    is_guest = serializers.BooleanField()
    is_active = serializers.BooleanField(allow_null=True)
    total_orders = serializers.IntegerField()
    total_spent = serializers.DecimalField(max_digits=14, decimal_places=2)
    last_activity = serializers.DateTimeField()


def _buyers(rows):
    """Rows of customers_by_email() as dicts with who they are (an account's own name, phone and
    active flag win over what the orders carry) and their totals: two queries for the page."""
    fields = ("email", "last_activity")
    rows = [dict(zip(fields, row, strict=True)) for row in rows]
    details = buyer_details([row["email"] for row in rows])
    for row in rows:
        row.update(details[row["email"]])
        row["is_guest"] = row["user_id"] is None
    return BuyerSerializer(rows, many=True).data


class CustomerDirectoryApi(StaffApi):
    area = "customers"

    class OutputSerializer(page_serializer("CustomerDirectoryPage", BuyerSerializer)):
        class Meta:
            ref_name = "CustomerDirectoryOutput"

    @extend_schema(parameters=[*PAGING_PARAMETERS, OpenApiParameter("kind", str, enum=["guest", "registered"])],
                   responses=OutputSerializer,
                   summary="Customers by e-mail across guest and registered orders, paged")
    def get(self, request):
        kind = request.query_params.get("kind", "")
        rows = customers_by_email(search=request.query_params.get("search", ""),
                                  kind=kind if kind in ("guest", "registered") else "")
        return Response(paginate(request, rows, _buyers))


urlpatterns = [
    path("admin/customers", CustomerDirectoryApi.as_view(), name="admin-customers"),
    path("admin/users", CustomerListApi.as_view(), name="admin-users"),
    path("admin/users/<id:pk>", CustomerDetailApi.as_view(), name="admin-user"),
]
