"""Who may open a websocket: the origin check, and the API token for clients without cookies.

- :class:`SameOriginValidator` compares the handshake's ``Origin`` with the site's own origin
  (scheme, host and port of the request, the host in ``ALLOWED_HOSTS``), or one of
  ``CSRF_TRUSTED_ORIGINS``, as Django's CSRF check does for forms. Channels' own
  ``AllowedHostsOriginValidator`` compares the host alone, so a page on another port or
  over plain http of the same host would pass it.
- :class:`TokenAuthMiddleware` lets a program (a mobile app, a bot) authenticate with its API
  token, offered as a websocket subprotocol ``token.<key>`` beside ``rummy.v1``: in the
  ``Sec-WebSocket-Protocol`` header, never in the URL, where it would end up in logs. The
  session cookie still works as before; the token is read only when there is no session.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from channels.db import database_sync_to_async
from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.http.request import split_domain_port, validate_host

#: A subprotocol carrying an API token: ``token.<key>``, offered beside ``games.consumers.PROTOCOL``.
TOKEN_PREFIX = "token."  # noqa: S105 (a prefix, not a secret)


def _header(scope: dict[str, Any], name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return str(value.decode("latin-1"))
    return None


def _origin(url: str) -> tuple[str, str, int | None] | None:
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    default = 443 if parts.scheme == "https" else 80
    return parts.scheme, parts.hostname.lower(), port or default


def origin_allowed(scope: dict[str, Any]) -> bool:
    """True when the handshake's Origin is the site's own origin or a trusted one."""
    origin_header = _header(scope, b"origin")
    host_header = _header(scope, b"host")
    if not origin_header or not host_header:
        return False
    origin = _origin(origin_header)
    if origin is None:
        return False
    trusted = {_origin(url) for url in settings.CSRF_TRUSTED_ORIGINS}
    if origin in trusted:
        return True
    domain, _ = split_domain_port(host_header)
    if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
        return False
    scheme = "https" if scope.get("scheme") in ("wss", "https") else "http"
    return origin == _origin(f"{scheme}://{host_header}")


class SameOriginValidator:
    """Refuse (HTTP 403, before any frame) a websocket whose Origin is not the site's own."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] == "websocket" and not origin_allowed(scope):
            denier = WebsocketDenier()
            return await denier(scope, receive, send)
        return await self.application(scope, receive, send)


@database_sync_to_async
def _user_of_token(key: str) -> Any:
    from rest_framework.authtoken.models import Token

    token = Token.objects.select_related("user").filter(key=key).first()
    if token is None or not token.user.is_active:
        return AnonymousUser()
    return token.user


def offered_token(scope: dict[str, Any]) -> str | None:
    for protocol in scope.get("subprotocols") or ():
        if protocol.startswith(TOKEN_PREFIX) and 0 < len(protocol) - len(TOKEN_PREFIX) <= 64:
            return str(protocol[len(TOKEN_PREFIX) :])
    return None


class TokenAuthMiddleware:
    """Put the API token's user in the scope when the session has none (inside
    ``AuthMiddlewareStack``)."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        user = scope.get("user")
        key = offered_token(scope)
        if key is not None and (user is None or not user.is_authenticated):
            scope = {**scope, "user": await _user_of_token(key)}
        return await self.application(scope, receive, send)
