"""Settings for the Onefinity site, all from the environment.

SQLite by default; PostgreSQL (or any database) through ``DATABASE_URL``.
With DEBUG off the site refuses to serve on an insecure configuration: see
``config.security``. Management commands (``validate_force`` and friends) still run,
so the rules engine's tools work without any configuration.
"""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent
# The site's own templates and static files live in this package (config/templates,
# config/static), so that a wheel built from the repository ships them and serves every page.
SITE_DIR = Path(__file__).resolve().parent

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    if value.strip().lower() in _TRUE:
        return True
    if value.strip().lower() in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name} must be 1 or 0 (true/false, yes/no), not {value!r}")


def env_int(name: str, default: int, minimum: int | None = None) -> int:
    value = os.environ.get(name)
    if value is None or not value.strip():
        return default
    try:
        number = int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, not {value!r}") from None
    if minimum is not None and number < minimum:
        raise ImproperlyConfigured(f"{name} must be {minimum} or more, not {number}")
    return number


def env_list(name: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, "").split(",") if item.strip()]


DEBUG = env_bool("DEBUG", False)

# Only for local development: config.security refuses to serve with it when DEBUG is off.
DEVELOPMENT_SECRET_KEY = "django-insecure-onefinity-local-development-key-do-not-deploy"
SECRET_KEY = os.environ.get("SECRET_KEY") or DEVELOPMENT_SECRET_KEY

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS")
if DEBUG and not ALLOWED_HOSTS:
    ALLOWED_HOSTS = ["localhost", "127.0.0.1", "[::1]"]
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    # Django's Tasks API (built into Django 6.0; the django-tasks backport on 5.2) with the
    # database as its queue (django-tasks-db): see TASKS below.
    "django_tasks",
    "django_tasks_db",
    "onefinity",
    "accounts",
    "jobs",
    "forcebuilder",
    "tablegen",
    "events",
    "games",
    "config",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "config.middleware.limit_request_body",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "config.middleware.security_headers",
    "accounts.middleware.OwnershipMiddleware",
    # Last: its 400 page has the session, the user and the security headers.
    "config.middleware.readable_form",
]

# Django's database sessions, read with one plain SELECT (config/sessions.py).
SESSION_ENGINE = "config.sessions"

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [SITE_DIR / "templates"],
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

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        # Keep connections between requests: opening one per request doubled PostgreSQL's
        # latency under load (docs/performance.md). Health checks drop broken ones.
        conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 60),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several server processes write to one SQLite file: WAL lets readers go on while one
    # writes, IMMEDIATE transactions take the write lock up front (no deadlock upgrades),
    # and writers wait for the lock instead of failing at once: in turn (config.sqlite: the
    # next writer is woken the moment the last one is done, where SQLite's busy handler
    # sleeps up to 100 ms between tries, which was most of the editor's p95 under load).
    DATABASES["default"]["ENGINE"] = "config.sqlite"
    # The tests' database in memory, as Django's own SQLite engine has it by default (tools
    # that know that engine by name, pytest-django's, see ours as another).
    DATABASES["default"]["TEST"] = {"NAME": ":memory:"}
    DATABASES["default"]["OPTIONS"] = {
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Each server process keeps printed PDFs of recent list versions (bounded in number), so a
# second download of the same version costs nothing. Nothing in it is needed by another
# server: a miss only renders the PDF again.
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "OPTIONS": {"MAX_ENTRIES": 200},
    }
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
# The site is in English only: Django's translation machinery off, as its documentation
# offers "for performance". Its en-GB catalogue only differs from Django's own English by
# context markers, so every page reads the same, dates and numbers still formatted as en-GB
# (LANGUAGE_CODE); without it a page's numbers and addresses no longer look up the active
# language in a context-local each time (about a tenth of the mixed load's CPU per request:
# docs/performance.md, "Twice the load").
USE_I18N = False
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [SITE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
# In production (`make serve`) static files are collected with hashed names and served,
# compressed, by WhiteNoise: nothing a second app server would miss lives outside the
# release. Without STATIC_MANIFEST (development, tests) they are served from the source.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if env_bool("STATIC_MANIFEST", False)
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
# Without collected files (development, tests) WhiteNoise serves from the source folders.
WHITENOISE_USE_FINDERS = not env_bool("STATIC_MANIFEST", False)
SILENCED_SYSTEM_CHECKS = env_list("SILENCED_SYSTEM_CHECKS")

# E-mail (password-reset links): SMTP once EMAIL_HOST is set. Without it the console backend
# prints mails to the server's output, which with DEBUG off config.security refuses unless
# ALLOW_CONSOLE_EMAIL says so: reset links in a server log let whoever reads it take accounts.
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND") or (
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend"
)
EMAIL_PORT = env_int("EMAIL_PORT", 587)
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
if EMAIL_USE_SSL:
    EMAIL_USE_TLS = False  # Django accepts only one of the two; SSL (port 465) was asked for
# A request waits on the SMTP server while it sends: never for ever.
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 10)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "onefinity@localhost")
ALLOW_CONSOLE_EMAIL = env_bool("ALLOW_CONSOLE_EMAIL", False)

# Security headers and cookies. Cookies are secure by default once DEBUG is off;
# HTTPS redirect and HSTS are opt-in because they depend on the proxy in front.
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", not DEBUG)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", False)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0)
# Whether HSTS covers every subdomain, and asks to be on the browsers' preload list: the
# owner of the domain decides (its other subdomains must all serve HTTPS). The deploy check
# warns until both are set (security.W005, W021); the README's production command sets both.
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
if env_bool("SECURE_PROXY_SSL_HEADER", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    # WeasyPrint and fontTools narrate every PDF at INFO.
    "loggers": {name: {"level": "WARNING"} for name in ("weasyprint", "fontTools")},
}

# Heavy work goes to a task worker (`manage.py run_jobs`, started by `make run` and `make
# serve`) through Django's Tasks API. The queue is the database itself, so set-up stays two
# commands and any number of workers share it; the code uses the Tasks API only, so another
# backend (RQ, Celery) is a setting away. TASK_BACKEND=immediate runs each job inside the
# request that asks for it (the unit tests do).
TASK_BACKEND = os.environ.get("TASK_BACKEND", "database")
if TASK_BACKEND not in ("database", "immediate"):
    raise ImproperlyConfigured(f"TASK_BACKEND must be database or immediate, not {TASK_BACKEND!r}")
TASKS = {
    "default": {
        "BACKEND": "django_tasks_db.DatabaseBackend"
        if TASK_BACKEND == "database"
        else "django_tasks.backends.immediate.ImmediateBackend",
        "QUEUES": ["default"],
    }
}
# Jobs waiting or running at once, per owner and per client address (jobs.running).
JOBS_ACTIVE_PER_OWNER = env_int("JOBS_ACTIVE_PER_OWNER", 4, minimum=1)
JOBS_ACTIVE_PER_ADDRESS = env_int("JOBS_ACTIVE_PER_ADDRESS", 12, minimum=1)
# A running job whose heartbeat (a thread of the run's own, every sixth of this) has been
# silent for this long lost its worker and is queued again by any worker's sweep. A worker
# started again under its id (deploy/serve.py's supervisor) takes its lost job up at once.
JOB_LOST_SECONDS = env_int("JOB_LOST_SECONDS", 30, minimum=1)
# How long the task queue's records of finished runs are kept (jobs.queue_records.prune).
TASK_RESULTS_KEEP_HOURS = env_int("TASK_RESULTS_KEEP_HOURS", 24, minimum=0)
# How long a table's generation is tried inside the request before the worker goes on with
# it, in milliseconds (a table usually takes 30 to 300 ms; 0 sends every search that does
# not find its table at the first candidate to the worker).
GENERATE_REQUEST_MS = env_int("GENERATE_REQUEST_MS", 1000, minimum=0)
# Bytes of finished jobs' files kept per owner; past it the oldest files go first. Above
# ACCOUNT_STORAGE_BYTES: an account's export (its documents, without their undo history)
# always fits.
JOB_FILES_BYTES_PER_OWNER = env_int("JOB_FILES_BYTES_PER_OWNER", 150_000_000, minimum=1)
# What one owner stores in all (documents, their undo history, packs, events, jobs' files):
# accounts.storage.
ACCOUNT_STORAGE_BYTES = env_int("ACCOUNT_STORAGE_BYTES", 100_000_000, minimum=1)
BROWSER_STORAGE_BYTES = env_int("BROWSER_STORAGE_BYTES", 20_000_000, minimum=1)

LOGIN_URL = "login"
# Limits on password guesses and reset e-mails (accounts.attempts); times in seconds.
# Failures on one account name, from any address, before each guess has to wait; the waits
# double from one minute up to LOGIN_BACKOFF_MAX.
LOGIN_FAILURES_PER_ACCOUNT = env_int("LOGIN_FAILURES_PER_ACCOUNT", 5, minimum=0)
LOGIN_BACKOFF_MAX = env_int("LOGIN_BACKOFF_MAX", 60 * 60, minimum=1)
# Failures from one client address, on any account names, in LOGIN_FAILURE_WINDOW.
LOGIN_FAILURES_PER_ADDRESS = env_int("LOGIN_FAILURES_PER_ADDRESS", 30, minimum=1)
LOGIN_FAILURE_WINDOW = env_int("LOGIN_FAILURE_WINDOW", 15 * 60, minimum=1)
PASSWORD_RESETS_PER_EMAIL = env_int("PASSWORD_RESETS_PER_EMAIL", 3, minimum=1)
PASSWORD_RESETS_PER_ADDRESS = env_int("PASSWORD_RESETS_PER_ADDRESS", 10, minimum=1)
PASSWORD_RESET_WINDOW = env_int("PASSWORD_RESET_WINDOW", 60 * 60, minimum=1)
# Accounts made from one client address in SIGNUP_WINDOW: every account has its own quotas,
# so sign-ups without limit would multiply them. Twenty an hour leaves room for a club's
# players signing up on a venue's Wi-Fi before an event.
SIGNUPS_PER_ADDRESS = env_int("SIGNUPS_PER_ADDRESS", 20, minimum=1)
SIGNUP_WINDOW = env_int("SIGNUP_WINDOW", 60 * 60, minimum=1)
# Fresh heavy work (a printout rendered anew, a job queued) per visitor and per client
# address in FRESH_WORK_WINDOW; what is already made is free (accounts.attempts.fresh_work).
FRESH_WORK_PER_VISITOR = env_int("FRESH_WORK_PER_VISITOR", 40, minimum=1)
FRESH_WORK_PER_ADDRESS = env_int("FRESH_WORK_PER_ADDRESS", 120, minimum=1)
FRESH_WORK_WINDOW = env_int("FRESH_WORK_WINDOW", 10 * 60, minimum=1)
# How many reverse proxies stand in front of the site, each appending the address it saw
# to X-Forwarded-For: the client's address is then the entry that many from the right.
# 0 (the default) uses the connection's own address and never reads the header, which
# anyone can send.
TRUSTED_PROXIES = env_int("TRUSTED_PROXIES", 0, minimum=0)
# Uploads and pasted documents: far above any force or table document, far below harm.
# A request body above MAX_REQUEST_BYTES is refused (413) before it is read; form fields
# are bounded by DATA_UPLOAD_MAX_MEMORY_SIZE, uploaded files by MAX_UPLOAD_BYTES and kept
# in memory (never spooled to disk) by the bounded upload handler.
MAX_UPLOAD_BYTES = 5_000_000
MAX_REQUEST_BYTES = MAX_UPLOAD_BYTES + 100_000
DATA_UPLOAD_MAX_MEMORY_SIZE = 1_000_000
FILE_UPLOAD_MAX_MEMORY_SIZE = MAX_UPLOAD_BYTES
# An account file sent to be imported may be as large as the export of an account at its
# storage bound (about 134 MB at 100 MB stored: the file's JSON is indented): twice the
# bound. It is the one upload written to a temporary file (config.uploads), and its path
# the one with a larger body (config.uploads.upload_limit, deploy/nginx.conf).
ACCOUNT_IMPORT_BYTES = env_int("ACCOUNT_IMPORT_BYTES", 2 * ACCOUNT_STORAGE_BYTES, minimum=1)
# A file up to this size, and of at most 500 records, is imported inside the request; a
# larger one by the task worker (jobs.imports).
IMPORT_REQUEST_BYTES = env_int("IMPORT_REQUEST_BYTES", MAX_UPLOAD_BYTES, minimum=0)
FILE_UPLOAD_HANDLERS = [
    "config.uploads.BoundedMemoryUploadHandler",
    "config.uploads.LargeUploadHandler",
]
DATA_UPLOAD_MAX_NUMBER_FIELDS = 2_000
LOGIN_REDIRECT_URL = "forcebuilder:list"
LOGOUT_REDIRECT_URL = "onefinity:home"
