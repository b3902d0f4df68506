from django.urls import path, re_path

from backoffice import views

app_name = "backoffice"
urlpatterns = [
    path("adminauth", views.adminauth, name="adminauth"),
    path("adminauth/logout", views.adminauth_logout, name="logout"),
    path("admindash", views.dashboard, name="dashboard"),
    re_path(r"^admindash/(?P<section>.*)$", views.dashboard, name="section"),
]
