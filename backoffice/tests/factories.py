"""Small builders for back-office tests."""

from decimal import Decimal

from catalog.models import Category, Product


def category(slug="black-tea", name="Black Tea"):
    return Category.objects.get_or_create(slug=slug, defaults={"name_en": name, "name_ar": "شاي"})[0]


def product(title="Kenya Gold", *, stock=20, price="120.00", slug=None, category_slug="black-tea", **extra):
    return Product.objects.create(
        slug=slug or title.lower().replace(" ", "-"), title_en=title, price_amount=Decimal(price),
        stock=stock, category=category(category_slug), **extra,
    )
