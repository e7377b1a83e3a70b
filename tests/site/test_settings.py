"""Settings come from the environment and fail loudly on bad values."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from rummysite.env import env_bool, env_int, env_list, env_url

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": "k" * 20 + "-production-secret-for-the-deploy-check-0123456789",
    "ALLOWED_HOSTS": "rummy.example.com",
}


def run_manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "SECRET_KEY", "ALLOWED_HOSTS"}}
    clean.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=clean, capture_output=True, text=True, timeout=120
    )


def test_env_bool_refuses_nonsense(monkeypatch):
    monkeypatch.setenv("DEBUG", "maybe")
    with pytest.raises(ImproperlyConfigured, match="not a boolean"):
        env_bool("DEBUG", True)
    monkeypatch.setenv("DEBUG", "off")
    assert env_bool("DEBUG", True) is False


def test_env_int_and_list(monkeypatch):
    monkeypatch.setenv("N", "12x")
    with pytest.raises(ImproperlyConfigured, match="not a whole number"):
        env_int("N", 1)
    monkeypatch.setenv("N", "-1")
    with pytest.raises(ImproperlyConfigured, match="at least 0"):
        env_int("N", 1, minimum=0)
    monkeypatch.setenv("HOSTS", "a.example, b.example,")
    assert env_list("HOSTS", []) == ["a.example", "b.example"]


def test_env_url_checks_the_scheme(monkeypatch):
    monkeypatch.setenv("DATABASE_URL", "mysql://x")
    with pytest.raises(ImproperlyConfigured, match="postgres://"):
        env_url("DATABASE_URL", ("postgres", "postgresql"))
    monkeypatch.setenv("DATABASE_URL", "")
    assert env_url("DATABASE_URL", ("postgres",)) is None


def test_production_needs_a_secret_key():
    result = run_manage("check", DEBUG="0", ALLOWED_HOSTS="rummy.example.com")
    assert result.returncode != 0
    assert "SECRET_KEY must be set when DEBUG is off" in result.stderr


def test_bad_debug_value_fails_loudly():
    result = run_manage("check", DEBUG="sometimes")
    assert result.returncode != 0
    assert "DEBUG='sometimes' is not a boolean" in result.stderr


def test_deploy_check_is_clean_under_production_settings():
    result = run_manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_needs_allowed_hosts():
    result = run_manage("check", DEBUG="0", SECRET_KEY=PRODUCTION["SECRET_KEY"])
    assert result.returncode != 0
    assert "ALLOWED_HOSTS must be set when DEBUG is off" in result.stderr


def test_a_redis_socket_timeout_that_would_close_idle_websockets_is_refused():
    result = run_manage(
        "check", REDIS_URL="redis://127.0.0.1:6379/1", REDIS_SOCKET_TIMEOUT="5", REDIS_CHANNEL_LAYER="lists"
    )
    assert result.returncode != 0
    assert "REDIS_SOCKET_TIMEOUT=5 must be more than the channel layer's 5 s blocking read" in result.stderr


def test_the_pub_sub_layer_has_no_blocking_read_to_cut_and_an_unknown_layer_is_refused():
    result = run_manage("check", REDIS_URL="redis://127.0.0.1:6379/1", REDIS_SOCKET_TIMEOUT="5")
    assert result.returncode == 0, result.stderr
    result = run_manage("check", REDIS_URL="redis://127.0.0.1:6379/1", REDIS_CHANNEL_LAYER="streams")
    assert result.returncode != 0
    assert "REDIS_CHANNEL_LAYER must be pubsub or lists" in result.stderr


def test_the_redis_socket_timeouts_agree_with_the_channel_layer(settings):
    from channels_redis.core import RedisChannelLayer

    assert RedisChannelLayer.brpop_timeout == settings.CHANNEL_LAYER_BLOCKING_READ_SECONDS
    assert settings.REDIS_OPTIONS["socket_timeout"] > RedisChannelLayer.brpop_timeout
