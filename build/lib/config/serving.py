"""gunicorn's threaded worker, with a deadline on reading each request's headers.

gunicorn's gthread worker hands a connection back to its poller when nothing arrives for
5 s, but once bytes arrive a thread reads the headers from a blocking socket with no time
limit: a client that sends one header byte every few seconds holds that thread for as long
as it likes (slowloris), and enough such clients hold them all. This worker

- gives each request REQUEST_HEADER_TIMEOUT seconds (default 10) from the moment a thread
  takes it up until its headers are complete. Past that the worker's main loop, which wakes
  at least once a second, shuts the socket down: the thread's read ends at once and the
  thread serves the next connection;
- accepts a connection only while one of its threads is free, so that slow clients piled
  on one worker do not queue requests there that another worker could answer now.

Bodies are not covered (a slow upload is the application's time); the reverse proxy in
front buffers whole requests (see the README's Deploy section).
"""

from __future__ import annotations

import contextlib
import os
import socket
import threading
import time
from typing import Any

from django.core.exceptions import ImproperlyConfigured
from gunicorn.workers.gthread import ThreadWorker


def header_timeout() -> float:
    value = os.environ.get("REQUEST_HEADER_TIMEOUT", "").strip() or "10"
    try:
        seconds = float(value)
    except ValueError:
        seconds = 0
    if not seconds > 0:
        raise ImproperlyConfigured(f"REQUEST_HEADER_TIMEOUT must be seconds above 0, not {value!r}")
    return seconds


class HeaderDeadlineWorker(ThreadWorker):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # Connections handed to the thread pool and not yet finished (main thread only).
        self.in_threads = 0
        super().__init__(*args, **kwargs)
        self.header_timeout = header_timeout()
        # Connections whose headers a thread is reading, and when it must have finished.
        self.reading_headers: dict[Any, float] = {}
        self.reading_lock = threading.Lock()

    # gthread accepts a new connection while it holds fewer than `worker_connections`,
    # whether or not a thread is free: one worker could take in twenty slow clients and
    # queue a normal request behind them while the other workers idled. Accepting only
    # with a thread free leaves the rest in the kernel's queue for whichever worker has one.
    @property
    def worker_connections(self) -> int:
        return self.connection_cap if self.in_threads < self.cfg.threads else 0

    @worker_connections.setter
    def worker_connections(self, cap: int) -> None:
        self.connection_cap = cap

    def enqueue_req(self, conn: Any) -> None:
        self.in_threads += 1
        super().enqueue_req(conn)

    def finish_request(self, conn: Any, fs: Any) -> None:
        self.in_threads -= 1
        super().finish_request(conn, fs)

    def handle(self, conn: Any) -> Any:
        with self.reading_lock:
            self.reading_headers[conn] = time.monotonic() + self.header_timeout
        try:
            return super().handle(conn)
        finally:
            with self.reading_lock:
                self.reading_headers.pop(conn, None)

    def handle_request(self, req: Any, conn: Any) -> Any:
        # The headers are all in: from here on the time is the application's.
        with self.reading_lock:
            self.reading_headers.pop(conn, None)
        return super().handle_request(req, conn)

    def murder_pending(self) -> None:
        super().murder_pending()
        now = time.monotonic()
        with self.reading_lock:
            late = [conn for conn, deadline in self.reading_headers.items() if deadline <= now]
            for conn in late:
                del self.reading_headers[conn]
                self.log.info("Cutting off %s: no complete headers in time", conn.client)
                with contextlib.suppress(OSError):  # already gone
                    conn.sock.shutdown(socket.SHUT_RDWR)
