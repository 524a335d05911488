"""One environment-driven settings file; with DEBUG off the site refuses insecure settings."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STRONG_KEY = "k3y-" + "a1b2c3d4e5f6g7h8i9j0" * 3


def start_wsgi(**env: str) -> subprocess.CompletedProcess[str]:
    clean = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL"}
    }
    clean.update(env)
    return subprocess.run(
        [sys.executable, "-c", "import config.wsgi"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=clean,
        timeout=60,
    )


def test_it_refuses_to_serve_without_a_secret_key_when_debug_is_off():
    result = start_wsgi(ALLOWED_HOSTS="onefinity.example")
    assert result.returncode != 0
    assert "Refusing to start with DEBUG off" in result.stderr
    assert "SECRET_KEY is not set" in result.stderr


def test_it_refuses_a_weak_key_and_missing_hosts():
    result = start_wsgi(SECRET_KEY="short")
    assert result.returncode != 0
    assert "SECRET_KEY is too weak" in result.stderr
    assert "ALLOWED_HOSTS is empty" in result.stderr


def test_it_refuses_a_wildcard_host():
    result = start_wsgi(SECRET_KEY=STRONG_KEY, ALLOWED_HOSTS="*")
    assert "ALLOWED_HOSTS contains '*'" in result.stderr


def test_it_starts_with_a_secure_configuration():
    result = start_wsgi(SECRET_KEY=STRONG_KEY, ALLOWED_HOSTS="onefinity.example")
    assert result.returncode == 0, result.stderr


def test_it_starts_for_local_development_with_debug_on():
    assert start_wsgi(DEBUG="1").returncode == 0


def test_a_nonsense_debug_value_is_refused_clearly():
    result = start_wsgi(DEBUG="maybe")
    assert result.returncode != 0 and "DEBUG must be 1 or 0" in result.stderr


def test_database_url_selects_postgresql():
    script = (
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE']='config.settings';"
        "from django.conf import settings; print(settings.DATABASES['default']['ENGINE'], settings.DATABASES['default']['NAME'])"
    )
    clean = dict(os.environ, DATABASE_URL="postgres://u:p@db.example:5432/onefinity")
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, env=clean
    )
    assert result.stdout.split() == ["django.db.backends.postgresql", "onefinity"]


def test_the_deploy_check_reports_insecure_settings():
    clean = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "SECRET_KEY"}}
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=clean,
    )
    assert result.returncode != 0
    assert "onefinity.E001" in result.stderr
