"""The table commands as a user runs them: exit codes, JSON, one clear error line."""

from __future__ import annotations

import itertools
import json
import random

import pytest

from onefinity.rules import current_ruleset
from onefinity.rules.hexgrid import Board, rows_by_columns
from onefinity.rules.lineoffire import Terrain, line_of_fire
from tests.site.test_commands import manage

# One worker runs this module's tests (make pytest: --dist loadgroup), so they share the
# table its fixture generates (a manage.py run).
pytestmark = pytest.mark.xdist_group("table-commands")

TABLE_RULES = current_ruleset().table


@pytest.fixture(scope="module")
def table_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("tables") / "table.json"
    result = manage("generate_table", "--seed", "7", "--symmetry", "mirror", "--out", str(path))
    assert result.returncode == 0, result.stderr
    return path


def test_generate_table_writes_a_valid_table(table_file):
    document = json.loads(table_file.read_text())
    assert document["format"] == "onefinity-table" and document["seed"] == 7
    assert document["params"] == {"coverage": 0.45, "symmetry": "mirror", "mix": "balanced"}


def test_generate_table_is_deterministic(table_file, tmp_path):
    again = tmp_path / "again.json"
    manage("generate_table", "--seed", "7", "--symmetry", "mirror", "--out", str(again))
    assert again.read_text() == table_file.read_text()


def test_generate_table_writes_several_tables(tmp_path):
    result = manage(
        "generate_table", "--seed", "1", "--count", "3", "--out", str(tmp_path / "pack")
    )
    assert result.returncode == 0
    assert sorted(p.name for p in (tmp_path / "pack").iterdir()) == [
        "table-1.json",
        "table-2.json",
        "table-3.json",
    ]


def test_check_table_json_for_a_valid_table(table_file):
    result = manage("check_table", str(table_file), "--json")
    assert result.returncode == 0
    report = json.loads(result.stdout)
    assert report["valid"] is True and report["problems"] == []
    assert {
        "coverage",
        "edge_lanes",
        "longest_sightline",
        "sides",
        "dominance",
        "connected",
    } <= set(report["metrics"])


def test_check_table_exits_1_with_the_problems(tmp_path):
    path = tmp_path / "open.json"
    path.write_text(
        json.dumps(
            {"format": "onefinity-table", "version": 1, "board": {"standard": True}, "terrain": []}
        )
    )
    result = manage("check_table", str(path), "--json")
    assert result.returncode == 1
    codes = {p["code"] for p in json.loads(result.stdout)["problems"]}
    assert codes == {"table.coverage.low", "table.edge-lanes"}


@pytest.mark.parametrize("content", [None, "{", '{"format": "onefinity-force"}'])
def test_check_table_exits_2_on_unreadable_files(tmp_path, content):
    path = tmp_path / "t.json"
    if content is not None:
        path.write_text(content)
    result = manage("check_table", str(path))
    assert result.returncode == 2
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_line_of_fire_between_two_hexes_names_the_blockers(tmp_path):
    path = tmp_path / "t.json"
    path.write_text(
        json.dumps(
            {
                "format": "onefinity-table",
                "version": 1,
                "board": {"standard": True},
                "terrain": [
                    {"hex": [0, 4], "kind": "blocking"},
                    {"hex": [-1, 4], "kind": "blocking"},
                ],
            }
        )
    )
    result = manage("line_of_fire", str(path), "2,4", "-3,5", "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {"clear": False, "blocked_by": [[0, 4]]}


def test_line_of_fire_lists_every_clear_pair_once(table_file):
    result = manage("line_of_fire", str(table_file), "--json")
    pairs = json.loads(result.stdout)["clear"]
    keys = {tuple(map(tuple, pair)) for pair in pairs}
    assert len(keys) == len(pairs)
    assert all((b, a) not in keys for a, b in keys)


def _rows_by_columns_table(path, rows: int, columns: int):
    """A rows-by-columns table with scattered walls, platforms and crates."""
    hexes = rows_by_columns(rows, columns)
    kinds = {0: "blocking", 1: "elevated", 2: "cover"}
    terrain = {
        h: kinds[(h[0] * 5 + h[1] * 3) % 11] for h in hexes if (h[0] * 5 + h[1] * 3) % 11 < 3
    }
    path.write_text(
        json.dumps(
            {
                "format": "onefinity-table",
                "version": 1,
                "board": {"rows": rows, "columns": columns},
                "terrain": [{"hex": list(h), "kind": k} for h, k in terrain.items()],
            }
        )
    )
    board = Board.of(hexes)
    return board, Terrain.of(board, {board.index[h]: k for h, k in terrain.items()}, TABLE_RULES)


def _pairwise_clear(board, terrain, pairs):
    """The clear pairs among `pairs` (of standable hexes), one line of fire at a time."""
    return {(a, b) for a, b in pairs if line_of_fire(board, terrain, a, b).clear}


def test_line_of_fire_lists_the_same_pairs_as_tracing_each_line_on_a_small_board(tmp_path):
    board, terrain = _rows_by_columns_table(tmp_path / "small.json", 8, 7)
    result = manage("line_of_fire", str(tmp_path / "small.json"), "--json")
    assert result.returncode == 0, result.stderr
    listed = {(tuple(a), tuple(b)) for a, b in json.loads(result.stdout)["clear"]}
    standable = [h for i, h in enumerate(board.hexes) if terrain.standable[i]]
    every_pair = list(itertools.combinations(standable, 2))
    assert listed == _pairwise_clear(board, terrain, every_pair)


def test_line_of_fire_on_a_40_by_40_board_finishes_and_agrees_line_by_line(tmp_path):
    board, terrain = _rows_by_columns_table(tmp_path / "large.json", 40, 40)
    # The per-pair geometry took 97 s and 1.6 GB here; check_table's path takes seconds
    # (benchmarks/table_limits.py). A run past the timeout fails the test.
    result = manage("line_of_fire", str(tmp_path / "large.json"), "--json", timeout=120)
    assert result.returncode == 0, result.stderr
    listed = {(tuple(a), tuple(b)) for a, b in json.loads(result.stdout)["clear"]}
    standable = [h for i, h in enumerate(board.hexes) if terrain.standable[i]]
    rng = random.Random(40)
    sample = [tuple(sorted(rng.sample(standable, 2), key=board.index.get)) for _ in range(400)]
    assert {pair for pair in sample if pair in listed} == _pairwise_clear(board, terrain, sample)


def test_line_of_fire_refuses_a_hex_off_the_board(table_file):
    result = manage("line_of_fire", str(table_file), "0,0", "99,99")
    assert result.returncode == 2 and "not on this table's board" in result.stderr
