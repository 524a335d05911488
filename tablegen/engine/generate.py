"""Table generation: deterministic for a seed and its parameters, and only valid tables.

Pieces from the terrain library are placed at random spots and rotations (and, with a
symmetry, mirrored onto the other half) until the coverage target is reached. Clear
edge-to-edge lanes are then repaired by standing a blocking hex across them; a candidate
that still fails any validity rule is rejected and the next one is tried, in an order
fixed by the seed, until one is valid (a large bound only guards against a broken library).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from onefinity.rules.hexgrid import Board, Hex
from onefinity.rules.lineoffire import crossed_hexes
from onefinity.rules.ruleset import TableRules
from tablegen.engine.library import TerrainLibrary, terrain_library
from tablegen.engine.metrics import TableReport, check_table
from tablegen.engine.tables import TableSpec

SYMMETRIES = ("none", "point", "mirror")
# Candidates are tried in a fixed order for a seed, so a seed always gives the same table
# and raising this bound changes no table an earlier seed gave. Without symmetry about 1
# candidate in 20 is valid (the worst mix and coverage measured), and 60 left about 1 seed
# in 55 with none; at 1000 the chance of running out is below 1e-22, so the error is only a
# guard, and at about 10 ms a candidate it still bounds a call to seconds.
MAX_CANDIDATES = 1000
MAX_REPAIRS = 40


class GenerationError(ValueError):
    pass


@dataclass(frozen=True)
class Parameters:
    seed: int
    coverage: float = 0.45
    symmetry: str = "point"
    mix: str = "balanced"

    def as_dict(self) -> dict[str, Any]:
        return {"coverage": self.coverage, "symmetry": self.symmetry, "mix": self.mix}

    def check(self, rules: TableRules, library: TerrainLibrary) -> None:
        if self.symmetry not in SYMMETRIES:
            raise GenerationError(f"symmetry must be one of: {', '.join(SYMMETRIES)}")
        if self.mix not in library.mixes:
            raise GenerationError(f"piece mix must be one of: {', '.join(library.mixes)}")
        if not rules.coverage_min <= self.coverage <= rules.coverage_max:
            raise GenerationError(
                f"coverage must be between {rules.coverage_min:.2f} and {rules.coverage_max:.2f} for a valid table"
            )
        if not 0 <= self.seed < 2**63:
            raise GenerationError("the seed is a whole number from 0 to 2^63 - 1")


def _rotate(dq: int, dr: int, turns: int) -> tuple[int, int]:
    for _ in range(turns):
        dq, dr = -dr, dq + dr
    return dq, dr


def _place(
    board: Board,
    terrain: dict[int, str],
    cells: list[tuple[Hex, str]],
    mapping: tuple[int, ...] | None,
) -> list[tuple[int, str]] | None:
    """The board indices a placement would fill (with its symmetric image), or None if it
    falls off the board or onto terrain."""
    placed: dict[int, str] = {}
    for hex_, kind in cells:
        index = board.index.get(hex_)
        if index is None or index in terrain:
            return None
        placed[index] = kind
        if mapping is not None:
            image = mapping[index]
            if image in terrain or placed.get(image, kind) != kind:
                return None
            placed[image] = kind
    return list(placed.items())


def _candidate(
    board: Board, rules: TableRules, library: TerrainLibrary, params: Parameters, rng: random.Random
) -> dict[int, str]:
    mapping = None if params.symmetry == "none" else board.symmetry(params.symmetry)
    if params.symmetry != "none" and mapping is None:
        raise GenerationError(f"this board has no {params.symmetry} symmetry")
    _, weights = library.mixes[params.mix]
    names = [p for p, w in weights.items() if w > 0]
    chances = [weights[p] for p in names]
    target = round(params.coverage * len(board))
    ceiling = int(rules.coverage_max * len(board))
    terrain: dict[int, str] = {}
    for _ in range(4000):
        if len(terrain) >= target:
            break
        piece = library.pieces[rng.choices(names, chances)[0]]
        turns = rng.randrange(6)
        anchor = board.hexes[rng.randrange(len(board))]
        cells = [
            ((anchor[0] + dq, anchor[1] + dr), kind)
            for dq, dr, kind in ((*_rotate(c[0], c[1], turns), c[2]) for c in piece.hexes)
        ]
        placed = _place(board, terrain, cells, mapping)
        if placed is None or len(terrain) + len(placed) > ceiling:
            continue
        terrain.update(placed)
    return terrain


def _repair_lanes(
    table: TableSpec, report: TableReport, rules: TableRules, params: Parameters, rng: random.Random
) -> TableReport:
    """Stand a blocking hex across clear edge-to-edge lanes, one lane at a time."""
    board = table.board
    mapping = None if params.symmetry == "none" else board.symmetry(params.symmetry)
    ceiling = int(rules.coverage_max * len(board))
    for _ in range(MAX_REPAIRS):
        if not report.lanes:
            break
        a, b = report.lanes[rng.randrange(len(report.lanes))]
        crossed = sorted(board.index[h] for h in crossed_hexes(board, a, b))
        open_hexes = [k for k in crossed if k not in table.terrain]
        if not open_hexes:
            break
        middle = board.hexes[board.index[a]][1] + board.hexes[board.index[b]][1]
        open_hexes.sort(key=lambda k: abs(2 * board.hexes[k][1] - middle))
        chosen = open_hexes[0]
        changes = {chosen: "blocking"}
        if mapping is not None:
            changes[mapping[chosen]] = "blocking"
        grow = sum(1 for k in changes if k not in table.terrain)
        if len(table.terrain) + grow > ceiling:
            # Make room by turning the cover furthest from the centre line into open ground.
            covers = [
                k for k, kind in table.terrain.items() if kind == "cover" and k not in changes
            ]
            if not covers:
                break
            drop = rng.choice(covers)
            table.terrain.pop(drop)
            if mapping is not None:
                table.terrain.pop(mapping[drop], None)
        table.terrain.update(changes)
        report = check_table(table, rules)
    return report


def generate_table(
    rules: TableRules, params: Parameters, board: Board, name: str = ""
) -> tuple[TableSpec, TableReport]:
    library = terrain_library(tuple(rules.terrain))
    params.check(rules, library)
    for attempt in range(MAX_CANDIDATES):
        # A string seed is hashed by random.Random deterministically, whatever PYTHONHASHSEED.
        rng = random.Random(
            f"{params.seed}:{params.coverage}:{params.symmetry}:{params.mix}:{attempt}"
        )
        terrain = _candidate(board, rules, library, params, rng)
        table = TableSpec(
            board, terrain, name or f"Table {params.seed}", params.seed, params.as_dict()
        )
        report = check_table(table, rules)
        if report.lanes:
            report = _repair_lanes(table, report, rules, params, rng)
        if report.valid:
            return table, report
    raise GenerationError(
        f"no valid table found for seed {params.seed} after {MAX_CANDIDATES} candidates; "
        "try another seed, symmetry or coverage"
    )
