"""What the API says about products and reviews (output only; camelCase on the wire)."""

from typing import Any

from rest_framework import serializers

from catalog.models import Product
from catalog.pricing import Availability, price_info
from shop.api.money import MoneyField


class ProductOutputSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    slug = serializers.CharField()
    title = serializers.CharField()
    short_description = serializers.CharField()
    description = serializers.CharField()
    brewing_instructions = serializers.CharField()
    price = MoneyField(source="price_amount")
    sale_price = serializers.SerializerMethodField()
    kes_price = MoneyField(source="kes_price_amount", allow_null=True)
    images = serializers.ListField(child=serializers.CharField())
    category = serializers.CharField(source="category.slug")
    category_name = serializers.CharField(source="category.name")
    tags = serializers.ListField(child=serializers.CharField())
    flavor_notes = serializers.ListField(child=serializers.CharField())
    ingredients = serializers.ListField(child=serializers.CharField())
    colors = serializers.ListField(child=serializers.CharField())
    caffeine_level = serializers.CharField()
    stock = serializers.IntegerField()
    stock_status = serializers.SerializerMethodField()
    rating = serializers.DecimalField(max_digits=3, decimal_places=2)
    review_count = serializers.IntegerField()
    is_new = serializers.BooleanField()
    is_active = serializers.BooleanField()
    is_featured = serializers.BooleanField()
    brand = serializers.CharField()
    created_at = serializers.DateTimeField()

    def get_sale_price(self, product: Product) -> str | None:
        info = price_info(product)
        return self.fields["price"].to_representation(info.price) if info.on_sale else None

    def get_stock_status(self, product: Product) -> str:
        return Availability.status(product.stock)


class ReviewOutputSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    product_id = serializers.IntegerField()
    product_title = serializers.CharField(source="product.title")
    user_name = serializers.CharField()
    rating = serializers.IntegerField()
    title = serializers.CharField()
    comment = serializers.CharField()
    is_verified = serializers.BooleanField()
    is_approved = serializers.BooleanField()
    admin_response = serializers.CharField()
    created_at = serializers.DateTimeField()
