from django.urls import path

from wallet import responsible, views

app_name = "wallet"

urlpatterns = [
    path("", views.home, name="home"),
    path("deposit/", views.deposit, name="deposit"),
    path("withdraw/", views.withdraw, name="withdraw"),
    path("chips/", views.topup, name="topup"),
    path("tax-year.csv", views.tax_year, name="tax_year"),
    path("responsible-play/", responsible.page, name="responsible"),
    path("responsible-play/limits/", responsible.set_limit, name="set_limit"),
    path("responsible-play/break/", responsible.take_break, name="take_break"),
    path("responsible-play/identity/", responsible.verify_identity, name="verify_identity"),
]
