"""Benchmarks of the rules engine, with the figures the issues ask for.

Run with `make bench` (or `.venv/bin/python benchmarks/engine.py`). Prints one line per
measurement; the figures go into docs/performance.md with the date and the machine.
"""

from __future__ import annotations

import json
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from onefinity.rules import (
    check_force_document,
    exchange_odds,
    library,
    read_force_document,
    validate_force,
)
from onefinity.rules.ruleset_file import load_library

# A full 12-trooper, 75-point force with loadouts, abilities, skills and specialists.
TWELVE_TROOPERS = {
    "format": "onefinity-force",
    "version": 1,
    "name": "Benchmark force",
    "faction": "exomorph-collective",
    "units": [
        {
            "type": "tag",
            "troopers": [{"weapons": ["spitfire"], "abilities": ["adaptive-carapace"]}],
        },
        {
            "type": "heavy-infantry",
            "troopers": [
                {"weapons": ["heavy-machine-gun"]},
                {"class": "engineer", "weapons": ["boarding-shotgun"]},
            ],
        },
        {
            "type": "medium-infantry",
            "troopers": [
                {"class": "hacker", "weapons": ["combi-rifle"]},
                {"class": "medic"},
                {"weapons": ["spore-projector"], "abilities": ["cc-specialist"]},
                {},
            ],
        },
        {
            "type": "light-infantry",
            "skills": ["mimetism"],
            "troopers": [
                {"weapons": ["sniper-rifle"], "abilities": ["marksman"]},
                {"weapons": ["submachine-gun"]},
                {"weapons": ["light-shotgun"]},
                {"abilities": ["infiltration"]},
                {},
            ],
        },
    ],
}


def timed(function: Callable[[], object], runs: int) -> list[float]:
    for _ in range(min(200, runs)):  # warm up
        function()
    samples = []
    for _ in range(runs):
        start = time.perf_counter_ns()
        function()
        samples.append((time.perf_counter_ns() - start) / 1e6)
    return samples


def summary(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "median_ms": round(statistics.median(ordered), 4),
        "p95_ms": round(ordered[int(len(ordered) * 0.95) - 1], 4),
        "runs": len(ordered),
    }


def main() -> int:
    cold_start = time.perf_counter_ns()
    load_library()
    cold_ms = (time.perf_counter_ns() - cold_start) / 1e6
    shipped = library()
    ruleset = shipped.current
    force = read_force_document(TWELVE_TROOPERS)
    report = validate_force(force, ruleset)
    troopers = sum(len(unit.troopers) for unit in force.units)
    assert troopers == 12 and report.legal, report.issues

    results = {
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
        "date": time.strftime("%Y-%m-%d"),
        "ruleset_load_cold_ms": round(cold_ms, 2),
        "ruleset_loaded_once_per_process": library() is shipped,
        "validate_12_troopers": summary(timed(lambda: validate_force(force, ruleset), 5000)),
        "read_and_validate_12_trooper_document": summary(
            timed(lambda: check_force_document(TWELVE_TROOPERS, shipped), 5000)
        ),
        "card_odds_5_vs_4_exact": summary(timed(lambda: exchange_odds(5, 4, ruleset.cards), 500)),
    }
    target_ms = 0.5
    results["validate_target_met"] = results["validate_12_troopers"]["median_ms"] <= target_ms
    print(json.dumps(results, indent=2))
    return 0 if results["validate_target_met"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
