"""Django settings, all read from the environment (see README.md, "Configuration").

With nothing set, the site runs on the embedded default: SQLite and an in-memory channel
layer, no server needed. ``DATABASE_URL`` switches to PostgreSQL (psycopg 3) and
``REDIS_URL`` to channels-redis and a Redis Celery broker.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from rummysite.env import env_bool, env_int, env_list, env_str, env_url

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DEBUG", True)

SECRET_KEY = env_str("SECRET_KEY") or ""
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")
    SECRET_KEY = "insecure-development-key-only-for-debug-mode-0123456789abcdef"  # noqa: S105
elif len(SECRET_KEY) < 50 and not DEBUG:
    raise ImproperlyConfigured("SECRET_KEY must be at least 50 characters long in production")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "testserver"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "rest_framework",
    "accounts",
    "wallet",
    "games",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "rummysite.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "rummysite.wsgi.application"
ASGI_APPLICATION = "rummysite.asgi.application"

# Database: SQLite (WAL, immediate transactions, busy timeout) unless DATABASE_URL is set.
DATABASE_URL = env_url("DATABASE_URL", ("postgres", "postgresql", "sqlite"))
if DATABASE_URL:
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=env_int("DB_CONN_MAX_AGE", 60))}
    if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
        DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": env_str("SQLITE_PATH") or str(BASE_DIR / "db.sqlite3"),
            "OPTIONS": {
                # IMMEDIATE: a writer takes the lock at BEGIN, so two writers queue instead
                # of failing with "database is locked" on lock upgrade.
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;",
            },
        }
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "accounts.User"
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "games:lobby"
LOGOUT_REDIRECT_URL = "home"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-in"
TIME_ZONE = "Asia/Kolkata"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "var" / "static"

# Channels and Celery: Redis when REDIS_URL is set, in-process otherwise.
REDIS_URL = env_url("REDIS_URL", ("redis", "rediss"))
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {"BACKEND": "channels_redis.core.RedisChannelLayer", "CONFIG": {"hosts": [REDIS_URL]}}
    }
    CELERY_BROKER_URL = REDIS_URL
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CELERY_BROKER_URL = "memory://"
CELERY_TASK_ALWAYS_EAGER = False
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = TIME_ZONE

# Game timers (deadlines, the sweep, bots): "celery" (a task per deadline, beat sweeps; needs
# a worker and beat, see `make run-prod`), "embedded" (an asyncio scheduler inside daphne) or
# "off" (nothing runs timers: for tests and one-off commands). See docs/PROTOCOL.md, "Timers".
GAME_TIMERS = env_str("GAME_TIMERS") or ("celery" if REDIS_URL else "embedded")
if GAME_TIMERS not in ("celery", "embedded", "off"):
    raise ImproperlyConfigured("GAME_TIMERS must be celery, embedded or off")
GAME_SWEEP_SECONDS = 2.0
"""Celery beat: how often overdue deadlines are swept and bots nudged (the embedded scheduler: 1 s)."""
CELERY_BEAT_SCHEDULE = {
    "sweep-overdue-tables": {"task": "games.tasks.sweep", "schedule": GAME_SWEEP_SECONDS},
    "drive-bots": {"task": "games.tasks.drive_bots", "schedule": GAME_SWEEP_SECONDS},
    "prune-action-receipts": {"task": "games.tasks.prune_receipts", "schedule": 3600.0},
}

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": ["rest_framework.authentication.SessionAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
}

# Security: strict by default when DEBUG is off (python manage.py check --deploy is clean).
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
SESSION_COOKIE_SECURE = not DEBUG
CSRF_COOKIE_SECURE = not DEBUG
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if DEBUG else 31536000, minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = not DEBUG
SECURE_HSTS_PRELOAD = not DEBUG
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if env_bool("BEHIND_PROXY", False) else None
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL") or "INFO"},
}


# --- Back office and REST API (docs/BACKOFFICE.md, docs/API.md) ---
INSTALLED_APPS += ["rest_framework.authtoken", "drf_spectacular", "backoffice", "api"]
REST_FRAMEWORK.update(
    {
        "EXCEPTION_HANDLER": "api.errors.exception_handler",
        "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
        "DEFAULT_THROTTLE_RATES": {
            "user": env_str("API_THROTTLE_USER") or "600/min",
            "anon": env_str("API_THROTTLE_ANON") or "60/min",
        },
    }
)
SPECTACULAR_SETTINGS = {
    "TITLE": "Rummy API",
    "DESCRIPTION": "Lobby, tables, wallet and history for players; staff reports. Money is integer paise.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SCHEMA_PATH_PREFIX": "/api/",
    "COMPONENT_SPLIT_REQUEST": True,
}


# --- Trust (issue 13): payments, staff roles, login, input limits (docs/BACKOFFICE.md) ---
# The sandbox payment provider confirms its own deposits: play money. On only when asked,
# and by default only while DEBUG is on; every page then shows a "sandbox money" banner.
PAYMENTS_SANDBOX = env_bool("PAYMENTS_SANDBOX", DEBUG)
TEMPLATES[0]["OPTIONS"]["context_processors"].append("wallet.context_processors.payments")
# A withdrawal above this many paise needs a second staff member's approval (four eyes).
WALLET_SECOND_APPROVAL_OVER = env_int("WALLET_SECOND_APPROVAL_OVER", 10_000_00, minimum=0)
# Tables: the most open seats a player holds at once, and how long "play now" on one template
# answers with the seat it just gave (twenty clicks are one seat and one fee).
TABLE_MAX_OPEN_SEATS = env_int("TABLE_MAX_OPEN_SEATS", 3, minimum=1)
PLAY_NOW_SECONDS = env_int("PLAY_NOW_SECONDS", 10, minimum=0)

# Client addresses (lock-out, throttles) come from REMOTE_ADDR, or behind TRUSTED_PROXY_COUNT
# proxies from that many entries from the right of X-Forwarded-For (accounts/client_ip.py).
TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 0, minimum=0)
REST_FRAMEWORK["NUM_PROXIES"] = TRUSTED_PROXY_COUNT

# Log-in lock-out (django-axes) on the web form, the admin and the API token endpoint.
INSTALLED_APPS += ["axes"]
MIDDLEWARE += ["axes.middleware.AxesMiddleware"]
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 5, minimum=1)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("LOGIN_LOCKOUT_MINUTES", 15, minimum=1))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_CLIENT_IP_CALLABLE = "accounts.client_ip.client_ip"
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "accounts.lockout.lockout_response"
AXES_VERBOSE = False
LOGGING.setdefault("loggers", {})["axes"] = {"level": "WARNING"}  # lock-outs, not every log-in

# API input: JSON only, refused before parsing when over API_MAX_BODY_BYTES or nested deeper
# than API_MAX_JSON_DEPTH, and never NaN or Infinity (api/parsers.py).
REST_FRAMEWORK["DEFAULT_PARSER_CLASSES"] = ["api.parsers.StrictJSONParser"]
REST_FRAMEWORK["TEST_REQUEST_DEFAULT_FORMAT"] = "json"
API_MAX_BODY_BYTES = env_int("API_MAX_BODY_BYTES", 64 * 1024, minimum=1024)
API_MAX_JSON_DEPTH = 8

# Staff two-factor sign-in (django-otp, accounts/totp.py): with it on (default: DEBUG off),
# /admin/, /backoffice/ and /api/staff/ need a TOTP-verified session, and staff get an API
# token only with a current code.
INSTALLED_APPS += ["django_otp", "django_otp.plugins.otp_totp", "django_otp.plugins.otp_static"]
MIDDLEWARE += ["django_otp.middleware.OTPMiddleware", "accounts.totp.StaffTOTPMiddleware"]
STAFF_TOTP_REQUIRED = env_bool("STAFF_TOTP_REQUIRED", not DEBUG)
OTP_TOTP_ISSUER = "Rummy"
