"""shop.api.input.validated_input: DRF's answer for every body, without building a flat serializer."""

from typing import Any
from unittest import mock

import pytest
from django.http import QueryDict
from django.utils import translation
from rest_framework import serializers

from orders.api import CartItemAddApi, CartItemApi, CartSummaryApi
from shop.api import input as api_input
from shop.api.input import validated_input

BODIES = [
    {}, {"quantity": 2}, {"quantity": "3"}, {"quantity": "٣"}, {"quantity": 0}, {"quantity": -1}, {"quantity": 1000},
    {"quantity": 2**40}, {"quantity": None}, {"quantity": True}, {"quantity": 2.5}, {"quantity": "2.0"},
    {"quantity": "two"}, {"quantity": [2]}, {"quantity": {"n": 2}}, {"product_id": 7},
    {"product_id": "7", "quantity": 5},
    {"product_id": None}, {"product_id": 7, "quantity": 0}, {"product_id": 7, "extra": "ignored"},
    {"coupon_code": "NILE10", "payment_method": "cod"}, {"governorate": "x" * 101}, {"governorate": ""},
    {"country": "EGYPT"}, {"country": None}, {"coupon_code": 5}, {"payment_method": ["cod"]},
]


def _drfs(serializer_class, data):
    serializer = serializer_class(data=data)
    if serializer.is_valid():
        return "valid", dict(serializer.validated_data)
    return "invalid", serializers.ValidationError(serializer.errors).get_full_details()


def _ours(serializer_class, data):
    try:
        return "valid", dict(validated_input(serializer_class, data))
    except serializers.ValidationError as exc:
        return "invalid", exc.get_full_details()


@pytest.mark.parametrize("serializer_class", [CartItemAddApi.InputSerializer, CartItemApi.InputSerializer,
                                              CartSummaryApi.InputSerializer])
@pytest.mark.parametrize("language", ["en", "ar"])
def test_a_flat_serializer_answers_every_body_as_drf_does_without_being_built(serializer_class, language):
    assert api_input._flat(serializer_class)
    with translation.override(language), mock.patch.object(serializer_class, "__init__",
                                                           side_effect=AssertionError("built")):
        ours = [_ours(serializer_class, body) for body in BODIES]
    with translation.override(language):
        assert ours == [_drfs(serializer_class, body) for body in BODIES]


class _Nested(serializers.Serializer[Any]):
    quantity = serializers.IntegerField()
    address = CartSummaryApi.InputSerializer()


class _Hidden(serializers.Serializer[Any]):
    quantity = serializers.IntegerField()
    source = serializers.HiddenField(default="web")


class _Checked(serializers.Serializer[Any]):
    quantity = serializers.IntegerField()

    def validate_quantity(self, value):
        if value == 13:
            raise serializers.ValidationError("unlucky")
        return value


class _Renamed(serializers.Serializer[Any]):
    amount = serializers.IntegerField(source="quantity")


class _Listed(serializers.Serializer[Any]):
    items = serializers.ListField(child=serializers.IntegerField())


@pytest.mark.parametrize("serializer_class", [_Nested, _Hidden, _Checked, _Renamed, _Listed])
def test_anything_but_a_flat_serializer_is_validated_by_drf(serializer_class):
    assert not api_input._flat(serializer_class)
    for body in [{"quantity": 13, "address": {"country": "EGY"}, "source": "forged", "amount": 2, "items": [1]},
                 {"quantity": "x", "items": "x"}, {}]:
        assert _ours(serializer_class, body) == _drfs(serializer_class, body)


@pytest.mark.parametrize("body", [QueryDict("quantity=2"), QueryDict(""), [{"quantity": 2}], "2", None])
def test_a_body_that_is_not_a_json_object_is_validated_by_drf(body):
    assert _ours(CartItemApi.InputSerializer, body) == _drfs(CartItemApi.InputSerializer, body)


def test_each_language_gets_its_own_limit_messages():
    # DRF's limit validators write their message out once and keep it: a copy of the fields shared by
    # both languages would answer in whichever asked first
    too_long, too_many = {"governorate": "x" * 101}, {"quantity": 1000}
    for language in ["ar", "en", "ar", "en"]:
        with translation.override(language):
            assert _ours(CartSummaryApi.InputSerializer, too_long) == _drfs(CartSummaryApi.InputSerializer, too_long)
            assert _ours(CartItemApi.InputSerializer, too_many) == _drfs(CartItemApi.InputSerializer, too_many)
