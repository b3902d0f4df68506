"""/api/account/addresses: a signed-in customer's saved addresses (the same services as /account)."""

from django.utils.cache import add_never_cache_headers
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import addresses
from orders.serializers import AddressInputSerializer


class AddressSerializer(AddressInputSerializer):
    id = serializers.IntegerField(read_only=True)
    label = serializers.CharField(required=False, allow_blank=True, default="")
    first_name = serializers.CharField(required=False, allow_blank=True, default="")
    last_name = serializers.CharField(required=False, allow_blank=True, default="")
    phone = serializers.CharField(required=False, allow_blank=True, default="")
    is_default = serializers.BooleanField(required=False, default=False)


def _fields(validated):
    return {name: validated.get(name, "") for name in addresses.FIELDS}


class AddressListApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=AddressSerializer(many=True), summary="My saved addresses, the default first")
    def get(self, request):
        response = Response(AddressSerializer(addresses.address_list(user=request.user), many=True).data)
        add_never_cache_headers(response)  # as /account (never cached) shows them: no browser or proxy keeps them
        return response

    @extend_schema(request=AddressSerializer, responses={201: AddressSerializer}, summary="Save an address")
    def post(self, request):
        data = AddressSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        address = addresses.address_create(user=request.user, fields=_fields(data.validated_data),
                                           make_default=data.validated_data["is_default"])
        return Response(AddressSerializer(address).data, status=status.HTTP_201_CREATED)


class AddressDetailApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=AddressSerializer, responses=AddressSerializer, summary="Change a saved address")
    def put(self, request, address_id):
        data = AddressSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        address = addresses.address_update(user=request.user, address_id=address_id,
                                           fields=_fields(data.validated_data))
        if data.validated_data["is_default"]:
            address = addresses.address_set_default(user=request.user, address_id=address_id)
        return Response(AddressSerializer(address).data)

    @extend_schema(request=None, responses={204: None}, summary="Forget a saved address")
    def delete(self, request, address_id):
        addresses.address_delete(user=request.user, address_id=address_id)
        return Response(status=status.HTTP_204_NO_CONTENT)
