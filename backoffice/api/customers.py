"""Admin API: /api/admin/users (customers) GET/POST and /api/admin/users/<id> PUT."""

from django.shortcuts import get_object_or_404
from django.urls import path
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response

from backoffice.api.base import StaffApi
from backoffice.customers import customer_admin_create, customer_admin_update
from backoffice.selectors import customer_list


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

    @extend_schema(responses=CustomerOutputSerializer(many=True), summary="Customers with their order totals")
    def get(self, request):
        return Response(CustomerOutputSerializer(customer_list(), many=True).data)

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


urlpatterns = [
    path("admin/users", CustomerListApi.as_view(), name="admin-users"),
    path("admin/users/<id:pk>", CustomerDetailApi.as_view(), name="admin-user"),
]
