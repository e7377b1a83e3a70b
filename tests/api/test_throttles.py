"""A rate-limit count that Redis cannot take (Redis down) lets the API go on serving, as the
tables do through a Redis outage, and says so in the log once, not at every request."""

from __future__ import annotations

import logging

import pytest
from django.core.cache import caches
from redis.exceptions import RedisError
from rest_framework.test import APIClient

from tests.live.stack import free_port

pytestmark = pytest.mark.django_db


def test_a_redis_that_cannot_count_lets_the_api_serve(settings, caplog):
    settings.CACHES = {
        **settings.CACHES,
        "throttles": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": f"redis://127.0.0.1:{free_port()}/0",  # nothing listens there
            "OPTIONS": {"socket_timeout": 1, "socket_connect_timeout": 1},
        },
    }
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"user": "600/min", "anon": "1/min"},
    }
    from rest_framework.settings import api_settings

    from api import throttling

    api_settings.reload()
    throttling._warned_at[0] = -throttling.WARN_EVERY
    try:
        with caplog.at_level(logging.WARNING, logger="api.throttling"):
            answers = [APIClient().post("/api/auth/token/", {}, format="json").status_code for _ in range(3)]
    finally:
        api_settings.reload()
    assert answers == [400, 400, 400], answers  # answered, none refused for the rate
    warnings = [r.getMessage() for r in caplog.records if r.name == "api.throttling"]
    assert len(warnings) == 1, warnings  # once, not for every request
    assert "API rate limits not counted" in warnings[0]
    with pytest.raises(RedisError):  # the cache really is unreachable
        caches["throttles"].get("anything")
