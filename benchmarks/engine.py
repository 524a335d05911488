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
from onefinity.rules.combat import Situation, plan_exchange, resolve
from onefinity.rules.effects import fighter
from onefinity.rules.force import TrooperSpec, UnitSpec
from onefinity.rules.profile import trooper_profile
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

# A force past nine of its limits (points, units, troopers, TAGs, unit sizes, specialists,
# ability slots) and with an unknown weapon: every broken constraint's words are said.
BROKEN_LIMITS = {
    "format": "onefinity-force",
    "version": 1,
    "name": "Over every limit",
    "faction": "solar-concord",
    "points_limit": 20,
    "units": [
        {"type": "tag", "troopers": [{"class": "engineer"}, {}]},
        {"type": "tag", "troopers": [{}]},
        {"type": "medium-infantry", "troopers": [{"weapons": ["laser"]}, {}]},
        {"type": "light-infantry", "troopers": [{"abilities": ["fast", "marksman"]}] + [{}] * 6},
        {"type": "light-infantry", "troopers": [{}, {}]},
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
    broken = read_force_document(BROKEN_LIMITS)
    assert len(validate_force(broken, ruleset).errors) == 10

    results = {
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
        "date": time.strftime("%Y-%m-%d"),
        "ruleset_load_cold_ms": round(cold_ms, 2),
        "ruleset_loaded_once_per_process": library() is shipped,
        "validate_12_troopers": summary(timed(lambda: validate_force(force, ruleset), 5000)),
        "read_and_validate_12_trooper_document": summary(
            timed(lambda: check_force_document(TWELVE_TROOPERS, shipped), 5000)
        ),
        "validate_9_broken_limits": summary(timed(lambda: validate_force(broken, ruleset), 5000)),
        "card_odds_5_vs_4_exact": summary(timed(lambda: exchange_odds(5, 4, ruleset.cards), 500)),
        # The stat lines of the 12 troopers, through the exchange evaluator (a sheet).
        "trooper_profiles_12": summary(
            timed(
                lambda: [
                    trooper_profile(t, u, None, ruleset, 0) for u in force.units for t in u.troopers
                ],
                2000,
            )
        ),
    }
    # The whole exchange, planned and resolved exactly: the combat seed's opposed shooting
    # (a Combi Rifle's two shots against a Medium Infantry in cover, its Rifle reacting:
    # the heaviest count, two piles a player), and close combat after a reaction.
    shooter = fighter(TrooperSpec(weapons=("combi-rifle",)), UnitSpec("light-infantry"), ruleset)
    covered = fighter(TrooperSpec(), UnitSpec("medium-infantry"), ruleset)
    assert shooter is not None and covered is not None
    covered = covered.with_situation((), ("cover",))
    reaction = Situation("shooting", "medium", True)
    melee = Situation("close-combat", "short", True)
    results["whole_exchange_reaction_and_burst"] = summary(
        timed(lambda: resolve(plan_exchange(shooter, covered, reaction, ruleset), ruleset), 200)
    )
    charger = shooter.with_situation(("charging",))
    plain = covered.with_situation()
    results["whole_exchange_close_combat_after_a_reaction"] = summary(
        timed(lambda: resolve(plan_exchange(charger, plain, melee, ruleset), ruleset), 500)
    )
    target_ms = 0.5
    results["validate_target_met"] = results["validate_12_troopers"]["median_ms"] <= target_ms
    print(json.dumps(results, indent=2))
    return 0 if results["validate_target_met"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
