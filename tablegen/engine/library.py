"""The terrain library (``tablegen/data/pieces.toml``), read once and strictly.

Like the rulesets (``onefinity/rules/ruleset_file.py``), every key is checked: a missing,
mistyped or unknown key, a terrain kind the ruleset does not have, or a piece that lists a
hex twice is a LibraryError naming the file and the key, so a misspelt key is never
silently ignored. Everything that reads the file (the generator, packs, the forms) reads it
through :func:`terrain_library`.
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from onefinity.rules.strict_toml import ID, StrictTable, load_toml

PIECES_FILE = Path(__file__).resolve().parent.parent / "data" / "pieces.toml"
# The ruleset's terrain kinds when no other are given (the tests' and tools' default).
DEFAULT_KINDS = ("blocking", "elevated", "cover")
PACK_TOLERANCE_KEYS = ("coverage", "longest_sightline", "dominance", "exposure", "cover_near_edge")
# The id of the pieces a person made by hand (in table documents); no library piece has it.
CUSTOM = "custom"
# The most hexes one library piece covers.
MAX_PIECE_HEXES = 19

Cell = tuple[int, int, str]  # (dq, dr, kind)


def turned(dq: int, dr: int, turns: int) -> tuple[int, int]:
    """An axial offset turned by `turns` steps of 60 degrees about the anchor."""
    for _ in range(turns % 6):
        dq, dr = -dr, dq + dr
    return dq, dr


def mirrored(dq: int, dr: int) -> tuple[int, int]:
    """An axial offset reflected across the anchor's row (side A's edge to side B's)."""
    return dq + dr, -dr


def shape(cells: tuple[Cell, ...] | list[Cell]) -> frozenset[Cell]:
    """Cells moved so that the first (by row, then q) is at (0, 0): equal shapes, wherever
    they stand, compare equal."""
    r0, q0 = min((dr, dq) for dq, dr, _ in cells)
    return frozenset((dq - q0, dr - r0, kind) for dq, dr, kind in cells)


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
    role: str
    # Axial offsets from the piece's anchor, each with its terrain kind.
    hexes: tuple[Cell, ...]
    # Ours (a piece we made up for the starter catalogue), as the rulesets' entries say.
    provisional: bool = True

    def cells(self, turns: int) -> tuple[Cell, ...]:
        """The footprint turned by `turns` steps of 60 degrees about the anchor."""
        return tuple((*turned(dq, dr, turns), kind) for dq, dr, kind in self.hexes)

    @functools.cached_property
    def turns(self) -> tuple[int, ...]:
        """The turns that give different footprints (a round piece has one)."""
        seen: dict[frozenset[Cell], int] = {}
        for turn in range(6):
            seen.setdefault(shape(self.cells(turn)), turn)
        return tuple(seen.values())

    @functools.cached_property
    def mirror_turn(self) -> int | None:
        """The turn whose footprint is this piece's mirror image, or None when the mirror
        image is another shape (the piece cannot stand in mirror symmetry)."""
        image = shape([(*mirrored(dq, dr), kind) for dq, dr, kind in self.hexes])
        for turn in range(6):
            if shape(self.cells(turn)) == image:
                return turn
        return None

    def kinds(self) -> frozenset[str]:
        return frozenset(kind for _, _, kind in self.hexes)

    @functools.cached_property
    def _shapes(self) -> tuple[tuple[frozenset[Cell], tuple[int, int]], ...]:
        """Each turn's shape, with the offset of its first cell (see `shape`)."""
        found = []
        for turn in range(6):
            mine = self.cells(turn)
            r0, q0 = min((dr, dq) for dq, dr, _ in mine)
            found.append((shape(mine), (q0, r0)))
        return tuple(found)

    def match(self, placed: Mapping[tuple[int, int], str]) -> tuple[int, tuple[int, int]] | None:
        """How this piece stands on `placed` (hex -> kind): its turn and the hex of its
        anchor; None when those hexes are not this piece's footprint."""
        if len(placed) != len(self.hexes):
            return None
        cells = [(q, r, kind) for (q, r), kind in placed.items()]
        wanted = shape(cells)
        r1, q1 = min((r, q) for q, r, _ in cells)
        for turn, (mine, (q0, r0)) in enumerate(self._shapes):
            if mine == wanted:
                return turn, (q1 - q0, r1 - r0)
        return None


@dataclass(frozen=True)
class GeneratorSettings:
    coverage_asked_min: float
    coverage_asked_max: float
    coverage_slack: int
    entry_row_blocking_max: int
    elevated_pieces_min: int
    fill_before_repairs: float
    exposure_band: tuple[float, float]
    exposure_band_candidates: int
    exposure_band_box_candidates: int
    max_candidates: int
    max_box_candidates: int


@dataclass(frozen=True)
class TerrainLibrary:
    pieces: Mapping[str, Piece]
    # Role id -> its name, in the file's order.
    roles: Mapping[str, str]
    # Mix id -> (name, piece id -> weight).
    mixes: Mapping[str, tuple[str, Mapping[str, int]]]
    generator: GeneratorSettings
    pack_tolerance: Mapping[str, float]

    def by_role(self) -> list[tuple[str, str, list[Piece]]]:
        """(role id, role name, its pieces) in the file's order."""
        return [
            (role, name, [p for p in self.pieces.values() if p.role == role])
            for role, name in self.roles.items()
        ]


class _Table(StrictTable):
    """Typed access to one table of the file, remembering the key path for errors."""

    error = LibraryError
    id_example = "large-building"

    def get(self, name: str) -> Any:
        return self._get(name, True)

    def text(self, name: str) -> str:
        value = self.get(name)
        if not isinstance(value, str) or not value.strip():
            raise self.fail(name, f"expected text, got {value!r}")
        return value

    def flag(self, name: str) -> bool:
        value = self.get(name)
        if not isinstance(value, bool):
            raise self.fail(name, f"expected true or false, got {value!r}")
        return value

    def whole(self, name: str, minimum: int = 0) -> int:
        value = self.get(name)
        if not _whole(value) or value < minimum:
            raise self.fail(name, f"expected a whole number from {minimum}, got {value!r}")
        return int(value)

    def share(self, name: str) -> float:
        value = self.get(name)
        if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
            raise self.fail(name, f"expected a number from 0 to 1, got {value!r}")
        return float(value)


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _piece(piece_id: str, entry: _Table, kinds: Collection[str], roles: Mapping[str, str]) -> Piece:
    if piece_id == CUSTOM:
        raise entry.fail("", f"{CUSTOM!r} is kept for pieces made by hand")
    name = entry.text("name")
    role = entry.text("role")
    if role not in roles:
        raise entry.fail("role", f"unknown role {role!r} (expected one of: {', '.join(roles)})")
    provisional = entry.flag("provisional")
    cells = entry.get("hexes")
    if not isinstance(cells, list) or not 0 < len(cells) <= MAX_PIECE_HEXES:
        raise entry.fail("hexes", f"expected a list of 1 to {MAX_PIECE_HEXES} [dq, dr, kind]")
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
    if (0, 0) not in seen:
        raise entry.fail("hexes", "the anchor [0, 0] must be one of the piece's hexes")
    if not _connected(seen):
        raise entry.fail("hexes", "a piece's hexes must hang together")
    entry.done()
    return Piece(piece_id, name, role, tuple(hexes), provisional)


def _connected(hexes: set[tuple[int, int]]) -> bool:
    start = next(iter(hexes))
    reached, frontier = {start}, [start]
    while frontier:
        q, r = frontier.pop()
        for dq, dr in ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)):
            step = (q + dq, r + dr)
            if step in hexes and step not in reached:
                reached.add(step)
                frontier.append(step)
    return reached == hexes


def _generator(table: _Table) -> GeneratorSettings:
    settings = GeneratorSettings(
        coverage_asked_min=table.share("coverage_asked_min"),
        coverage_asked_max=table.share("coverage_asked_max"),
        coverage_slack=table.whole("coverage_slack"),
        entry_row_blocking_max=table.whole("entry_row_blocking_max"),
        elevated_pieces_min=table.whole("elevated_pieces_min"),
        fill_before_repairs=table.share("fill_before_repairs"),
        exposure_band=_band(table, "exposure_band"),
        exposure_band_candidates=table.whole("exposure_band_candidates"),
        exposure_band_box_candidates=table.whole("exposure_band_box_candidates"),
        max_candidates=table.whole("max_candidates", 1),
        max_box_candidates=table.whole("max_box_candidates", 1),
    )
    if settings.coverage_asked_min > settings.coverage_asked_max:
        raise table.fail("coverage_asked_max", "must not be below coverage_asked_min")
    table.done()
    return settings


def _band(table: _Table, name: str) -> tuple[float, float]:
    value = table.get(name)
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
        or not 0 <= value[0] <= value[1] <= 100
    ):
        raise table.fail(name, f"expected [low, high], percentages from 0 to 100, got {value!r}")
    return float(value[0]), float(value[1])


def _roles(table: _Table) -> dict[str, str]:
    roles = {}
    for role_id in table.table:
        if not ID.match(role_id):
            raise table.fail(role_id, "ids are lower-case words joined by hyphens")
        roles[role_id] = table.text(role_id)
    if not roles:
        raise table.fail("", "must have at least one entry")
    table.done()
    return roles


def _mix(entry: _Table, pieces: Mapping[str, Piece]) -> tuple[str, dict[str, int]]:
    name = entry.text("name")
    weights_table = entry.table_of("weights")
    weights: dict[str, int] = {}
    for piece_id, weight in weights_table.table.items():
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
    root = _Table(path.name, load_toml(path, LibraryError), "")
    roles = _roles(root.table_of("roles"))
    pieces = {
        piece_id: _piece(piece_id, entry, kinds, roles)
        for piece_id, entry in root.entries("pieces")
    }
    mixes = {mix_id: _mix(entry, pieces) for mix_id, entry in root.entries("mixes")}
    generator = _generator(root.table_of("generator"))
    tolerance = _tolerance(root.table_of("pack_tolerance"))
    root.done()
    return TerrainLibrary(pieces, roles, mixes, generator, tolerance)


@functools.cache
def terrain_library(kinds: tuple[str, ...] = DEFAULT_KINDS) -> TerrainLibrary:
    """The shipped library, read once per process (per set of terrain kinds)."""
    return read_library(PIECES_FILE, kinds)
