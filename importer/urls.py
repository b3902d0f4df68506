from django.urls import path

from importer import views

app_name = "importer"
urlpatterns = [
    path("importer/panel", views.panel, name="panel"),
]
