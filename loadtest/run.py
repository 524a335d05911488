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
import http.cookiejar
import json
import random
import re
import statistics
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import defaultdict

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


class User:
    def __init__(self, base: str, results: dict, lock: threading.Lock, rng: random.Random) -> None:
        self.base = base
        self.results = results
        self.lock = lock
        self.rng = rng
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.force = 0
        self.version = 0
        self.troopers = 3

    def csrf(self) -> str:
        return next((c.value for c in self.jar if c.name == "csrftoken"), "")

    def request(
        self, kind: str | None, path: str, data: dict | None = None, htmx: bool = False
    ) -> tuple[int, bytes, str]:
        headers = {"X-CSRFToken": self.csrf(), "Referer": self.base + "/"}
        if htmx:
            headers["HX-Request"] = "true"
        body = urllib.parse.urlencode(data, doseq=True).encode() if data is not None else None
        request = urllib.request.Request(self.base + path, data=body, headers=headers)
        start = time.perf_counter()
        try:
            with self.opener.open(request, timeout=30) as response:
                status, content, url = response.status, response.read(), response.url
        except urllib.error.HTTPError as error:
            status, content, url = error.code, error.read(), path
        except (urllib.error.URLError, TimeoutError, ConnectionError) as error:
            status, content, url = 599, str(error).encode(), path
        elapsed = (time.perf_counter() - start) * 1000
        if kind is not None:
            with self.lock:
                self.results[kind].append((elapsed, status))
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
        _, page, _ = self.request(None, f"/forces/{self.force}/")
        match = SHARE.search(page)
        if match:
            with self.lock:
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

    def act(self, shared_codes: list[str], table_codes: list[str]) -> None:
        kind = self.rng.choices(list(WEIGHTS), list(WEIGHTS.values()))[0]
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


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(share * len(ordered)) - 1))]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", default="http://127.0.0.1:8000")
    parser.add_argument("--users", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--label", default="")
    args = parser.parse_args()
    host = urllib.parse.urlparse(args.base).hostname or ""
    if not (host == "localhost" or host.startswith("127.") or host == "::1"):
        raise SystemExit("load tests only target this machine (loopback addresses)")

    lock = threading.Lock()
    results: dict[str, list[tuple[float, int]]] = defaultdict(list)
    shared_codes: list[str] = []
    table_codes: list[str] = []
    users = [User(args.base, results, lock, random.Random(n)) for n in range(args.users)]

    # A few shared tables to check line of fire on.
    organiser = users[0]
    for seed in (1, 2, 3):
        organiser.request(None, "/tables/new/")
        _, page, _url = organiser.request(
            None,
            "/tables/save/",
            {"seed": seed, "coverage": 0.45, "symmetry": "point", "mix": "balanced"},
        )
        match = re.search(rb'href="/t/([A-Za-z0-9_-]+)/"', page)
        if match:
            table_codes.append(match.group(1).decode())
    setup_threads = [threading.Thread(target=u.setup, args=(shared_codes,)) for u in users]
    for t in setup_threads:
        t.start()
    for t in setup_threads:
        t.join()

    stop = time.monotonic() + args.seconds

    def run(user: User) -> None:
        time.sleep(user.rng.uniform(0, 2))
        while time.monotonic() < stop:
            user.act(shared_codes, table_codes)
            time.sleep(user.rng.uniform(1.0, 3.0))

    started = time.monotonic()
    threads = [threading.Thread(target=run, args=(u,)) for u in users]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    duration = time.monotonic() - started

    total = sum(len(v) for v in results.values())
    errors = sum(1 for v in results.values() for _, status in v if status >= 400)
    report = {
        "label": args.label,
        "users": args.users,
        "seconds": round(duration, 1),
        "requests": total,
        "throughput_per_s": round(total / duration, 1),
        "errors": errors,
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
