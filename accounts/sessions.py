"""Ending sign-ins: sessions, API tokens and the websockets opened with them.

A websocket joins two groups when it connects (:func:`user_group`, :func:`session_group`); a
message of type ``auth.revoked`` to either closes it (``games.consumers``). Logging out ends
that session and its sockets; a password change or a ban ends every session, token and
socket of the user (docs/BACKOFFICE.md, "Sessions").
"""

from __future__ import annotations

import hashlib
import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.contrib.sessions.models import Session
from django.db import transaction
from django.utils import timezone

log = logging.getLogger(__name__)


def user_group(user_id: int) -> str:
    return f"auth-user-{user_id}"


def session_group(session_key: str) -> str:
    return "auth-session-" + hashlib.sha256(session_key.encode()).hexdigest()[:40]


def close_sockets(group: str) -> None:
    """Close every websocket in ``group`` (best effort: a layer outage must not stop a logout)."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group, {"type": "auth.revoked"})
    except Exception:
        log.exception("could not close the websockets of %s", group)


def end_sessions(user_id: int, *, keep: str | None = None) -> int:
    """Delete every stored session signed in as ``user_id`` except ``keep``; how many."""
    doomed = []
    for session in Session.objects.filter(expire_date__gt=timezone.now()).iterator():
        if session.session_key == keep:
            continue
        if str(session.get_decoded().get("_auth_user_id")) == str(user_id):
            doomed.append(session.session_key)
    Session.objects.filter(session_key__in=doomed).delete()
    return len(doomed)


def revoke_everything(user: Any, *, keep: str | None = None) -> None:
    """Every API token, every session (but ``keep``) and, once committed, every websocket of
    ``user``. Runs in the caller's transaction: nothing is revoked if that rolls back."""
    from rest_framework.authtoken.models import Token

    Token.objects.filter(user_id=user.pk).delete()
    end_sessions(user.pk, keep=keep)
    group = user_group(user.pk)
    transaction.on_commit(lambda: close_sockets(group))


def on_logged_out(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    """Django's ``user_logged_out``: close the sockets opened with this session."""
    key = getattr(getattr(request, "session", None), "session_key", None)
    if key:
        close_sockets(session_group(key))
