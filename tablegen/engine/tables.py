"""The table document: JSON for tables, read strictly with the path of anything wrong."""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from typing import Any

from onefinity.rules.hexgrid import (
    MAX_BOARD_HEXES,
    Board,
    BoardError,
    Hex,
    rows_by_columns,
    standard_board,
)
from onefinity.rules.ruleset import TableRules
from onefinity.rules.text import DocumentError, quoted, text_problem, without_invisible
from tablegen.engine.library import CUSTOM, Piece, TerrainLibrary, terrain_library

TABLE_FORMAT = "onefinity-table"
TABLE_VERSION = 1
MAX_NAME_LENGTH = 120
DEFAULT_NAME = "Table"
# The generator's seeds (random.Random takes any, the generator checks this range).
MAX_SEED = 2**63 - 1
# What the generator records of its parameters; nothing else is kept in a document.
PARAM_TEXT_KEYS = ("symmetry", "mix")
PARAM_KEYS = ("coverage", *PARAM_TEXT_KEYS, "box")
MAX_PARAM_TEXT = 40
# A terrain box in a table's params (what it was generated from): piece ids and counts.
MAX_BOX_KINDS = 100
MAX_BOX_COUNT = 99
DOCUMENT_KEYS = ("format", "version", "name", "board", "terrain", "pieces", "seed", "params")
PIECE_KEYS = ("piece", "hexes")
_PIECE_KEY_SET = frozenset(PIECE_KEYS)
_TERRAIN_KEY_SET = frozenset(("hex", "kind"))


class TableDocumentError(DocumentError):
    """A document that is not a readable table document."""


@dataclass(frozen=True)
class Placed:
    """One piece on the table: a library piece's id (or "custom", made by hand) and the
    board indices of its hexes, in board order."""

    piece: str
    hexes: tuple[int, ...]


@dataclass(frozen=True)
class TableSpec:
    board: Board
    # Board index -> terrain kind id.
    terrain: dict[int, str]
    name: str = "Table"
    seed: int | None = None
    params: dict[str, Any] = field(default_factory=dict)
    # The pieces the terrain is made of. Terrain no piece names (an old document, a hand
    # edit) is made into "custom" pieces: see `placed_pieces`.
    pieces: tuple[Placed, ...] = ()

    def kind_at(self, hex_: Hex) -> str | None:
        return self.terrain.get(self.board.index[hex_])

    def placed(self) -> tuple[Placed, ...]:
        """Every terrain hex in exactly one piece (``placed_pieces``), worked out once per
        table: its document, its map and its setup sheet all ask. (A table is never changed
        in place: an edit makes a new one.)"""
        found: tuple[Placed, ...] | None = self.__dict__.get("_placed")
        if found is None:
            found = placed_pieces(self.board, self.terrain, self.pieces)
            object.__setattr__(self, "_placed", found)
        return found


def custom_pieces(board: Board, terrain: dict[int, str], hexes: set[int]) -> list[Placed]:
    """Hexes made by hand as pieces: each group of touching hexes of one kind."""
    found = []
    left = set(hexes)
    for start in sorted(hexes):
        if start not in left:
            continue
        left.discard(start)
        group, stack = [start], [start]
        while stack:
            for m in board.neighbours[stack.pop()]:
                if m in left and terrain.get(m) == terrain[start]:
                    left.discard(m)
                    group.append(m)
                    stack.append(m)
        found.append(Placed(CUSTOM, tuple(sorted(group))))
    return found


def placed_pieces(
    board: Board, terrain: dict[int, str], pieces: tuple[Placed, ...]
) -> tuple[Placed, ...]:
    """Every terrain hex in exactly one piece: the given pieces that stand on terrain (each
    hex once), and the rest of the terrain as custom pieces."""
    kept: list[Placed] = []
    taken: set[int] = set()
    for placed in pieces:
        if placed.hexes and all(i in terrain and i not in taken for i in placed.hexes):
            kept.append(placed)
            taken.update(placed.hexes)
    rest = set(terrain) - taken
    if rest:
        kept += custom_pieces(board, terrain, rest)
    return tuple(kept)


def read_hex(value: object, path: str) -> Hex:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise TableDocumentError(path, "expected a hex as [q, r], two whole numbers")
    q, r = value
    if not (-10_000 < q < 10_000 and -10_000 < r < 10_000):
        raise TableDocumentError(path, "hex coordinates must be within ±10,000")
    return (q, r)


def _plain_hexes(values: list[object]) -> tuple[Hex, ...] | None:
    """The common case of a list of hexes checked at once: each [q, r] of plain whole
    numbers within the range ``read_hex`` allows; None when any is not (read them one by
    one then, to say which and why)."""
    if not all(type(v) is list and len(v) == 2 for v in values):
        return None
    pairs: list[Hex] = [(v[0], v[1]) for v in values]  # type: ignore[index]
    if all(
        type(q) is int and type(r) is int and -10_000 < q < 10_000 and -10_000 < r < 10_000
        for q, r in pairs
    ):
        return tuple(pairs)
    return None


def read_hexes(values: list[object], path: str) -> tuple[Hex, ...]:
    """A list of hexes, each read as ``read_hex`` (the error names path[i])."""
    plain = _plain_hexes(values)
    if plain is not None:
        return plain
    return tuple(read_hex(h, f"{path}[{i}]") for i, h in enumerate(values))


# Boards read from documents, kept by their hexes: an edited table is read several times a
# request, and the board's cached facts (lines, pictures) are then found by identity.
@functools.lru_cache(maxsize=32)
def _board_of(hexes: tuple[Hex, ...]) -> Board:
    return Board.of(hexes)


@functools.lru_cache(maxsize=8)
def _standard(rows: int, columns: int) -> Board:
    return standard_board(rows, columns)


@functools.lru_cache(maxsize=32)
def _rectangle(rows: int, columns: int) -> Board:
    # The same board object as the one read from its list of hexes.
    return _board_of(tuple(rows_by_columns(rows, columns)))


def read_board(value: object, rules: TableRules) -> Board:
    if not isinstance(value, dict):
        raise TableDocumentError("board", "expected an object")
    try:
        if value.get("standard") is True and len(value) == 1:
            return _standard(rules.rows, rules.columns)
        if set(value) == {"hexes"}:
            hexes = value["hexes"]
            if not isinstance(hexes, list):
                raise TableDocumentError("board.hexes", "expected a list of [q, r]")
            if len(hexes) > MAX_BOARD_HEXES:
                raise TableDocumentError(
                    "board.hexes", f"a board has at most {MAX_BOARD_HEXES} hexes"
                )
            return _board_of(read_hexes(hexes, "board.hexes"))
        if set(value) == {"rows", "columns"}:
            rows, columns = value["rows"], value["columns"]
            if not all(isinstance(v, int) and not isinstance(v, bool) for v in (rows, columns)):
                raise TableDocumentError("board", "rows and columns are whole numbers")
            return _rectangle(rows, columns)
    except BoardError as error:
        raise TableDocumentError("board", str(error)) from None
    raise TableDocumentError(
        "board",
        'expected {"standard": true}, {"hexes": [[q, r], ...]} or {"rows": R, "columns": C}',
    )


def read_name(value: object, path: str = "name", default: str = DEFAULT_NAME) -> str:
    """A table's (or pack's) name: trimmed, at most 120 characters, the shared text rule."""
    if value is None:
        return default
    if not isinstance(value, str):
        raise TableDocumentError(path, f"expected text of at most {MAX_NAME_LENGTH} characters")
    name = without_invisible(value).strip()
    if len(name) > MAX_NAME_LENGTH:
        raise TableDocumentError(path, f"is {len(name)} characters long; at most {MAX_NAME_LENGTH}")
    problem = text_problem(name)
    if problem:
        raise TableDocumentError(path, problem)
    return name or default


def read_seed(value: object) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_SEED:
        raise TableDocumentError("seed", "expected a whole number from 0 to 2^63 - 1")
    return value


def _params(value: object) -> dict[str, Any]:
    """The generator's parameters, as recorded: known keys with scalar values only, so a
    document cannot carry an arbitrary object that every later read and write must keep."""
    if not isinstance(value, dict):
        raise TableDocumentError("params", "expected an object")
    for key in value:
        if key not in PARAM_KEYS:
            raise TableDocumentError(
                "params",
                f"unknown key {quoted(key)} (expected one of: {', '.join(PARAM_KEYS)})",
            )
    params: dict[str, Any] = {}
    if "coverage" in value:
        coverage = value["coverage"]
        if (
            not isinstance(coverage, int | float)
            or isinstance(coverage, bool)
            or not math.isfinite(coverage)
            or not 0 <= coverage <= 1
        ):
            raise TableDocumentError("params.coverage", "expected a number from 0 to 1")
        params["coverage"] = coverage
    for key in PARAM_TEXT_KEYS:
        if key in value:
            text = value[key]
            if not isinstance(text, str) or len(text) > MAX_PARAM_TEXT:
                raise TableDocumentError(
                    f"params.{key}", f"expected text of at most {MAX_PARAM_TEXT} characters"
                )
            problem = text_problem(text)
            if problem:
                raise TableDocumentError(f"params.{key}", problem)
            params[key] = text
    if "box" in value:
        params["box"] = read_box_counts(value["box"], "params.box")
    return params


def read_box_counts(value: object, path: str) -> dict[str, int]:
    """A terrain box's counts: piece ids (the library's, checked where it is used) and whole
    numbers from 0 to 99, at most 100 of them."""
    if not isinstance(value, dict) or len(value) > MAX_BOX_KINDS:
        raise TableDocumentError(
            path, f"expected an object of at most {MAX_BOX_KINDS} piece ids and counts"
        )
    counts = {}
    for key, count in value.items():
        if not isinstance(key, str) or not key or len(key) > MAX_PARAM_TEXT or text_problem(key):
            raise TableDocumentError(path, f"{quoted(key)} is not a piece id")
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= MAX_BOX_COUNT:
            raise TableDocumentError(
                f"{path}.{key}", f"expected a whole number from 0 to {MAX_BOX_COUNT}"
            )
        counts[key] = count
    return counts


def read_table_document(document: object, rules: TableRules) -> TableSpec:
    if not isinstance(document, dict):
        raise TableDocumentError("", "expected an object: this is not a table document")
    for key in document:
        if key not in DOCUMENT_KEYS:
            raise TableDocumentError(
                "",
                f"unknown key {quoted(key)} (expected one of: {', '.join(sorted(DOCUMENT_KEYS))})",
            )
    if document.get("format") != TABLE_FORMAT:
        raise TableDocumentError(
            "format", f"expected {TABLE_FORMAT!r}: this is not a table document"
        )
    if document.get("version") != TABLE_VERSION or isinstance(document.get("version"), bool):
        raise TableDocumentError("version", f"this site reads version {TABLE_VERSION}")
    name = read_name(document.get("name"))
    board = read_board(document.get("board", {"standard": True}), rules)
    terrain_list = document.get("terrain", [])
    if not isinstance(terrain_list, list):
        raise TableDocumentError("terrain", 'expected a list of {"hex": [q, r], "kind": ...}')
    if len(terrain_list) > len(board):
        raise TableDocumentError(
            "terrain", f"has {len(terrain_list)} entries for a board of {len(board)} hexes"
        )
    terrain: dict[int, str] = {}
    index_of = board.index
    for i, entry in enumerate(terrain_list):
        if not isinstance(entry, dict) or entry.keys() != _TERRAIN_KEY_SET:
            raise TableDocumentError(f"terrain[{i}]", 'expected {"hex": [q, r], "kind": ...}')
        value = entry["hex"]
        if type(value) is list and len(value) == 2:
            hex_ = (value[0], value[1])
            index = index_of.get(hex_) if type(hex_[0]) is int and type(hex_[1]) is int else None
        else:
            index = None
        if index is None:  # anything unusual: read again, saying what is wrong
            hex_ = read_hex(value, f"terrain[{i}].hex")
            if hex_ not in board:
                raise TableDocumentError(f"terrain[{i}].hex", f"{list(hex_)} is not on the board")
            index = index_of[hex_]
        kind = entry["kind"]
        if not isinstance(kind, str) or kind not in rules.terrain:
            raise TableDocumentError(
                f"terrain[{i}].kind", f"expected one of: {', '.join(rules.terrain)}"
            )
        if index in terrain:
            raise TableDocumentError(f"terrain[{i}].hex", f"{list(hex_)} has terrain twice")
        terrain[index] = kind
    pieces = (
        _pieces(document["pieces"], board, terrain, rules)
        if "pieces" in document
        else placed_pieces(board, terrain, ())
    )
    seed = read_seed(document.get("seed"))
    params = _params(document.get("params", {}))
    return TableSpec(board, terrain, name, seed, params, pieces)


def _pieces(
    value: object, board: Board, terrain: dict[int, str], rules: TableRules
) -> tuple[Placed, ...]:
    """The document's pieces: every terrain hex in exactly one, each library piece standing
    on its footprint (turned, never flipped) with the terrain kinds of its hexes."""
    return _PieceReader(board, terrain, terrain_library(tuple(rules.terrain))).read(value)


class _PieceReader:
    """Reads a document's pieces, keeping which piece each terrain hex is in (a hex is in
    one piece)."""

    def __init__(self, board: Board, terrain: dict[int, str], library: TerrainLibrary) -> None:
        self.board, self.terrain, self.library_pieces = board, terrain, library.pieces
        self.index_of, self.size = board.index, len(board)
        # Terrain hex (board index) -> the number of the piece it is in.
        self.owner: dict[int, int] = {}

    def read(self, value: object) -> tuple[Placed, ...]:
        if not isinstance(value, list):
            raise TableDocumentError(
                "pieces", 'expected a list of {"piece": id, "hexes": [[q, r], ...]}'
            )
        if len(value) > max(1, len(self.terrain)):
            raise TableDocumentError(
                "pieces", f"has {len(value)} pieces for {len(self.terrain)} terrain hexes"
            )
        pieces = []
        for number, entry in enumerate(value):
            path = f"pieces[{number}]"
            if not isinstance(entry, dict) or entry.keys() != _PIECE_KEY_SET:
                raise TableDocumentError(path, 'expected {"piece": id, "hexes": [[q, r], ...]}')
            piece_id = entry["piece"]
            if not isinstance(piece_id, str) or (
                piece_id != CUSTOM and piece_id not in self.library_pieces
            ):
                raise TableDocumentError(
                    f"{path}.piece",
                    f"{quoted(piece_id)} is neither a piece of the library nor {CUSTOM!r}",
                )
            indices = self.hexes(entry["hexes"], path, number)
            if piece_id != CUSTOM:
                self.footprint(self.library_pieces[piece_id], indices, path)
            pieces.append(Placed(piece_id, tuple(sorted(indices))))
        loose = sorted(set(self.terrain) - set(self.owner))
        if loose:
            raise TableDocumentError(
                "pieces", f"the terrain hex {list(self.board.hexes[loose[0]])} is in no piece"
            )
        return tuple(pieces)

    def hexes(self, listed: object, path: str, number: int) -> list[int]:
        """The piece's hexes as board indices: terrain hexes that no earlier piece holds."""
        if not isinstance(listed, list) or not 0 < len(listed) <= self.size:
            raise TableDocumentError(f"{path}.hexes", "expected a list of [q, r]")
        index_of, owner, terrain = self.index_of, self.owner, self.terrain
        indices = []
        for k, item in enumerate(listed):
            if type(item) is list and len(item) == 2:
                hex_ = (item[0], item[1])
                fast = type(hex_[0]) is int and type(hex_[1]) is int
                index = index_of.get(hex_) if fast else None
            else:
                index = None
            if index is None:  # anything unusual: read again, saying what is wrong
                hex_ = read_hex(item, f"{path}.hexes[{k}]")
                index = index_of.get(hex_)
            if index is None or index not in terrain:
                raise TableDocumentError(
                    f"{path}.hexes[{k}]", f"{list(hex_)} is not a terrain hex of the table"
                )
            if index in owner:
                raise TableDocumentError(
                    f"{path}.hexes[{k}]",
                    f"{list(hex_)} is already in pieces[{owner[index]}]; a hex is in one piece",
                )
            owner[index] = number
            indices.append(index)
        return indices

    def footprint(self, piece: Piece, indices: list[int], path: str) -> None:
        """A library piece stands on its footprint, turned, with its kinds."""
        standing = {self.board.hexes[i]: self.terrain[i] for i in indices}
        if piece.match(standing) is None:
            raise TableDocumentError(
                path,
                f"these {len(indices)} hexes are not the footprint of {piece.name!r} "
                f"({len(piece.hexes)} hexes, turned in steps of 60 degrees, with its kinds)",
            )


def table_document(table: TableSpec) -> dict[str, Any]:
    document: dict[str, Any] = {
        "format": TABLE_FORMAT,
        "version": TABLE_VERSION,
        "name": table.name,
    }
    board = table.board
    if board.standard:
        document["board"] = {"standard": True}
    elif board.rectangle is not None:
        document["board"] = dict(zip(("rows", "columns"), board.rectangle, strict=True))
    else:
        document["board"] = {"hexes": [list(h) for h in board.hexes]}
    document["terrain"] = [
        {"hex": list(table.board.hexes[i]), "kind": kind}
        for i, kind in sorted(table.terrain.items())
    ]
    document["pieces"] = [
        {"piece": placed.piece, "hexes": [list(table.board.hexes[i]) for i in placed.hexes]}
        for placed in table.placed()
    ]
    if table.seed is not None:
        document["seed"] = table.seed
    if table.params:
        document["params"] = table.params
    return document
