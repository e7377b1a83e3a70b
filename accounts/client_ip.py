"""The client's address, from the one trusted-proxy setting (``TRUSTED_PROXY_COUNT``).

With no proxy (0, the default) it is ``REMOTE_ADDR``: a client's ``X-Forwarded-For`` is never
believed. Behind N proxies that each append to ``X-Forwarded-For``, it is the address the
outermost trusted proxy saw: the N-th entry from the right. A client can prepend whatever it
likes to the header; those entries are never read. Used by django-axes (lock-out) and, through
``NUM_PROXIES`` with the same count, by the API's throttles.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings


def client_ip(request: Any) -> str:
    meta = getattr(request, "META", {})
    remote = str(meta.get("REMOTE_ADDR", "") or "")
    proxies = int(getattr(settings, "TRUSTED_PROXY_COUNT", 0))
    if proxies <= 0:
        return remote
    forwarded = [
        part.strip() for part in str(meta.get("HTTP_X_FORWARDED_FOR", "")).split(",") if part.strip()
    ]
    if len(forwarded) < proxies:
        return remote  # fewer hops than trusted proxies: the request did not come through them
    return forwarded[-proxies]
