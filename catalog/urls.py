from django.urls import path

from catalog import views
from shop.page_cache import cache_for_visitors

app_name = "catalog"
urlpatterns = [
    path("shop", cache_for_visitors(views.shop), name="shop"),
    path("sale", cache_for_visitors(views.sale), name="sale"),
    path("explore", cache_for_visitors(views.explore), name="explore"),
    path("product/<str:slug>", cache_for_visitors(views.product_detail), name="product-detail"),
]
