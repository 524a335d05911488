"""The generator's aims of issue 10, measured over many seeds and every symmetry mode.

Per table: lone blocking hexes (no blocking neighbour: "pillars" nobody builds), whether it
has elevated ground, the most blocking hexes on either side's entry row, and how far its
terrain hexes are from what was asked. Only the generator's public call is used, so the
same file measures an older tree (copy it into that tree's benchmarks/ and run it there).

Run: `.venv/bin/python benchmarks/generator_aims.py [seeds] [coverages]`, e.g.
`... 600 0.40,0.45,0.50` (the default) or `... 200 0.30,0.35,0.40,0.45,0.50,0.55,0.60`.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from onefinity.rules import current_ruleset
from onefinity.rules.hexgrid import standard_board
from tablegen.engine.generate import Parameters, generate_table

SYMMETRIES = ("none", "point", "mirror")


def aims(seeds: int = 600, coverages: tuple[float, ...] = (0.40, 0.45, 0.50)) -> dict[str, object]:
    rules = current_ruleset().table
    board = standard_board(rules.rows, rules.columns)
    rows = (min(r for _, r in board.hexes), max(r for _, r in board.hexes))
    elevated_kinds = {k for k, kind in rules.terrain.items() if kind.level > 0}
    results: dict[str, object] = {}
    for symmetry in SYMMETRIES:
        lone, entry, errors, times = [], [], [], []
        elevated = failed = invalid = 0
        for seed in range(seeds):
            coverage = coverages[seed % len(coverages)]
            start = time.perf_counter()
            try:
                table, report = generate_table(
                    rules, Parameters(seed=seed, coverage=coverage, symmetry=symmetry), board
                )
            except ValueError:
                failed += 1
                continue
            times.append(time.perf_counter() - start)
            valid = rules.coverage_min <= coverage <= rules.coverage_max
            invalid += valid and not report.valid
            blocking = {i for i, k in table.terrain.items() if k == "blocking"}
            lone.append(sum(1 for i in blocking if not blocking & set(board.neighbours[i])))
            elevated += any(k in elevated_kinds for k in table.terrain.values())
            entry.append(max(sum(1 for i in blocking if board.hexes[i][1] == row) for row in rows))
            errors.append(abs(len(table.terrain) - coverage * len(board)))
        made = len(lone)
        results[symmetry] = {
            "tables": made,
            "no_table": failed,
            "not_valid": invalid,
            "lone_blocking_per_table": round(sum(lone) / made, 3),
            "tables_with_a_lone_blocking_hex": sum(1 for n in lone if n),
            "share_with_elevated_ground": round(elevated / made, 3),
            "entry_row_blocking_max": max(entry),
            "tables_with_more_than_3_on_an_entry_row": sum(1 for n in entry if n > 3),
            "coverage_error_hexes_mean": round(statistics.mean(errors), 2),
            "coverage_error_hexes_max": max(errors),
            "tables_more_than_2_hexes_off": sum(1 for e in errors if e > 2),
            "generate_median_ms": round(statistics.median(times) * 1000, 1),
            "generate_p95_ms": round(sorted(times)[int(0.95 * (made - 1))] * 1000, 1),
        }
    return {"seeds": seeds, "coverages": list(coverages), "by_symmetry": results}


def main(argv: list[str]) -> int:
    seeds = int(argv[1]) if len(argv) > 1 else 600
    coverages = tuple(float(c) for c in argv[2].split(",")) if len(argv) > 2 else (0.40, 0.45, 0.50)
    print(json.dumps(aims(seeds, coverages), indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
