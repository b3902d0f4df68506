from django.urls import path

from catalog import api

urlpatterns = [
    path("products", api.ProductListApi.as_view(), name="products"),
    path("products/<id:product_id>/stock-alert", api.StockAlertApi.as_view(), name="product-stock-alert"),
    path("products/<str:slug>", api.ProductDetailApi.as_view(), name="product-detail"),
    path("search/suggest", api.SearchSuggestApi.as_view(), name="search-suggest"),
    path("reviews", api.ReviewApi.as_view(), name="reviews"),
]
