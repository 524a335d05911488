"""The word-parallel all-pairs line of fire and its incremental update agree, pair for pair,
with the two older exact methods (per-pair geometry, direction patterns) on every board."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from onefinity.rules import current_ruleset
from onefinity.rules.hexgrid import Board, rows_by_columns, standard_board
from onefinity.rules.lineoffire import Terrain, _board_geometry, _direction_pattern
from onefinity.rules.lineoffire import _visibility_by_pairs as by_pairs
from onefinity.rules.lineoffire import _visibility_by_patterns as by_patterns
from onefinity.rules.visibility import Visibility, board_lines
from tests.conftest import examples

RULES = current_ruleset().table
KINDS = ["blocking", "elevated", "cover"]
LARGEST = Board.of(rows_by_columns(40, 40))
BOARDS = {
    "standard": standard_board(RULES.rows, RULES.columns),
    "tiny": Board.of(rows_by_columns(3, 2)),
    "6x25": Board.of(rows_by_columns(6, 25)),
    "holes": Board.of([h for h in rows_by_columns(14, 14) if (h[0] * 7 + h[1] * 3) % 11]),
    "ring": Board.of(
        [(q, r) for q, r in rows_by_columns(12, 12) if not (3 < r < 8 and 2 < q + r // 2 < 9)]
    ),
}


def layout(board: Board, rng: random.Random, share: float) -> dict[int, str]:
    count = int(share * len(board))
    return {k: rng.choice(KINDS) for k in rng.sample(range(len(board)), count)}


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_the_whole_computation_agrees_with_both_older_methods(name):
    board = BOARDS[name]
    rng = random.Random(name)
    for share in (0.0, 0.2, 0.45, 0.8):
        terrain = Terrain.of(board, layout(board, rng, share), RULES)
        clear = Visibility.of(board, terrain).clear
        assert np.array_equal(clear, by_pairs(_board_geometry(board), terrain)), share
        assert np.array_equal(clear, by_patterns(board, terrain)), share


def test_the_largest_board_agrees_with_the_direction_patterns():
    rng = random.Random(40)
    for share in (0.3, 0.5):
        terrain = Terrain.of(LARGEST, layout(LARGEST, rng, share), RULES)
        assert np.array_equal(Visibility.of(LARGEST, terrain).clear, by_patterns(LARGEST, terrain))


def test_every_direction_of_the_largest_board_crosses_the_same_hexes_as_before():
    lines = board_lines(LARGEST)
    for d in range(len(lines.dir_q)):
        dq, dr = int(lines.dir_q[d]), int(lines.dir_r[d])
        crossed, sides = _direction_pattern(dq, dr)
        span = slice(lines.pat_start[d], lines.pat_start[d + 1])
        mine = set(zip(lines.pat_q[span].tolist(), lines.pat_r[span].tolist(), strict=True))
        assert mine == {tuple(h) for h in crossed.tolist()}, (dq, dr)
        span = slice(lines.side_start[d], lines.side_start[d + 1])
        along = {
            frozenset({(aq, ar), (bq, br)})
            for aq, ar, bq, br in zip(
                lines.side_aq[span].tolist(),
                lines.side_ar[span].tolist(),
                lines.side_bq[span].tolist(),
                lines.side_br[span].tolist(),
                strict=True,
            )
        }
        assert along == {frozenset({(a, b), (c, e)}) for a, b, c, e in sides.tolist()}, (dq, dr)


def test_every_pair_of_a_board_is_listed_once():
    for board in [*BOARDS.values(), LARGEST]:
        lines = board_lines(board)
        n = len(board)
        assert lines.pairs == n * (n - 1) // 2
        assert (
            len(
                set(
                    zip(
                        np.minimum(lines.pair_s, lines.pair_t).tolist(),
                        np.maximum(lines.pair_s, lines.pair_t).tolist(),
                        strict=True,
                    )
                )
            )
            == lines.pairs
        )


edits = st.lists(
    st.tuples(st.floats(0, 1, exclude_max=True), st.sampled_from([None, *KINDS])),
    min_size=1,
    max_size=12,
)


def _edited(board: Board, start: dict[int, str], changes) -> dict[int, str]:
    result = dict(start)
    for where, kind in changes:
        index = int(where * len(board))
        if kind is None:
            result.pop(index, None)
        else:
            result[index] = kind
    return result


@settings(max_examples=examples(80), deadline=None)
@given(
    name=st.sampled_from(sorted(BOARDS)),
    seed=st.integers(0, 10_000),
    share=st.sampled_from([0.0, 0.3, 0.6]),
    steps=st.lists(edits, min_size=1, max_size=4),
)
def test_an_incremental_update_equals_a_full_recompute_after_random_edits(name, seed, share, steps):
    board = BOARDS[name]
    kinds = layout(board, random.Random(seed), share)
    state = Visibility.of(board, Terrain.of(board, kinds, RULES))
    for changes in steps:
        kinds = _edited(board, kinds, changes)
        terrain = Terrain.of(board, kinds, RULES)
        state = state.changed(terrain)
        whole = Visibility.of(board, terrain)
        assert np.array_equal(state.top, whole.top)
        assert np.array_equal(state.clear, whole.clear)


@settings(max_examples=examples(12), deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.lists(edits, min_size=1, max_size=3))
def test_an_incremental_update_equals_a_full_recompute_on_the_largest_board(seed, steps):
    kinds = layout(LARGEST, random.Random(seed), 0.45)
    state = Visibility.of(LARGEST, Terrain.of(LARGEST, kinds, RULES))
    for changes in steps:
        kinds = _edited(LARGEST, kinds, changes)
        terrain = Terrain.of(LARGEST, kinds, RULES)
        state = state.changed(terrain)
        assert np.array_equal(state.clear, Visibility.of(LARGEST, terrain).clear)


def test_a_fall_below_a_side_is_recomputed():
    # (0,0) -> (1,1) runs along the side of (1,0) and (0,1): blocked while both are high.
    board = BOARDS["standard"]
    both = {board.index[(1, 0)]: "blocking", board.index[(0, 1)]: "elevated"}
    state = Visibility.of(board, Terrain.of(board, both, RULES))
    a, b = board.index[(0, 0)], board.index[(1, 1)]
    assert not state.clear[a, b]
    lowered = both | {board.index[(1, 0)]: "cover"}
    assert state.changed(Terrain.of(board, lowered, RULES)).clear[a, b]
