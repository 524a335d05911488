"""Benchmark of the Swiss system (issue 23). Targets: pairing 256 players at most 1 s; the
standings of 256 players over 6 rounds at most 100 ms.

Two parts, both with random results drawn from a fixed seed:

- the engine alone (events/swiss.py): a 256-player event (and a 255-player one, with byes)
  on 128 tables reused every round, each round paired, tables included, after the results
  of the rounds before; then the standings after 6 rounds. Medians of RUNS runs each.
- the site: the same event through Django's test client on a throw-away SQLite database:
  POST rounds/<n>/pair/ for rounds 1 to 6 (loading the event, pairing, saving; the median
  of 5 pairings of each round, as pairing again before any result allows), the
  standings' JSON, page and PDF (a first download), the organizer's round page with its 128
  games, the dashboard, a player's page.

Run with `make bench` (or `python benchmarks/swiss.py`); prints JSON.
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
os.environ["DATABASE_URL"] = f"sqlite:///{DATABASE}"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from events.swiss import Bye, Game, pair_round, standings  # noqa: E402

PLAYERS, ROUNDS, RUNS = 256, 6, 7
PAIR_TARGET_S, STANDINGS_TARGET_S = 1.0, 0.1


def median_of(runs: int, function) -> float:  # type: ignore[no-untyped-def]
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        function()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def engine(players: int, identical_maps: bool = False) -> dict[str, object]:
    """Pair every round of an event, timing each; the standings after the last."""
    rng = random.Random(23)
    keys = list(range(1, players + 1))
    tables = ["same map" if identical_maps else f"map {n}" for n in range(players // 2)]
    games: list[Game] = []
    byes: list[Bye] = []
    per_round = {}
    rematches = repeats = 0
    for number in range(1, ROUNDS + 1):

        def pair(number: int = number) -> object:
            return pair_round(number, keys, games, byes, tables, seed=5, bye_vp=10)

        per_round[number] = round(median_of(RUNS if number > 1 else 3, pair), 3)
        draw = pair_round(number, keys, games, byes, tables, seed=5, bye_vp=10)
        rematches += draw.rematches
        repeats += draw.repeated_tables
        for seat in draw.seats:
            games.append(
                Game(
                    number,
                    seat.a,
                    seat.b,
                    tables[seat.table - 1],
                    rng.randint(0, 15),
                    rng.randint(0, 15),
                )
            )
        if draw.bye is not None:
            byes.append(Bye(number, draw.bye))
    table_s = median_of(25, lambda: standings(keys, games, byes, 10, 5))
    return {
        "pair_s_by_round": per_round,
        "pair_s_worst_round": max(per_round.values()),
        "standings_s": round(table_s, 4),
        "rematches": rematches,
        "repeated_tables": repeats,
    }


def site() -> dict[str, object]:
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.test import Client
    from django.test.utils import setup_test_environment

    from events.models import Entry, Event, Pairing, Result, Round
    from tests.events.conftest import table_documents

    setup_test_environment()
    call_command("migrate", verbosity=0)
    User = get_user_model()
    organizer = User.objects.create_user("orga", "o@example.com", "a-long-pass-phrase")
    User.objects.bulk_create(
        User(username=f"player{n:03d}", email=f"p{n}@example.com") for n in range(PLAYERS)
    )
    event = Event.create(
        name="Bench Open",
        date="2026-12-05",
        points_limit=75,
        ruleset_version="2026.11",
        round_count=ROUNDS,
        owner=organizer,
    )
    Entry.objects.bulk_create(
        Entry(event=event, player=u) for u in User.objects.filter(username__startswith="player")
    )
    # 128 distinct maps: one generated table, its seed field changed (a map is its document).
    base = table_documents(1)[0]
    maps = [base | {"name": f"Table {n}", "seed": n} for n in range(1, PLAYERS // 2 + 1)]
    Round.objects.filter(event=event, number=1).update(
        **Round.tables_fields(maps), tables_source="bench"
    )
    client = Client()
    client.force_login(organizer)
    rng = random.Random(23)
    pair_s = {}
    client.get(f"/events/{event.pk}/")  # the first request imports the views

    for number in range(1, ROUNDS + 1):

        def pair(number: int = number) -> None:
            # Pairing again before any result is allowed: each run is a whole pairing.
            version = Round.objects.get(event=event, number=number).version
            response = client.post(
                f"/events/{event.pk}/rounds/{number}/pair/", {"version": version}
            )
            assert response.status_code == 302, response.content[:2000]

        pair_s[number] = round(median_of(5, pair), 3)
        Round.objects.filter(event=event, number=number).update(published=True)
        Result.objects.bulk_create(
            Result(pairing=p, a_vp=rng.randint(0, 15), b_vp=rng.randint(0, 15))
            for p in Pairing.objects.filter(round__event=event, round__number=number)
        )

    def get(path: str) -> float:
        def fetch() -> None:
            assert client.get(path).status_code == 200

        return round(median_of(RUNS, fetch), 3)

    from django.core.cache import cache

    def standings_pdf() -> None:
        cache.clear()  # a first download each time
        response = client.get(f"/events/{event.pk}/standings.pdf")
        assert response["Content-Type"] == "application/pdf"

    player = Client()
    player.force_login(User.objects.get(username="player000"))
    return {
        "pair_request_s_by_round": pair_s,
        "pair_request_s_worst": max(pair_s.values()),
        "standings_json_s": get(f"/events/{event.pk}/standings.json"),
        "standings_page_s": get(f"/events/{event.pk}/standings/"),
        "round_page_s": get(f"/events/{event.pk}/rounds/{ROUNDS}/"),
        "dashboard_s": get(f"/events/{event.pk}/"),
        "standings_pdf_s": round(median_of(3, standings_pdf), 3),
        "player_page_s": round(median_of(RUNS, lambda: player.get(f"/events/{event.pk}/me/")), 3),
    }


def main() -> int:
    load = os.getloadavg()
    results: dict[str, object] = {
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}, SQLite",
        "load_average_before": [round(x, 2) for x in load],
        "engine_256": engine(PLAYERS),
        "engine_255_with_byes": engine(PLAYERS - 1),
        "engine_256_one_map_for_every_table": engine(PLAYERS, identical_maps=True),
        "site_256": site(),
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
    }
    worst = max(
        results["engine_256"]["pair_s_worst_round"],  # type: ignore[index]
        results["engine_255_with_byes"]["pair_s_worst_round"],  # type: ignore[index]
    )
    results["targets_met"] = (
        worst <= PAIR_TARGET_S and results["engine_256"]["standings_s"] <= STANDINGS_TARGET_S  # type: ignore[index]
    )
    print(json.dumps(results, indent=2))
    return 0 if results["targets_met"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
