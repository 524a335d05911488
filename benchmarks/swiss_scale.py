"""Benchmark of Swiss pairing at scale (issue 32): 32, 64, 128 and 256 players, every figure
under 1 s. For each size, two fields, the engine alone (events/swiss.py), tables included:

- random: rounds 1 to 6 paired in turn after random results (0 to 15 VP) from a fixed seed,
  on distinct tables reused every round; the worst round;
- crafted: seven players who have all met each other (their 21 games without a result, so
  they sit last with no score) below a field with six rounds of random results; round 7.
  The window's matching cannot pair the seven among themselves without a rematch: before
  issue 32 this fell back to the exact search over every pair (2.0 s at 256 players).

Medians of RUNS runs. Run with `python benchmarks/swiss_scale.py`; prints JSON.
"""

from __future__ import annotations

import itertools
import json
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from events.swiss import Bye, Game, pair_round

SIZES, ROUNDS, RUNS, TARGET_S = (32, 64, 128, 256), 6, 5, 1.0


def median_of(function) -> float:  # type: ignore[no-untyped-def]
    samples = []
    for _ in range(RUNS):
        start = time.perf_counter()
        function()
        samples.append(time.perf_counter() - start)
    return round(statistics.median(samples), 3)


def random_field(players: int) -> dict[str, object]:
    rng = random.Random(32)
    keys = list(range(1, players + 1))
    tables = [f"map {n}" for n in range(players // 2)]
    games: list[Game] = []
    byes: list[Bye] = []
    worst, rematches = 0.0, 0
    for number in range(1, ROUNDS + 1):
        so_far, byes_so_far = list(games), list(byes)
        worst = max(
            worst,
            median_of(lambda: pair_round(number, keys, so_far, byes_so_far, tables, seed=5)),  # noqa: B023 (called at once)
        )
        draw = pair_round(number, keys, games, byes, tables, seed=5)
        rematches += draw.rematches
        games += [
            Game(number, s.a, s.b, tables[s.table - 1], rng.randint(0, 15), rng.randint(0, 15))
            for s in draw.seats
        ]
        if draw.bye is not None:
            byes.append(Bye(number, draw.bye))
    return {"worst_round_s": worst, "rematches": rematches}


def crafted_field(players: int) -> dict[str, object]:
    rng = random.Random(7)
    keys = list(range(1, players + 1))
    seven, rest = keys[-7:], keys[:-7]
    games = [
        Game(1 + k % ROUNDS, a, b) for k, (a, b) in enumerate(itertools.combinations(seven, 2))
    ]
    for number in range(1, ROUNDS + 1):
        rng.shuffle(rest)
        games += [
            Game(number, rest[i], rest[i + 1], None, rng.randint(0, 15), rng.randint(0, 15))
            for i in range(0, len(rest) - 1, 2)
        ]
    tables = [f"map {n}" for n in range(players // 2)]
    draw = pair_round(ROUNDS + 1, keys, games, [], tables, seed=5)
    return {
        "round_s": median_of(lambda: pair_round(ROUNDS + 1, keys, games, [], tables, seed=5)),
        "rematches": draw.rematches,
        "the_seven_sit_last": sorted(draw.ranked[-7:]) == seven,
    }


def main() -> int:
    figures: dict[str, object] = {
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}",
        "load_average_before": [round(x, 2) for x in os.getloadavg()],
    }
    worst = 0.0
    for size in SIZES:
        found = {"random": random_field(size), "crafted": crafted_field(size)}
        worst = max(worst, found["random"]["worst_round_s"], found["crafted"]["round_s"])  # type: ignore[arg-type,type-var]
        figures[str(size)] = found
    figures["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    figures["worst_s"] = worst
    figures["target_met"] = worst < TARGET_S
    print(json.dumps(figures, indent=2))
    return 0 if worst < TARGET_S else 1


if __name__ == "__main__":
    raise SystemExit(main())
