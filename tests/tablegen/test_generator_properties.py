"""What every generated table is, over many seeds and every symmetry: valid by the exact
checker (read back from its document, every line checked again by a second exact method),
made of library pieces only, with elevated ground, few blocking hexes on the entry rows,
no lone blocking hexes, and the coverage asked for.

GENERATOR_SEEDS sets the seeds per symmetry (150 by default, 450 tables in all; `make soak`
runs 1,000 a symmetry, 3,000 tables, and is run before a release).
"""

from __future__ import annotations

import os

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from onefinity.rules import current_ruleset
from onefinity.rules.hexgrid import standard_board
from onefinity.rules.lineoffire import Terrain
from onefinity.rules.lineoffire import _visibility_by_patterns as by_patterns
from tablegen.engine.generate import SYMMETRIES, Parameters, generate_table
from tablegen.engine.library import terrain_library
from tablegen.engine.metrics import check_table
from tablegen.engine.tables import TableSpec, read_table_document, table_document
from tests.conftest import examples

RULES = current_ruleset().table
BOARD = standard_board(RULES.rows, RULES.columns)
SEEDS = int(os.environ.get("GENERATOR_SEEDS", "150"))
LIBRARY = terrain_library()


def lone_blocking(table: TableSpec) -> int:
    """Blocking hexes none of whose neighbours is blocking: pillars nobody builds."""
    blocking = {i for i, kind in table.terrain.items() if kind == "blocking"}
    return sum(1 for i in blocking if not blocking & set(BOARD.neighbours[i]))


def entry_row_blocking(table: TableSpec) -> int:
    rows = (BOARD.first_row, BOARD.last_row)
    return max(
        sum(1 for i, k in table.terrain.items() if k == "blocking" and BOARD.hexes[i][1] == row)
        for row in rows
    )


def check_again(table: TableSpec):
    """The table as its document reads back, checked from scratch; every pair's line of
    fire also by the direction patterns (the second exact method)."""
    again = read_table_document(table_document(table), RULES)
    assert again.terrain == table.terrain and again.placed() == table.placed()
    report = check_table(again, RULES)
    terrain = Terrain.of(BOARD, again.terrain, RULES)
    assert np.array_equal(report.clear, by_patterns(BOARD, terrain))
    return again, report


@pytest.mark.parametrize("symmetry", SYMMETRIES)
def test_generated_tables_over_many_seeds(symmetry):
    lone = elevated = 0
    for seed in range(SEEDS):
        params = Parameters(seed=seed, symmetry=symmetry, coverage=(0.40, 0.45, 0.50)[seed % 3])
        table, report = generate_table(RULES, params, BOARD)
        assert report.valid, (seed, report.problems)
        table, report = check_again(table)
        assert report.valid, (seed, report.problems)
        assert all(p.piece in LIBRARY.pieces for p in table.placed()), seed
        assert abs(len(table.terrain) - params.coverage * len(BOARD)) <= 2 + 1e-9, seed
        assert entry_row_blocking(table) <= 3, seed
        lone += lone_blocking(table)
        elevated += any(RULES.terrain[k].level > 0 for k in table.terrain.values())
    assert lone / SEEDS <= 1
    assert elevated / SEEDS >= 0.9


@settings(max_examples=examples(40), deadline=None)
@given(
    seed=st.integers(0, 2**63 - 1),
    symmetry=st.sampled_from(SYMMETRIES),
    coverage=st.floats(0.30, 0.60),
)
def test_any_coverage_from_30_to_60_percent_comes_within_two_hexes(seed, symmetry, coverage):
    params = Parameters(seed=seed, symmetry=symmetry, coverage=coverage)
    table, report = generate_table(RULES, params, BOARD)
    assert abs(len(table.terrain) - coverage * len(BOARD)) <= 2 + 1e-9
    # Outside the ruleset's thresholds only the coverage itself may be a problem.
    codes = {p.code for p in report.problems}
    assert codes <= {"table.coverage.low", "table.coverage.high"}
    if RULES.coverage_min <= coverage <= RULES.coverage_max:
        assert not codes
