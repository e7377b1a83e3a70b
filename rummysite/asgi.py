"""ASGI entry point served by daphne: HTTP through Django (each request's middleware and view
in one call to its thread, :mod:`rummysite.http`), websockets through Channels.

Websockets (``/ws/tables/<id>/``, see docs/PROTOCOL.md; ``/ws/tournaments/<id>/``, a tournament's
page) must come from the site's own origin
(scheme, host and port) and are authenticated with the Django session cookie, or with an API
token offered as a subprotocol (:mod:`rummysite.websocket_auth`). In embedded mode (no
``REDIS_URL``) the game timers run inside this process (``games.scheduler``), with the wallet's
and fair play's schedules.
"""

import os
import sys
from typing import Any

import django
from channels.routing import ProtocolTypeRouter, URLRouter

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rummysite.settings")
django.setup(set_prefix=False)  # as django.core.asgi.get_asgi_application does

# After Django is set up:
from channels.auth import AuthMiddlewareStack  # noqa: E402
from django.conf import settings  # noqa: E402

from fairplay.schedule import start_with_daphne as start_fair_play  # noqa: E402
from games.routing import websocket_urlpatterns  # noqa: E402
from games.scheduler import start_with_daphne  # noqa: E402
from rummysite.collector import settle_after_startup  # noqa: E402
from rummysite.http import OneHopASGIHandler  # noqa: E402
from rummysite.websocket_auth import SameOriginValidator, TokenAuthMiddleware  # noqa: E402
from tournaments.routing import websocket_urlpatterns as tournament_urlpatterns  # noqa: E402
from wallet.schedule import start_with_daphne as start_reconciling  # noqa: E402

if settings.GIL_SWITCH_MS:
    sys.setswitchinterval(settings.GIL_SWITCH_MS / 1000)

django_asgi_app = OneHopASGIHandler()
http_app: Any = django_asgi_app
if settings.DEBUG:
    # With DEBUG=1 (make run) daphne serves the static files as they are; in production
    # WhiteNoise serves the collected, hashed and compressed ones (rummysite.storage).
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

    http_app = ASGIStaticFilesHandler(django_asgi_app)

application = ProtocolTypeRouter(
    {
        "http": http_app,
        "websocket": SameOriginValidator(
            AuthMiddlewareStack(
                TokenAuthMiddleware(URLRouter([*websocket_urlpatterns, *tournament_urlpatterns]))
            )
        ),
    }
)

start_with_daphne()
start_reconciling()
start_fair_play()
settle_after_startup()  # last: what starting made is frozen out of the collector's passes
