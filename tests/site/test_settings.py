"""One environment-driven settings file; with DEBUG off the site refuses insecure settings."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STRONG_KEY = "k3y-" + "a1b2c3d4e5f6g7h8i9j0" * 3
SECURE = {"SECRET_KEY": STRONG_KEY, "ALLOWED_HOSTS": "onefinity.example"}
OURS = {"DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL", "TRUSTED_PROXIES"}


def environment(**env: str) -> dict[str, str]:
    """This process's environment without any of the site's settings, plus ``env``; nor
    the browser tests' DJANGO_ALLOW_ASYNC_UNSAFE (tests/browser/conftest.py sets it in every
    test process that collects them), which the deploy check rightly refuses."""
    clean = {
        k: v
        for k, v in os.environ.items()
        if k not in OURS
        and k != "DJANGO_ALLOW_ASYNC_UNSAFE"
        and not k.startswith(("EMAIL_", "ALLOW_CONSOLE_", "SECURE_"))
    }
    clean.update(env)
    return clean


def start_wsgi(**env: str) -> subprocess.CompletedProcess[str]:
    clean = environment(**env)
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
    result = start_wsgi(**SECURE, EMAIL_HOST="smtp.example")
    assert result.returncode == 0, result.stderr


def test_it_refuses_to_write_reset_links_to_the_console_when_debug_is_off():
    result = start_wsgi(**SECURE)
    assert result.returncode != 0
    assert "EMAIL_BACKEND is the console backend" in result.stderr
    assert "ALLOW_CONSOLE_EMAIL=1" in result.stderr


def test_the_console_backend_can_be_allowed_explicitly():
    result = start_wsgi(**SECURE, ALLOW_CONSOLE_EMAIL="1")
    assert result.returncode == 0, result.stderr


def setting(name: str, **env: str) -> str:
    return settings_of(name, **env)[name]


def settings_of(*names: str, **env: str) -> dict[str, str]:
    """The settings ``names`` as a fresh process with ``env`` makes them (each its repr), in
    one process: each start of Django costs a second or more on a busy machine."""
    script = (
        "import json; from django.conf import settings; "
        f"print(json.dumps({{n: repr(getattr(settings, n)) for n in {list(names)!r}}}))"
    )
    result = subprocess.run(
        [sys.executable, "-c", "import django; django.setup(); " + script],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=environment(DJANGO_SETTINGS_MODULE="config.settings", **env),
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_smtp_settings_come_from_the_environment():
    env = {
        "EMAIL_HOST": "smtp.example",
        "EMAIL_PORT": "2525",
        "EMAIL_HOST_USER": "postmaster",
        "EMAIL_HOST_PASSWORD": "s3cret",
        "EMAIL_USE_TLS": "0",
        "DEFAULT_FROM_EMAIL": "Onefinity <noreply@onefinity.example>",
    }
    names = ("EMAIL_BACKEND", "EMAIL_PORT", "EMAIL_HOST_USER", "EMAIL_HOST_PASSWORD")
    found = settings_of(*names, "EMAIL_USE_TLS", "DEFAULT_FROM_EMAIL", **env)
    assert found == {
        "EMAIL_BACKEND": "'django.core.mail.backends.smtp.EmailBackend'",
        "EMAIL_PORT": "2525",
        "EMAIL_HOST_USER": "'postmaster'",
        "EMAIL_HOST_PASSWORD": "'s3cret'",
        "EMAIL_USE_TLS": "False",
        "DEFAULT_FROM_EMAIL": "'Onefinity <noreply@onefinity.example>'",
    }
    plain = settings_of("EMAIL_TIMEOUT", "EMAIL_BACKEND")
    assert plain["EMAIL_TIMEOUT"] == "10"  # a request never waits for ever on SMTP
    assert plain["EMAIL_BACKEND"] == "'django.core.mail.backends.console.EmailBackend'"


def test_trusted_proxies_is_a_count_of_proxies():
    assert setting("TRUSTED_PROXIES") == "0"
    assert setting("TRUSTED_PROXIES", TRUSTED_PROXIES="1") == "1"
    result = start_wsgi(DEBUG="1", TRUSTED_PROXIES="-1")
    assert result.returncode != 0 and "TRUSTED_PROXIES must be 0 or more" in result.stderr


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


def deploy_check(**env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=environment(**env),
    )


def test_the_deploy_check_reports_insecure_settings():
    result = deploy_check()
    assert result.returncode != 0
    assert "onefinity.E001" in result.stderr


def test_the_deploy_check_reports_the_console_backend():
    refused = deploy_check(**SECURE)
    assert "onefinity.E001" in refused.stderr and "console backend" in refused.stderr
    allowed = deploy_check(**SECURE, ALLOW_CONSOLE_EMAIL="1")
    assert "onefinity.E001" not in allowed.stderr
    assert "onefinity.W001" in allowed.stderr and allowed.returncode != 0
    smtp = deploy_check(**SECURE, EMAIL_HOST="smtp.example")
    assert "onefinity.W001" not in smtp.stderr and "onefinity.E001" not in smtp.stderr


def test_the_deploy_check_asks_for_trusted_proxies_behind_a_proxy():
    behind = {**SECURE, "EMAIL_HOST": "smtp.example", "SECURE_PROXY_SSL_HEADER": "1"}
    assert "onefinity.W002" in deploy_check(**behind).stderr
    assert "onefinity.W002" not in deploy_check(**behind, TRUSTED_PROXIES="1").stderr


def readme_production_environment() -> dict[str, str]:
    """The variables of the README's production command (``... make serve``), as written."""
    readme = (ROOT / "README.md").read_text()
    block = re.search(r"```sh\n([^`]*?make serve)\n```", readme)
    assert block is not None, "the README's production command"
    words = shlex.split(block.group(1).replace("\\\n", " "))
    assert words[-2:] == ["make", "serve"]
    return dict(word.split("=", 1) for word in words[:-2])


def test_the_readmes_production_command_passes_the_deploy_check_as_make_serve_runs_it(
    tmp_path,
):
    env = readme_production_environment()
    assert env["SILENCED_SYSTEM_CHECKS"] == ""  # nothing silenced: every warning counts
    # make serve's own check, with its environment: the README's variables over the
    # Makefile's defaults. (It stopped at security.W005 and W021 until 2026-11-25.)
    result = subprocess.run(
        ["make", "--no-print-directory", "check-deploy"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=environment(**env, SECRET_KEY=STRONG_KEY),
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_without_the_hsts_promises_the_deploy_check_still_warns():
    env = readme_production_environment()
    for promise in ("SECURE_HSTS_INCLUDE_SUBDOMAINS", "SECURE_HSTS_PRELOAD"):
        result = deploy_check(**SECURE, **{**env, promise: "0"})
        assert result.returncode != 0
