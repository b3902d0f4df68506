from django.urls import path

from shop import views
from shop.page_cache import cache_for_visitors

app_name = "shop"
urlpatterns = [
    path("", cache_for_visitors(views.home), name="home"),
    path("about", cache_for_visitors(views.about), name="about"),
    path("contact", cache_for_visitors(views.contact), name="contact"),
    path("terms", cache_for_visitors(views.terms), name="terms"),
    path("privacy", cache_for_visitors(views.privacy), name="privacy"),
    path("newsletter", views.newsletter, name="newsletter"),
    path("newsletter/confirm/<str:token>", views.newsletter_confirm_view, name="newsletter-confirm"),
    path("newsletter/unsubscribe/<str:token>", views.newsletter_unsubscribe, name="newsletter-unsubscribe"),
]
