from django.contrib import admin
from django.urls import include, path
from django.views.generic import TemplateView

from rummysite.health import healthz
from rummysite.rules import rules

urlpatterns = [
    path("", TemplateView.as_view(template_name="home.html"), name="home"),
    path("healthz", healthz, name="healthz"),
    path("rules/", rules, name="rules"),
    path("accounts/", include("accounts.urls")),
    path("admin/", admin.site.urls),
    path("backoffice/", include("backoffice.urls")),
    path("api/", include("api.urls")),
    path("games/", include("games.urls")),
    path("wallet/", include("wallet.urls")),
]
