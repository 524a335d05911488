"""Every board, however it is described, fits in the editor's largest board: 40 rows by
40 columns (1,620 hexes). The bound is on the board itself, so every reader enforces it."""

from __future__ import annotations

import pytest

from onefinity.rules.hexgrid import (
    MAX_BOARD_COLUMNS,
    MAX_BOARD_HEXES,
    MAX_BOARD_ROWS,
    Board,
    BoardError,
    rows_by_columns,
)


def test_the_largest_editor_board_is_the_limit():
    board = Board.of(rows_by_columns(MAX_BOARD_ROWS, MAX_BOARD_COLUMNS))
    assert (MAX_BOARD_ROWS, MAX_BOARD_COLUMNS) == (40, 40)
    assert len(board) == MAX_BOARD_HEXES == 1620


@pytest.mark.parametrize(("rows", "columns"), [(41, 1), (1249, 1), (2, 41), (41, 40)])
def test_one_row_or_column_past_the_limit_is_refused(rows, columns):
    with pytest.raises(BoardError, match="at most 40 rows and 40 columns"):
        rows_by_columns(rows, columns)


def test_a_few_hexes_spread_over_many_rows_are_refused():
    spread = [(0, 10 * k) for k in range(20)]  # 20 hexes over 191 rows
    with pytest.raises(BoardError, match="spans 191 rows; at most 40"):
        Board.of(spread)
    Board.of([(0, 0), (0, 39)])  # 40 rows: at the limit


def test_a_few_hexes_spread_wider_than_the_editor_board_are_refused():
    # 41 hexes across is the editor's widest row (x from -1 to 79 in half-hex steps).
    Board.of([(0, 0), (40, 0), (0, 1)])
    with pytest.raises(BoardError, match="42 hexes wide; at most 41"):
        Board.of([(0, 0), (41, 0), (0, 1)])
    with pytest.raises(BoardError, match="wide"):
        Board.of([(-5000, 1), (5000, 0)])


def test_far_away_coordinates_are_fine_when_the_board_is_small():
    board = Board.of([(9000, -9000), (9000, -8999)])
    assert len(board) == 2
