from django.urls import path

from wallet import views

app_name = "wallet"

urlpatterns = [
    path("", views.home, name="home"),
    path("deposit/", views.deposit, name="deposit"),
    path("withdraw/", views.withdraw, name="withdraw"),
    path("chips/", views.topup, name="topup"),
]
