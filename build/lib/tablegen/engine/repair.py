"""Mend a stored table document that no longer reads, keeping all that can be kept.

A table saved before a rule of the reader was tightened (the shared text rule for names,
bounded boards, bounded params) would otherwise be lost to its owner and break every page
that shows it. ``repair_table_document`` reads the raw JSON leniently and returns a table
``read_table_document`` accepts, with one line per change, so the owner sees exactly what
was dropped, cut or replaced before the repair is saved.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from onefinity.rules.hexgrid import (
    MAX_BOARD_COLUMNS,
    MAX_BOARD_HEXES,
    MAX_BOARD_ROWS,
    MAX_BOARD_WIDTH,
    Board,
    BoardError,
    Hex,
    rows_by_columns,
    standard_board,
)
from onefinity.rules.ruleset import TableRules
from onefinity.rules.text import escaped, normalize_name
from tablegen.engine.tables import (
    DOCUMENT_KEYS,
    MAX_NAME_LENGTH,
    Placed,
    TableDocumentError,
    TableSpec,
    _params,
    _pieces,
    placed_pieces,
    read_board,
    read_hex,
    read_seed,
)

REPAIRED_NAME = "Repaired table"
# A stored hex list longer than this is not looked at further (old readers kept at most
# 2,500): the repair itself does bounded work.
MAX_HEXES_LOOKED_AT = 4 * MAX_BOARD_HEXES


def _plural(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


def repair_name(value: object, changes: list[str], default: str = REPAIRED_NAME) -> str:
    """A name the reader accepts, made from whatever is stored (a pack's name too)."""
    if value is None:
        return default
    if not isinstance(value, str):
        changes.append("name: not text, replaced")
        return default
    # Tabs and new lines become spaces; other control characters and surrogates go.
    kept = "".join(" " if unicodedata.category(ch) in ("Cc", "Cs") else ch for ch in value)
    name = normalize_name(kept)
    if kept != value:
        changes.append("name: removed control characters")
    if len(name) > MAX_NAME_LENGTH:
        changes.append(f"name: cut to {MAX_NAME_LENGTH} characters")
        name = name[:MAX_NAME_LENGTH].rstrip()
    return name or default


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _cropped_rows(value: dict[Any, Any], changes: list[str]) -> Board | None:
    rows, columns = value.get("rows"), value.get("columns")
    if set(value) != {"rows", "columns"} or not (_whole(rows) and _whole(columns)):
        return None
    assert isinstance(rows, int) and isinstance(columns, int)
    kept_rows = min(max(rows, 2), MAX_BOARD_ROWS)
    kept_columns = min(max(columns, 1), MAX_BOARD_COLUMNS)
    changes.append(
        f"board: {rows} x {columns} is over the limit of {MAX_BOARD_ROWS} x {MAX_BOARD_COLUMNS}; "
        f"cropped to {kept_rows} x {kept_columns}"
    )
    return Board.of(rows_by_columns(kept_rows, kept_columns))


def _cropped_hexes(value: dict[Any, Any], changes: list[str]) -> Board | None:
    """The part of a hex list within the board limits, from its first row and its
    left-most hex there: the corner a player would keep when cutting a board down."""
    listed = value.get("hexes")
    if set(value) != {"hexes"} or not isinstance(listed, list):
        return None
    hexes: list[Hex] = []
    for entry in listed[:MAX_HEXES_LOOKED_AT]:
        try:
            hexes.append(read_hex(entry, "board.hexes"))
        except TableDocumentError:
            continue
    unique = sorted(set(hexes), key=lambda h: (h[1], h[0]))
    if not unique:
        return None
    first_row = unique[0][1]
    in_rows = [h for h in unique if h[1] < first_row + MAX_BOARD_ROWS]
    left = min(2 * q + r for q, r in in_rows)
    kept = [(q, r) for q, r in in_rows if 2 * q + r <= left + 2 * (MAX_BOARD_WIDTH - 1)]
    try:
        board = Board.of(kept)
    except BoardError:
        return None
    changes.append(
        f"board: kept {len(kept)} of {len(listed)} hexes, "
        f"the part within {MAX_BOARD_ROWS} rows by {MAX_BOARD_COLUMNS} columns"
    )
    return board


def _board(value: object, rules: TableRules, changes: list[str]) -> Board:
    try:
        return read_board(value, rules)
    except TableDocumentError as error:
        problem = error.problem
    if isinstance(value, dict):
        board = _cropped_rows(value, changes) or _cropped_hexes(value, changes)
        if board is not None:
            return board
    changes.append(f"board: {problem}; the standard board used")
    return standard_board(rules.rows, rules.columns)


def _terrain(value: object, board: Board, rules: TableRules, changes: list[str]) -> dict[int, str]:
    if not isinstance(value, list):
        changes.append("terrain: not a list, dropped")
        return {}
    terrain: dict[int, str] = {}
    malformed = off_board = unknown = twice = 0
    for entry in value[: 4 * MAX_BOARD_HEXES]:
        if not isinstance(entry, dict) or set(entry) != {"hex", "kind"}:
            malformed += 1
            continue
        try:
            hex_ = read_hex(entry["hex"], "terrain")
        except TableDocumentError:
            malformed += 1
            continue
        if hex_ not in board:
            off_board += 1
        elif not isinstance(entry["kind"], str) or entry["kind"] not in rules.terrain:
            unknown += 1
        elif board.index[hex_] in terrain:
            twice += 1
        else:
            terrain[board.index[hex_]] = entry["kind"]
    malformed += max(0, len(value) - 4 * MAX_BOARD_HEXES)
    for count, what in (
        (off_board, "off the board"),
        (unknown, "of an unknown kind"),
        (twice, "for a hex that already has terrain"),
        (
            malformed,
            "that are not a hex and a kind" if malformed != 1 else "that is not a hex and a kind",
        ),
    ):
        if count:
            changes.append(f"terrain: dropped {_plural(count, 'entry', 'entries')} {what}")
    return terrain


def _seed(value: object, changes: list[str]) -> int | None:
    try:
        return read_seed(value)
    except TableDocumentError:
        changes.append("seed: dropped (not a whole number from 0 to 2^63 - 1)")
        return None


def _kept_params(value: object, changes: list[str]) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        changes.append("params: not an object, dropped")
        return {}
    kept: dict[str, Any] = {}
    dropped = []
    for key, item in value.items():
        try:
            kept |= _params({key: item})
        except TableDocumentError:
            dropped.append(escaped(key))
    if dropped:
        changes.append(f"params: dropped {', '.join(sorted(dropped))}")
    return kept


def repair_table_document(raw: object, rules: TableRules) -> tuple[TableSpec, tuple[str, ...]]:
    """A table the reader accepts, made from whatever is stored, and what was changed."""
    if not isinstance(raw, dict):
        board = standard_board(rules.rows, rules.columns)
        return TableSpec(board, {}, REPAIRED_NAME), (
            "not a table document: an empty standard board instead",
        )
    changes: list[str] = []
    unknown = sorted(escaped(key) for key in raw if key not in DOCUMENT_KEYS)
    if unknown:
        changes.append(f"dropped unknown keys: {', '.join(unknown)}")
    name = repair_name(raw.get("name"), changes)
    board = _board(raw.get("board", {"standard": True}), rules, changes)
    terrain = _terrain(raw.get("terrain", []), board, rules, changes)
    pieces = _kept_pieces(raw.get("pieces"), board, terrain, rules, changes)
    seed = _seed(raw.get("seed"), changes)
    params = _kept_params(raw.get("params"), changes)
    return TableSpec(board, terrain, name, seed, params, pieces), tuple(changes)


def _kept_pieces(
    value: object, board: Board, terrain: dict[int, str], rules: TableRules, changes: list[str]
) -> tuple[Placed, ...]:
    """The pieces that still read, each on its own; terrain left in none is made custom."""
    if value is None:
        return placed_pieces(board, terrain, ())
    try:
        return _pieces(value, board, terrain, rules)
    except TableDocumentError:
        pass
    kept: list[Placed] = []
    dropped = 0
    entries = value if isinstance(value, list) else []
    for entry in entries[: len(terrain)]:
        try:
            (piece,) = _pieces([entry], board, _only(entry, board, terrain), rules)
        except (TableDocumentError, ValueError):
            dropped += 1
            continue
        if any(i in {h for p in kept for h in p.hexes} for i in piece.hexes):
            dropped += 1
            continue
        kept.append(piece)
    dropped += max(0, len(entries) - len(terrain))
    if not isinstance(value, list):
        changes.append("pieces: not a list; the terrain is kept as custom pieces")
    elif dropped:
        changes.append(
            f"pieces: {_plural(dropped, 'piece', 'pieces')} that did not stand on the terrain "
            "dropped; their terrain is kept as custom pieces"
        )
    return placed_pieces(board, terrain, tuple(kept))


def _only(entry: object, board: Board, terrain: dict[int, str]) -> dict[int, str]:
    """The terrain of the hexes one piece entry names (so it can be read on its own)."""
    hexes = entry.get("hexes") if isinstance(entry, dict) else None
    if not isinstance(hexes, list):
        return {}
    found = {}
    for item in hexes[: len(board)]:
        try:
            index = board.index.get(read_hex(item, "pieces"))
        except TableDocumentError:
            continue
        if index is not None and index in terrain:
            found[index] = terrain[index]
    return found
