"""Benchmarks of line of fire and tables, with the figures the table issue asks for.

Times, in one run: checking a standard table (all-pairs line of fire and every metric)
with the board's geometry cached, next to a straightforward per-pair implementation
(shapely, each pair on its own); generating one valid standard table; a 100-table
tournament pack; checking a 1,600-hex table, cold (first check in the process) and warm.
"""

from __future__ import annotations

import json
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from onefinity.rules import current_ruleset
from onefinity.rules.hexgrid import Board, rows_by_columns, standard_board
from onefinity.rules.lineoffire import Terrain
from onefinity.rules.lineoffire import _board_geometry as board_geometry
from onefinity.rules.lineoffire import _direction_pattern as direction_pattern
from tablegen.engine.generate import Parameters, generate_table
from tablegen.engine.metrics import check_table
from tablegen.engine.packs import tournament_pack
from tablegen.engine.tables import TableSpec
from tests.onefinity.lineoffire_reference import reference_clear


def ms(seconds: float) -> float:
    return round(seconds * 1000, 3)


def timed(function, runs: int) -> list[float]:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        function()
        samples.append(time.perf_counter() - start)
    return samples


def main() -> int:
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
    rng = random.Random(7)
    layout = {
        k: rng.choice(["blocking", "elevated", "cover"])
        for k in rng.sample(range(len(big)), int(0.45 * len(big)))
    }
    big_table = TableSpec(big, layout)
    direction_pattern.cache_clear()
    start = time.perf_counter()
    check_table(big_table, rules)
    big_cold = time.perf_counter() - start
    big_warm = timed(lambda: check_table(big_table, rules), 5)

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
    }
    results["targets_met"] = {
        "check_standard_le_1ms": results["check_standard_table"]["median_ms"] <= 1,
        "generate_le_50ms": results["generate_standard_table"]["median_ms"] <= 50,
        "pack_100_le_5s": pack_s <= 5,
        "check_1600_le_500ms_warm": results["check_1620_hex_table"]["warm_median_s"] <= 0.5,
        "check_1600_le_500ms_cold": big_cold <= 0.5,
    }
    print(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
