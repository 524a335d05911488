"""Benchmark of bounded event pages (issue 31): every event page and every result post of the
largest event the limits allow answers in under 1 s, on SQLite (and on PostgreSQL with
BENCH_DATABASE_URL naming an empty database).

The event: 200 players, 6 rounds, each round on its own 100 painted 40 x 40 tables (1,620
hexes, 45 % terrain: the worst board the reader takes), rounds 1 to 5 paired through the
site, published and with every result in, round 6 paired and published. Then each page an
organizer or a player opens, and the posts of a day (a player's report, the organizer's
result, a correction of a closed round, check-in, the clock), through Django's test client
on a throw-away SQLite file database. Also a poll of an unchanged live page (a 204).

Run with `python benchmarks/event_pages.py`; prints JSON, exits 1 if any figure is over 1 s.
"""

from __future__ import annotations

import json
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
DATABASE = Path(tempfile.mkdtemp()) / "bench.sqlite3"
# BENCH_DATABASE_URL: an empty PostgreSQL database to run on instead of a SQLite file.
os.environ["DATABASE_URL"] = os.environ.get("BENCH_DATABASE_URL") or f"sqlite:///{DATABASE}"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

from benchmarks.table_limits import worst_board  # noqa: E402
from events.models import Entry, Event, Pairing, Result, Round  # noqa: E402
from tablegen.engine.tables import table_document  # noqa: E402

PLAYERS, ROUNDS, TABLES, RUNS = 200, 6, 100, 5
TARGET_S = 1.0


def timed(runs: int, function) -> dict[str, float]:  # type: ignore[no-untyped-def]
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        function()
        samples.append(time.perf_counter() - start)
    return {"median_s": round(statistics.median(samples), 3), "max_s": round(max(samples), 3)}


def main() -> int:
    setup_test_environment()
    call_command("migrate", verbosity=0)
    started = time.perf_counter()
    User = get_user_model()
    organizer = User.objects.create_user("orga", "o@example.com", "a-long-pass-phrase")
    User.objects.bulk_create(
        User(username=f"player{n:03d}", email=f"p{n}@example.com") for n in range(PLAYERS)
    )
    event = Event.create(
        name="Largest Open",
        date="2026-12-05",
        points_limit=75,
        ruleset_version="2026.11",
        round_count=ROUNDS,
        owner=organizer,
    )
    Entry.objects.bulk_create(
        Entry(event=event, player=u) for u in User.objects.filter(username__startswith="player")
    )
    event.lock_all()
    boards = [table_document(worst_board(seed)) for seed in range(TABLES)]
    for number in range(1, ROUNDS + 1):
        # Each round its own copies (a round keeps the tables it was played on).
        maps = [b | {"name": f"R{number} table {n}"} for n, b in enumerate(boards, start=1)]
        Round.objects.filter(event=event, number=number).update(
            **Round.tables_fields(maps), tables_source="bench"
        )
    organizer_client = Client()
    organizer_client.force_login(organizer)
    rng = random.Random(31)
    pair_s = {}
    for number in range(1, ROUNDS + 1):
        version = Round.objects.get(event=event, number=number).version
        start = time.perf_counter()
        response = organizer_client.post(
            f"/events/{event.pk}/rounds/{number}/pair/", {"version": version}
        )
        pair_s[number] = round(time.perf_counter() - start, 3)
        assert response.status_code == 302, response.content[:3000]
        Round.objects.filter(event=event, number=number).update(published=True)
        if number < ROUNDS:
            Result.objects.bulk_create(
                Result(pairing=p, a_vp=rng.randint(0, 15), b_vp=rng.randint(0, 15))
                for p in Pairing.objects.filter(round__event=event, round__number=number)
            )
    setup_s = round(time.perf_counter() - started, 1)

    last = Pairing.objects.filter(round__event=event, round__number=ROUNDS).select_related(
        "player_a__player", "player_b__player"
    )
    games = list(last.order_by("table"))
    first = games[0]
    player = Client()
    player.force_login(first.player_a.player)
    base = f"/events/{event.pk}"

    def get(client: Client, path: str, expect: int = 200) -> dict[str, float]:
        def fetch() -> None:
            response = client.get(path)
            assert response.status_code == expect, (path, response.status_code)

        return timed(RUNS, fetch)

    figures: dict[str, object] = {}
    pages = {
        "dashboard": (organizer_client, f"{base}/"),
        "round page (round 6, 100 games)": (organizer_client, f"{base}/rounds/{ROUNDS}/"),
        "round page (round 1)": (organizer_client, f"{base}/rounds/1/"),
        "rounds overview": (organizer_client, f"{base}/rounds/"),
        "standings page": (organizer_client, f"{base}/standings/"),
        "standings.json": (organizer_client, f"{base}/standings.json"),
        "standings.csv": (organizer_client, f"{base}/standings.csv"),
        "pairings.json": (organizer_client, f"{base}/rounds/{ROUNDS}/pairings.json"),
        "a player's history": (organizer_client, f"{base}/players/{first.player_a_id}/history/"),
        "byes and seeds": (organizer_client, f"{base}/swiss/"),
        "edit event": (organizer_client, f"{base}/edit/"),
        "pairings import": (organizer_client, f"{base}/pairings/import/"),
        "the player's event page": (player, f"{base}/me/"),
        "the player's rounds overview": (player, f"{base}/rounds/"),
        "the player's history": (player, f"{base}/players/{first.player_a_id}/history/"),
    }
    for name, (client, path) in pages.items():
        figures[name] = get(client, path)
    token = player.get(f"{base}/me/").content.decode().split("?since=", 1)[1].split('"', 1)[0]
    figures["a poll of the player's page, nothing changed (204)"] = get(
        player, f"{base}/me/?since={token}", expect=204
    )

    def report() -> None:
        response = player.post(
            f"{base}/rounds/{ROUNDS}/report/", {"my_vp": rng.randint(0, 15), "their_vp": 3}
        )
        assert response.status_code == 302, response.status_code

    figures["POST a player's report (round 6)"] = timed(RUNS, report)

    def enter() -> None:
        response = organizer_client.post(
            f"{base}/rounds/{ROUNDS}/result/",
            {"a": games[1].player_a.player_name, "a_vp": rng.randint(0, 15), "b_vp": 4},
        )
        assert response.status_code == 302, response.status_code

    figures["POST the organizer's result (round 6)"] = timed(RUNS, enter)
    closed = Pairing.objects.filter(round__event=event, round__number=1).select_related(
        "player_a__player"
    )[0]

    def correct() -> None:
        response = organizer_client.post(
            f"{base}/rounds/1/result/",
            {"a": closed.player_a.player_name, "a_vp": rng.randint(0, 15), "b_vp": 5},
        )
        assert response.status_code == 302, response.status_code

    figures["POST a correction of closed round 1"] = timed(RUNS, correct)

    def refused() -> None:
        other = Client()
        other.force_login(closed.player_a.player)
        response = other.post(f"{base}/rounds/1/report/", {"my_vp": 1, "their_vp": 2})
        assert response.status_code == 400, response.status_code

    figures["POST a player's late change (refused)"] = timed(RUNS, refused)

    def clock() -> None:
        response = organizer_client.post(f"{base}/rounds/{ROUNDS}/clock/", {"minutes": 90})
        assert response.status_code == 302, response.status_code

    figures["POST the round clock"] = timed(RUNS, clock)
    figures["POST pair (rounds 1 to 6, first pairing each)"] = pair_s
    worst = max(
        [v["max_s"] for v in figures.values() if isinstance(v, dict) and "max_s" in v]  # type: ignore[index]
    )
    result = {
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}, {connection.vendor}",
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "event": f"{PLAYERS} players, {ROUNDS} rounds of {TABLES} painted 40 x 40 tables",
        "setup_s": setup_s,
        "figures": figures,
        "worst_s": worst,
        "target_met": worst < TARGET_S and max(pair_s.values()) < TARGET_S,
    }
    print(json.dumps(result, indent=2))
    return 0 if result["target_met"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
