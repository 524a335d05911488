"""The list editor's judge, without the web: every choice one redraw of an 11-trooper list
offers (a trooper added to each unit, each unit's last trooper duplicated, a unit of each
type added), each tried on a copy of the list and validated (forcebuilder.choices.Judge).
The engine's share of an editor change; benchmarks/forcebuilder.py measures the whole.

Run with `.venv/bin/python benchmarks/editor_judge.py`; prints the median of its runs.
"""

from __future__ import annotations

import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from forcebuilder import edits
from forcebuilder.choices import Judge
from onefinity.rules import library, read_force_document, validate_force

RUNS = int(os.environ.get("RUNS", "2000"))


def _troopers(count: int) -> list[dict[str, object]]:
    return [{} for _ in range(count)]


# The list of benchmarks/forcebuilder.py: 4 + 3 + 2 + 2 troopers, no specialist (a warning
# on every copy), one trooper with a loadout.
ELEVEN_TROOPERS = {
    "format": "onefinity-force",
    "version": 1,
    "name": "Bench",
    "faction": "solar-concord",
    "units": [
        {
            "type": "medium-infantry",
            "troopers": [{}, {"weapons": ["combi-rifle"], "abilities": ["marksman"]}, {}, {}],
        },
        {"type": "medium-infantry", "troopers": _troopers(3)},
        {"type": "light-infantry", "troopers": _troopers(2)},
        {"type": "light-infantry", "troopers": _troopers(2)},
    ],
}


def main() -> int:
    ruleset = library().current
    spec = read_force_document(ELEVEN_TROOPERS)

    def redraw() -> tuple[int, list[str]]:
        judge = Judge(spec, validate_force(spec, ruleset), ruleset)
        reasons = []
        for u, unit in enumerate(spec.units):
            reasons.append(judge.reason(lambda f, u=u: edits.add_trooper(f, u)))
            last = len(unit.troopers) - 1
            reasons.append(judge.reason(lambda f, u=u, t=last: edits.duplicate_trooper(f, u, t)))
        for unit_type in ruleset.unit_types.values():
            reasons.append(judge.reason(lambda f, t=unit_type.id: edits.add_unit(f, t, ruleset)))
        return judge.tried, reasons

    tried, reasons = redraw()
    for _ in range(min(300, RUNS)):  # warm up
        redraw()
    samples = []
    for _ in range(RUNS):
        start = time.perf_counter_ns()
        redraw()
        samples.append((time.perf_counter_ns() - start) / 1e6)
    ordered = sorted(samples)
    print(
        json.dumps(
            {
                "machine": f"{platform.machine()}, {os.cpu_count()} cores, "
                f"Python {platform.python_version()}",
                "date": time.strftime("%Y-%m-%d"),
                "choices_tried": tried,
                "refused_with": sorted({reason for reason in reasons if reason}),
                "judge_one_redraw": {
                    "median_ms": round(statistics.median(ordered), 4),
                    "p95_ms": round(ordered[int(len(ordered) * 0.95) - 1], 4),
                    "runs": RUNS,
                },
            },
            indent=2,
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
