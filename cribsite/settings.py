"""Settings, read from the environment (see README.md, "Configuration")."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

from cribsite.env import env_bool, env_int, env_list, env_origins, env_str, env_url
from cribsite.plugins import game_web_apps

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"
(VAR_DIR / "static").mkdir(parents=True, exist_ok=True)  # whitenoise wants STATIC_ROOT

DEBUG = env_bool("DEBUG", False)

SECRET_KEY = env_str("SECRET_KEY") or ""
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")
    SECRET_KEY = "django-insecure-development-only-key-do-not-use-in-production"  # noqa: S105
elif not DEBUG and (len(SECRET_KEY) < 32 or SECRET_KEY.startswith("django-insecure")):
    raise ImproperlyConfigured("SECRET_KEY is too weak: use 50 random characters")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_origins("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "channels",
    "django_htmx",
    "template_partials",
    "ninja",  # its bundled Swagger UI, served from our static files (the API docs)
    "axes",
    "accounts",
    "games",
    *game_web_apps(),  # each game's web folder, games/variants/<key>/
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Pages and fragments over 200 bytes go out gzipped to browsers that ask (a match page
    # about 11 KB -> 3.6 KB, at zlib's fastest level), each padded with random bytes against
    # BREACH-style guessing, as Django's GZipMiddleware does.
    "cribsite.compression.FastGZipMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.middleware.MemberLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "cribsite.security_policy.KeptPolicyMiddleware",  # django-csp's, its header built once
    "django_htmx.middleware.HtmxMiddleware",
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "cribsite.urls"
ASGI_APPLICATION = "cribsite.asgi.application"
WSGI_APPLICATION = None

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
            "builtins": [
                "django_htmx.templatetags.django_htmx",
                "template_partials.templatetags.partials",
                "cribsite.remembered_url",  # {% url %} with its answers kept
            ],
            "libraries": {
                "kept": "cribsite.kept",  # {% kept %}: a piece of a page drawn once and kept
            },
        },
    },
]

# Content-Security-Policy: scripts and everything else only from this site (no inline script,
# no eval; htmx runs with allowEval off). Inline style attributes stay allowed: the tables place
# cards and pegs with style="..." and htmx sets styles while swapping.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF, "'unsafe-inline'"],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

# Database: SQLite under var/ unless DATABASE_URL says otherwise.
DATABASE_URL = env_url("DATABASE_URL", {"sqlite", "postgres", "postgresql", "pgsql"})
if DATABASE_URL:
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL)}
else:
    DATABASES = {
        "default": {"ENGINE": "django.db.backends.sqlite3", "NAME": VAR_DIR / "db.sqlite3"}
    }
# Keep connections open between requests and socket events (a new PostgreSQL connection costs
# ~5 ms against ~0.07 ms a query), checked before reuse so a restarted database heals itself.
# DB_CONN_MAX_AGE=0 goes back to one connection per request/event.
DATABASES["default"]["CONN_MAX_AGE"] = env_int("DB_CONN_MAX_AGE", 600)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = env_bool("DB_CONN_HEALTH_CHECKS", True)
# Pages are served by a pool of this many threads per process, and the sockets read and write
# the database in a pool of SOCKET_DB_THREADS more (cribsite/threads.py), each thread keeping its
# own database connection. Few: they share one interpreter lock with the event loop that carries
# every socket, and each thread running Python at once makes the loop wait longer for it. Two
# daphnes on PostgreSQL + Redis with 500 matches: p95 from a move to the other seat's page 127-160
# ms with 2, 3 or 4 threads against 240-249 with 8 (tests/bench/NOTES.md, 3 December). A thread
# hashing a password (a sign-in, about 0.25 s) lets go of the lock but is held all the while.
HTTP_THREADS = env_int("HTTP_THREADS", 4, minimum=1)
SOCKET_DB_THREADS = env_int("SOCKET_DB_THREADS", 4, minimum=1)
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Django's backend, but a connection used in the last second is not health-checked again
    # before the next request or socket hop (cribsite/postgresql).
    DATABASES["default"]["ENGINE"] = "cribsite.postgresql"
if DATABASES["default"]["ENGINE"] == "cribsite.postgresql" and env_bool(
    "DB_PREPARED_STATEMENTS", True
):
    # PostgreSQL plans a statement each time it is sent as text: the match's read (its seats
    # joined to their members, the match, its creator) took 0.2-0.3 ms of the database's CPU
    # to plan and 0.05 ms to run. With the values sent apart from the SQL (server-side binding),
    # psycopg prepares a statement a connection has sent 5 times, and later runs skip planning.
    # DB_PREPARED_STATEMENTS=0 for a pooler that cannot keep them (PgBouncer in transaction
    # mode without max_prepared_statements).
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"server_side_binding": True, "prepare_threshold": 5}
    )
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # select_for_update is a no-op on SQLite: IMMEDIATE transactions take the write lock at
    # BEGIN, so concurrent writers queue instead of failing part-way through; a process's own
    # threads queue in Python first (cribsite/sqlite: SQLite's busy handler sleeps and retries).
    DATABASES["default"]["ENGINE"] = "cribsite.sqlite"
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Channels: in-memory for one process; Redis when several processes share the work.
REDIS_URL = env_url("REDIS_URL", {"redis", "rediss", "unix"})
# redis-py 8 reads with a 5 s timeout by default, and a quiet connection's reader then timed
# out (with channels-redis' list layer, whose blocking pop waits 5 s, sockets closed with 1011).
# Read timeouts well above that, TCP keepalive and a health check keep quiet connections alive.
REDIS_HOST = {
    "address": REDIS_URL,
    "socket_timeout": env_int("REDIS_SOCKET_TIMEOUT", 60, minimum=10),
    "socket_connect_timeout": env_int("REDIS_CONNECT_TIMEOUT", 5, minimum=1),
    "socket_keepalive": True,
    "health_check_interval": env_int("REDIS_HEALTH_CHECK_SECONDS", 30),
    # redis-py 8's pool holds 100 connections and then refuses rather than wait (a message
    # lost): a process publishes one message at a time, but keep room to spare.
    "max_connections": env_int("REDIS_MAX_CONNECTIONS", 1000, minimum=100),
    # how the site's connections show in Redis' CLIENT LIST
    "client_name": f"{env_str('REDIS_PREFIX', 'cribsite')}-channels",
}
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            # channels-redis' pub/sub layer (cribsite/layers.py): a group message is one PUBLISH,
            # heard once by each process with a socket in the group. Its list layer (core) costs
            # four round trips a message, and a blocking pop and a clean-up script for each
            # socket's copy: on two daphnes with 500 matches, 7.0-7.1 ms of CPU a move against
            # 8.2-8.4 (README, "Live play under load"). Redis keeps no message for a process cut
            # off from it: once back, the process closes its sockets with 1012 (cribsite/asgi.py)
            # and each page reconnects and is handed the board as it now stands.
            "BACKEND": "cribsite.layers.PubSubLayer",
            "CONFIG": {
                "hosts": [REDIS_HOST],
                "prefix": env_str("REDIS_PREFIX", "cribsite"),
            },
        }
    }
    CACHES = {
        "default": {
            # Django's RedisCache, its redis.Redis client kept instead of built for each call
            "BACKEND": "cribsite.redis_cache.KeptClientRedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": env_str("REDIS_PREFIX", "cribsite"),
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "cribsite.layers.InMemoryLayer"}}
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "OPTIONS": {"MAX_ENTRIES": env_int("CACHE_MAX_ENTRIES", 20000, minimum=300)},
        }
    }
# Template fragments every viewer of a board shares ({% cache ... using="fragments" %}): in this
# process's memory, wherever the default cache is, since a look-up must cost less than the drawing.
CACHES["fragments"] = {
    "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
    "LOCATION": "fragments",
    "OPTIONS": {"MAX_ENTRIES": env_int("FRAGMENT_CACHE_ENTRIES", 5000, minimum=300)},
}
# Sessions are read from the cache (this process's memory, or Redis where several processes
# share the work) and written through to the database: a page or a socket connect skips the
# session query, and a restart loses no one's log-in.
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"

# WebSocket messages compressed (permessage-deflate, offered by daphne's autobahn when the
# browser asks for it, as every current one does): a push of ~6 KB of HTML leaves as ~0.3 KB,
# since each repeats much of the one before. WS_COMPRESSION=0 sends them as they are.
WS_COMPRESSION = env_bool("WS_COMPRESSION", True)

AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # first: a locked-out member is refused before a hash
    "accounts.backends.MemberBackend",
    "django.contrib.auth.backends.ModelBackend",  # only for sessions begun before MemberBackend
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Log-in rate limit: after AXES_FAILURE_LIMIT failures for one username from one address the
# form is locked, and the lock lifts by itself after the cool-off.
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 5, minimum=1)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("AXES_COOLOFF_MINUTES", 15, minimum=1))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "accounts.views.locked_out"
AXES_VERBOSE = False
AXES_IPWARE_PROXY_COUNT = env_int("AXES_PROXY_COUNT", 0)

# Mail: printed to the terminal in development; SMTP from EMAIL_* otherwise.
EMAIL_BACKEND = env_str(
    "EMAIL_BACKEND",
    "django.core.mail.backends.console.EmailBackend"
    if DEBUG
    else "django.core.mail.backends.smtp.EmailBackend",
)
EMAIL_HOST = env_str("EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("EMAIL_PORT", 25)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Cribbage Club <club@localhost>")

# English and Spanish. The browser's preference picks one on a first visit; the switcher in the
# navigation sets a cookie and, for a member, the account's `language`, used on every device.
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("es", "Español")]
LOCALE_PATHS = [BASE_DIR / "cribsite" / "locale"]
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = env_str("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "cribsite.storage.ManifestStorage"
        if env_bool("STATIC_MANIFEST", not DEBUG)
        else "cribsite.storage.PlainStorage"
    },
}
WHITENOISE_USE_FINDERS = not env_bool("STATIC_MANIFEST", not DEBUG)

# HTTPS: on by default in production. HTTPS=0 serves plain HTTP (tests, a private network).
HTTPS = env_bool("HTTPS", not DEBUG)
SECURE_SSL_REDIRECT = HTTPS
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 60 * 60 * 24 * 365 if HTTPS else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", HTTPS)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
if env_bool("TRUST_X_FORWARDED_PROTO", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SESSION_COOKIE_AGE = 60 * 60 * 24 * 30
X_FRAME_OPTIONS = "DENY"

# Presence: members count as online while a page of theirs holds a socket open.
PRESENCE_STALE_SECONDS = env_int("PRESENCE_STALE_SECONDS", 120, minimum=10)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    "loggers": {"django.db.backends": {"level": "INFO"}},
}

# Matches: the computer player and members who leave the table.
COMPUTER_MODE = env_str("COMPUTER_MODE", "thread")
if COMPUTER_MODE not in {"thread", "inline"}:
    raise ImproperlyConfigured("COMPUTER_MODE must be 'thread' or 'inline'")
COMPUTER_DELAY_SECONDS = (
    env_int("COMPUTER_DELAY_MS", 700) / 1000,
    env_int("COMPUTER_DELAY_MAX_MS", 1400) / 1000,
)
COMPUTER_SWEEP_SECONDS = env_int("COMPUTER_SWEEP_SECONDS", 5, minimum=1)
MATCH_AWAY_SECONDS = env_int("MATCH_AWAY_SECONDS", 120, minimum=5)
