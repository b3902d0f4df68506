from django.urls import path

from catalog import views
from shop.page_cache import cache_for_visitors

app_name = "catalog"
urlpatterns = [
    path("shop", cache_for_visitors(views.shop), name="shop"),
    path("sale", cache_for_visitors(views.sale), name="sale"),
    path("explore", cache_for_visitors(views.explore), name="explore"),
    path("product/<str:slug>", cache_for_visitors(views.product_detail), name="product-detail"),
    path("stock-alert", views.stock_alert_request_view, name="stock-alert"),
    path("stock-alert/confirm", views.stock_alert_confirm_view, name="stock-alert-confirm"),
    path("stock-alert/cancel", views.stock_alert_cancel_view, name="stock-alert-cancel"),
]
