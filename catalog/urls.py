from django.urls import path

from catalog import views

app_name = "catalog"
urlpatterns = [
    path("shop", views.shop, name="shop"),
    path("sale", views.sale, name="sale"),
    path("explore", views.explore, name="explore"),
    path("product/<str:slug>", views.product_detail, name="product-detail"),
]
