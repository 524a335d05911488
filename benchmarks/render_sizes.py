"""How long the printouts a visitor can ask for take to render, by size: the figures behind
the sizes past which a printout is made by the task worker instead of inside the request
(forcebuilder.jobs.WORKER_TROOPERS, tablegen.jobs.WORKER_HEXES).

    .venv/bin/python benchmarks/render_sizes.py [RUNS]

A list's roster and card PDFs by trooper count (each trooper with a weapon, a piece of
equipment and an ability; the largest with 10 of each, as the reader allows), and a table's
setup sheet by board size (45 % terrain of random kinds, every hex a piece of its own: the
worst case). Each figure is the median of RUNS renders (3 by default), with the machine's
load beside it.
"""

from __future__ import annotations

import os
import platform
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ["DATABASE_URL"] = f"sqlite:///{Path(tempfile.mkdtemp()) / 'bench.sqlite3'}"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from forcebuilder.printing import render_pdf  # noqa: E402
from forcebuilder.sheets import force_sheet  # noqa: E402
from onefinity.rules import library, read_force_document, validate_force  # noqa: E402
from onefinity.rules.hexgrid import Board, rows_by_columns, standard_board  # noqa: E402
from tablegen.engine.tables import TableSpec  # noqa: E402
from tablegen.printing import setup_pdf  # noqa: E402


def list_of(troopers: int, items: int) -> dict[str, object]:
    ruleset = library().current
    units, left = [], troopers
    while left:
        size = min(4, left)
        units.append(
            {
                "type": "light-infantry",
                "troopers": [
                    {
                        "name": "Trooper",
                        "weapons": list(ruleset.weapons)[:items],
                        "equipment": list(ruleset.equipment)[:items],
                        "abilities": list(ruleset.abilities)[:items],
                    }
                    for _ in range(size)
                ],
            }
        )
        left -= size
    return {
        "format": "onefinity-force",
        "version": 1,
        "name": f"{troopers} troopers",
        "faction": "solar-concord",
        "units": units,
    }


def seconds(render: object, runs: int) -> float:
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        render()  # type: ignore[operator]
        samples.append(time.perf_counter() - started)
    return statistics.median(samples)


def board_of(rows: int, columns: int, seed: int) -> TableSpec:
    board = standard_board(11, 9) if rows == 11 else Board.of(rows_by_columns(rows, columns))
    rng = random.Random(seed)
    kinds = ["blocking", "elevated", "cover"]
    terrain = {k: rng.choice(kinds) for k in rng.sample(range(len(board)), len(board) * 45 // 100)}
    return TableSpec(board, terrain, f"{len(board)} hexes")


def main() -> int:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    ruleset = library().current
    print(f"# {platform.machine()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}")
    print("\n| List | roster.pdf | cards.pdf |\n|---|---|---|")
    for troopers, items in ((6, 1), (12, 1), (12, 3), (18, 1), (24, 1), (30, 1), (30, 10)):
        spec = read_force_document(list_of(troopers, items))
        sheet = force_sheet(spec, validate_force(spec, ruleset))
        context = {"force": spec, "sheet": sheet, "share_url": "", "qr": "", "pdf": True}
        roster = seconds(lambda: render_pdf("forcebuilder/roster.html", context, None), runs)  # noqa: B023
        cards = seconds(lambda: render_pdf("forcebuilder/cards.html", context, None), runs)  # noqa: B023
        print(f"| {troopers} troopers, {items} of each item | {roster:.2f} s | {cards:.2f} s |")
    rules = ruleset.table
    print("\n| Board | setup.pdf |\n|---|---|")
    for rows, columns in ((11, 9), (16, 16), (20, 20), (26, 26), (30, 30), (40, 40)):
        spec = board_of(rows, columns, 1)
        took = seconds(lambda: setup_pdf([spec], spec.name, rules), runs)  # noqa: B023
        print(f"| {rows} x {columns} ({len(spec.board)} hexes) | {took:.2f} s |")
    print(f"\n# load after: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
