"""Tables from organizers' own terrain boxes (issue 24), and the generator without a box.

For each box of tests/data/boxes/ and each symmetry mode: the share of seeds that give a
valid table, how long each took (median, p95, most), and how long a box that cannot make a
table of that mode took to say so. Without a box: generation on the standard board per mode
(median, p95) and a 100-table tournament pack.

Only the generator's public call (`generate_table(rules, params, board, budget_seconds=...)`)
is used, so the same file measures an older tree: `--tree DIR` puts DIR first on the path
(unpack a revision with `git archive REV | tar -x -C DIR`).

Run: `.venv/bin/python benchmarks/boxes.py [--seeds N] [--plain-seeds N] [--budget S]
[--only boxes|plain|pack] [--boxes city,club] [--advise] [--tree DIR]`; prints JSON. The
figures of docs/performance.md: `--seeds 40 --budget 4 --advise` here, and `--budget 5
--advise` on the tree before (its site's budget, its advice on top).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
BOXES = ROOT / "tests" / "data" / "boxes"
SYMMETRIES = ("none", "point", "mirror")


def load() -> str:
    return " ".join(f"{v:.2f}" for v in os.getloadavg())


def spread(samples: list[float]) -> dict[str, float]:
    if not samples:
        return {}
    ordered = sorted(samples)
    return {
        "median_ms": round(statistics.median(ordered) * 1000, 1),
        "p95_ms": round(ordered[int(0.95 * (len(ordered) - 1))] * 1000, 1),
        "max_ms": round(ordered[-1] * 1000, 1),
    }


def boxes(
    seeds: int, budget: float, coverage: float, names: list[str], advise: bool
) -> dict[str, Any]:
    from onefinity.rules import current_ruleset
    from onefinity.rules.hexgrid import standard_board
    from tablegen.engine.generate import GenerationError, Parameters, generate_table

    rules = current_ruleset().table
    board = standard_board(rules.rows, rules.columns)
    found: dict[str, Any] = {}
    for path in sorted(BOXES.glob("*.json")):
        if names and path.stem not in names:
            continue
        box = json.loads(path.read_text())["pieces"]
        for symmetry in SYMMETRIES:
            made, refused, times, refusal_times = 0, 0, [], []
            said = ""
            for seed in range(seeds):
                params = Parameters(seed=seed, coverage=coverage, symmetry=symmetry, box=box)
                start = time.perf_counter()
                try:
                    _, report = generate_table(
                        rules, params, board, budget_seconds=budget, advise=advise
                    )
                except GenerationError as error:
                    refusal_times.append(time.perf_counter() - start)
                    refused += 1
                    said = said or str(error)[:160]
                    continue
                times.append(time.perf_counter() - start)
                made += report.valid
            found[f"{path.stem} {symmetry}"] = {
                "valid_share": round(made / seeds, 3),
                "made": spread(times),
                "refused": refused,
                "refused_in": spread(refusal_times),
                "said": said,
            }
    return found


def plain(seeds: int) -> dict[str, Any]:
    from onefinity.rules import current_ruleset
    from onefinity.rules.hexgrid import standard_board
    from tablegen.engine.generate import Parameters, generate_table

    rules = current_ruleset().table
    board = standard_board(rules.rows, rules.columns)
    generate_table(rules, Parameters(seed=0), board)  # the board's geometry, once
    found = {}
    for symmetry in SYMMETRIES:
        times, cpu = [], []
        for seed in range(seeds):
            coverage = (0.40, 0.45, 0.50)[seed % 3]
            start, work = time.perf_counter(), time.process_time()
            generate_table(
                rules, Parameters(seed=seed, coverage=coverage, symmetry=symmetry), board
            )
            times.append(time.perf_counter() - start)
            cpu.append(time.process_time() - work)
        # The process's CPU time beside the wall time: the steadier on a shared machine.
        found[symmetry] = spread(times) | {f"cpu_{k}": v for k, v in spread(cpu).items()}
    return found


def pack(runs: int) -> dict[str, Any]:
    from onefinity.rules import current_ruleset
    from onefinity.rules.hexgrid import standard_board
    from tablegen.engine.generate import Parameters
    from tablegen.engine.tournament import tournament_pack

    rules = current_ruleset().table
    board = standard_board(rules.rows, rules.columns)
    times, cpu = [], []
    for run in range(runs):
        start, work = time.perf_counter(), time.process_time()
        tournament_pack(rules, board, 100, Parameters(seed=1000 + 1000 * run))
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - work)
    # The work (this process's CPU time) beside the wall time: on a shared machine the wall
    # time also counts the others' work.
    return {
        "runs": runs,
        "median_s": round(statistics.median(times), 2),
        "cpu_median_s": round(statistics.median(cpu), 2),
        "each_s": [round(t, 2) for t in times],
        "each_cpu_s": [round(t, 2) for t in cpu],
    }


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", type=int, default=40)
    parser.add_argument("--plain-seeds", type=int, default=200)
    parser.add_argument("--pack-runs", type=int, default=3)
    parser.add_argument("--budget", type=float, default=5.0)
    parser.add_argument("--coverage", type=float, default=0.45)
    parser.add_argument("--only", choices=("boxes", "plain", "pack"))
    parser.add_argument("--tree")
    parser.add_argument("--boxes", default="", help="only these boxes, by name: city,club")
    parser.add_argument(
        "--advise", action="store_true", help="a box that makes no table is advised too"
    )
    args = parser.parse_args()
    sys.path.insert(0, str(Path(args.tree).resolve() if args.tree else ROOT))
    results: dict[str, Any] = {
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
        "date": time.strftime("%Y-%m-%d %H:%M"),
        "tree": args.tree or str(ROOT),
        "load_average_at_start": load(),
    }
    if args.only in (None, "plain"):
        results["standard_board"] = plain(args.plain_seeds)
    if args.only in (None, "pack"):
        results["pack_of_100"] = pack(args.pack_runs)
    if args.only in (None, "boxes"):
        results["boxes"] = {
            "seeds": args.seeds,
            "budget_s": args.budget,
            "coverage": args.coverage,
            "advise": args.advise,
            "by_box_and_mode": boxes(
                args.seeds,
                args.budget,
                args.coverage,
                [n for n in args.boxes.split(",") if n],
                args.advise,
            ),
        }
    results["load_average_at_end"] = load()
    print(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
