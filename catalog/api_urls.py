from django.urls import path

from catalog import api

urlpatterns = [
    path("products", api.ProductListApi.as_view(), name="products"),
    path("products/<str:slug>", api.ProductDetailApi.as_view(), name="product-detail"),
    path("reviews", api.ReviewApi.as_view(), name="reviews"),
]
