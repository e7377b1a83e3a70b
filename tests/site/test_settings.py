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
    "EMAIL_HOST": "smtp.example.com",
    "DEFAULT_FROM_EMAIL": "Rummy <noreply@rummy.example.com>",
}
MAIL = (
    "EMAIL_HOST",
    "EMAIL_PORT",
    "EMAIL_USE_TLS",
    "EMAIL_USE_SSL",
    "EMAIL_HOST_USER",
    "EMAIL_HOST_PASSWORD",
)


def run_manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    set_here = {"DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "DEFAULT_FROM_EMAIL", *MAIL}
    clean = {k: v for k, v in os.environ.items() if k not in set_here}
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


def mail_settings(**env: str) -> dict[str, str]:
    shown = "EMAIL_BACKEND", "EMAIL_PORT", "EMAIL_USE_TLS", "EMAIL_USE_SSL", "DEFAULT_FROM_EMAIL"
    code = (
        f"from django.conf import settings; print(repr({{n: getattr(settings, n, None) for n in {shown!r}}}))"
    )
    done = run_manage("shell", "-c", code, **env)
    assert done.returncode == 0, done.stderr
    return eval(done.stdout.strip().splitlines()[-1])  # noqa: S307 - our own repr of settings


def test_mail_is_printed_on_the_console_in_development_and_sent_by_smtp_when_configured():
    assert mail_settings(DEBUG="1")["EMAIL_BACKEND"] == "django.core.mail.backends.console.EmailBackend"
    smtp = mail_settings(DEBUG="1", EMAIL_HOST="smtp.example.com")
    assert smtp["EMAIL_BACKEND"] == "django.core.mail.backends.smtp.EmailBackend"
    assert (smtp["EMAIL_PORT"], smtp["EMAIL_USE_TLS"], smtp["EMAIL_USE_SSL"]) == (587, True, False)
    ssl = mail_settings(DEBUG="1", EMAIL_HOST="smtp.example.com", EMAIL_PORT="465")
    assert (ssl["EMAIL_USE_TLS"], ssl["EMAIL_USE_SSL"]) == (False, True)
    production = mail_settings(**PRODUCTION)
    assert production["DEFAULT_FROM_EMAIL"] == "Rummy <noreply@rummy.example.com>"


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"EMAIL_PORT": "smtp"}, "EMAIL_PORT='smtp' is not a whole number"),
        ({"EMAIL_PORT": "70000"}, "EMAIL_PORT=70000 must be at most 65535"),
        ({"EMAIL_USE_TLS": "1", "EMAIL_USE_SSL": "1"}, "one or the other"),
        ({"EMAIL_USE_TLS": "maybe"}, "EMAIL_USE_TLS='maybe' is not a boolean"),
        ({"EMAIL_HOST_USER": "rummy"}, "EMAIL_HOST_USER and EMAIL_HOST_PASSWORD are set together"),
        (
            {"DEFAULT_FROM_EMAIL": "the rummy site"},
            "DEFAULT_FROM_EMAIL='the rummy site' is not an e-mail address",
        ),
        ({"DEFAULT_FROM_EMAIL": ""}, "is not an e-mail address"),
    ],
)
def test_mail_settings_that_make_no_sense_stop_the_site(env, message):
    result = run_manage("check", DEBUG="1", EMAIL_HOST="smtp.example.com", **env)
    assert result.returncode != 0
    assert message in result.stderr


def test_production_names_its_sender_and_without_a_mail_server_the_deploy_check_says_so():
    result = run_manage("check", **{k: v for k, v in PRODUCTION.items() if k != "DEFAULT_FROM_EMAIL"})
    assert result.returncode != 0
    assert "DEFAULT_FROM_EMAIL must be set with EMAIL_HOST when DEBUG is off" in result.stderr
    no_server = {k: v for k, v in PRODUCTION.items() if k not in ("EMAIL_HOST", "DEFAULT_FROM_EMAIL")}
    assert mail_settings(**no_server)["EMAIL_BACKEND"] == "django.core.mail.backends.dummy.EmailBackend"
    warned = run_manage("check", "--deploy", "--fail-level", "WARNING", **no_server)
    assert warned.returncode != 0
    assert "accounts.W001" in warned.stderr + warned.stdout
    assert "EMAIL_HOST is not set" in warned.stderr + warned.stdout
