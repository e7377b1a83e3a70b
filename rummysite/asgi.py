"""ASGI entry point served by daphne: HTTP through Django, websockets through Channels."""

import os

from channels.routing import ProtocolTypeRouter
from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rummysite.settings")
django_asgi_app = get_asgi_application()

from django.conf import settings  # noqa: E402  (after Django is set up)

http_app = django_asgi_app
if settings.DEBUG:
    # On the embedded default (make run) daphne serves the static files itself; in
    # production a reverse proxy serves the collected files from STATIC_ROOT.
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

    http_app = ASGIStaticFilesHandler(django_asgi_app)

application = ProtocolTypeRouter({"http": http_app})
