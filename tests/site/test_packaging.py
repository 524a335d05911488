"""A non-editable install ships every app and serves the site: the wheel holds each Django
app of the project with its migrations and data (the package list once left `accounts` out),
and the site's templates and static files (config/templates, config/static); installed into
a fresh virtual environment, away from the repository, it migrates, collects its static
files and answers every page that takes no argument, signed in and out."""

from __future__ import annotations

import http.cookiejar
import os
import re
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.jobs.stack import free_port

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("wheel")
    # Built from a copy of the tracked files: setuptools' build/ folder keeps modules a
    # checkout has since deleted, and would ship them.
    source = folder / "source"
    tracked = (
        subprocess.run(
            ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True, timeout=60
        )
        .stdout.decode()
        .split("\0")
    )
    for name in filter(None, tracked):
        if (ROOT / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    result = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(folder), "."],
        cwd=source,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    (built,) = folder.glob("onefinity_site-*.whl")
    return built


def test_the_wheel_holds_every_app_with_its_migrations_data_templates_and_static(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    apps = sorted(path.parent.name for path in ROOT.glob("*/apps.py"))
    assert {"accounts", "events", "forcebuilder", "jobs", "onefinity", "tablegen"} <= set(apps)
    for app in apps:
        assert f"{app}/apps.py" in names, app
        migrations = sorted(
            p.relative_to(ROOT).as_posix() for p in ROOT.glob(f"{app}/migrations/0*.py")
        )
        assert set(migrations) <= names, app
    assert any(name.startswith("onefinity/data/rulesets/") for name in names)
    assert any(name.startswith("tablegen/data/") for name in names)
    for folder in ("templates", "static"):
        shipped = {
            p.relative_to(ROOT).as_posix()
            for p in (ROOT / "config" / folder).rglob("*")
            if p.is_file()
        }
        assert shipped and shipped <= names, sorted(shipped - names)[:5]


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory) -> Iterator[tuple[str, dict[str, str], Path]]:
    """The wheel in a fresh virtual environment (its dependencies from the registry, or uv's
    cache), migrated, its static files collected, served by gunicorn from a folder that is
    not the repository."""
    folder = tmp_path_factory.mktemp("installed")
    venv = folder / "venv"
    uv = BIN / "uv"
    make = [str(uv), "venv", "--quiet", "--python", sys.executable, str(venv)]
    if not uv.exists():
        make = [sys.executable, "-m", "venv", str(venv)]
    subprocess.run(make, check=True, timeout=120)
    python = venv / "bin" / "python"
    install = (
        [str(uv), "pip", "install", "--quiet", "--python", str(python), str(wheel)]
        if uv.exists()
        else [str(python), "-m", "pip", "install", "--quiet", str(wheel)]
    )
    result = subprocess.run(install, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DJANGO", "DATABASE_URL", "DEBUG", "PYTHONPATH", "VIRTUAL_ENV"))
    }
    env |= {
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "0",
        "SECRET_KEY": "wheel-" + "k3j4h5g6f7d8s9a0" * 4,
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_COOKIES": "0",
        "ALLOW_CONSOLE_EMAIL": "1",
        "STATIC_MANIFEST": "1",
        "STATIC_ROOT": str(folder / "static"),
        "DATABASE_URL": f"sqlite:///{folder / 'site.sqlite3'}",
        "TASK_BACKEND": "immediate",
    }
    for command in (["migrate", "-v0"], ["collectstatic", "--noinput", "-v0"]):
        done = subprocess.run(
            [str(python), "-m", "django", *command],
            cwd=folder,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stderr[-3000:]
    where = subprocess.run(
        [str(python), "-c", "import config; print(config.__file__)"],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    ).stdout.strip()
    assert where.startswith(str(venv)), where  # the installed package, not the repository
    port = free_port()
    server = subprocess.Popen(
        [str(python), "-m", "gunicorn", "config.wsgi", "--bind", f"127.0.0.1:{port}"],
        cwd=folder,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=(folder / "gunicorn.log").open("w"),
    )
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 120
        while True:
            try:
                urllib.request.urlopen(base + "/", timeout=60).read()
                break
            except OSError:  # not listening yet (URLError, a refused or reset connection)
                assert server.poll() is None, (folder / "gunicorn.log").read_text()[-3000:]
                assert time.monotonic() < deadline, "gunicorn did not start"
                time.sleep(0.2)
        yield base, env, folder
    finally:
        server.terminate()
        server.wait(timeout=30)


def routes_without_arguments() -> list[str]:
    """Every page of the site that takes no argument, from the URL configuration."""
    import django
    from django.urls import URLPattern, URLResolver, get_resolver

    django.setup()

    def walk(patterns: list, prefix: str = "") -> Iterator[str]:
        for pattern in patterns:
            route = prefix + str(pattern.pattern)
            if isinstance(pattern, URLResolver):
                yield from walk(pattern.url_patterns, route)
            elif (
                isinstance(pattern, URLPattern)
                and not pattern.pattern.regex.groupindex
                and "<" not in route
                and not route.startswith(("^", "admin"))
            ):
                yield "/" + route

    return sorted(set(walk(get_resolver().url_patterns)))


def test_a_wheel_installed_in_a_fresh_environment_serves_every_page(installed):
    base, _, folder = installed
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))

    def get(path: str) -> tuple[int, str]:
        try:
            with opener.open(base + path, timeout=120) as answer:
                return answer.status, answer.read().decode(errors="replace")
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode(errors="replace")

    status, home = get("/")
    assert status == 200 and "<html" in home
    # Its stylesheet and scripts, from the collected (hashed) static files.
    assets = re.findall(r'(?:href|src)="(/static/[^"]+)"', home)
    assert any(a.endswith(".css") for a in assets) and any(a.endswith(".js") for a in assets)
    for asset in assets:
        assert get(asset)[0] == 200, asset
    pages = routes_without_arguments()
    assert len(pages) > 15
    answers = {page: get(page)[0] for page in pages}
    # Signed in: a new account's pages too.
    get("/accounts/signup/")
    token = next(c.value for c in jar if c.name == "csrftoken")
    form = {
        "username": "wheel",
        "email": "wheel@example.com",
        "password1": "a-long-pass-phrase",
        "password2": "a-long-pass-phrase",
        "csrfmiddlewaretoken": token,
    }
    request = urllib.request.Request(
        base + "/accounts/signup/",
        data=urllib.parse.urlencode(form).encode(),
        headers={"Referer": base + "/"},
    )
    opener.open(request, timeout=120).read()
    assert any(c.name == "sessionid" for c in jar)
    answers |= {f"{page} (signed in)": get(page)[0] for page in pages}
    broken = {page: code for page, code in answers.items() if code >= 500 or code == 404}
    assert not broken, (broken, (folder / "gunicorn.log").read_text()[-3000:])
