from django.contrib import admin
from django.http import HttpRequest, HttpResponsePermanentRedirect
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import TemplateView

from rummysite.health import healthz
from rummysite.rules import rules


def favicon(request: HttpRequest) -> HttpResponsePermanentRedirect:
    """Browsers ask for /favicon.ico on pages that name no icon (the admin's): the site's icon."""
    return HttpResponsePermanentRedirect(static("icons/favicon.svg"))


urlpatterns = [
    path("", TemplateView.as_view(template_name="home.html"), name="home"),
    path("favicon.ico", favicon),
    path("healthz", healthz, name="healthz"),
    path("rules/", rules, name="rules"),
    path("accounts/", include("accounts.urls")),
    path("admin/", admin.site.urls),
    path("backoffice/", include("backoffice.urls")),
    path("fairplay/", include("fairplay.urls")),
    path("api/", include("api.urls")),
    path("games/", include("games.urls")),
    path("tournaments/", include("tournaments.urls")),
    path("wallet/", include("wallet.urls")),
]

handler500 = "rummysite.error_pages.server_error"
