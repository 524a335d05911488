"""Benchmark of a game at the table (issue 33): a step's server time (goal: median at most
20 ms), and what keeping 200 games in sync costs the server.

Django's test client against a throw-away SQLite database: server time (view, engine,
templates, database), no network. Two 12-trooper lists play turns of 10 steps (AP, four
moves, four shots, pass), each step answered as JSON (what the offline queue and scripts
send) and as the htmx region (what a tap sends). Each phone polls `live/` once a second;
while the game has not moved the answer is a 204, timed here too. The load of 200 games is
worked out from these medians: 400 polls a second and one step per game every 10 seconds.

Run: `.venv/bin/python benchmarks/games.py [--steps N]`; prints JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
DATABASE = Path(tempfile.mkdtemp()) / "bench.sqlite3"
os.environ["DATABASE_URL"] = f"sqlite:///{DATABASE}"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

TARGET_MS = 20.0
GAMES, POLLS_PER_PHONE_PER_SECOND, SECONDS_PER_STEP = 200, 1.0, 10.0

# A full 75-point list: 4 units, 12 troopers (benchmarks/games_load.py plays it too).
LIST = json.loads((Path(__file__).resolve().parent / "game_list.json").read_text())


def spread(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "count": len(ordered),
        "median_ms": round(statistics.median(ordered) * 1000, 2),
        "p95_ms": round(ordered[int(0.95 * (len(ordered) - 1))] * 1000, 2),
        "max_ms": round(ordered[-1] * 1000, 2),
    }


def turn_steps(troopers: list[str]) -> list[dict[str, str]]:
    """One turn of the active side: 13 AP, four troopers move, then shoot, then pass."""
    four = troopers[:4]
    return (
        [{"kind": "ap", "value": "13"}]
        + [{"kind": "act", "trooper": t, "action": "move"} for t in four]
        + [{"kind": "act", "trooper": t, "action": "shoot"} for t in four]
        + [{"kind": "pass"}]
    )


def play(client: Client, code: str, steps: int, htmx: bool, panel: bool = False) -> list[float]:
    from games.models import Game

    state = json.loads(client.get(f"/games/{code}/state.json").content)
    by_side = {
        side: [t["id"] for t in state["troopers"] if t["side"] == side] for side in ("a", "b")
    }
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {"HTTP_ACCEPT": "application/json"}
    timings = []
    version = state["version"]
    pending = [{"kind": "first", "side": "a"}]
    active = "a"
    while len(timings) < steps:
        if not pending:
            pending = turn_steps(by_side[active])
        fields = pending.pop(0)
        if panel and "trooper" in fields:
            # A tap in the trooper's panel: the region draws the panel and the map again.
            fields = {**fields, "selected": fields["trooper"]}
        started = time.perf_counter()
        response = client.post(f"/games/{code}/steps/", {"version": version, **fields}, **headers)
        timings.append(time.perf_counter() - started)
        assert response.status_code == 200, response.content[:300]
        version += 1
        if fields["kind"] == "pass":
            active = "b" if active == "a" else "a"
    assert Game.objects.get(code=code).version == version
    return timings


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=300)
    arguments = parser.parse_args()
    setup_test_environment()
    call_command("migrate", verbosity=0)
    from forcebuilder.models import Force
    from games.models import Game
    from onefinity.rules import read_force_document

    users = get_user_model().objects
    alice = users.create_user("alice", "a@example.com", "a-long-pass-phrase")
    bob = users.create_user("bob", "b@example.com", "a-long-pass-phrase")
    mine = Force.create_from_spec(read_force_document(LIST), "2026.11", 75, owner=alice)
    a, b = Client(), Client()
    a.force_login(alice)
    b.force_login(bob)

    def new_game() -> str:
        fields = {"list_a": mine.pk, "list_b": mine.pk, "vp_target": 10}
        assert a.post("/games/new/", fields).status_code == 302
        code = Game.objects.order_by("-pk").values_list("code", flat=True)[0]
        assert b.post(f"/games/{code}/join/").status_code == 302
        return code

    play(a, new_game(), 30, htmx=False)  # warm up: templates, ruleset, queries
    json_steps = play(a, new_game(), arguments.steps, htmx=False)
    region_steps = play(a, new_game(), arguments.steps, htmx=True)
    panel_steps = play(a, new_game(), arguments.steps, htmx=True, panel=True)
    code = new_game()
    state = json.loads(a.get(f"/games/{code}/state.json").content)
    first = next(t["id"] for t in state["troopers"] if t["side"] == "a")
    other = next(t["id"] for t in state["troopers"] if t["side"] == "b")
    json_ = {"HTTP_ACCEPT": "application/json"}
    for version, fields in enumerate(
        [
            {"kind": "first", "side": "a"},
            {"kind": "ap", "value": "13"},
            {"kind": "act", "trooper": first, "action": "move"},
            {"kind": "place", "trooper": first, "hex": "2,1"},
            {"kind": "pass"},
            {"kind": "ap", "value": "13"},
            {"kind": "act", "trooper": other, "action": "move"},
            {"kind": "place", "trooper": other, "hex": "1,7"},
        ]
    ):
        assert (
            a.post(f"/games/{code}/steps/", {"version": version, **fields}, **json_).status_code
            == 200
        )
    odds_pages = []
    for _ in range(30):
        started = time.perf_counter()
        response = a.get(
            f"/games/{code}/",
            {"trooper": first, "target": other, "mode": "shooting"},
            HTTP_HX_REQUEST="true",
        )
        odds_pages.append(time.perf_counter() - started)
        assert response.status_code == 200
    code = new_game()
    version = json.loads(b.get(f"/games/{code}/state.json").content)["version"]
    polls = []
    for _ in range(arguments.steps):
        started = time.perf_counter()
        response = b.get(f"/games/{code}/live/?since={version}", HTTP_HX_REQUEST="true")
        polls.append(time.perf_counter() - started)
        assert response.status_code == 204
    moved = []
    for _ in range(50):
        started = time.perf_counter()
        response = b.get(f"/games/{code}/live/?since=-1", HTTP_HX_REQUEST="true")
        moved.append(time.perf_counter() - started)
        assert response.status_code == 200

    poll_ms = statistics.median(polls) * 1000
    region_ms = statistics.median(region_steps) * 1000
    moved_ms = statistics.median(moved) * 1000
    # Each second: every phone polls once; a step every SECONDS_PER_STEP per game is taken
    # once and drawn again by the other phone's poll.
    per_second_ms = GAMES * (
        2 * POLLS_PER_PHONE_PER_SECOND * poll_ms + (region_ms + moved_ms) / SECONDS_PER_STEP
    )
    result = {
        "date": time.strftime("%Y-%m-%d"),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
        "load": " ".join(f"{v:.2f}" for v in os.getloadavg()),
        "step_json": spread(json_steps),
        "step_htmx_region": spread(region_steps),
        "step_from_the_trooper_panel_with_map": spread(panel_steps),
        "odds_from_the_map_region": spread(odds_pages),
        "poll_unchanged_204": spread(polls),
        "poll_moved_region": spread(moved),
        "target_median_ms": TARGET_MS,
        "games_in_sync": {
            "games": GAMES,
            "requests_per_second": round(
                GAMES * (2 * POLLS_PER_PHONE_PER_SECOND + 2 / SECONDS_PER_STEP), 1
            ),
            "server_core_share": round(per_second_ms / 1000, 2),
        },
    }
    print(json.dumps(result, indent=2))
    return 0 if result["step_json"]["median_ms"] <= TARGET_MS else 1


if __name__ == "__main__":
    raise SystemExit(main())
