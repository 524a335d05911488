"""What an edit finds again only near the changed hexes equals what finding it all again
gives: the hand-made pieces of an edited table, and the table a model keeps read."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from onefinity.rules import current_ruleset
from onefinity.rules.hexgrid import Board, rows_by_columns, standard_board
from tablegen.engine.edits import paint, remove_piece, stamp
from tablegen.engine.generate import Parameters, generate_table
from tablegen.engine.library import CUSTOM, terrain_library
from tablegen.engine.tables import (
    Placed,
    TableSpec,
    custom_pieces,
    read_table_document,
    table_document,
)
from tablegen.models import Table
from tests.conftest import examples

RULES = current_ruleset().table
LIBRARY = terrain_library()
STANDARD = standard_board(RULES.rows, RULES.columns)
KINDS = [None, "cover", "elevated", "blocking"]


def regrouped(table: TableSpec) -> tuple[Placed, ...]:
    """The table's pieces with every hand-made group found again from scratch."""
    library = [p for p in table.placed() if p.piece != CUSTOM]
    taken = {i for p in library for i in p.hexes}
    loose = {i for i in table.terrain if i not in taken}
    return tuple(library) + tuple(custom_pieces(table.board, table.terrain, loose))


def generated(seed: int) -> TableSpec:
    table, _ = generate_table(RULES, Parameters(seed=seed), STANDARD)
    return read_table_document(table_document(table), RULES)


def scattered(board: Board, seed: int) -> TableSpec:
    rng = random.Random(seed)
    layout = {
        i: rng.choice(KINDS[1:]) for i in rng.sample(range(len(board)), int(0.45 * len(board)))
    }
    return read_table_document(table_document(TableSpec(board, layout)), RULES)


edit = st.tuples(
    st.sampled_from(["paint", "paint", "paint", "stamp", "remove"]),
    st.floats(0, 1, exclude_max=True),
    st.sampled_from(KINDS),
    st.sampled_from(["none", "point", "mirror"]),
    st.integers(0, 5),
)


@settings(max_examples=examples(60), deadline=None)
@given(
    start=st.sampled_from(["generated", "scattered", "empty"]),
    seed=st.integers(0, 40),
    edits=st.lists(edit, min_size=1, max_size=8),
)
def test_an_edit_groups_hand_made_hexes_as_grouping_them_all_again(start, seed, edits):
    board = STANDARD if start != "scattered" else Board.of(rows_by_columns(10, 12))
    table = {
        "generated": lambda: generated(seed % 4),
        "scattered": lambda: scattered(board, seed),
        "empty": lambda: TableSpec(board, {}),
    }[start]()
    piece_ids = sorted(LIBRARY.pieces)
    for action, where, kind, symmetry, turn in edits:
        hex_ = board.hexes[int(where * len(board))]
        if board.symmetry(symmetry) is None:
            symmetry = "none"
        try:
            if action == "paint":
                table = paint(table, [hex_], kind, RULES, symmetry=symmetry)
            elif action == "stamp":
                piece = piece_ids[int(where * 1000) % len(piece_ids)]
                table = stamp(table, LIBRARY, piece, turn, hex_, symmetry=symmetry)
            else:
                table = remove_piece(table, hex_, symmetry=symmetry)
        except ValueError:
            continue  # a piece that does not fit there: nothing changed
        assert table.pieces == regrouped(table)
        assert sorted(i for p in table.pieces for i in p.hexes) == sorted(table.terrain)


@pytest.mark.django_db
def test_the_table_a_model_keeps_read_is_what_reading_its_document_gives(owner):
    board = Board.of(rows_by_columns(12, 12))
    table = Table(owner=owner)
    table.set_spec(scattered(board, 5))
    table.save()
    rng = random.Random(5)
    symmetries = ["none"] + [s for s in ("point", "mirror") if board.symmetry(s) is not None]
    for _ in range(12):
        hex_ = board.hexes[rng.randrange(len(board))]
        table.paint([hex_], rng.choice(KINDS), symmetry=rng.choice(symmetries))
        kept = table.to_spec()
        assert kept == read_table_document(table.stored_document(), RULES)
        assert table.document == table_document(kept)  # written as the reader gives it back
        fresh = Table.objects.get(pk=table.pk)
        assert fresh.to_spec() == kept
    table.rename("  Renamed  ")
    assert table.to_spec().name == "Renamed" == Table.objects.get(pk=table.pk).to_spec().name
    assert table.document == table_document(table.to_spec()) and table.document["name"] == "Renamed"
