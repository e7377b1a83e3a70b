from django.urls import path

from fairplay import views

app_name = "fairplay"

urlpatterns = [
    path("warnings/<int:warning_id>/read/", views.read_warning, name="read_warning"),
]
