"""The terrain library (``tablegen/data/pieces.toml``), read once and strictly.

Like the rulesets (``onefinity/rules/ruleset_file.py``), every key is checked: a missing,
mistyped or unknown key, a terrain kind the ruleset does not have, or a piece that lists a
hex twice is a LibraryError naming the file and the key, so a misspelt key is never
silently ignored. Everything that reads the file (the generator, packs, the forms) reads it
through :func:`terrain_library`.
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

PIECES_FILE = Path(__file__).resolve().parent.parent / "data" / "pieces.toml"
# The ruleset's terrain kinds when no other are given (the tests' and tools' default).
DEFAULT_KINDS = ("blocking", "elevated", "cover")
PACK_TOLERANCE_KEYS = ("coverage", "longest_sightline", "dominance", "exposure", "cover_near_edge")
_ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


class LibraryError(ValueError):
    """The library file is broken: which file, which key, what is wrong."""

    def __init__(self, source: str, path: str, problem: str) -> None:
        self.source = source
        self.path = path
        self.problem = problem
        super().__init__(f"{source}: {path}: {problem}" if path else f"{source}: {problem}")


@dataclass(frozen=True)
class Piece:
    id: str
    name: str
    # Axial offsets from the piece's anchor, each with its terrain kind.
    hexes: tuple[tuple[int, int, str], ...]


@dataclass(frozen=True)
class TerrainLibrary:
    pieces: Mapping[str, Piece]
    # Mix id -> (name, piece id -> weight).
    mixes: Mapping[str, tuple[str, Mapping[str, int]]]
    pack_tolerance: Mapping[str, float]


class _Table:
    """Typed access to one table of the file, remembering the key path for errors."""

    def __init__(self, source: str, values: Mapping[str, Any], path: str) -> None:
        self.source = source
        self.values = values
        self.path = path
        self.used: set[str] = set()

    def key(self, name: str) -> str:
        return f"{self.path}.{name}" if self.path else name

    def fail(self, name: str, problem: str) -> LibraryError:
        return LibraryError(self.source, self.key(name) if name else self.path, problem)

    def get(self, name: str) -> Any:
        self.used.add(name)
        if name not in self.values:
            raise self.fail(name, "missing")
        return self.values[name]

    def text(self, name: str) -> str:
        value = self.get(name)
        if not isinstance(value, str) or not value.strip():
            raise self.fail(name, f"expected text, got {value!r}")
        return value

    def table(self, name: str) -> _Table:
        value = self.get(name)
        if not isinstance(value, dict):
            raise self.fail(name, f"expected a table, got {value!r}")
        return _Table(self.source, value, self.key(name))

    def entries(self, name: str) -> list[tuple[str, _Table]]:
        """The sub-tables of a table keyed by id, each id checked; at least one."""
        container = self.table(name)
        found = []
        for entry_id in container.values:
            if not _ID.match(entry_id):
                raise container.fail(
                    entry_id, "ids are lower-case words joined by hyphens, like 'large-building'"
                )
            found.append((entry_id, container.table(entry_id)))
        if not found:
            raise self.fail(name, "must have at least one entry")
        return found

    def done(self) -> None:
        """Refuse keys nobody read: a misspelt key must not be silently ignored."""
        for name in self.values:
            if name not in self.used:
                raise self.fail(name, "unknown key")


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _piece(piece_id: str, entry: _Table, kinds: Collection[str]) -> Piece:
    name = entry.text("name")
    cells = entry.get("hexes")
    if not isinstance(cells, list) or not cells:
        raise entry.fail("hexes", "expected a list of [dq, dr, kind]")
    hexes: list[tuple[int, int, str]] = []
    seen: set[tuple[int, int]] = set()
    for i, cell in enumerate(cells):
        where = f"hexes[{i}]"
        if not isinstance(cell, list) or len(cell) != 3 or not all(_whole(v) for v in cell[:2]):
            raise entry.fail(where, f"expected [dq, dr, kind], got {cell!r}")
        dq, dr, kind = cell
        if kind not in kinds:
            raise entry.fail(
                where, f"unknown terrain kind {kind!r} (expected one of: {', '.join(kinds)})"
            )
        if (dq, dr) in seen:
            raise entry.fail(where, f"the hex [{dq}, {dr}] is listed twice")
        seen.add((dq, dr))
        hexes.append((dq, dr, kind))
    entry.done()
    return Piece(piece_id, name, tuple(hexes))


def _mix(entry: _Table, pieces: Mapping[str, Piece]) -> tuple[str, dict[str, int]]:
    name = entry.text("name")
    weights_table = entry.table("weights")
    weights: dict[str, int] = {}
    for piece_id, weight in weights_table.values.items():
        weights_table.used.add(piece_id)
        if piece_id not in pieces:
            raise weights_table.fail(piece_id, "no piece has this id")
        if not _whole(weight) or weight < 0:
            raise weights_table.fail(piece_id, f"expected a whole number from 0, got {weight!r}")
        weights[piece_id] = weight
    if not any(weights.values()):
        raise entry.fail("weights", "at least one piece needs a weight above 0")
    entry.done()
    return name, weights


def _tolerance(table: _Table) -> dict[str, float]:
    tolerance = {}
    for key in PACK_TOLERANCE_KEYS:
        value = table.get(key)
        if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
            raise table.fail(key, f"expected a number from 0, got {value!r}")
        tolerance[key] = float(value)
    table.done()
    return tolerance


def read_library(
    path: Path = PIECES_FILE, kinds: Collection[str] = DEFAULT_KINDS
) -> TerrainLibrary:
    """Read and check a terrain library file; LibraryError names the file and the key."""
    source = path.name
    try:
        with path.open("rb") as handle:
            data = tomllib.load(handle)
    except OSError as error:
        raise LibraryError(source, "", f"cannot be read ({error.strerror})") from None
    except tomllib.TOMLDecodeError as error:
        raise LibraryError(source, "", f"is not valid TOML ({error})") from None
    root = _Table(source, data, "")
    pieces = {
        piece_id: _piece(piece_id, entry, kinds) for piece_id, entry in root.entries("pieces")
    }
    mixes = {mix_id: _mix(entry, pieces) for mix_id, entry in root.entries("mixes")}
    tolerance = _tolerance(root.table("pack_tolerance"))
    root.done()
    return TerrainLibrary(pieces, mixes, tolerance)


@functools.cache
def terrain_library(kinds: tuple[str, ...] = DEFAULT_KINDS) -> TerrainLibrary:
    """The shipped library, read once per process (per set of terrain kinds)."""
    return read_library(PIECES_FILE, kinds)
