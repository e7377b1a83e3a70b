from django.urls import path

from backoffice import totp, views

app_name = "backoffice"

urlpatterns = [
    path("totp/", totp.verify, name="totp"),
    path("totp/setup/", totp.setup, name="totp_setup"),
    path("reports/", views.index, name="index"),
    path("reports/<slug:slug>/", views.report, name="report"),
]
