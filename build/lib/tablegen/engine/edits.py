"""Edits of a table, as pure functions: a table in, a new table out (the old one unchanged).

The editor's views parse what was sent, the model applies one of these and saves the result
with a compare-and-swap; nothing here knows of requests or the database.

Pieces follow the terrain: a library piece any of whose hexes an edit touches is no longer
that piece, so what is left of it becomes hand-made ("custom") terrain; hand-made hexes of
one kind that touch are one custom piece. With a symmetry, every edit is made again on the
image of what it touched, so a symmetric table stays symmetric.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from onefinity.rules.hexgrid import Board, Hex
from onefinity.rules.ruleset import TableRules
from tablegen.engine.library import CUSTOM, TerrainLibrary
from tablegen.engine.tables import Placed, TableSpec, custom_pieces

SYMMETRIES = ("none", "point", "mirror")


class EditError(ValueError):
    """An edit that cannot apply to this table (a hex off the board, an unknown kind)."""


def kind_cycle(rules: TableRules) -> list[str | None]:
    """Open ground, then the ruleset's kinds from the lowest to the highest."""
    ordered = sorted(rules.terrain.values(), key=lambda kind: (kind.height, kind.level, kind.id))
    return [None, *(kind.id for kind in ordered)]


def next_kind(current: str | None, rules: TableRules) -> str | None:
    cycle = kind_cycle(rules)
    return cycle[(cycle.index(current) + 1) % len(cycle)] if current in cycle else None


def mapping(board: Board, symmetry: str) -> tuple[int, ...] | None:
    """The hex each hex maps to under `symmetry` ("none": None); EditError when the board
    does not have that symmetry."""
    if symmetry == "none":
        return None
    if symmetry not in SYMMETRIES:
        raise EditError(f"unknown symmetry {symmetry!r}")
    found = board.symmetry(symmetry)
    if found is None:
        raise EditError(f"this board has no {symmetry} symmetry")
    return found


def _indices(board: Board, hexes: Iterable[Hex]) -> list[int]:
    found = []
    for hex_ in hexes:
        index = board.index.get(hex_)
        if index is None:
            raise EditError(f"{hex_[0]},{hex_[1]} is not on the table")
        found.append(index)
    return found


def _rebuilt(
    table: TableSpec, terrain: dict[int, str], touched: set[int], new: Iterable[Placed] = ()
) -> TableSpec:
    """The table with `terrain`: pieces none of whose hexes were touched stay, the `new`
    pieces are added, and every other terrain hex is hand-made.

    Hand-made pieces are each group of touching loose hexes of one kind, in the order of
    their first hex. Only the groups near what changed are found again: a group none of
    whose hexes changed or touches a changed hex is still a whole group (tests hold this
    equal to grouping every loose hex again)."""
    board = table.board
    before = table.placed()
    kept: list[Placed] = []
    changed = set(touched)
    for placed in before:
        if placed.piece == CUSTOM:
            continue
        if touched.isdisjoint(placed.hexes):
            kept.append(placed)
        else:
            changed.update(placed.hexes)  # a broken piece: what is left of it is loose
    for placed in new:
        kept.append(placed)
        changed.update(placed.hexes)
    near = set(changed)
    for index in changed:
        near.update(board.neighbours[index])
    taken = {i for p in kept for i in p.hexes}
    groups = [p for p in before if p.piece == CUSTOM and near.isdisjoint(p.hexes)]
    settled = {i for p in groups for i in p.hexes}
    loose = {i for i in terrain if i not in taken and i not in settled}
    groups += custom_pieces(board, terrain, loose)
    groups.sort(key=lambda placed: placed.hexes[0])
    return replace(table, terrain=terrain, pieces=tuple(kept) + tuple(groups))


def paint(
    table: TableSpec,
    hexes: Iterable[Hex],
    kind: str | None,
    rules: TableRules,
    symmetry: str = "none",
) -> TableSpec:
    """The table with `hexes` (and their images) set to `kind` (None: open ground)."""
    if kind is not None and kind not in rules.terrain:
        raise EditError(f"unknown terrain kind {kind!r}")
    image = mapping(table.board, symmetry)
    touched = set(_indices(table.board, hexes))
    if image is not None:
        touched |= {image[i] for i in touched}
    terrain = dict(table.terrain)
    for index in touched:
        if kind is None:
            terrain.pop(index, None)
        else:
            terrain[index] = kind
    if terrain == table.terrain:
        # Painted the kinds they have: nothing changes, not even the pieces (a library
        # piece painted its own kind stays that piece, and the edit saves nothing).
        return table
    return _rebuilt(table, terrain, touched)


def footprint(
    board: Board, library: TerrainLibrary, piece_id: str, turn: int, anchor: Hex
) -> dict[int, str]:
    """The board hexes (index -> kind) a library piece covers, turned and anchored."""
    piece = library.pieces.get(piece_id)
    if piece is None:
        raise EditError(f"no piece {piece_id!r} in the library")
    covered = {}
    for dq, dr, kind in piece.cells(turn):
        index = board.index.get((anchor[0] + dq, anchor[1] + dr))
        if index is None:
            raise EditError(f"{piece.name} does not fit there: part of it is off the table")
        covered[index] = kind
    return covered


def stamp(
    table: TableSpec,
    library: TerrainLibrary,
    piece_id: str,
    turn: int,
    anchor: Hex,
    symmetry: str = "none",
) -> TableSpec:
    """The table with a library piece set down (over whatever terrain was there), and with a
    symmetry its image too: the same piece when its image is one of its turns."""
    board = table.board
    covered = footprint(board, library, piece_id, turn, anchor)
    piece = library.pieces[piece_id]
    placements = [covered]
    image = mapping(board, symmetry)
    if image is not None:
        mirrored = {image[i]: kind for i, kind in covered.items()}
        if mirrored.keys() & covered.keys() and mirrored != covered:
            raise EditError(
                f"{piece.name} would overlap its own image under the symmetry: "
                "set it down further from the middle of the table"
            )
        if mirrored != covered:
            placements.append(mirrored)
    terrain = dict(table.terrain)
    touched: set[int] = set()
    new = []
    for placement in placements:
        terrain.update(placement)
        touched |= placement.keys()
        standing = {board.hexes[i]: kind for i, kind in placement.items()}
        if piece.match(standing) is not None:
            new.append(Placed(piece_id, tuple(sorted(placement))))
    return _rebuilt(table, terrain, touched, new)


def remove_piece(table: TableSpec, hex_: Hex, symmetry: str = "none") -> TableSpec:
    """The table without the piece on `hex_` (and, with a symmetry, the one on its image)."""
    (index,) = _indices(table.board, [hex_])
    image = mapping(table.board, symmetry)
    starts = {index} | ({image[index]} if image is not None else set())
    gone: set[int] = set()
    for placed in table.placed():
        if starts & set(placed.hexes):
            gone |= set(placed.hexes)
    terrain = {i: kind for i, kind in table.terrain.items() if i not in gone}
    return _rebuilt(table, terrain, gone)
