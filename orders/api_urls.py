from django.urls import path

from orders import api

urlpatterns = [
    path("cart", api.CartApi.as_view(), name="cart"),
    path("cart/items", api.CartItemAddApi.as_view(), name="cart-items"),
    path("cart/items/<id:product_id>", api.CartItemApi.as_view(), name="cart-item"),
    path("cart/summary", api.CartSummaryApi.as_view(), name="cart-summary"),
    path("cart/reminder", api.CartReminderApi.as_view(), name="cart-reminder"),
    path("payment/test", api.PaymentTestApi.as_view(), name="payment-test"),
    path("payment/create-intention", api.CreateIntentionApi.as_view(), name="payment-create-intention"),
    path("payment/verify/<str:payment_id>", api.PaymentVerifyApi.as_view(), name="payment-verify"),
    path("orders", api.OrderCreateApi.as_view(), name="orders"),
    path("orders/<str:number>/reorder", api.ReorderApi.as_view(), name="order-reorder"),
    path("orders/track", api.OrderTrackApi.as_view(), name="order-track"),
    path("orders/track/<str:token>", api.OrderTrackTokenApi.as_view(), name="order-track-token"),
    path("users/checkout-register", api.CheckoutRegisterApi.as_view(), name="checkout-register"),
]
