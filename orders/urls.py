from django.urls import path

from orders import views
from orders.payments import views as payment_views

app_name = "orders"
urlpatterns = [
    path("cart", views.cart_page, name="cart"),
    path("cart/reminders/unsubscribe", views.cart_reminder_unsubscribe, name="cart-reminder-unsubscribe"),
    path("checkout", views.checkout_page, name="checkout"),
    path("checkout/kiosk-cancel", views.checkout_kiosk_cancel, name="checkout-kiosk-cancel"),
    path("payment/success", views.payment_success, name="payment-success"),
    path("payment/test-page/<str:payment_id>", payment_views.sandbox_page, name="payment-sandbox"),
    path("thankyou", views.thankyou, name="thankyou"),
    path("orders/<str:number>/invoice.pdf", views.invoice_pdf, name="invoice"),
    path("orders/<str:number>/reorder", views.reorder, name="reorder"),
    path("track", views.track_page, name="track"),
    path("track/<str:token>", views.track_order_page, name="track-order"),
]
