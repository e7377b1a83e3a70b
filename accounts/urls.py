from django.contrib.auth import views as auth_views
from django.urls import path, reverse_lazy

from accounts import reset, views

app_name = "accounts"

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("login/", auth_views.LoginView.as_view(template_name="accounts/login.html"), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("profile/", views.profile, name="profile"),
    path("email/confirm/", views.send_confirmation, name="send_confirmation"),
    path("email/confirm/<str:token>/", views.confirm_email, name="confirm_email"),
    path(
        "password/",
        auth_views.PasswordChangeView.as_view(
            template_name="accounts/password_change.html",
            success_url=reverse_lazy("accounts:password_changed"),
        ),
        name="password_change",
    ),
    path(
        "password/done/",
        auth_views.PasswordChangeDoneView.as_view(template_name="accounts/password_changed.html"),
        name="password_changed",
    ),
    path("password/forgot/", reset.ForgotPasswordView.as_view(), name="password_reset"),
    path("password/forgot/sent/", reset.LinkSentView.as_view(), name="password_reset_sent"),
    path(
        "password/reset/<uidb64>/<token>/",
        reset.SetNewPasswordView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "password/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(template_name="accounts/password_reset_done.html"),
        name="password_reset_done",
    ),
]
