"""Benchmarks of line of fire and tables, with the figures the table issue asks for.

Times, in one run: checking a standard table (all-pairs line of fire and every metric)
with the board's geometry cached, next to a straightforward per-pair implementation
(shapely, each pair on its own); generating one valid standard table; a 100-table
tournament pack; all lines of a 1,620-hex table by the word-parallel method
(onefinity.rules.visibility) beside the direction patterns it replaced; the generator's
aims over many seeds (benchmarks/generator_aims.py); and, now beside the tree before issue
10's speed work (BEFORE, unpacked from git into a temporary directory and run by this same
script in subprocesses taking turns with the current tree):

- a whole check of a 1,620-hex table, cold: in a new process that has checked a few
  standard tables (as a server has), every cache of boards and tables cleared, so the
  check builds the board's lines and facts; median of COLD_RUNS processes;
- a hex edit's server time: Django's test client posting one terrain change by htmx and
  getting the editor region back (view, model write with its compare-and-swap and
  revision, check, SVG and template) against a throw-away SQLite database, on boards of 104
  to 1,620 hexes, after the editor's page was drawn once; wall time, and the process's CPU
  time beside it (on a machine shared with other work, the CPU time is the steadier one).
  Each edit names the map the last answer drew, as the page does, so that the answer is
  what changed on the map; "now, whole map answered" sends no map, as when another server
  process drew the page, and gets the whole map back.

Run: `.venv/bin/python benchmarks/tables.py [seeds for the aims, 600 by default]`, or with
`--edits` for the line-of-fire, cold-check and hex-edit figures only.
"""

from __future__ import annotations

import json
import os
import platform
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
# The tree whose modules this process measures: this one, or (in a subprocess) another
# revision's, unpacked by `unpacked`.
TREE = Path(sys.argv[sys.argv.index("--tree") + 1]) if "--tree" in sys.argv else ROOT
sys.path.insert(0, str(TREE))
# Main before issue 10's speed work (the last commit before it on this branch's history);
# TABLES_BEFORE names another revision to measure beside this tree instead.
BEFORE = os.environ.get("TABLES_BEFORE", "2fa3f6d")
EDIT_BOARDS = (None, 20, 30, 40)  # the standard board, then n x n
EDITS = 30
COLD_RUNS = 5


def ms(seconds: float) -> float:
    return round(seconds * 1000, 3)


def timed(function, runs: int) -> list[float]:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        function()
        samples.append(time.perf_counter() - start)
    return samples


def spread(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "median_ms": ms(statistics.median(ordered)),
        "p95_ms": ms(ordered[int(0.95 * (len(ordered) - 1))]),
        "runs": len(ordered),
    }


def clear_caches() -> None:
    """Forget every cached board geometry, board fact, picture and kept state: the next
    check is cold (whichever tree's modules are loaded: each cache is cleared if it exists)."""
    import importlib

    for module, names in (
        ("onefinity.rules.lineoffire", ("_direction_pattern", "_direction_pattern_direct")),
        ("onefinity.rules.lineoffire", ("_board_geometry",)),
        ("onefinity.rules.visibility", ("board_lines",)),
        ("tablegen.engine.metrics", ("_board_facts",)),
        ("tablegen.engine.render", ("_layout", "_piece_path", "_hex_svg")),
        ("tablegen.engine.tables", ("_board_of", "_standard")),
    ):
        loaded = importlib.import_module(module)
        for name in names:
            cached = getattr(loaded, name, None)
            if cached is not None:
                cached.cache_clear()
    importlib.import_module("tablegen.engine.metrics").forget_kept_states()


def server_garbage_collector() -> None:
    """The garbage collector as the server sets it once loaded (config/wsgi.py), where the
    measured tree does (the tree before the speed work does not)."""
    try:
        from onefinity.memory import tune_garbage_collector
    except ImportError:
        return
    tune_garbage_collector()


def random_layout(board, seed: int) -> dict[int, str]:
    rng = random.Random(seed)
    return {
        k: rng.choice(["blocking", "elevated", "cover"])
        for k in rng.sample(range(len(board)), int(0.45 * len(board)))
    }


def largest_board() -> Any:
    from onefinity.rules.hexgrid import Board, rows_by_columns

    return Board.of(rows_by_columns(40, 40))


def cold_check() -> dict[str, float]:
    """One whole check of a 1,620-hex table, cold: as in a server process that has checked
    standard tables (its modules loaded), with every cache of boards and tables cleared."""
    from onefinity.rules import current_ruleset
    from onefinity.rules.hexgrid import standard_board
    from tablegen.engine.metrics import check_table
    from tablegen.engine.tables import TableSpec

    rules = current_ruleset().table
    standard = standard_board(rules.rows, rules.columns)
    for seed in range(3):
        check_table(TableSpec(standard, random_layout(standard, seed)), rules)
        check_table(TableSpec(standard, random_layout(standard, seed)), rules, before={})
    server_garbage_collector()
    big = largest_board()
    table = TableSpec(big, random_layout(big, 7))
    clear_caches()
    wall, cpu = time.perf_counter(), time.process_time()
    check_table(table, rules)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    # Board cached, table not kept: the check of a table another request has not seen.
    warm = []
    for _ in range(5):
        import tablegen.engine.metrics as metrics

        metrics.forget_kept_states()
        start = time.perf_counter()
        check_table(table, rules)
        warm.append(time.perf_counter() - start)
    return {
        "cold_ms": ms(wall),
        "cold_cpu_ms": ms(cpu),
        "warm_median_ms": ms(statistics.median(warm)),
    }


def _drawn(answer: bytes) -> str | None:
    """The token of the map a page or an edit's answer drew (trees that have one)."""
    found = re.search(rb'data-drawn="([^"]+)"', answer)
    return found[1].decode() if found else None


def edit_times(side: int | None, whole: bool = False) -> dict[str, object]:
    """A hex edit's server time (htmx, the editor region back) on one board. Each edit
    names the map the last answer drew, as the page does (the answer is then what changed
    on the map); with `whole`, none, as when another server process drew the page (the
    answer is the whole map)."""
    os.environ["DATABASE_URL"] = f"sqlite:///{Path(tempfile.mkdtemp()) / 'bench.sqlite3'}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.test import Client
    from django.test.utils import setup_test_environment

    from onefinity.rules import current_ruleset
    from onefinity.rules.hexgrid import Board, rows_by_columns, standard_board
    from tablegen.engine.tables import TableSpec
    from tablegen.models import Table

    setup_test_environment()
    call_command("migrate", verbosity=0)
    server_garbage_collector()
    user = get_user_model().objects.create_user("bench", "b@example.com", "a-long-pass-phrase")
    client = Client()
    client.force_login(user)
    rules = current_ruleset().table
    if side is None:
        board = standard_board(rules.rows, rules.columns)
    else:
        board = Board.of(rows_by_columns(side, side))
    hexes = len(board)
    table = Table(owner=user)
    table.set_spec(TableSpec(board, random_layout(board, hexes), f"Bench {hexes}"))
    table.save()
    url = f"/tables/{table.pk}/"
    page = client.get(url)  # the page an editor has open
    assert page.status_code == 200
    drawn = None if whole else _drawn(page.content)
    rng = random.Random(hexes)
    walls, cpus = [], []
    patched = 0
    for _ in range(EDITS):
        q, r = board.hexes[rng.randrange(len(board))]
        kind = rng.choice(["", "cover", "elevated", "blocking"])
        version = Table.objects.values_list("version", flat=True).get(pk=table.pk)
        wall, cpu = time.perf_counter(), time.process_time()
        values = {"q": q, "r": r, "kind": kind, "version": version}
        if drawn is not None:
            values["drawn"] = drawn
        reply = client.post(url + "terrain/", values, headers={"HX-Request": "true"})
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
        assert reply.status_code == 200, reply.status_code
        if drawn is not None:
            drawn = _drawn(reply.content)
            patched += b"data-map-patch" in reply.content
    return {
        "hexes": hexes,
        "answers_patching_the_map": patched,
        **spread(walls),
        "cpu_median_ms": ms(statistics.median(cpus)),
        "cpu_p95_ms": ms(sorted(cpus)[int(0.95 * (len(cpus) - 1))]),
    }


def unpacked(revision: str) -> Path:
    """The project's tree at `revision`, unpacked from git into a temporary directory."""
    target = Path(tempfile.mkdtemp(prefix=f"tables-{revision}-"))
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", revision], check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(target)], input=archive, check=True)
    return target


def in_tree(tree: Path, *args: str) -> dict[str, Any]:
    """Run this script's measurement `args` on the modules of `tree`, in a new process."""
    reply = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--tree", str(tree), *args],
        check=True,
        capture_output=True,
        text=True,
        cwd=tree,
        env=os.environ | {"PYTHONWARNINGS": "ignore"},
    )
    found: dict[str, Any] = json.loads(reply.stdout.strip().splitlines()[-1])
    return found


def now_and_before() -> dict[str, Any]:
    """The cold check and the hex edit, this tree and BEFORE taking turns."""
    trees = {"now": ROOT, f"before ({BEFORE})": unpacked(BEFORE)}
    cold: dict[str, list[dict[str, Any]]] = {name: [] for name in trees}
    for _ in range(COLD_RUNS):
        for name, tree in trees.items():
            cold[name].append(in_tree(tree, "--cold"))
    edits: dict[str, dict[str, Any]] = {}
    for side in EDIT_BOARDS:
        row = {name: in_tree(tree, "--edit", str(side or 0)) for name, tree in trees.items()}
        row["now, whole map answered"] = in_tree(ROOT, "--edit", str(side or 0), "--whole")
        edits[f"{row['now']['hexes']} hexes"] = row
    return {
        "check_1620_hex_table": {
            name: {
                "cold_median_ms": round(statistics.median(r["cold_ms"] for r in runs), 1),
                "cold_runs_ms": [r["cold_ms"] for r in runs],
                "cold_cpu_median_ms": round(statistics.median(r["cold_cpu_ms"] for r in runs), 1),
                "board_cached_table_not_kept_median_ms": round(
                    statistics.median(r["warm_median_ms"] for r in runs), 1
                ),
            }
            for name, runs in cold.items()
        },
        "hex_edit_server_time": edits,
    }


def lines_1620() -> dict[str, float]:
    """All lines of the 1,620-hex table: words (now) beside the direction patterns."""
    from onefinity.rules import current_ruleset
    from onefinity.rules.lineoffire import Terrain, _visibility_by_patterns
    from onefinity.rules.visibility import Visibility

    big = largest_board()
    terrain = Terrain.of(big, random_layout(big, 7), current_ruleset().table)
    clear_caches()
    start = time.perf_counter()
    _visibility_by_patterns(big, terrain)
    patterns_cold = time.perf_counter() - start
    patterns_warm = timed(lambda: _visibility_by_patterns(big, terrain), 3)
    clear_caches()
    start = time.perf_counter()
    Visibility.of(big, terrain)
    words_cold = time.perf_counter() - start
    return {
        "words_cold_s": round(words_cold, 3),
        "direction_patterns_cold_s": round(patterns_cold, 3),
        "direction_patterns_warm_median_s": round(statistics.median(patterns_warm), 3),
    }


def measure_here() -> int:
    """In a subprocess: one measurement of this tree, printed as JSON."""
    if "--cold" in sys.argv:
        print(json.dumps(cold_check()))
    else:
        side = int(sys.argv[sys.argv.index("--edit") + 1])
        print(json.dumps(edit_times(side or None, whole="--whole" in sys.argv)))
    return 0


def load() -> str:
    return " / ".join(f"{x:.1f}" for x in os.getloadavg())


def main() -> int:
    if "--cold" in sys.argv or "--edit" in sys.argv:
        return measure_here()
    from benchmarks.generator_aims import aims
    from onefinity.rules import current_ruleset
    from onefinity.rules.hexgrid import standard_board
    from onefinity.rules.lineoffire import Terrain
    from onefinity.rules.lineoffire import _board_geometry as board_geometry
    from tablegen.engine.generate import Parameters, generate_table
    from tablegen.engine.metrics import check_table
    from tablegen.engine.tournament import tournament_pack
    from tests.onefinity.lineoffire_reference import reference_clear

    results: dict[str, Any] = {
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
        "date": time.strftime("%Y-%m-%d"),
        "load_average_at_start": load(),
    }
    if "--edits" not in sys.argv:
        aims_seeds = int(sys.argv[1]) if len(sys.argv) > 1 else 600
        rules = current_ruleset().table
        board = standard_board(rules.rows, rules.columns)
        start = time.perf_counter()
        board_geometry(board)
        results["standard_board_geometry_once_ms"] = ms(time.perf_counter() - start)
        table, _ = generate_table(rules, Parameters(seed=1), board)
        check = timed(lambda: check_table(table, rules), 500)
        terrain = Terrain.of(board, table.terrain, rules)
        pairs = [(a, b) for i, a in enumerate(board.hexes) for b in board.hexes[i + 1 :]]
        naive = timed(lambda: [reference_clear(board, terrain, a, b) for a, b in pairs], 2)
        generation: list[float] = []
        for seed in range(100, 160):
            start = time.perf_counter()
            generate_table(rules, Parameters(seed=seed), board)
            generation.append(time.perf_counter() - start)
        start = time.perf_counter()
        pack = tournament_pack(rules, board, 100, Parameters(seed=1000))
        pack_s = time.perf_counter() - start
        results |= {
            "check_standard_table": spread(check),
            "check_standard_table_per_pair_shapely": {
                "median_ms": ms(statistics.median(naive)),
                "runs": len(naive),
                "pairs": len(pairs),
            },
            "generate_standard_table": spread(generation),
            "pack_of_100_tables_s": round(pack_s, 2),
            "pack_candidates": pack.candidates,
            "pack_spread": pack.spread,
            "generator_aims": aims(aims_seeds),
        }
    results["all_lines_1620_hex_table"] = lines_1620()
    results |= now_and_before()
    results["load_average_at_end"] = load()
    cold = results["check_1620_hex_table"]["now"]
    edits = results["hex_edit_server_time"]
    results["targets_met"] = {
        "check_1620_le_100ms_cold": cold["cold_median_ms"] <= 100,
        "hex_edit_le_20ms_median": all(row["now"]["median_ms"] <= 20 for row in edits.values()),
    }
    if "--edits" not in sys.argv:
        results["targets_met"] |= {
            "check_standard_le_1ms": results["check_standard_table"]["median_ms"] <= 1,
            "generate_le_50ms": results["generate_standard_table"]["median_ms"] <= 50,
            "pack_100_le_5s": results["pack_of_100_tables_s"] <= 5,
        }
    print(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
