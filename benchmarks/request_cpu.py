"""The server's CPU time per request of each kind of the mixed load (issue 34), without HTTP.

The load client's own users (loadtest/run.py: the same set-up, the same actions) drive the
site's WSGI application in this process, as gunicorn calls it, over a throw-away SQLite
database with `make serve`'s settings (DEBUG off, collected static files). Each request's
CPU time is measured by itself: on a machine shared with other work, CPU time is the figure
that work disturbs least (the wall clock also counts waiting for a core). The mix's figure
is the kinds' medians weighted as the load client weighs them; 2,000 ms of CPU a second
divided by it is what two cores could carry at most, nginx, gunicorn and the client aside.

    .venv/bin/python benchmarks/request_cpu.py                   # 20 users, 3 rounds
    .venv/bin/python benchmarks/request_cpu.py --root /tmp/other-tree --rounds 5
    .venv/bin/python benchmarks/request_cpu.py --profile "editor change"   # cProfile of one kind

The first round is a warm-up and is not counted (templates compiled, each link's QR code
drawn once: on a site whose links are opened more than once those are the common case).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import platform
import pstats
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parents[1]


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=HERE, help="the checkout to measure")
    parser.add_argument("--users", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3, help="counted rounds, after a warm-up")
    parser.add_argument("--profile", default="", help="a kind of the mix: cProfile it")
    parser.add_argument("--lines", type=int, default=40, help="lines of the profile printed")
    parser.add_argument("--queries", action="store_true", help="also count SQL queries a kind")
    parser.add_argument(
        "--drawn",
        type=int,
        default=0,
        help="instead: this many requests a round, their kinds drawn by the mix's weights",
    )
    parser.add_argument(
        "--toggle",
        default="",
        help="a Python file defining switch(on): measure without and with it, interleaved",
    )
    parser.add_argument("--sql", action="store_true", help="with --queries: print them")
    parser.add_argument(
        "--kinds", default="", help="comma-separated kinds to measure (default: the whole mix)"
    )
    return parser.parse_args()


ARGS = parse_args()
ROOT = ARGS.root.resolve()
sys.path.insert(0, str(ROOT))
FOLDER = Path(tempfile.mkdtemp(prefix="onefinity-request-cpu-"))
# `make serve`'s environment (benchmarks/load.py's serve_env), this run's own database.
os.environ.pop("DJANGO_SETTINGS_MODULE", None)
os.environ.update(
    DJANGO_SETTINGS_MODULE="config.settings",
    DEBUG="0",
    STATIC_MANIFEST="1",
    STATIC_ROOT=str(FOLDER / "static"),
    SECRET_KEY="request-cpu-benchmark-" + os.urandom(24).hex(),
    ALLOWED_HOSTS="127.0.0.1,localhost",
    SECURE_COOKIES="0",
    ALLOW_CONSOLE_EMAIL="1",
    DATABASE_URL=f"sqlite:///{FOLDER / 'bench.sqlite3'}",
    FRESH_WORK_PER_ADDRESS="100000",
    FRESH_WORK_PER_VISITOR="100000",
    # A table the request's second cannot make goes to a worker this benchmark does not run.
    TASK_BACKEND="database",
)
for step in (["migrate", "--noinput", "-v0"], ["collectstatic", "--noinput", "-v0"]):
    subprocess.run([sys.executable, "manage.py", *step], cwd=ROOT, check=True)

from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from config.wsgi import application  # noqa: E402

sys.path.insert(0, str(HERE / "loadtest"))
import run as loadtest  # noqa: E402


class WsgiBrowser(loadtest.Browser):
    """The load client's browser, its exchanges handed to the WSGI application in this
    process instead of a socket; the CPU time of each is kept."""

    def __init__(self, base: str) -> None:
        super().__init__(base)
        self.cpu_ms: list[float] = []

    def _send(self, method: str, path: str, body: bytes | None, headers: dict) -> tuple:
        # A server never sees the fragment (gunicorn drops it from the request line).
        target, _, query = path.partition("#")[0].partition("?")
        environ = {
            "REQUEST_METHOD": method,
            "PATH_INFO": target,
            "QUERY_STRING": query,
            "SERVER_NAME": "127.0.0.1",
            "SERVER_PORT": "80",
            "SERVER_PROTOCOL": "HTTP/1.1",
            "REMOTE_ADDR": "127.0.0.1",
            "wsgi.url_scheme": "http",
            "wsgi.input": io.BytesIO(body or b""),
            "wsgi.errors": sys.stderr,
            "wsgi.multithread": True,
            "wsgi.multiprocess": True,
            "wsgi.run_once": False,
            "wsgi.version": (1, 0),
            "CONTENT_LENGTH": str(len(body or b"")),
            "HTTP_HOST": "127.0.0.1",
        }
        for name, value in headers.items():
            if name == "Content-Type":
                environ["CONTENT_TYPE"] = value
            else:
                environ["HTTP_" + name.upper().replace("-", "_")] = value
        answer: dict = {}

        def start_response(status: str, response_headers: list, exc_info: object = None) -> None:
            answer["status"], answer["headers"] = int(status.split()[0]), response_headers

        started = time.process_time()
        response = application(environ, start_response)
        try:
            content = b"".join(response)
        finally:
            response.close()
        self.cpu_ms.append((time.process_time() - started) * 1000)
        self._keep([value for name, value in answer["headers"] if name.lower() == "set-cookie"])
        location = next(
            (value for name, value in answer["headers"] if name.lower() == "location"), None
        )
        return answer["status"], location, content


class User(loadtest.User):
    def __init__(self, number: int) -> None:
        super().__init__("http://127.0.0.1", loadtest.random.Random(number))
        self.browser = WsgiBrowser("http://127.0.0.1")


def one_round(users: list[User], shared: list[str], tables: list[str], kind: str) -> list[float]:
    """Each user does ``kind`` once: the CPU time of each request, in ms."""
    spent = []
    for user in users:
        before = len(user.browser.cpu_ms)
        user.act(shared, tables, kind)
        assert user.results[-1][2] < 400, (kind, user.results[-1])
        spent.append(sum(user.browser.cpu_ms[before:]))
    return spent


def drawn_round(users: list[User], shared: list[str], tables: list[str], count: int) -> dict:
    """``count`` requests of kinds drawn as the load client draws them, users in turn: the
    CPU time of each, by kind (a list's PDF follows its edits, as under the load)."""
    spent: dict[str, list[float]] = {kind: [] for kind in loadtest.WEIGHTS}
    for number in range(count):
        user = users[number % len(users)]
        before, done = len(user.browser.cpu_ms), len(user.results)
        user.act(shared, tables)
        if len(user.results) > done:
            kind, _, status = user.results[-1]
            assert status < 400, user.results[-1]
            spent[kind].append(sum(user.browser.cpu_ms[before:]))
    return spent


def measure(
    users: list[User], shared: list[str], tables: list[str], kinds: list[str], switch: Any
) -> dict[str, dict[str, list[float]]]:
    """The CPU time of each request, by variant ("before" and "after" with --toggle,
    interleaved round by round in this process, their order turned each round so that the
    machine's load drifting falls on both alike) and kind."""
    variants = ["before", "after"] if switch else ["this tree"]
    samples = {variant: {kind: [] for kind in kinds} for variant in variants}
    profiler = cProfile.Profile() if ARGS.profile else None
    for number in range(ARGS.rounds + 1):
        for variant in variants if number % 2 else variants[::-1]:
            if switch:
                switch(variant == "after")
            if ARGS.drawn:
                drawn = drawn_round(users, shared, tables, ARGS.drawn)
                if number:
                    for kind, spent in drawn.items():
                        samples[variant][kind] += spent
                continue
            for kind in kinds:
                if profiler and kind == ARGS.profile and number:
                    profiler.enable()
                spent = one_round(users, shared, tables, kind)
                if profiler:
                    profiler.disable()
                if number:
                    samples[variant][kind] += spent
    if profiler:
        out = io.StringIO()
        stats = pstats.Stats(profiler, stream=out)
        stats.sort_stats("cumulative").print_stats(ARGS.lines)
        stats.sort_stats("tottime").print_stats(ARGS.lines)
        print(out.getvalue())
    return samples


def report(samples: dict[str, list[float]], kinds: list[str], extra: Any) -> list[str]:
    """One variant's table: each kind's median and mean, the mix weighted as the client
    weighs it (and, drawn, the mean of every request)."""
    weights = loadtest.WEIGHTS
    medians = {kind: statistics.median(values or [0]) for kind, values in samples.items()}
    means = {kind: statistics.fmean(values or [0]) for kind, values in samples.items()}
    lines = []
    for kind in kinds:
        line = f"| {kind} ({weights[kind]} %) | {medians[kind]:.2f} | {means[kind]:.2f} |"
        line += f" {len(samples[kind])} |" + extra(kind)
        lines.append(line)
    if len(kinds) == len(weights):
        total = sum(weights.values())
        mix_median = sum(medians[k] * weights[k] for k in kinds) / total
        mix_mean = sum(means[k] * weights[k] for k in kinds) / total
        lines.append(f"| **the mix, weighted** | **{mix_median:.2f}** | **{mix_mean:.2f}** | |")
    if ARGS.drawn:
        every = [value for values in samples.values() for value in values]
        lines.append(f"| every request drawn (mean) | | **{statistics.fmean(every):.2f}** | |")
    return lines


def load_toggle(path: str) -> Any:
    """``switch(on)`` from a Python file of one's own: puts a change in (True) or takes it
    out (False) in this process, e.g. a setting and the middleware built again."""
    namespace: dict[str, Any] = {"application": application}
    exec(compile(Path(path).read_text(), path, "exec"), namespace)
    return namespace["switch"]


def main() -> int:
    print(
        f"{time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC, {platform.machine()}, "
        f"{os.cpu_count()} cores, Python {platform.python_version()}, {ROOT}; "
        f"load average {os.getloadavg()[0]:.2f}",
        flush=True,
    )
    users = [User(n) for n in range(ARGS.users)]
    shared: list[str] = []
    tables = [loadtest.share_table(users[0], seed) for seed in (1, 2, 3)]
    for user in users:
        user.setup(shared)
    assert len(shared) == len(users) and all(tables), (shared, tables)

    kinds = [kind for kind in loadtest.WEIGHTS if not ARGS.kinds or kind in ARGS.kinds.split(",")]
    switch = load_toggle(ARGS.toggle) if ARGS.toggle else None
    measured = measure(users, shared, tables, kinds, switch)

    def queries(kind: str) -> str:
        if not ARGS.queries:
            return ""
        with CaptureQueriesContext(connection) as captured:
            one_round(users[:1], shared, tables, kind)
        sql = "".join("\n    " + query["sql"][:300] for query in captured) if ARGS.sql else ""
        return f" {len(captured)} |" + sql

    for variant, samples in measured.items():
        print(f"\n{variant}:\n")
        print(
            "| Kind (share of the mix) | CPU ms median | mean | requests |"
            + (" queries |" if ARGS.queries else "")
        )
        print("|---|---|---|---|" + ("---|" if ARGS.queries else ""))
        print(
            "\n".join(
                report(samples, kinds, queries if variant == list(measured)[-1] else lambda k: "")
            )
        )
    print(f"\nload average after: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
