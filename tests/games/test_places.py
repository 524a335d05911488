"""A game names and takes hexes one way, the players' way, as the map's own hex names say:
the row counted from side A's table edge, the column from the left of that row ("Row 3
from side A, column 5"), typed as "3,5" or "3 5". The stored state and steps keep axial
coordinates, and the contract's ``hex`` field ("q,r") still places by them."""

from __future__ import annotations

import pytest

from games.models import GameRefusal
from games.places import Places
from onefinity.rules.hexgrid import Board, rows_by_columns
from tablegen.engine.render import places

# --- Reading and naming, on a board of its own ------------------------------------------------

# 12 rows from side A: the first 8 hexes long, the second 9 (starting at q = -1), and so on.
BOARD = Board.of(rows_by_columns(12, 8))
PLACES = Places(BOARD)
RANGES = "the row from side A (1 to 12), then the column (1 to 8 or 9, by the row)"


def refusal(text: str, places_: Places = PLACES) -> str:
    with pytest.raises(GameRefusal) as refused:
        places_.read(text)
    assert refused.value.status == 400
    return str(refused.value)


@pytest.mark.parametrize(
    ("typed", "hex_"),
    [
        ("1,1", (0, 0)),  # side A's edge, first and last column
        ("1,8", (7, 0)),
        ("2,1", (-1, 1)),  # a long row starts half a hex further left
        ("2,9", (7, 1)),
        ("12,1", (-6, 11)),  # side B's edge
        ("12,9", (2, 11)),
        ("3,5", (3, 2)),
    ],
)
def test_the_first_and_last_row_and_column_read_as_the_map_names_them(typed, hex_):
    assert PLACES.read(typed) == hex_
    assert PLACES.typed(hex_) == typed
    row, column = typed.split(",")
    assert PLACES.name(hex_) == f"Row {row} from side A, column {column}"


def test_every_hex_reads_back_from_its_typed_place_and_is_named_as_the_map_names_it():
    named = places(BOARD)
    for i, hex_ in enumerate(BOARD.hexes):
        assert PLACES.read(PLACES.typed(hex_)) == hex_
        assert PLACES.name(hex_) == named[i]


@pytest.mark.parametrize(
    "typed",
    [" 3,5 ", "3 5", "3, 5", "3 ,5", "3  ,  5", "3\t5", "03,05", " " * 100 + "3,5" + " " * 100],
)
def test_spaces_around_or_instead_of_the_comma_are_taken(typed):
    assert PLACES.read(typed) == PLACES.read("3,5")
    assert PLACES.find(typed) == PLACES.read("3,5")


@pytest.mark.parametrize(
    ("typed", "words"),
    [
        ("0,1", "Hex: there is no row 0; the rows from side A are 1 to 12."),
        ("13,1", "Hex: there is no row 13; the rows from side A are 1 to 12."),
        ("999,1", "Hex: there is no row 999; the rows from side A are 1 to 12."),
        ("1,0", "Hex: row 1 from side A has columns 1 to 8, not 0."),
        ("1,9", "Hex: row 1 from side A has columns 1 to 8, not 9."),  # a short row
        ("2,10", "Hex: row 2 from side A has columns 1 to 9, not 10."),  # a long one
        ("12,10", "Hex: row 12 from side A has columns 1 to 9, not 10."),
    ],
)
def test_a_hex_off_the_board_is_refused_naming_the_rows_or_the_rows_columns(typed, words):
    assert refusal(typed) == words
    assert PLACES.find(typed) is None


@pytest.mark.parametrize(
    "typed",
    [
        "",
        " ",
        "3",
        "3,",
        ",5",
        "3,5,1",
        "-1,3",  # axial coordinates' minus sign means nothing here
        "3;5",
        "3.5",
        "row 3, column 5",
        "1234,1",
        "\u0663,\u0665",  # digits, but not ASCII ones
        "3\n,5x",
        "1" * 400,
        "3,5" + "0" * 100,
    ],
)
def test_anything_else_is_refused_naming_the_ranges(typed):
    assert refusal(typed) == f"Hex: type {RANGES}, like 3,5."
    assert PLACES.find(typed) is None


def test_a_board_with_rows_of_many_lengths_or_none_says_so():
    # Rows 0 and 2 of 1 and 3 hexes, row 1 empty, row 3 of 2 hexes.
    board = Board.of([(0, 0), (0, 2), (1, 2), (2, 2), (0, 3), (1, 3)])
    odd = Places(board)
    assert odd.read("3,3") == (2, 2) and odd.read("4,2") == (1, 3)
    assert refusal("2,1", odd) == "Hex: row 2 from side A has no hexes on this table's map."
    assert refusal("x", odd) == (
        "Hex: type the row from side A (1 to 4), then the column (1 to at most 3, by the row), "
        "like 3,5."
    )
    square = Places(Board.of([(q, r) for r in range(3) for q in range(4)]))
    assert refusal("x", square).endswith("then the column (1 to 4), like 3,5.")
    assert square.name((9, 9)) == "off this table's map" and square.typed((9, 9)) == ""
