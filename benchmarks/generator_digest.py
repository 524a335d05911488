"""The generator's outputs as digests, to hold a faster generator to the same tables.

For each case (seeds x symmetries x mixes x coverages, the realistic terrain boxes and the
boxes that make no table), the table made (terrain, pieces, name, params), its report
(metrics, problems, the clear lines, lanes) and, when none is made, the error's message,
advice, draft and the draft's number, are hashed. A tree whose generator is only faster
prints the same digests. Run it on two trees and compare:

    .venv/bin/python benchmarks/generator_digest.py > /tmp/after.txt
    .venv/bin/python benchmarks/generator_digest.py --root /tmp/before-tree > /tmp/before.txt
    diff /tmp/before.txt /tmp/after.txt && echo same

No budget is given (a search never times out), so the digests do not depend on the
machine's speed. `--seeds N` for more or fewer seeds (40 by default: 700 cases, a few
minutes).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=HERE, help="the checkout to measure")
    parser.add_argument("--seeds", type=int, default=40)
    return parser.parse_args()


ARGS = parse_args()
sys.path.insert(0, str(ARGS.root.resolve()))

from onefinity.rules import current_ruleset  # noqa: E402
from onefinity.rules.hexgrid import standard_board  # noqa: E402
from tablegen.engine.boxes import read_box_document  # noqa: E402
from tablegen.engine.generate import GenerationError, Parameters, generate_table  # noqa: E402
from tablegen.engine.library import terrain_library  # noqa: E402
from tablegen.engine.tables import table_document  # noqa: E402

RULES = current_ruleset().table
BOARD = standard_board(RULES.rows, RULES.columns)
LIBRARY = terrain_library()
BOXES = HERE / "tests" / "data" / "boxes"


def box(name: str) -> dict[str, int]:
    return read_box_document(json.loads((BOXES / f"{name}.json").read_text()), LIBRARY).pieces


def outcome(params: Parameters) -> object:
    """Everything a generation gives back, as plain data."""
    try:
        spec, report = generate_table(RULES, params, BOARD)
    except GenerationError as error:
        draft = None
        if error.draft is not None:
            spec, report = error.draft
            draft = [table_document(spec), report.as_dict(), report.clear.tobytes().hex()]
        advice = None if error.advice is None else repr(error.advice)
        return ["error", type(error).__name__, str(error), advice, error.draft_attempt, draft]
    return [
        table_document(spec),
        report.as_dict(),
        report.clear.tobytes().hex(),
        [list(map(list, lane)) for lane in report.lanes],
        [list(h) for h in report.unreachable],
    ]


def cases() -> list[tuple[str, Parameters]]:
    found = []
    for seed in range(ARGS.seeds):
        for symmetry in ("none", "point", "mirror"):
            for mix, coverage in (("balanced", 0.45), ("urban", 0.35), ("industrial", 0.55)):
                label = f"seed {seed} {symmetry} {mix} {coverage}"
                found.append((label, Parameters(seed, coverage, symmetry, mix)))
    for name in ("city", "club", "starter", "wilderness", "issue-24"):
        pieces = box(name)
        for seed in range(max(2, ARGS.seeds // 8)):
            for symmetry in ("none", "point", "mirror"):
                label = f"box {name} seed {seed} {symmetry}"
                found.append((label, Parameters(seed, 0.45, symmetry, "balanced", box=pieces)))
    short = {"crates": 20, "scatter": 20, "container": 10}
    found.append(("box short seed 3", Parameters(3, 0.45, "point", "balanced", box=short)))
    return found


def main() -> int:
    started = time.perf_counter()
    whole = hashlib.sha256()
    for label, params in cases():
        digest = hashlib.sha256(
            json.dumps(outcome(params), sort_keys=True, default=str).encode()
        ).hexdigest()[:16]
        whole.update(digest.encode())
        print(f"{label}: {digest}", flush=True)
    print(f"all: {whole.hexdigest()[:16]}")
    print(f"({time.perf_counter() - started:.0f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
