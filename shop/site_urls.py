from django.urls import path

from shop import views

app_name = "shop"
urlpatterns = [
    path("", views.home, name="home"),
    path("about", views.about, name="about"),
    path("contact", views.contact, name="contact"),
    path("terms", views.terms, name="terms"),
    path("privacy", views.privacy, name="privacy"),
    path("newsletter", views.newsletter, name="newsletter"),
    path("newsletter/unsubscribe/<str:token>", views.newsletter_unsubscribe, name="newsletter-unsubscribe"),
]
