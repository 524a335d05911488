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
    return problems


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
    return [checks.Error(problem, id="onefinity.E001") for problem in insecure_settings()]
