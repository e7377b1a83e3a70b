"""WSGI entry point (plain HTTP only; live play needs ASGI, see asgi.py)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rummysite.settings")
application = get_wsgi_application()
