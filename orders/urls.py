from django.urls import path

from orders import views
from orders.payments import views as payment_views

app_name = "orders"
urlpatterns = [
    path("cart", views.cart_page, name="cart"),
    path("checkout", views.checkout_page, name="checkout"),
    path("payment/success", views.payment_success, name="payment-success"),
    path("payment/test-page/<str:payment_id>", payment_views.sandbox_page, name="payment-sandbox"),
    path("thankyou", views.thankyou, name="thankyou"),
]
