"""The one validation of a product typed by staff: the dashboard's form and every CSV row."""

from decimal import Decimal

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from catalog.models import CaffeineLevel

# The most stock staff may give one product, however they reach it (the form, a CSV row, the inventory's
# set or add): more than a million packs is a typing slip, and the column is a 32-bit integer that an add
# repeated past 2,147,483,647 would overflow (a 500 on PostgreSQL)
STOCK_MAX = 1_000_000


def _text_list():
    return serializers.ListField(child=serializers.CharField(max_length=100, allow_blank=True), required=False,
                                 max_length=50)


class ProductInputSerializer(serializers.Serializer):
    """The admin form (spec 5): title required; lists come already split and trimmed."""

    slug = serializers.CharField(max_length=200, required=False, allow_blank=True)
    title = serializers.CharField(max_length=200, error_messages={
        "required": _("Title is required"), "blank": _("Title is required")})
    title_ar = serializers.CharField(max_length=200, required=False, allow_blank=True)
    short_description = serializers.CharField(max_length=300, required=False, allow_blank=True)
    short_description_ar = serializers.CharField(max_length=300, required=False, allow_blank=True)
    description = serializers.CharField(required=False, allow_blank=True, max_length=10000)
    description_ar = serializers.CharField(required=False, allow_blank=True, max_length=10000)
    brewing_instructions = serializers.CharField(required=False, allow_blank=True, max_length=2000)
    brewing_instructions_ar = serializers.CharField(required=False, allow_blank=True, max_length=2000)
    price = serializers.DecimalField(max_digits=12, decimal_places=2, min_value=Decimal("0"))
    sale_price = serializers.DecimalField(max_digits=12, decimal_places=2, min_value=Decimal("0"),
                                          required=False, allow_null=True)
    images = serializers.ListField(child=serializers.CharField(max_length=1000), required=False, max_length=20)
    category = serializers.CharField(max_length=60, required=False, allow_blank=True)
    tags = _text_list()
    flavor_notes = _text_list()
    ingredients = _text_list()
    # Arabic twins of the lists shoppers read
    tags_ar = _text_list()
    flavor_notes_ar = _text_list()
    ingredients_ar = _text_list()
    colors = _text_list()
    stock = serializers.IntegerField(min_value=0, max_value=STOCK_MAX, required=False, error_messages={
        "max_value": _("Stock can be at most {max_value}")})
    caffeine_level = serializers.ChoiceField(choices=CaffeineLevel.choices, required=False)
    is_new = serializers.BooleanField(required=False)
    is_active = serializers.BooleanField(required=False)
    is_featured = serializers.BooleanField(required=False)

    _RENAMED = {"title": "title_en", "short_description": "short_description_en", "description": "description_en",
                "brewing_instructions": "brewing_instructions_en", "price": "price_amount",
                "sale_price": "sale_price_amount"}

    def validate(self, attrs):
        for name in ("tags", "flavor_notes", "ingredients", "colors", "tags_ar", "flavor_notes_ar", "ingredients_ar"):
            if name in attrs:
                attrs[name] = [item.strip() for item in attrs[name] if item.strip()]
        if attrs.get("category") == "":
            attrs.pop("category")
        # a price the form could not read reaches here as 0 (spec 5): never sold free by a typo
        if "price" in attrs and attrs["price"] <= 0:
            raise serializers.ValidationError({"price": _("Price must be more than 0")})
        if attrs.get("sale_price") is not None and attrs["sale_price"] <= 0:
            raise serializers.ValidationError({"sale_price": _("Sale price must be more than 0")})
        return attrs

    def model_fields(self):
        return {self._RENAMED.get(k, k): v for k, v in self.validated_data.items()}
