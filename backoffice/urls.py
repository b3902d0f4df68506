from django.urls import path, re_path

from backoffice import print_views, views

app_name = "backoffice"
urlpatterns = [
    path("adminauth", views.adminauth, name="adminauth"),
    path("adminauth/logout", views.adminauth_logout, name="logout"),
    path("admindash", views.dashboard, name="dashboard"),
    path("admindash/orders/documents.pdf", print_views.orders_documents_pdf, name="order-documents"),
    path("admindash/orders/<id:order_id>/print", print_views.order_print, name="order-print"),
    re_path(r"^admindash/(?P<section>.*)$", views.dashboard, name="section"),
]
