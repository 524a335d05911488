"""Polling against server-sent events on our stack (issue 32): what 60 phones holding a live
page open cost gunicorn's threaded workers (gthread, 8 threads each, as config/gunicorn.conf.py).

A stand-in WSGI app (no Django: the question is the server's threads, not the page) under
gunicorn with WORKERS x 8 threads:

- streams: each phone keeps one server-sent event stream open (an answer that sends a line
  every 5 s and never ends). With 60 phones and 32 threads, how long does a plain request
  (another page) wait?
- polling: each phone asks every 5 s (an answer of a few milliseconds, like a 204 of
  events/live.py). The same plain request's wait.

Run with `python benchmarks/live_streams.py`; prints JSON. The site's own poll costs 11 ms
at the largest event (benchmarks/event_pages.py).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

PHONES, WORKERS, THREADS, SECONDS = 60, 4, 8, 12
APP = """
import time

def app(environ, start_response):
    path = environ["PATH_INFO"]
    if path == "/stream":
        start_response("200 OK", [("Content-Type", "text/event-stream")])
        def events():
            while True:
                yield b"data: nothing new\\n\\n"
                time.sleep(5)
        return events()
    if path == "/poll":
        time.sleep(0.011)  # the site's 204 of an unchanged event
        start_response("204 No Content", [])
        return [b""]
    start_response("200 OK", [("Content-Type", "text/plain")])
    return [b"a page"]
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def get(port: int, path: str, timeout: float) -> float | None:
    """Seconds until the answer's first line, or None when it did not come in ``timeout``."""
    start = time.perf_counter()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as conn:
            conn.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
            conn.recv(64)
    except OSError:
        return None
    return round(time.perf_counter() - start, 3)


def main() -> int:
    folder = Path(tempfile.mkdtemp())
    (folder / "stand_in.py").write_text(APP)
    port = free_port()
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "stand_in:app",
            "--chdir",
            str(folder),
            "--worker-class",
            "gthread",
            "--workers",
            str(WORKERS),
            "--threads",
            str(THREADS),
            "--bind",
            f"127.0.0.1:{port}",
            "--timeout",
            "120",
            "--log-level",
            "warning",
        ],
    )
    try:
        for _ in range(100):
            if get(port, "/page", 1) is not None:
                break
            time.sleep(0.1)
        quiet = get(port, "/page", 10)
        # Polling: PHONES phones, one poll each every 5 s, for SECONDS.
        stop = time.monotonic() + SECONDS
        polls: list[float] = []

        def phone(offset: float) -> None:
            time.sleep(offset)
            while time.monotonic() < stop:
                took = get(port, "/poll", 10)
                if took is not None:
                    polls.append(took)
                time.sleep(5)

        phones = [threading.Thread(target=phone, args=(i * 5 / PHONES,)) for i in range(PHONES)]
        for t in phones:
            t.start()
        time.sleep(2)
        while_polling = [get(port, "/page", 10) for _ in range(5)]
        for t in phones:
            t.join()
        # Streams: PHONES open event streams.
        streams = []
        for _ in range(PHONES):
            conn = socket.create_connection(("127.0.0.1", port), timeout=10)
            conn.sendall(b"GET /stream HTTP/1.1\r\nHost: x\r\n\r\n")
            streams.append(conn)
        time.sleep(2)
        while_streaming = get(port, "/page", 10)
        for conn in streams:
            conn.close()
    finally:
        server.terminate()
        server.wait(10)
    polls.sort()
    print(
        json.dumps(
            {
                "machine": f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}",
                "server": f"gunicorn gthread, {WORKERS} workers x {THREADS} threads",
                "phones": PHONES,
                "a page, nobody connected (s)": quiet,
                "polling: polls answered": len(polls),
                "polling: poll median / worst (s)": [polls[len(polls) // 2], polls[-1]]
                if polls
                else None,
                "polling: a page meanwhile, 5 tries (s)": while_polling,
                "streams: a page with 60 streams open (s, None: no answer in 10 s)": while_streaming,
            },
            indent=2,
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
