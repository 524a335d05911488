"""A saved table's hex edit checks only the lines through the changed hex (the kept state of
the table before the edit brought up to date), and reports exactly what a whole check does."""

from __future__ import annotations

import random

import numpy as np
import pytest

from onefinity.rules import current_ruleset
from onefinity.rules.hexgrid import Board, rows_by_columns
from onefinity.rules.lineoffire import Terrain, _visibility_by_patterns
from tablegen.engine import metrics
from tablegen.engine.metrics import check_table, forget_kept_states
from tablegen.engine.tables import TableSpec
from tablegen.models import Table

pytestmark = pytest.mark.django_db
RULES = current_ruleset().table


def test_an_edit_on_a_large_board_updates_the_kept_state_and_agrees_with_a_whole_check(
    owner, monkeypatch
):
    board = Board.of(rows_by_columns(24, 24))
    rng = random.Random(3)
    layout = {
        i: rng.choice(["blocking", "elevated", "cover"]) for i in rng.sample(range(len(board)), 250)
    }
    table = Table(owner=owner)
    table.set_spec(TableSpec(board, layout, "Big"))
    table.save()
    updated = []
    real = metrics.Visibility.changed_pairs
    monkeypatch.setattr(
        metrics.Visibility, "changed_pairs", lambda self, t: updated.append(1) or real(self, t)
    )
    lines_moved = 0
    for _ in range(5):
        index = rng.randrange(len(board))
        kinds = [None, "cover", "elevated", "blocking"]
        kinds.remove(table.to_spec().terrain.get(index))
        before = Terrain.of(board, table.to_spec().terrain, RULES)
        report = table.paint([board.hexes[index]], rng.choice(kinds))
        assert report is not None
        spec = table.to_spec()
        forget_kept_states()
        whole = check_table(spec, RULES)
        assert report.metrics == whole.metrics and report.problems == whole.problems
        terrain = Terrain.of(board, spec.terrain, RULES)
        # Cover has no height: only a change of height or level moves any line.
        lines_moved += not (
            np.array_equal(before.heights, terrain.heights)
            and np.array_equal(before.levels, terrain.levels)
        )
        assert np.array_equal(report.clear, _visibility_by_patterns(board, terrain))
        check_table(spec, RULES)  # kept again, as the page drawn after the edit leaves it
    assert len(updated) == lines_moved > 0
