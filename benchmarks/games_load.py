"""200 games played at once against `make serve`'s own stack (issue 33), measured.

Starts what `make serve` starts (benchmarks/load.py: its environment, nginx, gunicorn with
one worker a core, the task worker; DEBUG off) on a free port over a throw-away SQLite
database, and plays GAMES games at once, each on two phones, as the game's page does:

- each phone polls `live/?since=<the version it shows>` once a second (htmx's `every 1s`;
  with the trooper it has open, as the page's poll carries it): a 204 while the game has
  not moved, the turn's region when it has;
- the active side's phone takes the turn's steps at a player's pace (one every PACE
  seconds on average, 0.5 to 1.5 times it): the AP card, four troopers each tapped (their
  panel drawn) and given a move and a shot, sometimes a wound on an enemy trooper on the
  table and a VP, then the pass. Each step is a tap's request (htmx, the region back) on
  the version the phone shows; the other phone takes over once its poll has shown the pass.

The players' accounts, sessions and lists are made before the run (a sign-in per phone
would time the password hash, not the game); each game is started and joined through the
contract (`POST /games/new/`, `POST /games/<code>/join/`). It reports requests/s, errors,
each kind's p50 / p95, the server's CPU (nginx, gunicorn, the task worker) per request and
per game-second, and how long after a step was tapped the other phone showed it (p50 /
p95), with the machine's load average beside: the client runs on the same cores.

    .venv/bin/python benchmarks/games_load.py                    # 200 games, 120 s
    .venv/bin/python benchmarks/games_load.py --games 5 --seconds 20    # a quick try
    .venv/bin/python benchmarks/games_load.py --root /tmp/other-checkout  # serve another tree

The target (the issue's): a step's server time (gunicorn's own, from its access log) at
most 20 ms median; each phone sees the other's step within 2 seconds.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import datetime
import json
import os
import platform
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.load import (  # noqa: E402
    free_port,
    serve_env,
    start_server,
    stop_server,
    wait_until_up,
)
from loadtest.run import Browser, descendants, percentile, run_timed  # noqa: E402

LIST = ROOT / "benchmarks" / "game_list.json"
STEP_TARGET_MS = 20.0
SYNC_TARGET_S = 2.0
POLL_SECONDS = 1.0
VERSION = re.compile(rb'id="turn"[^>]*data-version="(\d+)"')
GAME_PATH = re.compile(r"^/games/([A-Za-z0-9_-]+)/$")


# --- The players, made in the server's database before the run -----------------------------


def make_players(games: int) -> list[dict]:
    """Two accounts a game, each signed in (a session), and side A's list. Runs in a process
    of its own with the server's environment (Django set up on its database)."""
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client

    from forcebuilder.models import Force
    from onefinity.rules import read_force_document

    document = json.loads(LIST.read_text())
    spec = read_force_document(document)
    users = get_user_model().objects
    found = []
    for n in range(games):
        pair = {}
        for side in ("a", "b"):
            user = users.create_user(f"player-{n}-{side}", f"p{n}{side}@example.com")
            client = Client()
            client.force_login(user)
            pair[side] = client.cookies[settings.SESSION_COOKIE_NAME].value
        owner = users.get(username=f"player-{n}-a")
        pair["list"] = Force.create_from_spec(
            spec, document["ruleset"], document["points_limit"], owner=owner
        ).pk
        found.append(pair)
    return found


def players(root: Path, env: dict[str, str], games: int) -> list[dict]:
    done = subprocess.run(
        [sys.executable, str(root / "benchmarks" / "games_load.py"), "--make-players", str(games)],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode:
        raise SystemExit(f"making the players failed: {done.stderr.strip()[-2000:]}")
    return json.loads(done.stdout)


# --- The games, as the client sees them --------------------------------------------------------


@dataclass
class Table:
    """One game as both its phones know it: the troopers, what the steps did, and when each
    version was tapped (to time the other phone)."""

    code: str
    troopers: dict[str, list[str]]
    rng: random.Random
    active: str | None = None
    # The version from which the active side's phone may go on (it has seen the pass).
    turn_from: int = 0
    on_table: set[str] = field(default_factory=set)
    hurt: set[str] = field(default_factory=set)
    vp: dict[str, int] = field(default_factory=lambda: {"a": 0, "b": 0})
    tapped_at: dict[int, float] = field(default_factory=dict)
    passes: int = 0

    def turn(self, side: str) -> list[tuple[str, ...]]:
        """The active side's turn: what it will do, in order."""
        plan: list[tuple[str, ...]] = [("ap", str(self.rng.randint(8, 13)))]
        fit = [t for t in self.troopers[side] if t not in self.hurt]
        for trooper in self.rng.sample(fit, min(4, len(fit))):
            plan += [("act", trooper, "move"), ("act", trooper, "shoot")]
        if self.rng.random() < 0.3:
            plan.append(("wound",))
        if self.rng.random() < 0.3:
            plan.append(("vp",))
        return [*plan, ("pass",)]


class Phone:
    """One player's phone: a browser (cookies, a kept-alive connection), the version its
    page shows, the trooper it has open, and its own record of every request."""

    def __init__(self, base: str, session: str, side: str, rng: random.Random) -> None:
        self.browser = Browser(base)
        self.browser.cookies["sessionid"] = session
        self.side = side
        self.rng = rng
        self.table: Table | None = None
        self.shown = 0
        self.chosen = ""
        self.plan: list[tuple[str, ...]] = []
        self.results: list[tuple[str, float, int]] = []
        self.sync_delays: list[float] = []

    def request(
        self, kind: str | None, path: str, data: dict | None = None, htmx: bool = False
    ) -> tuple[int, bytes, str]:
        started = time.perf_counter()
        try:
            status, content, url = self.browser.fetch(path, data, htmx)
        except OSError as error:
            status, content, url = 599, str(error).encode(), path
        if kind is not None:
            self.results.append((kind, (time.perf_counter() - started) * 1000, status))
        return status, content, url

    # Setting up: side A starts the game through the contract, side B joins it.

    def start(self, list_id: int, vp_target: int) -> str:
        self.request(None, "/games/")
        fields = {"list_a": list_id, "list_b": list_id, "vp_target": vp_target}
        status, _, url = self.request("open the game page", "/games/new/", fields)
        found = GAME_PATH.match(url)
        if status != 200 or not found:
            raise SystemExit(f"starting a game failed: {status} at {url}")
        return found[1]

    def join(self, code: str) -> None:
        self.request(None, f"/games/{code}/join/")
        status, _, url = self.request("open the game page", f"/games/{code}/join/", {})
        if status != 200 or url != f"/games/{code}/":
            raise SystemExit(f"joining a game failed: {status} at {url}")

    # Playing.

    def poll(self) -> None:
        assert self.table is not None
        path = f"/games/{self.table.code}/live/?since={self.shown}"
        if self.chosen:
            path += f"&trooper={self.chosen}"
        started = time.monotonic()
        status, content, _ = self.request(None, path, htmx=True)
        kind = "poll, game unchanged (204)" if status == 204 else "poll, game moved (region)"
        self.results.append((kind, (time.monotonic() - started) * 1000, status))
        if status != 200:
            return
        found = VERSION.search(content)
        if found is None:
            self.results[-1] = (kind, self.results[-1][1], 598)
            return
        version = int(found[1])
        seen_at = time.monotonic()
        for shown in range(self.shown + 1, version + 1):
            tapped = self.table.tapped_at.get(shown)
            if tapped is not None:
                self.sync_delays.append(seen_at - tapped)
        self.shown = max(self.shown, version)

    def my_turn(self) -> bool:
        table = self.table
        assert table is not None
        if table.active is None:
            return self.side == "a"
        return table.active == self.side and self.shown >= table.turn_from

    def tap(self, trooper: str) -> None:
        """Open a trooper's panel (the region drawn with it)."""
        assert self.table is not None
        if self.chosen == trooper:
            return
        self.chosen = trooper
        query = f"?trooper={trooper}"
        self.request("tap a trooper (its panel)", f"/games/{self.table.code}/{query}", htmx=True)

    def next_step(self) -> dict[str, str] | None:
        """The fields of the plan's next step (a tap first where the page needs one)."""
        table = self.table
        assert table is not None
        if table.active is None:
            return {"kind": "first", "side": "a"}
        if not self.plan:
            self.plan = table.turn(self.side)
        item = self.plan.pop(0)
        if item[0] == "ap":
            return {"kind": "ap", "value": item[1]}
        if item[0] == "act":
            self.tap(item[1])
            return {"kind": "act", "trooper": item[1], "action": item[2], "selected": item[1]}
        if item[0] == "wound":
            enemy = "b" if self.side == "a" else "a"
            targets = [t for t in table.troopers[enemy] if t in table.on_table - table.hurt]
            if not targets:
                return None
            target = table.rng.choice(targets)
            self.tap(target)
            return {"kind": "wound", "trooper": target, "count": "1", "selected": target}
        if item[0] == "vp":
            return {"kind": "vp", "side": self.side, "value": str(table.vp[self.side] + 1)}
        return {"kind": "pass"}

    def step(self, fields: dict[str, str]) -> None:
        table = self.table
        assert table is not None
        tapped = time.monotonic()
        status, content, _ = self.request(
            "step (a tap, the region back)",
            f"/games/{table.code}/steps/",
            {**fields, "version": self.shown},
            htmx=True,
        )
        found = VERSION.search(content)
        if status != 200 or found is None:
            if found is not None:
                self.shown = int(found[1])
            if status == 200:
                self.results[-1] = (self.results[-1][0], self.results[-1][1], 598)
            return
        self.shown = int(found[1])
        table.tapped_at[self.shown] = tapped
        if "selected" not in fields:
            self.chosen = ""
        kind = fields["kind"]
        if kind == "act":
            table.on_table.add(fields["trooper"])
        elif kind == "wound":
            table.hurt.add(fields["trooper"])
        elif kind == "vp":
            table.vp[self.side] += 1
        elif kind == "first":
            table.active, table.turn_from = "a", self.shown
        elif kind == "pass":
            table.passes += 1
            table.turn_from = self.shown
            table.active = "b" if self.side == "a" else "a"

    def play(self, stop: float, pace: float) -> None:
        now = time.monotonic()
        next_poll = now + self.rng.uniform(0, POLL_SECONDS)
        next_step = now + self.rng.uniform(0, pace)
        while now < stop:
            due_step = next_step if self.my_turn() else stop
            time.sleep(max(0.0, min(next_poll, due_step, stop) - now))
            now = time.monotonic()
            if now >= stop:
                break
            if now >= next_poll:
                next_poll = max(next_poll + POLL_SECONDS, now)
                self.poll()
            elif self.my_turn() and now >= next_step:
                fields = self.next_step()
                if fields is not None:
                    self.step(fields)
                next_step = time.monotonic() + pace * self.rng.uniform(0.5, 1.5)
            now = time.monotonic()


# --- The run --------------------------------------------------------------------------------


def set_up(base: str, made: list[dict], workers: int) -> list[tuple[Phone, Phone]]:
    """Each game started by side A's phone and joined by side B's, sixteen at a time."""

    def one(n: int) -> tuple[Phone, Phone]:
        a = Phone(base, made[n]["a"], "a", random.Random(2 * n))
        b = Phone(base, made[n]["b"], "b", random.Random(2 * n + 1))
        code = a.start(made[n]["list"], vp_target=99)
        b.join(code)
        status, content, _ = a.request(None, f"/games/{code}/state.json")
        if status != 200:
            raise SystemExit(f"the state of game {code} did not read: {status}")
        state = json.loads(content)
        troopers = {
            side: [t["id"] for t in state["troopers"] if t["side"] == side] for side in "ab"
        }
        a.table = b.table = Table(code, troopers, random.Random(n))
        return a, b

    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        return list(pool.map(one, range(len(made))))


# gunicorn's access line (deploy/serve.py's ACCESS_LOG): the request and its time in the
# server, from its first byte read to its answer written.
STEP_LINE = re.compile(rb'"POST /games/[A-Za-z0-9_-]+/steps/ [^"]*" (\d{3}) \S+ (\d+)ms')


def server_step_ms(log: Path) -> list[float]:
    """Each step's time inside gunicorn, from the stack's log (only the run takes steps:
    the set-up starts and joins games)."""
    if not log.exists():
        return []
    return [float(m.group(2)) for m in STEP_LINE.finditer(log.read_bytes())]


def summary(values: list[float]) -> dict[str, float]:
    return {
        "p50": round(statistics.median(values), 1) if values else 0.0,
        "p95": round(percentile(values, 0.95), 1) if values else 0.0,
    }


def play_all(pairs: list[tuple[Phone, Phone]], seconds: float, pace: float, server: int) -> dict:
    phones = [phone for pair in pairs for phone in pair]
    for phone in phones:
        phone.results.clear()  # the set-up's requests are not the run's
    pids = descendants(server)
    load_before = os.getloadavg()[0]
    stop = time.monotonic() + seconds
    threads = [threading.Thread(target=p.play, args=(stop, pace)) for p in phones]
    duration, server_cpu, client_cpu = run_timed(threads, pids)
    for phone in phones:
        phone.browser.close()
    kinds: dict[str, list[tuple[float, int]]] = defaultdict(list)
    for phone in phones:
        for kind, ms, status in phone.results:
            kinds[kind].append((ms, status))
    total = sum(len(v) for v in kinds.values())
    steps = [ms for ms, _ in kinds.get("step (a tap, the region back)", [])]
    delays = [d * 1000 for phone in phones for d in phone.sync_delays]
    game_seconds = len(pairs) * duration
    return {
        "games": len(pairs),
        "phones": len(phones),
        "pace_s": pace,
        "seconds": round(duration, 1),
        "requests": total,
        "requests_per_s": round(total / duration, 1),
        "errors": sum(1 for v in kinds.values() for _, s in v if s >= 400),
        "turns_passed": sum(pair[0].table.passes for pair in pairs if pair[0].table),
        "server_cpu_ms_per_request": round(server_cpu * 1000 / max(1, total), 2),
        "server_cpu_ms_per_game_second": round(server_cpu * 1000 / game_seconds, 2),
        "server_cores_busy": round(server_cpu / duration, 2),
        "client_cpu_ms_per_request": round(client_cpu * 1000 / max(1, total), 2),
        "step_ms": summary(steps),
        "step_target_median_ms": STEP_TARGET_MS,
        "other_phone_sees_a_step_ms": {**summary(delays), "count": len(delays)},
        "sync_target_ms": SYNC_TARGET_S * 1000,
        "kinds": {
            kind: {
                "requests": len(values),
                **{f"{k}_ms": v for k, v in summary([ms for ms, _ in values]).items()},
                "errors": sum(1 for _, s in values if s >= 400),
            }
            for kind, values in sorted(kinds.items())
        },
        "load_before": round(load_before, 2),
        "load_after": round(os.getloadavg()[0], 2),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=120)
    parser.add_argument("--pace", type=float, default=10.0, help="mean seconds between steps")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 2, help="gunicorn's")
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout to serve")
    parser.add_argument("--json", type=Path, default=None, help="also write the report here")
    parser.add_argument("--make-players", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.make_players:
        print(json.dumps(make_players(args.make_players)))
        return 0

    folder = Path(tempfile.mkdtemp(prefix="onefinity-games-load-"))
    # One key for the server and the process that signs the players in (serve_env makes a
    # new one each call when the checkout has none).
    os.environ["SECRET_KEY"] = serve_env(ROOT, folder)["SECRET_KEY"]
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    when = datetime.datetime.now(datetime.UTC)
    print(
        f"{when:%Y-%m-%d %H:%M} UTC, {platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, {args.workers} gunicorn workers",
        file=sys.stderr,
        flush=True,
    )
    root = args.root.resolve()
    server = start_server(root, port, folder, args.workers)
    try:
        wait_until_up(base, server, 180)
        made = players(root, serve_env(root, folder), args.games)
        pairs = set_up(base, made, 16)
        report = play_all(pairs, args.seconds, args.pace, server.pid)
    finally:
        stop_server(server)
    report = {"date": f"{when:%Y-%m-%d %H:%M} UTC", "workers": args.workers, **report}
    # The goal is a step's server time; the phone's figure adds nginx, the queue
    # for a thread and the client's own share of the two cores.
    report["step_server_ms"] = {**summary(server_step_ms(folder / "serve.log"))}
    print(json.dumps(report, indent=2))
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))
    ok = report["errors"] == 0 and report["step_server_ms"]["p50"] <= STEP_TARGET_MS
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
