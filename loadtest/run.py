"""Drive a running site with concurrent users and report throughput, latency and errors.

Each user is a browser of its own (cookies, CSRF token) that builds a list without an
account, then for the whole run mixes: viewing other users' shared lists, editing its
list (htmx editor changes), printing its roster (print view and PDF), generating tables
and checking a shared table's line of fire. Users pause 1-3 s between actions.

    .venv/bin/python loadtest/run.py --base http://127.0.0.1:8000 --users 100 --seconds 60

Only loopback addresses are accepted: this is for the project's own server.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import http.client
import ipaddress
import json
import os
import random
import re
import statistics
import threading
import time
import urllib.parse
from collections import defaultdict
from pathlib import Path

VERSION = re.compile(rb'name="version" value="(\d+)"')
SHARE = re.compile(rb'href="/s/([A-Za-z0-9_-]+)/"')
WEIGHTS = {
    "view shared list": 30,
    "editor change": 35,
    "print roster": 8,
    "roster pdf": 2,
    "generate table": 15,
    "check table line of fire": 10,
}


class Browser:
    """One visitor's browser: its cookies and one kept-alive connection, as a browser keeps.

    A connection of its own per user (http.client), not urllib's opener: urllib opened a new
    connection for every request and ran every cookie through http.cookiejar, and the client
    shares the server's two cores, so what it spends per request is taken from the server."""

    def __init__(self, base: str) -> None:
        parsed = urllib.parse.urlsplit(base)
        self.host, self.port = parsed.hostname or "127.0.0.1", parsed.port or 80
        self.referer = base.rstrip("/") + "/"
        self.cookies: dict[str, str] = {}
        self.connection: http.client.HTTPConnection | None = None

    def csrf(self) -> str:
        return self.cookies.get("csrftoken", "")

    def _keep(self, set_cookies: list[str]) -> None:
        for header in set_cookies:
            pair, _, attributes = header.partition(";")
            name, _, value = pair.strip().partition("=")
            if value and "max-age=0" not in attributes.lower().replace(" ", ""):
                self.cookies[name] = value
            else:
                self.cookies.pop(name, None)

    def _send(self, method: str, path: str, body: bytes | None, headers: dict) -> tuple:
        """One exchange; once more on a new connection if a kept-alive one was closed
        before it answered (nginx closes idle ones after 30 s, a browser does the same)."""
        for attempt in (1, 2):
            reused = self.connection is not None
            if self.connection is None:
                self.connection = http.client.HTTPConnection(self.host, self.port, timeout=30)
            try:
                self.connection.request(method, path, body=body, headers=headers)
                response = self.connection.getresponse()
                content = response.read()
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                self.close()
                if attempt == 2 or not reused:
                    raise
                continue
            except BaseException:
                self.close()
                raise
            if response.will_close:
                self.close()
            self._keep(response.headers.get_all("Set-Cookie") or [])
            return response.status, response.headers.get("Location"), content
        raise AssertionError("unreachable")

    def fetch(
        self, path: str, data: dict | None = None, htmx: bool = False
    ) -> tuple[int, bytes, str]:
        """GET (or POST the form ``data``) and follow redirects as a browser does: the
        status and body of the last answer, and its path."""
        headers = {"X-CSRFToken": self.csrf(), "Referer": self.referer}
        if htmx:
            headers["HX-Request"] = "true"
        method, body = "GET", None
        if data is not None:
            method, body = "POST", urllib.parse.urlencode(data, doseq=True).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        for _ in range(10):
            if self.cookies:
                headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
            status, location, content = self._send(method, path, body, headers)
            if status not in (301, 302, 303, 307, 308) or not location:
                return status, content, path
            path = urllib.parse.urlsplit(location)._replace(scheme="", netloc="").geturl()
            if status in (301, 302, 303):
                method, body = "GET", None
                headers.pop("Content-Type", None)
            headers["X-CSRFToken"] = self.csrf()
        return 599, b"too many redirects", path

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None


class User:
    def __init__(self, base: str, rng: random.Random) -> None:
        self.browser = Browser(base)
        # (kind, milliseconds, status) of every recorded request: this user's own list,
        # gathered when the run is over (no lock taken per request).
        self.results: list[tuple[str, float, int]] = []
        self.rng = rng
        self.force = 0
        self.version = 0
        self.troopers = 3

    def request(
        self, kind: str | None, path: str, data: dict | None = None, htmx: bool = False
    ) -> tuple[int, bytes, str]:
        start = time.perf_counter()
        try:
            status, content, url = self.browser.fetch(path, data, htmx)
        except (OSError, http.client.HTTPException) as error:
            status, content, url = 599, str(error).encode(), path
        elapsed = (time.perf_counter() - start) * 1000
        if kind is not None:
            self.results.append((kind, elapsed, status))
        return status, content, url

    def setup(self, shared_codes: list[str]) -> None:
        self.request(None, "/forces/new/")
        _, _, url = self.request(
            None,
            "/forces/new/",
            {"name": "Load list", "faction": "solar-concord", "points_limit": 75},
        )
        self.force = int(url.rstrip("/").split("/")[-1])
        self.edit({"action": "add-unit", "unit_type": "medium-infantry"}, record=False)
        self.edit({"action": "set-class", "unit": 0, "trooper": 0, "class": "hacker"}, record=False)
        # Lists are private until shared (since 2026-11-25): share it, as a player does
        # before sending the link, so that others' views of it find it.
        _, page, _ = self.request(None, f"/forces/{self.force}/sharing/", {"change": "on"})
        match = SHARE.search(page)
        if match:
            shared_codes.append(match.group(1).decode())

    def edit(self, data: dict, record: bool = True) -> None:
        _status, content, _ = self.request(
            "editor change" if record else None,
            f"/forces/{self.force}/edit/",
            data | {"version": self.version},
            htmx=True,
        )
        match = VERSION.search(content)
        if match:
            self.version = int(match.group(1))
        elif record and self.results[-1][2] < 400:
            # An answer without the list's new version is no editor the user can go on with.
            self.results[-1] = ("editor change", self.results[-1][1], 598)

    def act(
        self,
        shared_codes: list[str],
        table_codes: list[str],
        kind: str = "",
        weights: dict[str, int] = WEIGHTS,
    ) -> None:
        """One action of the mix: ``kind``, or one drawn by the mix's weights."""
        kind = kind or self.rng.choices(list(weights), list(weights.values()))[0]
        if kind == "view shared list" and shared_codes:
            self.request(kind, f"/s/{self.rng.choice(shared_codes)}/")
        elif kind == "editor change":
            # Keep the list between 3 and 6 troopers: add, or remove the last one.
            if self.troopers < 6 and (self.troopers == 3 or self.rng.random() < 0.5):
                self.edit({"action": "add-trooper", "unit": 0})
                self.troopers += 1
            else:
                self.edit({"action": "remove-trooper", "unit": 0, "trooper": self.troopers - 1})
                self.troopers -= 1
        elif kind == "print roster":
            self.request(kind, f"/forces/{self.force}/roster/")
        elif kind == "roster pdf":
            self.request(kind, f"/forces/{self.force}/roster.pdf")
        elif kind == "generate table":
            query = urllib.parse.urlencode(
                {
                    "seed": self.rng.randrange(10**6),
                    "coverage": 0.45,
                    "symmetry": self.rng.choice(["point", "mirror"]),
                    "mix": "balanced",
                }
            )
            self.request(kind, f"/tables/new/?{query}")
        elif kind == "check table line of fire" and table_codes:
            hex_ = f"{self.rng.randrange(0, 8)},{self.rng.randrange(0, 10)}"
            self.request(kind, f"/t/{self.rng.choice(table_codes)}/?mode=lof&from={hex_}")


def share_table(organiser: User, seed: int) -> str:
    """Save the table of ``seed`` and share it; its share code ("" if that failed). On a busy
    machine the table can take longer than the request's second: the worker makes it and
    the save is asked again, as the page tells its user."""
    organiser.request(None, "/tables/new/")
    for _ in range(30):
        _, page, url = organiser.request(
            None,
            "/tables/save/",
            {"seed": seed, "coverage": 0.45, "symmetry": "point", "mix": "balanced"},
        )
        if re.fullmatch(r"/tables/\d+/", url):
            break
        time.sleep(1)
    else:
        return ""
    # Private until shared, as lists are.
    _, page, _ = organiser.request(None, url + "sharing/", {"change": "on"})
    match = re.search(rb'href="/t/([A-Za-z0-9_-]+)/"', page)
    return match.group(1).decode() if match else ""


def descendants(pid: int) -> list[int]:
    """The process and all its descendants (Linux's /proc)."""
    found, todo = [], [pid]
    while todo:
        parent = todo.pop()
        found.append(parent)
        for task in Path(f"/proc/{parent}/task").glob("*"):
            with contextlib.suppress(OSError):
                todo += [int(child) for child in (task / "children").read_text().split()]
    return found


def cpu_seconds(pids: list[int]) -> float:
    """User and system CPU time these processes have used so far (Linux's /proc)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError, IndexError, ValueError):
            fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
            total += int(fields[11]) + int(fields[12])
    return total / ticks


def run_timed(threads: list[threading.Thread], server: list[int]) -> tuple[float, float, float]:
    """Start the threads and wait for them all: the seconds it took, and the CPU seconds the
    server's processes (``server``) and this client used meanwhile."""
    server_cpu, client_cpu = cpu_seconds(server), time.process_time()
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    duration = time.monotonic() - started
    return duration, cpu_seconds(server) - server_cpu, time.process_time() - client_cpu


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(share * len(ordered)) - 1))]


def loopback(base: str) -> bool:
    """Whether ``base`` names this machine: localhost, or a loopback address written as an
    address (a name that merely starts with "127." may be anyone's)."""
    host = urllib.parse.urlparse(base).hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def mix(text: str) -> dict[str, int]:
    """``"kind=weight,kind=weight"``: the kinds of WEIGHTS, each with a weight of 0 or more."""
    weights: dict[str, int] = {}
    for item in text.split(","):
        kind, _, weight = item.partition("=")
        kind = kind.strip()
        if kind not in WEIGHTS:
            raise argparse.ArgumentTypeError(f"{kind!r} is none of {', '.join(WEIGHTS)}")
        try:
            weights[kind] = int(weight)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{item!r}: a weight is a whole number") from None
        if weights[kind] < 0:
            raise argparse.ArgumentTypeError(f"{item!r}: a weight is 0 or more")
    if not any(weights.values()):
        raise argparse.ArgumentTypeError("at least one kind needs a weight above 0")
    return weights


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", default="http://127.0.0.1:8000")
    parser.add_argument("--users", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--label", default="")
    parser.add_argument(
        "--server-pid",
        type=int,
        default=0,
        help="the server's top process (on this machine): report its CPU time per request",
    )
    parser.add_argument(
        "--mix",
        type=mix,
        default=WEIGHTS,
        help='weights by kind instead of the mix\'s, e.g. "editor change=35,roster pdf=30" '
        "(kinds left out are not sent)",
    )
    args = parser.parse_args()
    if not loopback(args.base):
        raise SystemExit("load tests only target this machine (loopback addresses)")

    shared_codes: list[str] = []
    table_codes: list[str] = []
    users = [User(args.base, random.Random(n)) for n in range(args.users)]

    # A few shared tables to check line of fire on.
    organiser = users[0]
    for seed in (1, 2, 3):
        code = share_table(organiser, seed)
        if code:
            table_codes.append(code)
    # Sixteen users set up at a time: hundreds at once (each making, editing and sharing a
    # list) kept requests waiting past the client's 30 s on a busy machine.
    with concurrent.futures.ThreadPoolExecutor(16) as pool:
        list(pool.map(lambda user: user.setup(shared_codes), users))
    if len(table_codes) < 3 or len(shared_codes) < len(users):
        # Without them two kinds of the mix would send nothing and the load would be lighter
        # than it says.
        raise SystemExit(
            f"set-up failed: {len(shared_codes)} of {len(users)} lists and "
            f"{len(table_codes)} of 3 tables shared"
        )

    stop = time.monotonic() + args.seconds

    def run(user: User) -> None:
        time.sleep(user.rng.uniform(0, 2))
        while time.monotonic() < stop:
            user.act(shared_codes, table_codes, weights=args.mix)
            time.sleep(user.rng.uniform(1.0, 3.0))

    server = descendants(args.server_pid) if args.server_pid else []
    threads = [threading.Thread(target=run, args=(u,)) for u in users]
    duration, server_cpu, client_cpu = run_timed(threads, server)
    for user in users:
        user.browser.close()
    results: dict[str, list[tuple[float, int]]] = defaultdict(list)
    for user in users:
        for kind, elapsed, status in user.results:
            results[kind].append((elapsed, status))

    total = sum(len(v) for v in results.values())
    errors = sum(1 for v in results.values() for _, status in v if status >= 400)
    report = {
        "label": args.label,
        "users": args.users,
        "seconds": round(duration, 1),
        "requests": total,
        "throughput_per_s": round(total / duration, 1),
        "errors": errors,
        # CPU time per request over the timed run (not the set-up): what the cores can carry
        # whatever else the machine runs meanwhile. The server's counts nginx, gunicorn and
        # the task worker.
        "client_cpu_ms_per_request": round(client_cpu * 1000 / max(1, total), 2),
        **(
            {"server_cpu_ms_per_request": round(server_cpu * 1000 / max(1, total), 2)}
            if server
            else {}
        ),
        "kinds": {
            kind: {
                "requests": len(values),
                "p50_ms": round(statistics.median([v for v, _ in values]), 1),
                "p95_ms": round(percentile([v for v, _ in values], 0.95), 1),
                "errors": sum(1 for _, s in values if s >= 400),
            }
            for kind, values in sorted(results.items())
        },
    }
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
