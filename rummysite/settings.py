"""Django settings, all read from the environment (see README.md, "Configuration").

With nothing set, the site runs on the embedded default: SQLite and an in-memory channel
layer, no server needed. ``DATABASE_URL`` switches to PostgreSQL (psycopg 3) and
``REDIS_URL`` to channels-redis and a Redis Celery broker.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from rummysite.env import env_bool, env_email, env_int, env_list, env_str, env_url

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
if not DEBUG and not ALLOWED_HOSTS:
    raise ImproperlyConfigured(
        "ALLOWED_HOSTS must be set when DEBUG is off, e.g. ALLOWED_HOSTS=rummy.example.com"
    )

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
    "protection",
    "wallet",
    "games",
    "fairplay",
    "tournaments",
]

MIDDLEWARE = [
    "rummysite.logs.RequestLogMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # The first-party device id (cookie ``rd``, or the API's X-Device-Id header): fair play.
    "fairplay.device.DeviceMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "rummysite.urls"

TEMPLATES: list[dict[str, Any]] = [
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
        # A database that is down answers /healthz and requests in seconds, not minutes.
        DATABASES["default"].setdefault("OPTIONS", {}).setdefault("connect_timeout", 5)
        # The name each connection shows in pg_stat_activity: which process holds what.
        DATABASES["default"]["OPTIONS"]["application_name"] = env_str("DB_APPLICATION_NAME") or "rummy"
        # Connections come from a pool per process, never one per thread: under daphne each
        # request runs in a thread lent to it (rummysite.http), and a connection kept per thread
        # would sit idle with its thread between requests (docs/DEPLOY.md, "Database
        # connections"). DB_POOL_SIZE=0: no pool and no kept connection, for a site behind a
        # pooler such as pgbouncer.
        DB_POOL_SIZE = env_int("DB_POOL_SIZE", 10, minimum=0)
        DATABASES["default"]["CONN_MAX_AGE"] = 0  # the pool keeps them; Django must not
        if DB_POOL_SIZE:
            DATABASES["default"]["OPTIONS"]["pool"] = {
                "min_size": min(env_int("DB_POOL_MIN", 2, minimum=0), DB_POOL_SIZE),
                "max_size": DB_POOL_SIZE,
                "timeout": env_int("DB_POOL_TIMEOUT", 10, minimum=1),
                # A connection idle this long goes back to the server (down to min_size), and
                # none lives past an hour, so a long-running process gives memory back.
                "max_idle": 300,
                "max_lifetime": 3600,
                "name": "rummy",
            }
        # The hot paths' prepared statements (hotpath/statements.py) are planned once per connection:
        # PostgreSQL otherwise re-plans some at every call (the ledger's posting, whose arrays
        # and CTEs it never judges cheap enough), which cost more than running them. Only
        # prepared statements are affected; Django's own queries are bound on the client.
        DATABASES["default"]["OPTIONS"].setdefault("options", "-c plan_cache_mode=force_generic_plan")
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": env_str("SQLITE_PATH") or str(BASE_DIR / "db.sqlite3"),
            # Keep each thread's connection: opening one per request or websocket frame cost a
            # fifth of the server's time under load (docs/PERFORMANCE.md, "A move").
            "CONN_MAX_AGE": env_int("DB_CONN_MAX_AGE", 60),
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

# Argon2id for new passwords; PBKDF2 checks (and upgrades) the older ones. Both hand the pooled
# database connection back while they hash (accounts.hashers).
# Argon2id's work in this many processes of its own, each lowered by PASSWORD_HASH_NICE, so a
# crowd logging in waits behind the tables rather than the tables behind it; 0 hashes in the
# request's thread (accounts.password_work). make run-prod and the Procfile give daphne one a core.
PASSWORD_HASH_PROCESSES = env_int("PASSWORD_HASH_PROCESSES", 0, minimum=0)
PASSWORD_HASH_NICE = env_int("PASSWORD_HASH_NICE", 10, minimum=0, maximum=19)
# How long a thread of daphne's may keep the GIL while another waits for it, in ms (Python's
# default 5): 0 leaves Python's default.
GIL_SWITCH_MS = float(env_str("GIL_SWITCH_MS") or 0)
# Allocations between two passes of the garbage collector over the youngest objects in daphne
# (rummysite.collector; Python's default 700): 0 leaves Python's.
GC_YOUNG_THRESHOLD = env_int("GC_YOUNG_THRESHOLD", 10_000, minimum=0)
# How long a process reuses the lobby's counts of players at each stake (milliseconds; 0: count at
# every lobby): every open lobby page asks again every 5 seconds (games.lobby).
LOBBY_COUNTS_MS = env_int("LOBBY_COUNTS_MS", 1000, minimum=0)
PASSWORD_HASHERS = [
    "accounts.hashers.Argon2PasswordHasher",
    "accounts.hashers.PBKDF2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2SHA1PasswordHasher",
    "django.contrib.auth.hashers.BCryptSHA256PasswordHasher",
    "django.contrib.auth.hashers.ScryptPasswordHasher",
]
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
STATIC_ROOT = Path(env_str("STATIC_ROOT") or BASE_DIR / "var" / "static")
# Production (DEBUG=0): WhiteNoise serves the files `collectstatic` gathered in STATIC_ROOT,
# gzip-compressed, under hashed names (cached for a year); ES modules' imports are rewritten
# to the hashed names too (rummysite.storage). With DEBUG=1 they are served as they are.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "rummysite.storage.StaticStorage"
    },
}

# Channels and Celery: Redis when REDIS_URL is set, in-process otherwise.
REDIS_URL = env_url("REDIS_URL", ("redis", "rediss"))
# The channel layer on Redis: "pubsub" (channels_redis's RedisPubSubChannelLayer, the default:
# a group message is one PUBLISH, received once by each server process that has members, a
# quarter less CPU a move than "lists": docs/PERFORMANCE.md, "A move") or "lists"
# (RedisChannelLayer: a copy of each message in a list per connection). Pub/sub keeps no
# message for a process that is reconnecting; neither layer is trusted to deliver every
# message: each server process checks its tables' versions and catches up a connection left
# behind (games.missed).
REDIS_CHANNEL_LAYER = env_str("REDIS_CHANNEL_LAYER") or "pubsub"
if REDIS_CHANNEL_LAYER not in ("pubsub", "lists"):
    raise ImproperlyConfigured("REDIS_CHANNEL_LAYER must be pubsub or lists")
# The "lists" layer waits for a message with a blocking read of 5 s (BZPOPMIN); a socket
# timeout at or under that cuts the read, and every idle websocket is closed with 1011 (redis-py
# 8 defaults to 5 s). So both sides of the socket are set here, the read timeout well above
# the blocking read, and a connection idle for 30 s is pinged before it is used again.
CHANNEL_LAYER_BLOCKING_READ_SECONDS = 5  # channels_redis.core.RedisChannelLayer.brpop_timeout
REDIS_SOCKET_TIMEOUT = env_int("REDIS_SOCKET_TIMEOUT", 15, minimum=1)
if REDIS_CHANNEL_LAYER == "lists" and REDIS_SOCKET_TIMEOUT <= CHANNEL_LAYER_BLOCKING_READ_SECONDS:
    raise ImproperlyConfigured(
        f"REDIS_SOCKET_TIMEOUT={REDIS_SOCKET_TIMEOUT} must be more than the channel layer's "
        f"{CHANNEL_LAYER_BLOCKING_READ_SECONDS} s blocking read, or idle websockets are closed"
    )
REDIS_OPTIONS = {
    "socket_timeout": REDIS_SOCKET_TIMEOUT,
    "socket_connect_timeout": 5,
    "socket_keepalive": True,
    "health_check_interval": 30,
    "retry_on_timeout": True,
}
REDIS_LAYERS = {
    "pubsub": "channels_redis.pubsub.RedisPubSubChannelLayer",
    "lists": "channels_redis.core.RedisChannelLayer",
}
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": REDIS_LAYERS[REDIS_CHANNEL_LAYER],
            "CONFIG": {"hosts": [{"address": REDIS_URL, **REDIS_OPTIONS}]},
        }
    }
    CELERY_BROKER_URL = REDIS_URL
    CELERY_BROKER_TRANSPORT_OPTIONS = {**REDIS_OPTIONS}
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CELERY_BROKER_URL = "memory://"
# The REST API's rate limits (api/throttling.py) are counted in the "throttles" cache: in Redis
# when there is one, so every daphne of the site counts against the one limit (several serve one
# port: rummysite/daphnes.py), its keys under THROTTLE_KEY_PREFIX; without Redis, in the
# process's memory (make run: one daphne). Reads and writes give up after a second.
THROTTLE_KEY_PREFIX = env_str("THROTTLE_KEY_PREFIX") or "rummy"
LOCAL_MEMORY_CACHE = "django.core.cache.backends.locmem.LocMemCache"
CACHES: dict[str, dict[str, Any]] = {
    "default": {"BACKEND": LOCAL_MEMORY_CACHE},
    "throttles": (
        {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": f"{THROTTLE_KEY_PREFIX}:throttle",
            "OPTIONS": {"socket_timeout": 1, "socket_connect_timeout": 1},
        }
        if REDIS_URL
        else {"BACKEND": LOCAL_MEMORY_CACHE, "LOCATION": "throttles"}
    ),
}
CELERY_TASK_ALWAYS_EAGER = False
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = TIME_ZONE
# Celery's Django fix-up would close the worker's database connection before and after every
# task: a new PostgreSQL backend for each tick, once a second, its statements prepared again.
# With this it closes it every 10,000 tasks only, and rummysite.celery hands it back to the
# process's pool before each task, as Django does after a request (the pool checks it).
CELERY_DB_REUSE_MAX = 10_000

# Game timers (deadlines, the sweep, bots): "celery" (beat sweeps the deadlines; needs
# a worker and beat, see `make run-prod`), "embedded" (an asyncio scheduler inside daphne) or
# "off" (nothing runs timers: for tests and one-off commands). See docs/PROTOCOL.md, "Timers".
GAME_TIMERS = env_str("GAME_TIMERS") or ("celery" if REDIS_URL else "embedded")
if GAME_TIMERS not in ("celery", "embedded", "off"):
    raise ImproperlyConfigured("GAME_TIMERS must be celery, embedded or off")
GAME_SWEEP_SECONDS = 1.0
"""How often the timers tick (Celery beat's ``games.tasks.tick``, the embedded scheduler's
round): overdue deadlines applied and bots nudged. A timeout lands at most about this long
after its time."""
LIVE_CHECK_SECONDS = 2.0
"""How often each server process reads the versions of the tables it has connections to, and
catches up a connection that missed a message (games.missed); 0 turns the check off."""
PAYOUT_SWEEP_SECONDS = 60.0
"""How often the payouts still to send are swept (wallet.payouts): from beat, or inside daphne."""
FAIRPLAY_SCAN_EVERY_SECONDS = float(env_int("FAIRPLAY_SCAN_EVERY_SECONDS", 6 * 3600, minimum=60))
"""How often fair play's detectors scan the tables' log (fairplay.tasks.scan): beat, or inside daphne."""
FAIRPLAY_SCAN_WINDOW_DAYS = env_int("FAIRPLAY_SCAN_WINDOW_DAYS", 7, minimum=1)
"""How far back each scan reads: a pair's figures need many deals together to mean anything."""
FAIRPLAY_THRESHOLDS: dict[str, float] = {}
"""Overrides of the detectors' thresholds by name (fairplay/thresholds.py holds the defaults)."""
CELERY_BEAT_SCHEDULE = {
    # One message a second for the deadlines and the bots alike (games.timers.tick). A tick still
    # queued when the next is sent is dropped, not run late: after a busy spell the worker runs
    # the newest, not a backlog of them.
    "timers-tick": {
        "task": "games.tasks.tick",
        "schedule": GAME_SWEEP_SECONDS,
        "options": {"expires": GAME_SWEEP_SECONDS},
    },
    "prune-action-receipts": {"task": "games.tasks.prune_receipts", "schedule": 3600.0},
    "purge-fairplay-signals": {"task": "fairplay.tasks.purge_signals", "schedule": 86_400.0},
    "reconcile-ledger": {"task": "wallet.tasks.reconcile_ledger", "schedule": 3600.0},
    "fairplay-scan": {"task": "fairplay.tasks.scan", "schedule": FAIRPLAY_SCAN_EVERY_SECONDS},
    "send-payouts": {
        "task": "wallet.tasks.send_payouts",
        "schedule": PAYOUT_SWEEP_SECONDS,
        "options": {"expires": PAYOUT_SWEEP_SECONDS},
    },
}
RECONCILE_EVERY_SECONDS = 3600.0
"""The ledger's reconciliation: hourly from beat, or at start-up and hourly inside daphne (embedded)."""
PAYOUT_RETRY_SECONDS = env_int("PAYOUT_RETRY_SECONDS", 300, minimum=30)
"""An approved withdrawal's payout not taken by the provider this long after it was last sent
(a failure, a process that died) is sent again, by the minute's sweep (wallet.payouts)."""
STUCK_TABLE_SECONDS = env_int("STUCK_TABLE_SECONDS", 600, minimum=30)
"""The back office's live tables: a playing table where no player has acted this long stands out as stuck."""

REST_FRAMEWORK: dict[str, Any] = {
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
# A load balancer probes /healthz over plain HTTP on the private network (docs/DEPLOY.md).
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
X_FRAME_OPTIONS = "DENY"

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


# --- Production serving (docs/DEPLOY.md) ---
if not DEBUG:  # with DEBUG=1 daphne serves the files from static/ as they are (rummysite.asgi)
    MIDDLEWARE.insert(
        MIDDLEWARE.index("django.middleware.security.SecurityMiddleware") + 1,
        "whitenoise.middleware.WhiteNoiseMiddleware",
    )

# Content-Security-Policy (django-csp): every script and style comes from our own static
# files; no inline script, no inline style, no other origin. Websockets are same-origin.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

# Logs: one JSON object a line on stderr (rummysite.logs): one line per request
# ("rummysite.request") and per table action ("games.actions"); never a card.
LOG_FORMAT = env_str("LOG_FORMAT") or "json"
if LOG_FORMAT not in ("json", "text"):
    raise ImproperlyConfigured("LOG_FORMAT must be json or text")
LOGGING: dict[str, Any] = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "json": {"()": "rummysite.logs.JsonFormatter"},
        "text": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"},
    },
    "filters": {"routine_ticks": {"()": "rummysite.logs.RoutineTicks"}},
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": LOG_FORMAT, "filters": ["routine_ticks"]}
    },
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL") or "INFO"},
    "loggers": {
        # The request line is ours (rummysite.request); Django's own would say it twice.
        "django.server": {"level": "WARNING"},
        "django.request": {"level": "ERROR"},
    },
}

# Errors to Sentry, only when SENTRY_DSN is set (nothing is sent anywhere otherwise).
SENTRY_DSN = env_str("SENTRY_DSN") or ""
if SENTRY_DSN:
    import sentry_sdk

    sentry_sdk.init(
        dsn=SENTRY_DSN,
        environment=env_str("SENTRY_ENVIRONMENT") or ("development" if DEBUG else "production"),
        send_default_pii=False,
        traces_sample_rate=0.0,
    )

# Heartbeats (rummysite.heartbeat): the Celery worker and beat each write one; /healthz
# answers 503 when one is older than this, in GAME_TIMERS=celery mode.
HEARTBEAT_STALE_SECONDS = env_int("HEARTBEAT_STALE_SECONDS", 30, minimum=5)
CELERY_BEAT_SCHEDULER = "rummysite.heartbeat:BeatScheduler"
# Redis away for a while: the worker and beat keep trying to reconnect, never give up and exit.
CELERY_BROKER_CONNECTION_RETRY = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = True
# The worker and beat log through LOGGING above (JSON lines), not Celery's own format.
CELERY_WORKER_HIJACK_ROOT_LOGGER = False


# --- Trust: payments, staff roles, login, input limits (docs/BACKOFFICE.md) ---
# The sandbox payment provider confirms its own deposits: play money. On only when asked,
# and by default only while DEBUG is on; every page then shows a "sandbox money" banner.
PAYMENTS_SANDBOX = env_bool("PAYMENTS_SANDBOX", DEBUG)
# The payment gateway (wallet.providers.get_provider); only the sandbox is built in.
WALLET_PAYMENT_PROVIDER = env_str("WALLET_PAYMENT_PROVIDER") or "sandbox"
TEMPLATES[0]["OPTIONS"]["context_processors"].append("wallet.context_processors.payments")
TEMPLATES[0]["OPTIONS"]["context_processors"].append("backoffice.context_processors.staff")
TEMPLATES[0]["OPTIONS"]["context_processors"].append("fairplay.context_processors.warning")
TEMPLATES[0]["OPTIONS"]["context_processors"].append("tournaments.context_processors.reminder")
# A withdrawal above this many paise needs a second staff member's approval (four eyes).
WALLET_SECOND_APPROVAL_OVER = env_int("WALLET_SECOND_APPROVAL_OVER", 10_000_00, minimum=0)
# PostgreSQL's fast posting path (wallet/sql.py); off, postings take the portable path SQLite
# takes. Both pass the same ledger tests; docs/PERFORMANCE.md ("The two posting paths") measures
# the difference.
WALLET_FAST_PATH = env_bool("WALLET_FAST_PATH", True)
# The hot paths' statements (a move, a posting, a deposit) run as server-side prepared statements
# on PostgreSQL (hotpath/statements.py); 0 behind a pooler that cannot keep them (pgbouncer in transaction
# mode before 1.21).
PREPARED_STATEMENTS = env_bool("PREPARED_STATEMENTS", True)
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

# E-mail: the links that set a new password and confirm an address (accounts.reset,
# accounts.confirmation), sent by the mail thread (accounts.mail). SMTP when EMAIL_HOST is set;
# else printed on the console with DEBUG on, and nothing sent with it off (`check --deploy`
# warns: production needs a mail server, docs/DEPLOY.md "E-mail").
EMAIL_HOST = env_str("EMAIL_HOST") or ""
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = env_int("EMAIL_PORT", 587, minimum=1, maximum=65535)
    EMAIL_HOST_USER = env_str("EMAIL_HOST_USER") or ""
    EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD") or ""
    if bool(EMAIL_HOST_USER) != bool(EMAIL_HOST_PASSWORD):
        raise ImproperlyConfigured("EMAIL_HOST_USER and EMAIL_HOST_PASSWORD are set together, or neither")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", EMAIL_PORT != 465)
    EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", EMAIL_PORT == 465)
    if EMAIL_USE_TLS and EMAIL_USE_SSL:
        raise ImproperlyConfigured(
            "EMAIL_USE_TLS (STARTTLS, port 587) and EMAIL_USE_SSL (port 465): one or the other"
        )
    EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 10, minimum=1)
    if not DEBUG and env_str("DEFAULT_FROM_EMAIL") is None:
        raise ImproperlyConfigured("DEFAULT_FROM_EMAIL must be set with EMAIL_HOST when DEBUG is off")
elif DEBUG:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
else:
    EMAIL_BACKEND = "django.core.mail.backends.dummy.EmailBackend"
DEFAULT_FROM_EMAIL = env_email("DEFAULT_FROM_EMAIL", "Rummy <noreply@localhost>")
# A link to set a new password works this long, once; the pages that mail links answer 429 past
# these counts in an hour, for one address or from one client, whether or not it has an account.
PASSWORD_RESET_TIMEOUT = 60 * env_int("PASSWORD_RESET_MINUTES", 60, minimum=5)
MAILS_PER_HOUR_PER_ADDRESS = env_int("MAILS_PER_HOUR_PER_ADDRESS", 3, minimum=1)
MAILS_PER_HOUR_PER_CLIENT = env_int("MAILS_PER_HOUR_PER_CLIENT", 10, minimum=1)

# Staff two-factor sign-in (django-otp, accounts/totp.py): with it on (default: DEBUG off),
# /admin/, /backoffice/ and /api/staff/ need a TOTP-verified session, and staff get an API
# token only with a current code.
INSTALLED_APPS += ["django_otp", "accounts.apps.AuthenticatorAppsConfig", "accounts.apps.RecoveryCodesConfig"]
MIDDLEWARE += ["django_otp.middleware.OTPMiddleware", "accounts.totp.StaffTOTPMiddleware"]
STAFF_TOTP_REQUIRED = env_bool("STAFF_TOTP_REQUIRED", not DEBUG)
OTP_TOTP_ISSUER = "Rummy"


# --- Player protection (docs/DEPLOY.md "Money play", docs/RULES.md section 12) ---
# Money play for the whole site: on by default only while DEBUG is on (the embedded demo plays
# sandbox money), off in production until the operator turns it on where it is legal.
MONEY_PLAY = env_bool("MONEY_PLAY", DEBUG)
# The regions money play is open in (ISO 3166-2 codes, "IN-KA", or a whole country, "GB");
# empty: every region. A player who has not declared a region ("ZZ") matches no list.
MONEY_REGIONS = env_list("MONEY_REGIONS", [])
# A raised (or removed) limit takes effect after this many hours; a lowered one at once.
LIMIT_COOLING_OFF_HOURS = env_int("LIMIT_COOLING_OFF_HOURS", 24, minimum=0)
# Reality checks: after this many minutes of money play the table shows the time and the net;
# a gap longer than SESSION_GAP_MINUTES starts a new session.
REALITY_CHECK_MINUTES = env_int("REALITY_CHECK_MINUTES", 60, minimum=1)
SESSION_GAP_MINUTES = env_int("SESSION_GAP_MINUTES", 15, minimum=1)
# Identity checks: the provider (the sandbox one works only with PAYMENTS_SANDBOX on).
KYC_PROVIDER = env_str("KYC_PROVIDER") or "sandbox"

# --- Fair play (docs/FAIRPLAY.md "Signals") ---
# The key of the keyed hashes (HMAC-SHA256) of identity documents and payment instruments; empty:
# derived from SECRET_KEY. Set it on its own in production: a new SECRET_KEY must not change
# every hash (then no document or instrument would match its earlier self).
FAIRPLAY_HASH_KEY = env_str("FAIRPLAY_HASH_KEY") or ""
# Signals (addresses, device ids, user agents, hashes) are kept this many days, then purged daily.
FAIRPLAY_SIGNAL_DAYS = env_int("FAIRPLAY_SIGNAL_DAYS", 180, minimum=1)
FAIRPLAY_PURGE_SECONDS = 86_400
# Tax withheld from net winnings at withdrawal: off by default. The rate in basis points
# (3000 = 30%), the threshold of net winnings in paise under which nothing is withheld, and the
# first month of the financial year (4: April to March).
TAX_WITHHOLDING = env_bool("TAX_WITHHOLDING", False)
TAX_RATE_BASIS_POINTS = env_int("TAX_RATE_BASIS_POINTS", 3000, minimum=0)
TAX_THRESHOLD = env_int("TAX_THRESHOLD", 0, minimum=0)
TAX_YEAR_FIRST_MONTH = env_int("TAX_YEAR_FIRST_MONTH", 4, minimum=1)
