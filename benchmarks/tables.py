"""Benchmarks of line of fire and tables, with the figures the table issue asks for.

Times, in one run: checking a standard table (all-pairs line of fire and every metric)
with the board's geometry cached, next to a straightforward per-pair implementation
(shapely, each pair on its own); generating one valid standard table; a 100-table
tournament pack; checking a 1,620-hex table, cold (first check in the process) and warm,
by the word-parallel method (onefinity.rules.visibility) beside the direction patterns it
replaced; a hex edit's server time (Django's test client against a throw-away SQLite
database: view, engine, template, database) on boards of 104 to 1,620 hexes, the kept
state brought up to date beside every line checked again by the older method; and the
generator's aims over many seeds (benchmarks/generator_aims.py).

Run: `.venv/bin/python benchmarks/tables.py [seeds for the aims, 600 by default]`.
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

from benchmarks.generator_aims import aims
from onefinity.rules import current_ruleset
from onefinity.rules.hexgrid import Board, rows_by_columns, standard_board
from onefinity.rules.lineoffire import (
    Terrain,
    _board_geometry,
    _direction_pattern_direct,
    _visibility_by_pairs,
    _visibility_by_patterns,
)
from onefinity.rules.lineoffire import _board_geometry as board_geometry
from onefinity.rules.lineoffire import _direction_pattern as direction_pattern
from onefinity.rules.visibility import Visibility, board_lines
from tablegen.engine import metrics
from tablegen.engine.generate import Parameters, generate_table
from tablegen.engine.metrics import check_table, forget_kept_states
from tablegen.engine.packs import tournament_pack
from tablegen.engine.tables import TableSpec
from tests.onefinity.lineoffire_reference import reference_clear

EDIT_BOARDS = (None, 20, 30, 40)  # the standard board, then n x n
EDITS = 30


def ms(seconds: float) -> float:
    return round(seconds * 1000, 3)


def timed(function, runs: int) -> list[float]:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        function()
        samples.append(time.perf_counter() - start)
    return samples


def clear_caches() -> None:
    """Forget every cached board geometry and line state: the next check is cold."""
    for cached in (direction_pattern, _direction_pattern_direct, board_lines, _board_geometry):
        cached.cache_clear()
    forget_kept_states()


def older_clear_lines(board: Board, terrain: Terrain, rules: object, before: object) -> object:
    """Every line checked again, as before 8793ec1: per pair for boards up to 400 hexes,
    by direction patterns above."""
    if len(board) <= 400:
        return _visibility_by_pairs(_board_geometry(board), terrain)
    return _visibility_by_patterns(board, terrain)


def random_layout(board: Board, seed: int) -> dict[int, str]:
    rng = random.Random(seed)
    return {
        k: rng.choice(["blocking", "elevated", "cover"])
        for k in rng.sample(range(len(board)), int(0.45 * len(board)))
    }


def edit_times() -> dict[str, object]:
    """A hex edit's server time (htmx, the editor region back) on boards up to 1,620 hexes:
    the kept state brought up to date (today) beside every line checked again (before)."""
    os.environ["DATABASE_URL"] = f"sqlite:///{Path(tempfile.mkdtemp()) / 'bench.sqlite3'}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.test import Client
    from django.test.utils import setup_test_environment

    from tablegen.models import Table

    setup_test_environment()
    call_command("migrate", verbosity=0)
    user = get_user_model().objects.create_user("bench", "b@example.com", "a-long-pass-phrase")
    client = Client()
    client.force_login(user)
    rules = current_ruleset().table
    figures: dict[str, object] = {}
    today = metrics._clear_lines
    for side in EDIT_BOARDS:
        board = standard_board(rules.rows, rules.columns) if side is None else None
        board = board or Board.of(rows_by_columns(side, side))
        hexes = len(board)
        row: dict[str, object] = {}
        for method, clear_lines in (
            ("kept state updated", today),
            ("all lines", older_clear_lines),
        ):
            metrics._clear_lines = clear_lines  # type: ignore[assignment]
            clear_caches()
            table = Table(owner=user)
            table.set_spec(TableSpec(board, random_layout(board, hexes), f"Bench {hexes}"))
            table.save()
            url = f"/tables/{table.pk}/"
            assert client.get(url).status_code == 200  # the page an editor has open
            rng = random.Random(hexes)
            samples = []
            for _ in range(EDITS):
                q, r = board.hexes[rng.randrange(len(board))]
                kind = rng.choice(["", "cover", "elevated", "blocking"])
                version = Table.objects.values_list("version", flat=True).get(pk=table.pk)
                start = time.perf_counter()
                reply = client.post(
                    url + "terrain/",
                    {"q": q, "r": r, "kind": kind, "version": version},
                    headers={"HX-Request": "true"},
                )
                samples.append(time.perf_counter() - start)
                assert reply.status_code == 200, reply.status_code
            row[method] = {
                "median_ms": ms(statistics.median(samples)),
                "p95_ms": ms(sorted(samples)[int(0.95 * (len(samples) - 1))]),
                "runs": len(samples),
            }
        figures[f"{hexes} hexes"] = row
    metrics._clear_lines = today  # type: ignore[assignment]
    return figures


def main() -> int:
    aims_seeds = int(sys.argv[1]) if len(sys.argv) > 1 else 600
    rules = current_ruleset().table
    board = standard_board(rules.rows, rules.columns)
    start = time.perf_counter()
    board_geometry(board)
    geometry_ms = ms(time.perf_counter() - start)
    table, _ = generate_table(rules, Parameters(seed=1), board)

    check = timed(lambda: check_table(table, rules), 500)
    terrain = Terrain.of(board, table.terrain, rules)
    pairs = [(a, b) for i, a in enumerate(board.hexes) for b in board.hexes[i + 1 :]]
    naive = timed(lambda: [reference_clear(board, terrain, a, b) for a, b in pairs], 2)

    generation = []
    for seed in range(100, 160):
        start = time.perf_counter()
        generate_table(rules, Parameters(seed=seed), board)
        generation.append(time.perf_counter() - start)

    start = time.perf_counter()
    pack = tournament_pack(rules, board, 100, Parameters(seed=1000))
    pack_s = time.perf_counter() - start

    big = Board.of(rows_by_columns(40, 40))
    big_table = TableSpec(big, random_layout(big, 7))
    big_terrain = Terrain.of(big, big_table.terrain, rules)
    clear_caches()
    start = time.perf_counter()
    check_table(big_table, rules)
    big_cold = time.perf_counter() - start
    big_warm = []
    for _ in range(5):
        forget_kept_states()  # the board's lines stay cached, the table's state does not
        start = time.perf_counter()
        check_table(big_table, rules)
        big_warm.append(time.perf_counter() - start)
    clear_caches()
    start = time.perf_counter()
    _visibility_by_patterns(big, big_terrain)
    patterns_cold = time.perf_counter() - start
    patterns_warm = timed(lambda: _visibility_by_patterns(big, big_terrain), 3)
    clear_caches()
    start = time.perf_counter()
    Visibility.of(big, big_terrain)
    words_cold = time.perf_counter() - start

    results = {
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
        "date": time.strftime("%Y-%m-%d"),
        "standard_board_geometry_once_ms": geometry_ms,
        "check_standard_table": {
            "median_ms": ms(statistics.median(check)),
            "p95_ms": ms(sorted(check)[474]),
            "runs": 500,
        },
        "check_standard_table_per_pair_shapely": {
            "median_ms": ms(statistics.median(naive)),
            "runs": len(naive),
            "pairs": len(pairs),
        },
        "generate_standard_table": {
            "median_ms": ms(statistics.median(generation)),
            "p95_ms": ms(sorted(generation)[56]),
            "runs": len(generation),
        },
        "pack_of_100_tables_s": round(pack_s, 2),
        "pack_candidates": pack.candidates,
        "pack_spread": pack.spread,
        "check_1620_hex_table": {
            "cold_s": round(big_cold, 3),
            "warm_median_s": round(statistics.median(big_warm), 3),
            "hexes": len(big),
        },
        "all_lines_1620_hex_table": {
            "words_cold_s": round(words_cold, 3),
            "direction_patterns_cold_s": round(patterns_cold, 3),
            "direction_patterns_warm_median_s": round(statistics.median(patterns_warm), 3),
        },
        "hex_edit_server_time": edit_times(),
        "generator_aims": aims(aims_seeds),
    }
    results["targets_met"] = {
        "check_standard_le_1ms": results["check_standard_table"]["median_ms"] <= 1,
        "generate_le_50ms": results["generate_standard_table"]["median_ms"] <= 50,
        "pack_100_le_5s": pack_s <= 5,
        "check_1600_le_500ms_warm": results["check_1620_hex_table"]["warm_median_s"] <= 0.5,
        "check_1620_le_100ms_cold": big_cold <= 0.1,
        "hex_edit_le_20ms_median": all(
            row["kept state updated"]["median_ms"] <= 20
            for row in results["hex_edit_server_time"].values()
        ),
    }
    print(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
