"""Django settings for Kartenrunde, read from the environment.

Safe defaults for the embedded case (`make run`: SQLite, DEBUG off, a secret key
generated on first use); the table "Settings from the environment" in docs/hosting.md
lists every variable of the hosted case (PostgreSQL through DATABASE_URL, HTTPS
behind a proxy).
"""

from __future__ import annotations

import hashlib
import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from companion import env

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env.flag("DJANGO_DEBUG")

# Only `make dev` and other DEBUG runs may use this key; a server refuses it.
DEVELOPMENT_SECRET_KEY = "dev-only-insecure-key-kartenrunde-change-me-in-production"
SECRET_KEY_FILE = Path(os.environ.get("DJANGO_SECRET_KEY_FILE") or BASE_DIR / ".secret_key")
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY") or (
    DEVELOPMENT_SECRET_KEY if DEBUG else env.secret_key_from_file(SECRET_KEY_FILE)
)
if not DEBUG and SECRET_KEY == DEVELOPMENT_SECRET_KEY:
    raise ImproperlyConfigured(
        "DEBUG is off but the secret key is the built-in development key: unset "
        "DJANGO_SECRET_KEY to have a key generated, or set a random one of 50 characters."
    )

ALLOWED_HOSTS = env.as_list("DJANGO_ALLOWED_HOSTS", ("127.0.0.1", "localhost", "[::1]"))
CSRF_TRUSTED_ORIGINS = env.as_list("DJANGO_CSRF_TRUSTED_ORIGINS")
# A refused form gets our page in the user's language, not Django's English one.
CSRF_FAILURE_VIEW = "companion.views.core.csrf_failure"
# Set by `manage.py serve` (`make run`): the machine's URLs on the local network,
# which invite links and QR codes use instead of 127.0.0.1 (companion/sharing.py).
LAN_URLS = env.as_list("KARTENRUNDE_LAN_URLS")

# Behind a proxy that terminates TLS and sets X-Forwarded-Proto (see docs/hosting.md, "Host it").
if env.flag("DJANGO_HTTPS"):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = 365 * 24 * 3600
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
else:
    # On plain HTTP (the table's LAN) browsers ignore Cross-Origin-Opener-Policy and
    # log a warning on every page; send it only where it takes effect.
    SECURE_CROSS_ORIGIN_OPENER_POLICY = None

INSTALLED_APPS = [
    "companion",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",  # ordinals as the language writes them: "1st" / "1."
    "django_htmx",
    "crispy_forms",
    "crispy_bootstrap5",
    "template_partials",
    "axes",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Static files answered first, precompressed (Brotli/gzip) and cached for a year.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Pages compressed too (with Django's BREACH mitigation); before anything that edits the body.
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    # A NUL character in the path, query or form data never reaches a view (nor PostgreSQL).
    "companion.middleware.RefuseNulMiddleware",
    # A button's address opened as a page: a page that says so, not a blank 405.
    "companion.middleware.NotAllowedPageMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # A write that waited too long for SQLite's lock: 503 "nothing was saved", not a 500.
    "companion.middleware.DatabaseBusyMiddleware",
    # Last: turns a refused login (companion/logins.py) into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "companion.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        # Each game's folder brings its templates (companion/games/<game>/templates/games/<game>/).
        "DIRS": [BASE_DIR / "templates",
                 *sorted((BASE_DIR / "companion" / "games").glob("*/templates"))],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "companion.wsgi.application"
ASGI_APPLICATION = "companion.asgi.application"


# DATABASE_URL (postgres://user:password@host:port/name) or SQLite in the project
# folder. On PostgreSQL a request takes a connection from a pool of DB_POOL_SIZE per
# process (psycopg_pool; each process adds one connection that listens for changes,
# companion/waiting.py) and gives it back at its end. On SQLite each of the server's
# threads keeps its connection for a minute. Connections are checked before reuse, so a
# restarted database server costs one failed check, not a failed request.
DATABASES = {
    "default": dj_database_url.config(
        default="sqlite:///" + os.environ.get("SQLITE_PATH", str(BASE_DIR / "db.sqlite3")),
        conn_max_age=60,
        conn_health_checks=True,
    )
}
DB_POOL_SIZE = env.count("DB_POOL_SIZE", default=8, maximum=100)
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"]["CONN_MAX_AGE"] = 0  # the pool keeps them
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        # A request waits up to `timeout` seconds for a free connection, then fails (503
        # is better than a pile of waiting threads).
        # (A connection broken by a restarted database is found before it is handed
        # out: Django gives the pool its check, CONN_HEALTH_CHECKS above.)
        "min_size": 1, "max_size": DB_POOL_SIZE, "timeout": 10,
    }

# SQLite with several phones writing at once: WAL lets readers go on while one
# writer writes; every transaction takes the write lock when it begins
# (IMMEDIATE), so a second writer waits up to `timeout` seconds in line instead
# of failing with "database is locked" when it upgrades a read to a write.
SQLITE_ENGINE = "companion.sqlite"
SQLITE_OPTIONS = {
    "transaction_mode": "IMMEDIATE",
    "timeout": 20,
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Django's backend, with each process's transactions in line for the write lock
    # (companion/sqlite/base.py).
    DATABASES["default"]["ENGINE"] = SQLITE_ENGINE
    DATABASES["default"]["OPTIONS"] = {
        **SQLITE_OPTIONS, **DATABASES["default"].get("OPTIONS", {}),
    }

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Login throttling (django-axes, companion/logins.py): 10 wrong passwords for one
# user name from one address pause that pair for 15 minutes, on our login page
# and the admin's; 30 from one address, whatever the names, pause that address
# (before any password is hashed). Failures are counted in the database, shared by
# all processes.
AUTHENTICATION_BACKENDS = [
    "companion.logins.LoginThrottleBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = 10
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_DISABLE_ACCESS_LOG = True  # failures only: no record of every successful login
AXES_LOCKOUT_CALLABLE = "companion.logins.lockout_response"
LOGIN_THROTTLE_ADDRESS_LIMIT = 30
AXES_CLIENT_IP_CALLABLE = "companion.logins.client_ip"
# How many reverse proxies in front of the app add their entry to X-Forwarded-For: the
# client's address is the entry that many places from the right (1: the one the proxy
# added). 0 (the default): REMOTE_ADDR, whatever headers the client sends. Count only
# proxies every request passes: the app server must not be reachable around them.
TRUSTED_PROXIES = env.count("DJANGO_TRUSTED_PROXIES")
# New accounts per client address (companion.signups): at most 10 an hour, then HTTP 429.
SIGNUP_THROTTLE_LIMIT = 10
SIGNUP_THROTTLE_WINDOW = 3600

LANGUAGE_CODE = "de"
LANGUAGES = [("de", _("German")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Europe/Berlin"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("DJANGO_STATIC_ROOT") or BASE_DIR / "staticfiles")
# collectstatic writes each file under a name with its content hash plus .br and
# .gz copies; WhiteNoise serves those with "Cache-Control: immutable" for a year.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}


def _renders_folder() -> str:
    """Where the server's processes share their rendered sheets: beside the SQLite file
    (as SQLite's own -wal and -shm files), else in the project
    folder, named after the database."""
    database = DATABASES["default"]
    name = str(database.get("NAME") or "")
    if database["ENGINE"] == SQLITE_ENGINE and name and ":memory:" not in name \
            and not name.startswith("file:"):
        return f"{name}-renders"
    digest = hashlib.sha256(repr([database.get(part) for part in (
        "ENGINE", "NAME", "HOST", "PORT")]).encode()).hexdigest()[:16]
    return str(BASE_DIR / "tmp" / f"renders-{digest}")


# One cache for every app process (on every machine): the database's cache table,
# made by `manage.py createcachetable` (`make run` and CI run it; the test
# database gets it by itself).
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.db.DatabaseCache",
        "LOCATION": "kartenrunde_cache",
        "TIMEOUT": 7 * 24 * 3600,
        "OPTIONS": {"MAX_ENTRIES": 5000},
    },
    # Rendered rows of score sheets ({% cache %} in templates/companion/sheet/_deal_table.html),
    # in each process's memory: kept under everything a row shows, so never stale; at most
    # 20,000 rows (about 1.5 kB each).
    "fragments": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "kartenrunde-fragments",
        "TIMEOUT": 3600,
        "OPTIONS": {"MAX_ENTRIES": 20000},
    },
    # The sheets polls get, rendered once for all the server's processes
    # (companion/shared_renders.py), and the steps and answers they share: files in a
    # folder of their own per database (not in the machine's shared /tmp: the files are
    # read back as pickles, and only the app's own user may write there). Django's file
    # cache, but a text stays its 30 s, and the folder is listed once a second, not at
    # every write (companion/shared_cache.py). At 1,000 phones saving every 5 s about
    # 6,000 texts are kept; MAX_ENTRIES bounds a burst.
    "renders": {
        "BACKEND": "companion.shared_cache.SharedFileCache",
        "LOCATION": os.environ.get("KARTENRUNDE_RENDERS_DIR") or _renders_folder(),
        "TIMEOUT": 30,
        "OPTIONS": {"MAX_ENTRIES": 10000},
    },
}

# Errors go to stderr, which gunicorn and any process manager keep: one line per
# refused request (4xx), the traceback below the line of a failed one (5xx).
# With DJANGO_ADMINS set, failed requests are mailed there as well.
ADMINS = env.admins("DJANGO_ADMINS")
SERVER_EMAIL = os.environ.get("DJANGO_SERVER_EMAIL", "root@localhost")
EMAIL_HOST = os.environ.get("DJANGO_EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("DJANGO_EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("DJANGO_EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("DJANGO_EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env.flag("DJANGO_EMAIL_USE_TLS")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "line": {"format": "{asctime} {levelname} {name}: {message}", "style": "{"},
    },
    "filters": {
        "one_line_for_refusals": {"()": "companion.logs.OneLineForRefusals"},
        "require_debug_false": {"()": "django.utils.log.RequireDebugFalse"},
    },
    "handlers": {
        "stderr": {
            "class": "logging.StreamHandler",
            "formatter": "line",
            "filters": ["one_line_for_refusals"],
        },
        "mail_admins": {
            "class": "django.utils.log.AdminEmailHandler",
            "level": "ERROR",
            "filters": ["require_debug_false"],
        },
    },
    "root": {"handlers": ["stderr"], "level": "WARNING"},
    "loggers": {
        # Replaces Django's own handlers (console in DEBUG only): records go up to root.
        "django": {"handlers": [], "level": "INFO" if DEBUG else "WARNING"},
        "django.request": {"handlers": ["mail_admins"], "level": "WARNING"},
        # companion/load_report.py's lines, when asked for (KARTENRUNDE_LOAD_REPORT).
        "companion.load": {"level": "INFO"},
    },
}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

CRISPY_ALLOWED_TEMPLATE_PACKS = "bootstrap5"
CRISPY_TEMPLATE_PACK = "bootstrap5"

# Sessions: Django's default database engine (shared by every process; logging out
# deletes the row). Messages ("Deal 3 saved.") travel in a signed cookie, not in the
# session: a change, once stored, is answered without another database write that could
# wait for the lock and fail the request (issue 21).
MESSAGE_STORAGE = "django.contrib.messages.storage.cookie.CookieStorage"
# Message levels → Bootstrap alert colours, for django.contrib.messages and the sheet's
# notices alike (companion.notices): one place.
MESSAGE_TAGS = {10: "secondary", 20: "info", 25: "success", 30: "warning", 40: "danger"}
