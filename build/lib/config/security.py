"""Refuse to serve the site, with DEBUG off, on a configuration that is not safe.

Called when the WSGI application is built (``runserver``, gunicorn, any WSGI host),
and registered as a deploy check for ``manage.py check --deploy``.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core import checks
from django.core.exceptions import ImproperlyConfigured

MIN_SECRET_KEY_LENGTH = 50
CONSOLE_EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"


def insecure_settings() -> list[str]:
    """What is unsafe about the current settings for serving with DEBUG off."""
    if settings.DEBUG:
        return []
    problems = []
    key = settings.SECRET_KEY
    if key == settings.DEVELOPMENT_SECRET_KEY or key.startswith("django-insecure"):
        problems.append("SECRET_KEY is not set (the development key is in use)")
    elif len(key) < MIN_SECRET_KEY_LENGTH or len(set(key)) < 5:
        problems.append(
            f"SECRET_KEY is too weak: use at least {MIN_SECRET_KEY_LENGTH} random characters"
        )
    if not settings.ALLOWED_HOSTS:
        problems.append("ALLOWED_HOSTS is empty: list the host names the site answers to")
    elif "*" in settings.ALLOWED_HOSTS:
        problems.append("ALLOWED_HOSTS contains '*': list the host names the site answers to")
    if sends_mail_to_the_console() and not settings.ALLOW_CONSOLE_EMAIL:
        problems.append(
            "EMAIL_BACKEND is the console backend, which writes password-reset links into the "
            "server's log: set EMAIL_HOST (and EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, "
            "DEFAULT_FROM_EMAIL) to send them by SMTP, or ALLOW_CONSOLE_EMAIL=1 where only you "
            "read that log"
        )
    return problems


def sends_mail_to_the_console() -> bool:
    return settings.EMAIL_BACKEND == CONSOLE_EMAIL_BACKEND


def ensure_secure_configuration() -> None:
    problems = insecure_settings()
    if problems:
        raise ImproperlyConfigured(
            "Refusing to start with DEBUG off on an insecure configuration: "
            + "; ".join(problems)
            + ". Set them in the environment, or set DEBUG=1 for local development."
        )


@checks.register(checks.Tags.security, deploy=True)
def check_secure_configuration(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    found: list[checks.CheckMessage] = [
        checks.Error(problem, id="onefinity.E001") for problem in insecure_settings()
    ]
    if not settings.DEBUG and sends_mail_to_the_console() and settings.ALLOW_CONSOLE_EMAIL:
        found.append(
            checks.Warning(
                "Password-reset e-mails go to the server's log (the console backend, allowed by "
                "ALLOW_CONSOLE_EMAIL). Fine on your own machine; in production set EMAIL_HOST.",
                id="onefinity.W001",
            )
        )
    if settings.SECURE_PROXY_SSL_HEADER and not settings.TRUSTED_PROXIES:
        found.append(
            checks.Warning(
                "A proxy is in front (SECURE_PROXY_SSL_HEADER) but TRUSTED_PROXIES is 0: every "
                "client shares the proxy's address, so one person's failed logins lock out "
                "everyone's. Set TRUSTED_PROXIES to the number of proxies in front.",
                id="onefinity.W002",
            )
        )
    return found
