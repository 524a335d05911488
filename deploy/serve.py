"""Run the site as `make serve` does: Debian's nginx in front, gunicorn behind it, and the
task worker beside them; started together, stopped together.

nginx buffers every request whole (headers within 10 s, a body that keeps arriving) before
gunicorn sees it, so clients that dribble their headers or bodies wait in nginx's event
loop, not in one of gunicorn's threads: 120 such connections held a bare gunicorn's threads
and kept a normal request waiting 18 s. gunicorn listens on a Unix socket in a private
folder, reachable only through nginx.

Two pools of gunicorn workers behind nginx: the requests that take tens of milliseconds of
CPU each (a PDF, a table generated or saved: nginx sends ``*.pdf``, ``/tables/new/`` and
``/tables/save/`` on) are
served by a pool of their own (``--heavy-workers``, 2 by default) whose processes run at a
lower priority (nice HEAVY_NICE), and everything else (the editor, shared lists, line of
fire, events, games) by the first pool. When the cores are busy the kernel gives them to
the first pool first: at 200 to 233 requests/s of the mixed load on 2 cores the editor's
change was 33 to 70 ms p95 this way and 107 to 575 ms with one pool, where a PDF's p95 went
from 0.6-0.9 s to 0.4-2.5 s (docs/performance.md, "Writers in turn, an edit's statements,
heavy work on a pool of its own").
``--heavy-workers 0`` serves everything from the one pool.

Our nginx is one more proxy in front of Django: it appends the address it saw to
X-Forwarded-For, so the site counts it with TRUSTED_PROXIES (this adds one to whatever the
environment says about the proxies in front of `make serve`).

    python deploy/serve.py --host 127.0.0.1 --port 8000 --workers 2 --heavy-workers 2
    python deploy/serve.py --dev ...   # Django's runserver (DEBUG) and the worker, no nginx

Ctrl+C (or SIGTERM) stops every process. The task workers (``--task-workers N``, or
TASK_WORKERS, 1 by default) are supervised: one that dies (killed, out of memory) is
started again within seconds under the same worker id, and takes the job it was making up at
once (jobs.running.recover), while the site goes on answering; one that keeps dying at once
is started again less often (up to every 30 s). If the web server itself (nginx, gunicorn,
runserver) stops, everything is stopped and the exit status says so.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NGINX_TEMPLATE = ROOT / "deploy" / "nginx.conf"
ACCESS_LOG = '%({x-forwarded-for}i)s %(t)s "%(r)s" %(s)s %(b)s %(M)sms "%(a)s"'


# How much lower the heavy pool's priority is (nice(1): 0 to 19; 10 gives each of its
# threads about a tenth of a first-pool thread's share of a busy core).
HEAVY_NICE = 10
# The heavy pool's threads a worker: a PDF takes 50 to 90 ms of CPU, so more threads would
# only share the worker's one interpreter lock among more of them.
HEAVY_THREADS = 4


def import_bytes() -> int:
    """config.settings.ACCOUNT_IMPORT_BYTES as the environment sets it (read the same way,
    without starting Django in this process)."""
    storage = int(os.environ.get("ACCOUNT_STORAGE_BYTES") or 100_000_000)
    return int(os.environ.get("ACCOUNT_IMPORT_BYTES") or 2 * storage)


def nginx_config(folder: Path, host: str, port: int, heavy: bool = True) -> str:
    """deploy/nginx.conf with this run's folder, address and body limit filled in; the
    heavy requests go to the heavy pool's socket (``heavy``) or to the one pool's."""
    # A little above the site's own limit (config.settings.MAX_REQUEST_BYTES, 5.1 MB), so
    # that the site answers a body just over it with its own page; the same for the one
    # larger upload, an account file to import (config.uploads: ACCOUNT_IMPORT_BYTES).
    body_limit = "6m"
    import_limit = f"{import_bytes() // 1_000_000 + 2}m"
    user = "user root;" if os.geteuid() == 0 else ""
    listen = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    text = NGINX_TEMPLATE.read_text()
    for key, value in {
        "@RUN@": str(folder),
        "@LISTEN@": listen,
        "@BODY_LIMIT@": body_limit,
        "@IMPORT_BODY_LIMIT@": import_limit,
        "@HEAVY_SOCKET@": str(folder / ("heavy.sock" if heavy else "gunicorn.sock")),
        "@USER@": user,
    }.items():
        text = text.replace(key, value)
    return text


def wait_for(check: object, process: subprocess.Popen[bytes], what: str, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"{what} stopped while starting (exit status {process.returncode})")
        if check():  # type: ignore[operator]
            return
        time.sleep(0.05)
    raise SystemExit(f"{what} did not start within {seconds:.0f} s")


def signal_group(process: subprocess.Popen[bytes], signum: int) -> None:
    """Send ``signum`` to the process's group (it and its children)."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signum)


def can_connect(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=0.5):
            return True
    except OSError:
        return False


class Supervised:
    """A task worker kept running: started again when it stops, sooner the longer it ran."""

    QUICK = 10.0  # a worker that dies within this many seconds of its start died at once
    MOST = 30.0  # the longest wait before starting one again

    def __init__(self, name: str, command: list[str]) -> None:
        self.name, self.command = name, command
        self.process: subprocess.Popen[bytes] | None = None
        self.started = 0.0
        self.quick_deaths = 0
        self.due = 0.0  # when to start it again, once it stopped

    def start(self) -> None:
        self.process = subprocess.Popen(self.command, cwd=ROOT, process_group=0)
        self.started = time.monotonic()

    def check(self) -> None:
        """Start it again if it stopped and its wait is over; say so when it stops."""
        now = time.monotonic()
        if self.process is not None and self.process.poll() is not None:
            status = self.process.returncode
            # Whatever it left in its group (runserver's reloader child, under --dev) goes
            # with it: two workers under one id would take each other's jobs for lost.
            signal_group(self.process, signal.SIGKILL)
            self.quick_deaths = self.quick_deaths + 1 if now - self.started < self.QUICK else 0
            wait = min(self.MOST, 0.5 * 2 ** max(0, self.quick_deaths - 1))
            print(
                f"{self.name} stopped (exit status {status}): starting it again in {wait:.1f} s",
                flush=True,
            )
            self.process, self.due = None, now + wait
        if self.process is None and now >= self.due:
            self.start()


def worker_id(host: str, port: int, n: int) -> str:
    """The id of the n-th task worker of this server: the same each time it is started
    again (so it takes up its own lost job), unique among the servers of a database."""
    return f"{socket.gethostname()[:40]}:{host}:{port}:{n}"[:64]


Start = Callable[..., subprocess.Popen[bytes]]


def start_web(options: argparse.Namespace, folder: Path, start: Start) -> None:
    """The web server: runserver (--dev), or gunicorn on a Unix socket with nginx in front;
    returns once it answers."""
    if options.dev:
        address = f"{options.host}:{options.port}"
        start("runserver", [sys.executable, "manage.py", "runserver", address])
        return
    env = dict(os.environ)
    # nginx is a proxy the site must count (see the module's docstring).
    env["TRUSTED_PROXIES"] = str(int(os.environ.get("TRUSTED_PROXIES", "0") or 0) + 1)
    pools = [
        (
            "gunicorn",
            folder / "gunicorn.sock",
            gunicorn_command(folder / "gunicorn.sock", options.workers),
        )
    ]
    heavy = options.heavy_workers > 0
    if heavy:
        socket_path = folder / "heavy.sock"
        command = gunicorn_command(socket_path, options.heavy_workers, label="heavy ")
        command = ["nice", "-n", str(HEAVY_NICE), *command, "--threads", str(HEAVY_THREADS)]
        pools.append(("heavy gunicorn", socket_path, command))
    for name, socket_path, command in pools:
        wait_for(socket_path.exists, start(name, command, env), name, 60)
    (folder / "nginx.conf").write_text(nginx_config(folder, options.host, options.port, heavy))
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    web = start("nginx", [nginx, "-p", str(folder), "-c", str(folder / "nginx.conf")])
    wait_for(lambda: can_connect(options.host, options.port), web, "nginx", 20)


def gunicorn_command(socket_path: Path, workers: int, label: str = "") -> list[str]:
    """gunicorn with config/gunicorn.conf.py on ``socket_path``; each line of its access log
    starts with ``label`` (which pool answered)."""
    command = [sys.executable, "-m", "gunicorn", "config.wsgi", "--config"]
    command += ["config/gunicorn.conf.py", "--bind", f"unix:{socket_path}"]
    # The client's address in the log is the one nginx saw (it arrives on a socket).
    command += ["--workers", str(workers), "--no-control-socket", "--access-logfile", "-"]
    return [*command, "--access-logformat", label + ACCESS_LOG]


def task_workers(options: argparse.Namespace) -> list[Supervised]:
    """The supervised task workers, started, each under an id of its own."""
    if options.no_task_worker:
        return []
    workers = []
    for n in range(1, max(1, options.task_workers) + 1):
        name = "task worker" if options.task_workers <= 1 else f"task worker {n}"
        ident = worker_id(options.host, options.port, n)
        workers.append(
            Supervised(name, [sys.executable, "manage.py", "run_jobs", "--worker-id", ident])
        )
        workers[-1].start()
    return workers


def stop_all(processes: list[subprocess.Popen[bytes]]) -> None:
    """Stop each process's group, the last started first; killed after 15 s."""
    for process in reversed(processes):
        signal_group(process, signal.SIGTERM)
    deadline = time.monotonic() + 15
    for process in reversed(processes):
        try:
            process.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            signal_group(process, signal.SIGKILL)
            process.wait()


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument(
        "--workers",
        type=int,
        default=os.cpu_count() or 2,
        help="gunicorn's worker processes (default: one a core)",
    )
    parser.add_argument(
        "--heavy-workers",
        type=int,
        default=int(os.environ.get("HEAVY_WORKERS") or 2),
        help="worker processes of the heavy pool, PDFs and table generation (HEAVY_WORKERS; "
        "default 2; 0: one pool for everything)",
    )
    parser.add_argument("--dev", action="store_true", help="runserver instead of nginx+gunicorn")
    parser.add_argument("--no-task-worker", action="store_true", help="no task worker")
    parser.add_argument(
        "--task-workers",
        type=int,
        default=int(os.environ.get("TASK_WORKERS", "1") or 1),
        help="task workers to run and keep running (TASK_WORKERS; default 1)",
    )
    return parser.parse_args()


def main() -> int:
    options = arguments()
    folder = Path(tempfile.mkdtemp(prefix="onefinity-serve-"))
    processes: list[tuple[str, subprocess.Popen[bytes]]] = []
    workers: list[Supervised] = []

    def start(
        name: str, command: list[str], env: dict[str, str] | None = None
    ) -> subprocess.Popen[bytes]:
        # Each in a process group of its own, stopped as a whole (runserver's reloader and
        # gunicorn's workers are children of what is started here).
        processes.append((name, subprocess.Popen(command, cwd=ROOT, env=env, process_group=0)))
        return processes[-1][1]

    stopping = False

    def stop(signum: int = signal.SIGTERM, frame: object = None) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    status = 0
    try:
        start_web(options, folder, start)
        workers = task_workers(options)
        print(f"Serving on http://{options.host}:{options.port}/ (Ctrl+C stops it)", flush=True)
        while not stopping:
            gone = next(((n, p) for n, p in processes if p.poll() is not None), None)
            if gone is not None:
                print(f"{gone[0]} stopped (exit status {gone[1].returncode}): stopping", flush=True)
                status, stopping = 1, True
                break
            for worker in workers:
                worker.check()
            time.sleep(0.2)
    finally:
        stop_all([p for _, p in processes] + [w.process for w in workers if w.process])
        shutil.rmtree(folder, ignore_errors=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
