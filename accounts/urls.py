from django.urls import path

from accounts import views

app_name = "accounts"
urlpatterns = [
    path("login", views.login_view, name="login"),
    path("logout", views.logout_view, name="logout"),
    path("register", views.register, name="register"),
    path("forgot-password", views.forgot_password, name="forgot-password"),
    path("reset-password", views.reset_password, name="reset-password"),
    path("account", views.account, name="account"),
    path("account/data", views.account_data, name="account-data"),
]
