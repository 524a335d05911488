"""`make serve`'s whole stack (deploy/serve.py: nginx in front of gunicorn) keeps answering
while many clients send their headers or their bodies slowly.

The red team's attack: 120 connections each sending one header line a second kept a normal
request waiting 18 s against a bare gunicorn (its threads read headers). nginx reads every
request whole before gunicorn sees it, in one event loop, so slow clients cost it a socket
each and gunicorn nothing.
"""

from __future__ import annotations

import contextlib
import http.cookiejar
import os
import re
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.site.test_serving import free_port, timed_get

ROOT = Path(__file__).resolve().parents[2]
SLOW_HEADERS = 120
SLOW_BODIES = 30

# One worker runs this module's tests (make pytest: --dist loadgroup), so they share its stack.
pytestmark = [
    pytest.mark.skipif(
        not any(Path(p, "nginx").exists() for p in ("/usr/sbin", "/usr/bin")),
        reason="make system installs Debian's nginx",
    ),
    pytest.mark.xdist_group("serve-stack"),
]


@pytest.fixture(scope="module")
def stack(tmp_path_factory) -> Iterator[tuple[int, Path]]:
    folder = tmp_path_factory.mktemp("stack")
    port, log = free_port(), folder / "serve.log"
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL", "EMAIL_"))
        and k != "TRUSTED_PROXIES"
    }
    env.update(
        DEBUG="0",
        SECRET_KEY="stack-" + "q8w7e6r5t4y3u2i1o0p9" * 3,
        ALLOWED_HOSTS="127.0.0.1",
        ALLOW_CONSOLE_EMAIL="1",
        DATABASE_URL=f"sqlite:///{folder / 'db.sqlite3'}",
        SECURE_COOKIES="0",  # as make serve runs on plain HTTP
        LOGIN_FAILURES_PER_ADDRESS="3",
        LOGIN_FAILURES_PER_ACCOUNT="100",
    )
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True, timeout=120
    )
    command = [sys.executable, "deploy/serve.py", "--port", str(port), "--workers", "1"]
    command += ["--heavy-workers", "1"]
    with log.open("w") as output:
        process = subprocess.Popen(
            [*command, "--no-task-worker"], cwd=ROOT, env=env, stdout=output, stderr=output
        )
    try:
        deadline = time.monotonic() + 60
        while "Serving on" not in log.read_text():
            assert process.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.1)
        yield port, log
    finally:
        process.terminate()
        process.wait(timeout=30)
    assert process.returncode == 0, log.read_text()


class Dribblers:
    """Connections that send part of a request and then one more line (or body byte) a
    second, until told to stop."""

    def __init__(self, port: int, headers: int, bodies: int) -> None:
        self.sockets: list[socket.socket] = []
        for i in range(headers + bodies):
            slow = socket.create_connection(("127.0.0.1", port), timeout=5)
            if i < headers:
                slow.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            else:
                slow.sendall(
                    b"POST /accounts/login/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    b"Content-Type: application/x-www-form-urlencoded\r\n"
                    b"Content-Length: 100000\r\n\r\nusername="
                )
            self.sockets.append(slow)
        self.headers = headers
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.dribble, daemon=True)
        self.thread.start()

    def dribble(self) -> None:
        n = 0
        while not self.stop.wait(1):
            n += 1
            for i, slow in enumerate(self.sockets):
                with contextlib.suppress(OSError):
                    slow.send(f"X-Slow-{n}: a\r\n".encode() if i < self.headers else b"a")

    def close(self) -> None:
        self.stop.set()
        self.thread.join()
        for slow in self.sockets:
            slow.close()


def test_a_request_waits_for_none_of_the_slow_clients_sending_headers_and_bodies(
    stack,
):
    port, log = stack
    assert timed_get(port)[0] == 200  # the first request loads the site
    slow = Dribblers(port, SLOW_HEADERS, SLOW_BODIES)
    try:
        time.sleep(3)  # every slow client is well into its request
        answers = [timed_get(port) for _ in range(5)]
    finally:
        slow.close()
    assert all(status == 200 for status, _ in answers), log.read_text()
    seconds = statistics.median(took for _, took in answers)
    # Within a second on an idle machine; the bound is what tells the two apart without
    # racing a busy machine's clock: behind bare gunicorn the same request waited 18 s (the
    # slow clients' whole requests), behind nginx it waits for none of them.
    assert seconds < 5, f"answered after {seconds:.2f} s behind {len(slow.sockets)} slow clients"


def logged(log: Path, *wanted: str, within: float = 30.0) -> list[str]:
    """The access log's lines once each wanted text is in one of them. gunicorn writes a
    request's line after it has sent the answer, so a client may read the log before it."""
    deadline = time.monotonic() + within
    while True:
        lines = log.read_text().splitlines()
        if all(any(text in line for line in lines) for text in wanted):
            return lines
        assert time.monotonic() < deadline, f"not logged: {wanted}\n" + "\n".join(lines[-20:])
        time.sleep(0.05)


def log_in_through(port: int, forwarded_for: str) -> int:
    """A failed login through the stack, claiming to come from ``forwarded_for``."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    page = opener.open(f"http://127.0.0.1:{port}/accounts/login/", timeout=30).read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    body = urllib.parse.urlencode(
        {"csrfmiddlewaretoken": token, "username": "nobody", "password": "guess"}
    ).encode()
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/accounts/login/",
        data=body,
        headers={"X-Forwarded-For": forwarded_for, "Referer": f"http://127.0.0.1:{port}/"},
    )
    try:
        return opener.open(request, timeout=30).status
    except urllib.error.HTTPError as error:
        return error.code


def test_the_site_counts_the_address_nginx_saw_not_the_one_a_client_wrote(stack):
    port, log = stack
    # The stack runs with LOGIN_FAILURES_PER_ADDRESS=3: three failures from this machine,
    # each claiming another address, and the fourth is refused.
    codes = [log_in_through(port, f"203.0.113.{i}") for i in range(4)]
    assert codes == [200, 200, 200, 429], log.read_text()[-2000:]
    # The access log names both: what the client wrote, then what nginx saw.
    logged(log, "203.0.113.0, 127.0.0.1 ")


def test_pdfs_and_tables_generated_are_served_by_the_heavy_pool(stack):
    port, log = stack
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
    base = f"http://127.0.0.1:{port}"
    query = "seed=7&coverage=0.45&symmetry=point&mix=balanced"
    with opener.open(f"{base}/tables/new/?{query}", timeout=60) as generated:
        assert generated.status == 200 and b"Valid table" in generated.read()
    with opener.open(f"{base}/", timeout=30) as home:
        assert home.status == 200
    lines = logged(log, "GET /tables/new/?seed=7", '"GET / HTTP')
    # Each pool's access log starts its lines with its name (deploy/serve.py).
    assert any(line.startswith("heavy ") and "GET /tables/new/?seed=7" in line for line in lines)
    assert not any(line.startswith("heavy ") and '"GET / HTTP' in line for line in lines)
    assert any('"GET / HTTP' in line for line in lines)


def test_with_no_heavy_pool_nginx_sends_everything_to_the_one_pool(tmp_path):
    from deploy.serve import import_bytes, nginx_config

    one = nginx_config(tmp_path, "127.0.0.1", 8000, heavy=False)
    two = nginx_config(tmp_path, "127.0.0.1", 8000, heavy=True)
    # Three heavy paths, the import's and the rest.
    assert "heavy.sock" not in one and one.count(f"unix:{tmp_path}/gunicorn.sock;") == 5
    assert two.count(f"unix:{tmp_path}/heavy.sock;") == 3
    # The import's path takes an account's export (ACCOUNT_IMPORT_BYTES), and no other.
    limits = re.findall(r"client_max_body_size (\d+)m;", two)
    found = re.search(r"location = /account/import/ \{\s*client_max_body_size (\d+)m;", two)
    assert found and int(found[1]) * 1_000_000 > import_bytes() and len(limits) == 2
    assert not re.search(r"@[A-Z_]+@", two)  # every value filled in


def multipart(fields: dict[str, str], content: bytes) -> tuple[bytes, str]:
    boundary = "onefinity-test-boundary"
    parts = [
        f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
        for name, value in fields.items()
    ]
    parts.append(
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.json"\r\n'
        "Content-Type: application/json\r\n\r\n".encode()
        + content
        + b"\r\n"
    )
    return b"".join(parts) + f"--{boundary}--\r\n".encode(), boundary


def test_an_account_file_past_every_other_uploads_limit_reaches_the_import(stack):
    """nginx takes 6 MB in a request, but an account's export to import may be far larger
    (deploy/nginx.conf, config.uploads): on that one path it passes it to the site, which
    keeps it for the worker (none runs in this stack: the job waits)."""
    port, _log = stack
    base = f"http://127.0.0.1:{port}"
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
    page = opener.open(f"{base}/account/import/", timeout=30).read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    content = b'{"format": "onefinity-account", "version": 1,' + b" " * 8_000_000 + b'"forces": []}'
    body, boundary = multipart({"csrfmiddlewaretoken": token}, content)

    def post(path: str) -> tuple[int, str]:
        request = urllib.request.Request(
            f"{base}{path}",
            data=body,
            headers={"Content-Type": f"multipart/form-data; boundary={boundary}"},
        )
        try:
            with opener.open(request, timeout=120) as answer:
                return answer.status, answer.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode(errors="replace")

    status, text = post("/account/import/")
    assert status == 200 and "Import of big.json" in text, (status, text[-2000:])
    assert "waiting for the worker" in text
    assert post("/forces/import/")[0] == 413  # every other path: nginx's bound
