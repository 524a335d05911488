"""A hex's name on the map is its place in a player's words: the row counted from side A's
table edge, the column from the left of that row; never the axial coordinates."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from onefinity.rules.hexgrid import Board, rows_by_columns
from tablegen.engine.render import places


def test_a_standard_boards_corners_are_named_from_side_as_edge():
    board = Board.of(rows_by_columns(12, 8))
    named = places(board)
    assert named[0] == "Row 1 from side A, column 1"
    assert named[board.index[(7, 0)]] == "Row 1 from side A, column 8"
    # The second row is one hex longer and starts half a hex further left, at q = -1.
    assert named[board.index[(-1, 1)]] == "Row 2 from side A, column 1"
    assert named[-1] == "Row 12 from side A, column 9"  # a long row, as the second


@settings(max_examples=30, deadline=None)
@given(rows=st.integers(2, 40), columns=st.integers(1, 40))
def test_every_hex_has_its_own_name_without_a_minus_sign(rows: int, columns: int):
    board = Board.of(rows_by_columns(rows, columns))
    named = places(board)
    assert len(set(named)) == len(board) and not any("-" in name for name in named)
    assert sum(name.endswith(", column 1") for name in named) == rows


def test_a_board_that_does_not_start_at_row_0_still_counts_from_1():
    board = Board.of([(q, r) for r in (3, 4, 5) for q in (-4, -3, 0)])
    assert places(board)[0] == "Row 1 from side A, column 1"
    assert places(board)[-1] == "Row 3 from side A, column 3"
