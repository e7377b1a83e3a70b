"""``/healthz`` reports the database, the channel layer and the broker."""

from __future__ import annotations

import pytest

from rummysite import health

pytestmark = pytest.mark.django_db


def test_it_reports_every_service_up(client, settings):
    settings.GAME_TIMERS = "embedded"  # no Celery worker here to beat
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["ok"] is True
    assert set(body["checks"]) == {"database", "channel_layer", "broker"}
    assert all(check["ok"] for check in body["checks"].values())


def test_it_reports_a_failing_service_without_saying_why(client, monkeypatch, caplog):
    def broken() -> None:
        raise ConnectionError("broker is down at 10.0.0.7:6379")

    monkeypatch.setitem(health.CHECKS, "broker", broken)
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["ok"] is False
    assert body["checks"]["broker"] == {"ok": False}
    assert body["checks"]["database"] == {"ok": True}
    assert "10.0.0.7" not in response.content.decode()
    assert "ConnectionError" not in response.content.decode()
    # The detail is in the log, for the operator.
    assert "broker is down at 10.0.0.7:6379" in caplog.text


def test_with_celery_timers_it_checks_the_worker_and_beat_heartbeats(client, monkeypatch, settings):
    settings.GAME_TIMERS = "celery"
    settings.HEARTBEAT_STALE_SECONDS = 30
    ages = {"worker": 2.0, "beat": 45.0}
    monkeypatch.setattr(health.heartbeat, "age", ages.get)
    response = client.get("/healthz")
    assert response.status_code == 503
    checks = response.json()["checks"]
    assert checks["worker"] == {"ok": True}
    assert checks["beat"] == {"ok": False}
    ages.update(beat=1.0, worker=None)  # a worker that never beat
    checks = client.get("/healthz").json()["checks"]
    assert (checks["worker"], checks["beat"]) == ({"ok": False}, {"ok": True})
    ages.update(worker=3.0)
    assert client.get("/healthz").status_code == 200


def test_embedded_timers_need_no_heartbeat(client, settings):
    settings.GAME_TIMERS = "embedded"
    assert set(client.get("/healthz").json()["checks"]) == {"database", "channel_layer", "broker"}


def test_home_page_serves(client):
    response = client.get("/")
    assert response.status_code == 200
    assert "Indian Rummy" in response.content.decode()


@pytest.mark.redis
def test_it_reaches_real_redis_when_configured(settings):
    assert settings.CHANNEL_LAYERS["default"]["BACKEND"] == "channels_redis.pubsub.RedisPubSubChannelLayer"
    assert settings.CELERY_BROKER_URL.startswith("redis://")
    for _ in range(5):  # a new subscription each time: the check resends what beats it to Redis
        health.check_channel_layer()
    health.check_broker()


@pytest.mark.redis
def test_it_reaches_real_redis_on_the_list_based_layer_too(settings):
    config = settings.CHANNEL_LAYERS["default"]["CONFIG"]
    settings.CHANNEL_LAYERS = {
        "default": {"BACKEND": settings.REDIS_LAYERS["lists"], "CONFIG": config},
    }
    health.check_channel_layer()


@pytest.mark.postgres
def test_it_runs_on_postgresql():
    from django.db import connection

    assert connection.vendor == "postgresql"
    health.check_database()


def test_the_heartbeats_keep_one_redis_client_a_process(monkeypatch, settings):
    """A beat every few seconds and two reads at each ``/healthz`` share one client, whose pool
    keeps its connection, rather than a new client (and connection) each."""
    from rummysite import heartbeat

    stored: dict[str, bytes] = {}

    class Client:
        def set(self, key: str, value: str, ex: int) -> None:
            stored[key] = value.encode()

        def get(self, key: str) -> bytes | None:
            return stored.get(key)

    made: list[str] = []

    def from_url(url: str, **options: object) -> Client:
        made.append(url)
        return Client()

    monkeypatch.setattr(heartbeat.redis.Redis, "from_url", from_url)
    heartbeat._client_of.cache_clear()
    settings.REDIS_URL = "redis://127.0.0.1:6399/3"
    try:
        for _ in range(3):
            heartbeat.beat("worker")
            assert heartbeat.age("worker") is not None
            assert heartbeat.age("beat") is None
    finally:
        heartbeat._client_of.cache_clear()
    assert made == ["redis://127.0.0.1:6399/3"]
