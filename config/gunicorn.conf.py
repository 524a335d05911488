"""gunicorn's settings for `make serve` (tests/site/test_serving.py starts the same).

Threads, not sync workers: a sync worker serves one connection at a time from its first
byte to its last, so two clients sending their headers slowly held both workers of a
two-worker server and nobody else was answered. Threaded workers (gthread) leave idle and
kept-alive connections in a poller instead of a thread, serve `threads` requests at once
per worker, and config.serving cuts off any request whose headers are not complete within
REQUEST_HEADER_TIMEOUT seconds, so slow clients can hold a thread for seconds, not for ever.

Bind address and worker count come from the Makefile (HOST, PORT, WORKERS); override any of
these with GUNICORN_CMD_ARGS, e.g. "--threads 16".
"""

import os

worker_class = "config.serving.HeaderDeadlineWorker"
# Requests served at once per worker. Each thread keeps its own database connection
# (DATABASE_CONN_MAX_AGE): WORKERS x threads connections per app server at most, 32 with
# the defaults, well inside PostgreSQL's default max_connections of 100.
threads = 8
# Seconds an idle kept-alive connection stays open (in the poller, not a thread); a reverse
# proxy that keeps upstream connections open needs its own idle timeout shorter than this.
keepalive = 5
# With threads this only restarts a worker whose main loop stops answering (the arbiter's
# heartbeat); it no longer bounds one request, which the site bounds itself.
timeout = 60
# Each worker touches a heartbeat file on every turn of its loop (os.utime): on a disk's
# file system that was a tenth of a worker's sampled time under the mixed load (journalled
# metadata writes); in memory it costs nothing. gunicorn's own advice for such systems.
if os.path.isdir("/dev/shm"):
    worker_tmp_dir = "/dev/shm"
