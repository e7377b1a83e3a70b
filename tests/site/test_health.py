"""``/healthz`` reports the database, the channel layer and the broker."""

from __future__ import annotations

import pytest

from rummysite import health

pytestmark = pytest.mark.django_db


def test_it_reports_every_service_up(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["ok"] is True
    assert set(body["checks"]) == {"database", "channel_layer", "broker"}
    assert all(check["ok"] for check in body["checks"].values())


def test_it_reports_a_failing_service(client, monkeypatch):
    def broken() -> None:
        raise ConnectionError("broker is down")

    monkeypatch.setitem(health.CHECKS, "broker", broken)
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["ok"] is False
    assert body["checks"]["broker"] == {"ok": False, "error": "ConnectionError: broker is down"}
    assert body["checks"]["database"] == {"ok": True}


def test_home_page_serves(client):
    response = client.get("/")
    assert response.status_code == 200
    assert "Indian Rummy" in response.content.decode()


@pytest.mark.redis
def test_it_reaches_real_redis_when_configured(settings):
    assert settings.CHANNEL_LAYERS["default"]["BACKEND"] == "channels_redis.core.RedisChannelLayer"
    assert settings.CELERY_BROKER_URL.startswith("redis://")
    health.check_channel_layer()
    health.check_broker()


@pytest.mark.postgres
def test_it_runs_on_postgresql():
    from django.db import connection

    assert connection.vendor == "postgresql"
    health.check_database()
