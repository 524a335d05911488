"""The site as `make serve` runs it (deploy/serve.py: nginx, gunicorn and the task worker)
on a throw-away database, for tests that need real processes: jobs made by a real worker on
the database queue, slow clients against nginx.

The database is a SQLite file, or, when the suite runs on PostgreSQL (DATABASE_URL), a
database of its own on that server. A test drives it over HTTP (Browser) and looks into the
database with Django code run in a subprocess (Stack.django).
"""

from __future__ import annotations

import http.cookiejar
import json
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _database(folder: Path) -> tuple[str, str | None]:
    """The stack's DATABASE_URL, and the PostgreSQL database to drop after (if any)."""
    outer = os.environ.get("DATABASE_URL", "")
    if not outer.startswith("postgres"):
        return f"sqlite:///{folder / 'db.sqlite3'}", None
    import psycopg

    name = "stack_" + secrets.token_hex(6)
    with psycopg.connect(outer, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    return outer.rsplit("/", 1)[0] + "/" + name, name


def _drop(name: str) -> None:
    import psycopg

    with psycopg.connect(os.environ["DATABASE_URL"], autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


class Stack:
    def __init__(self, folder: Path, **settings: str) -> None:
        self.folder = folder
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        url, self.dropped = _database(folder)
        self.env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL", "EMAIL_"))
            and k not in ("TRUSTED_PROXIES", "TASK_BACKEND")
        }
        self.env.update(
            DEBUG="0",
            SECRET_KEY="stack-" + "q8w7e6r5t4y3u2i1o0p9" * 3,
            ALLOWED_HOSTS="127.0.0.1",
            ALLOW_CONSOLE_EMAIL="1",
            SECURE_COOKIES="0",  # as make serve runs on plain HTTP
            DATABASE_URL=url,
            **settings,
        )
        self.log = folder / "serve.log"
        self.process: subprocess.Popen[bytes] | None = None
        self.workers: list[subprocess.Popen[bytes]] = []
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "-v0"],
            cwd=ROOT,
            env=self.env,
            check=True,
            timeout=180,
        )

    def start(self, task_worker: bool = True, gunicorn_workers: int = 1) -> Stack:
        command = [sys.executable, "deploy/serve.py", "--port", str(self.port)]
        # One process of the heavy pool (PDFs, tables generated), as of the first.
        command += ["--workers", str(gunicorn_workers), "--heavy-workers", "1"]
        if not task_worker:
            command.append("--no-task-worker")
        # Started again after stop(): only what this start writes to the log counts.
        before = self.log.stat().st_size if self.log.exists() else 0
        with self.log.open("a") as output:
            self.process = subprocess.Popen(
                command, cwd=ROOT, env=self.env, stdout=output, stderr=output
            )
        deadline = time.monotonic() + 60
        while "Serving on" not in self.log.read_text()[before:]:
            assert self.process.poll() is None, self.log.read_text()[-3000:]
            assert time.monotonic() < deadline, self.log.read_text()[-3000:]
            time.sleep(0.1)
        return self

    def stop(self) -> int:
        """Stop the stack as Ctrl+C does; its exit status."""
        assert self.process is not None
        self.process.send_signal(signal.SIGINT)
        try:
            return self.process.wait(timeout=60)
        finally:
            self.process = None

    def task_worker_pids(self) -> list[int]:
        """The task workers deploy/serve.py runs for this stack (their worker ids name its
        port)."""
        pids = []
        for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
            try:
                words = cmdline.read_bytes().split(b"\0")
            except OSError:
                continue
            if b"run_jobs" in words and any(f":{self.port}:".encode() in w for w in words):
                pids.append(int(cmdline.parent.name))
        return pids

    def worker(self) -> subprocess.Popen[bytes]:
        """One more task worker, as on another machine (`manage.py run_jobs`)."""
        with (self.folder / f"worker-{len(self.workers)}.log").open("a") as output:
            process = subprocess.Popen(
                [sys.executable, "manage.py", "run_jobs"],
                cwd=ROOT,
                env=self.env,
                stdout=output,
                stderr=output,
            )
        self.workers.append(process)
        return process

    def close(self) -> None:
        for process in [*self.workers, *([self.process] if self.process else [])]:
            if process.poll() is None:
                process.send_signal(signal.SIGINT)
                try:
                    process.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
        if self.dropped:
            _drop(self.dropped)

    def django(self, code: str) -> Any:
        """Run ``code`` (Python, with Django set up) against the stack's database; the
        JSON it printed last."""
        result = subprocess.run(
            [sys.executable, "manage.py", "shell", "-c", code],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=180,
        )
        assert result.returncode == 0, result.stderr[-3000:]
        lines = [line for line in result.stdout.splitlines() if line.strip()]
        return json.loads(lines[-1]) if lines else None


class Browser:
    """A visitor over HTTP, with its cookies; forms are posted with their CSRF token."""

    def __init__(self, stack: Stack, address: str = "") -> None:
        self.stack = stack
        # The client address it claims (X-Forwarded-For), for a stack that trusts one more
        # proxy than its nginx (TRUSTED_PROXIES=1): visitors from several networks.
        self.address = address
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar), _NoRedirect()
        )

    def request(self, method: str, path: str, form: dict[str, Any] | None = None) -> Response:
        data = None
        headers = {"Referer": self.stack.base + "/"}
        if self.address:
            headers["X-Forwarded-For"] = self.address
        if method == "POST":
            token = next((c.value for c in self.jar if c.name == "csrftoken"), None)
            if token is None:
                self.request("GET", "/accounts/login/")
                token = next(c.value for c in self.jar if c.name == "csrftoken")
            data = urllib.parse.urlencode({**(form or {}), "csrfmiddlewaretoken": token}).encode()
        request = urllib.request.Request(
            self.stack.base + path, data=data, method=method, headers=headers
        )
        try:
            with self.opener.open(request, timeout=60) as answer:
                return Response(answer.status, dict(answer.headers), answer.read())
        except urllib.error.HTTPError as error:
            return Response(error.code, dict(error.headers), error.read())

    def get(self, path: str) -> Response:
        return self.request("GET", path)

    def upload(self, path: str, name: str, content: bytes) -> Response:
        """Post a form with one file (``file``), as multipart/form-data."""
        token = next((c.value for c in self.jar if c.name == "csrftoken"), None)
        if token is None:
            self.request("GET", "/accounts/login/")
            token = next(c.value for c in self.jar if c.name == "csrftoken")
        boundary = "onefinity-test-boundary"
        body = (
            (
                f'--{boundary}\r\nContent-Disposition: form-data; name="csrfmiddlewaretoken"\r\n\r\n'
                f"{token}\r\n--{boundary}\r\n"
                f'Content-Disposition: form-data; name="file"; filename="{name}"\r\n'
                "Content-Type: application/json\r\n\r\n"
            ).encode()
            + content
            + f"\r\n--{boundary}--\r\n".encode()
        )
        headers = {
            "Referer": self.stack.base + "/",
            "Content-Type": f"multipart/form-data; boundary={boundary}",
        }
        request = urllib.request.Request(self.stack.base + path, data=body, headers=headers)
        try:
            with self.opener.open(request, timeout=120) as answer:
                return Response(answer.status, dict(answer.headers), answer.read())
        except urllib.error.HTTPError as error:
            return Response(error.code, dict(error.headers), error.read())

    def post(self, path: str, form: dict[str, Any] | None = None) -> Response:
        return self.request("POST", path, form)

    def sign_up(self, name: str) -> Browser:
        answer = self.post(
            "/accounts/signup/",
            {
                "username": name,
                "email": f"{name}@example.com",
                "password1": "a-long-pass-phrase",
                "password2": "a-long-pass-phrase",
            },
        )
        assert answer.status == 302, answer.text[-2000:]
        return self

    def finished_job(self, job: int, seconds: float = 180) -> dict[str, Any]:
        """Poll the job's status until it is done or failed; its last status."""
        deadline = time.monotonic() + seconds
        while True:
            status = json.loads(self.get(f"/jobs/{job}/status.json").body)
            if status["state"] in ("done", "failed") or time.monotonic() > deadline:
                return dict(status)
            time.sleep(0.3)


class Response:
    def __init__(self, status: int, headers: dict[str, str], body: bytes) -> None:
        self.status, self.headers, self.body = status, headers, body

    @property
    def text(self) -> str:
        return self.body.decode(errors="replace")

    @property
    def location(self) -> str:
        return self.headers.get("Location", "")

    def job(self) -> int:
        """The job a redirect to a job's page names."""
        found = re.search(r"/jobs/(\d+)/", self.location)
        assert found, f"not a job's page: {self.status} {self.location}"
        return int(found[1])


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None
