from django.urls import path

from backoffice import totp, views, voids

app_name = "backoffice"

urlpatterns = [
    path("totp/", totp.verify, name="totp"),
    path("totp/setup/", totp.setup, name="totp_setup"),
    path("reports/", views.index, name="index"),
    path("reports/<slug:slug>/", views.report, name="report"),
    path("voids/", voids.voids, name="voids"),
    path("voids/request/", voids.request_void, name="request_void"),
    path("voids/<int:request_id>/confirm/", voids.confirm_void, name="confirm_void"),
]
