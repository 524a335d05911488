"""Editing a table's terrain: pieces follow the terrain, and with a symmetry every edit is
made again on the image of what it touched."""

from __future__ import annotations

import pytest

from onefinity.rules import current_ruleset
from onefinity.rules.hexgrid import standard_board
from tablegen.engine.edits import EditError, paint, remove_piece, stamp
from tablegen.engine.generate import Parameters, generate_table
from tablegen.engine.library import CUSTOM, terrain_library
from tablegen.engine.tables import TableSpec, read_table_document, table_document

RULES = current_ruleset().table
BOARD = standard_board(RULES.rows, RULES.columns)
LIBRARY = terrain_library()


def empty() -> TableSpec:
    return TableSpec(BOARD, {})


def every_hex_in_one_piece(table: TableSpec) -> bool:
    hexes = sorted(i for p in table.placed() for i in p.hexes)
    return hexes == sorted(table.terrain)


@pytest.mark.parametrize("symmetry", ["point", "mirror"])
def test_painting_with_a_symmetry_changes_the_image_hex_too(symmetry):
    image = BOARD.symmetry(symmetry)
    assert image is not None
    hex_ = BOARD.hexes[5]
    table = paint(empty(), [hex_], "blocking", RULES, symmetry=symmetry)
    assert table.terrain == {5: "blocking", image[5]: "blocking"}
    table = paint(table, [hex_], None, RULES, symmetry=symmetry)
    assert table.terrain == {}


def test_painted_hexes_are_hand_made_pieces_and_the_document_reads_back():
    table = paint(empty(), [BOARD.hexes[0], BOARD.hexes[1]], "cover", RULES)
    assert {p.piece for p in table.placed()} == {CUSTOM}
    assert every_hex_in_one_piece(table)
    again = read_table_document(table_document(table), RULES)
    assert again.terrain == table.terrain and again.placed() == table.placed()


def test_painting_over_a_library_piece_leaves_the_rest_of_it_hand_made():
    table, _ = generate_table(RULES, Parameters(seed=3), BOARD)
    piece = next(p for p in table.placed() if len(p.hexes) > 2)
    edited = paint(table, [BOARD.hexes[piece.hexes[0]]], None, RULES)
    assert piece not in edited.placed() and every_hex_in_one_piece(edited)
    rest = set(piece.hexes[1:])
    assert all(p.piece == CUSTOM for p in edited.placed() if rest & set(p.hexes))


@pytest.mark.parametrize("symmetry", ["none", "point"])
def test_a_stamped_piece_stands_as_that_piece_and_comes_off_whole(symmetry):
    table = stamp(empty(), LIBRARY, "building-4", 0, (0, 1), symmetry=symmetry)
    placed = table.placed()
    assert [p.piece for p in placed] == ["building-4"] * (1 if symmetry == "none" else 2)
    assert len(table.terrain) == 4 * len(placed)
    assert remove_piece(table, (0, 1), symmetry=symmetry).terrain == {}


def test_a_piece_that_would_hang_off_the_table_or_is_unknown_is_refused():
    with pytest.raises(EditError, match="off the table"):
        stamp(empty(), LIBRARY, "building-7", 0, BOARD.hexes[-1])
    with pytest.raises(EditError, match="no piece 'tower'"):
        stamp(empty(), LIBRARY, "tower", 0, (0, 1))
    with pytest.raises(EditError, match="unknown symmetry"):
        paint(empty(), [(0, 1)], "cover", RULES, symmetry="spiral")
