from django.urls import path

from backoffice import views

app_name = "backoffice"

urlpatterns = [
    path("reports/", views.index, name="index"),
    path("reports/<slug:slug>/", views.report, name="report"),
]
