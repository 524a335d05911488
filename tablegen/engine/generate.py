"""Table generation from real pieces: deterministic for a seed and its parameters.

A candidate is laid out as a person would build a table from a box of terrain:

1. a piece with elevated ground first (a table without high ground plays flat);
2. pieces drawn from the mix (or from the terrain box, never more than it holds), each at a
   random spot and turn, with a symmetry also at its image, never on other terrain, never
   putting more blocking hexes on an entry row than the generator allows;
3. clear edge-to-edge lanes closed by adding a blocking or elevated piece across them (the
   placement that closes the most lanes of many tried), making room by taking away cover
   pieces (which never block a line of fire, so taking them opens no lane) or by moving a
   piece that closes none;
4. the coverage brought within a couple of hexes of what was asked with cover pieces (adding
   or taking away cover changes no line of fire either).

A candidate that is still not valid is dropped and the next one is tried, in an order fixed
by the seed, until one is (a bound guards against a box that cannot make a table).
"""

from __future__ import annotations

import functools
import math
import random
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from onefinity.rules.hexgrid import Board
from onefinity.rules.lineoffire import _direction_pattern, crossed_hexes
from onefinity.rules.ruleset import TableRules
from tablegen.engine.library import Piece, TerrainLibrary, terrain_library
from tablegen.engine.metrics import TableReport, check_table
from tablegen.engine.tables import Placed, TableSpec

SYMMETRIES = ("none", "point", "mirror")
# Random placements tried for each piece drawn, and for each lane repair.
PLACEMENT_TRIES = 12
REPAIR_TRIES = 60
REPAIR_ROUNDS = 12
# Validity codes a table asked outside the ruleset's coverage may keep (it was asked for).
COVERAGE_CODES = frozenset({"table.coverage.low", "table.coverage.high"})


class GenerationError(ValueError):
    pass


class GenerationTimeout(GenerationError):
    """No table was found within the time given: another seed may well give one."""


def encode_counts(counts: Mapping[str, int]) -> str:
    """A box's counts as text for a URL (and the seed): "building-4:2,wall-3:4"."""
    return ",".join(f"{piece}:{count}" for piece, count in sorted(counts.items()) if count)


@dataclass(frozen=True)
class Parameters:
    seed: int
    coverage: float = 0.45
    symmetry: str = "point"
    mix: str = "balanced"
    # A terrain box: piece id -> how many the person owns (None: the whole catalogue).
    box: Mapping[str, int] | None = field(default=None, compare=False)

    def as_dict(self) -> dict[str, Any]:
        params: dict[str, Any] = {
            "coverage": self.coverage,
            "symmetry": self.symmetry,
            "mix": self.mix,
        }
        if self.box is not None:
            params["box"] = {k: v for k, v in sorted(self.box.items()) if v}
        return params

    def box_key(self) -> str:
        return "" if self.box is None else encode_counts(self.box)

    def query(self) -> dict[str, str]:
        """The parameters as a permalink's query: they alone reproduce the table."""
        query = {
            "seed": str(self.seed),
            "coverage": str(self.coverage),
            "symmetry": self.symmetry,
            "mix": self.mix,
        }
        if self.box is not None:
            query["box"] = self.box_key()
        return query

    def check(self, rules: TableRules, library: TerrainLibrary) -> None:
        settings = library.generator
        if self.symmetry not in SYMMETRIES:
            raise GenerationError(f"symmetry must be one of: {', '.join(SYMMETRIES)}")
        if self.mix not in library.mixes:
            raise GenerationError(f"piece mix must be one of: {', '.join(library.mixes)}")
        if not settings.coverage_asked_min <= self.coverage <= settings.coverage_asked_max:
            raise GenerationError(
                f"coverage must be between {settings.coverage_asked_min:.2f} and "
                f"{settings.coverage_asked_max:.2f}"
            )
        if not 0 <= self.seed < 2**63:
            raise GenerationError("the seed is a whole number from 0 to 2^63 - 1")
        if self.box is not None:
            unknown = sorted(set(self.box) - set(library.pieces))
            if unknown:
                raise GenerationError(f"the box holds pieces the library lacks: {unknown[0]}")


def coverage_window(
    params: Parameters, rules: TableRules, library: TerrainLibrary, hexes: int
) -> tuple[int, int]:
    """The terrain hexes a table may have: within the slack of what was asked, and within
    the ruleset's validity when what was asked is valid."""
    slack = library.generator.coverage_slack
    target = round(params.coverage * hexes)
    low, high = target - slack, target + slack
    if rules.coverage_min <= params.coverage <= rules.coverage_max:
        low = max(low, math.ceil(rules.coverage_min * hexes - 1e-9))
        high = min(high, math.floor(rules.coverage_max * hexes + 1e-9))
    return max(0, low), min(hexes, high)


@dataclass(frozen=True)
class _Lanes:
    """Every edge-to-edge line of a board and the hexes it crosses."""

    ends: tuple[tuple[int, int], ...]
    through: dict[int, tuple[int, ...]]  # hex -> the lanes whose line crosses it


@functools.lru_cache(maxsize=8)
def _lanes(board: Board) -> _Lanes:
    ends = [(a, b) for a in board.edge_row("A") for b in board.edge_row("B")]
    through: dict[int, list[int]] = {}
    for lane, (a, b) in enumerate(ends):
        for hex_ in crossed_hexes(board, board.hexes[a], board.hexes[b]):
            through.setdefault(board.index[hex_], []).append(lane)
    return _Lanes(tuple(ends), {k: tuple(v) for k, v in through.items()})


@dataclass(frozen=True)
class _Zones:
    """The lines between the two sides' near-edge zones: all that exposure and edge lanes
    depend on, so a trial placement is judged without checking the whole table."""

    near: dict[str, npt.NDArray[np.int64]]  # each side's near-edge hexes
    pair_a: npt.NDArray[np.int64]  # every (A hex, B hex) pair, by position in near[...]
    pair_b: npt.NDArray[np.int64]
    hex_a: npt.NDArray[np.int64]
    hex_b: npt.NDArray[np.int64]
    cross: npt.NDArray[np.int64]  # crossed hexes of every pair, concatenated
    cross_owner: npt.NDArray[np.int64]
    side_a: npt.NDArray[np.int64]  # sides run along, as hex pairs, with their line
    side_b: npt.NDArray[np.int64]
    side_owner: npt.NDArray[np.int64]
    edge_pair: npt.NDArray[np.bool_]  # both ends on their side's table edge row


@functools.lru_cache(maxsize=8)
def _zones(board: Board, depth: int) -> _Zones:
    near = {
        side: np.array(
            [i for i in range(len(board)) if board.depth_from_edge(i, side) <= depth],
            dtype=np.int64,
        )
        for side in ("A", "B")
    }
    pair_a, pair_b = (
        g.ravel()
        for g in np.meshgrid(np.arange(len(near["A"])), np.arange(len(near["B"])), indexing="ij")
    )
    hex_a, hex_b = near["A"][pair_a], near["B"][pair_b]
    cross, owner, side_a, side_b, side_owner = [], [], [], [], []
    for k, (i, j) in enumerate(zip(hex_a.tolist(), hex_b.tolist(), strict=True)):
        if i == j:
            continue
        a, b = board.hexes[i], board.hexes[j]
        for h in crossed_hexes(board, a, b):
            cross.append(board.index[h])
            owner.append(k)
        _, sides = _direction_pattern(b[0] - a[0], b[1] - a[1])
        for q1, r1, q2, r2 in sides.tolist():
            one, two = (a[0] + q1, a[1] + r1), (a[0] + q2, a[1] + r2)
            if one in board and two in board:
                side_a.append(board.index[one])
                side_b.append(board.index[two])
                side_owner.append(k)

    def ints(values: list[int]) -> npt.NDArray[np.int64]:
        return np.array(values, dtype=np.int64)

    rows = np.array([r for _, r in board.hexes], dtype=np.int64)
    edge_pair = (rows[hex_a] == board.first_row) & (rows[hex_b] == board.last_row)
    return _Zones(
        near,
        pair_a,
        pair_b,
        hex_a,
        hex_b,
        ints(cross),
        ints(owner),
        ints(side_a),
        ints(side_b),
        ints(side_owner),
        edge_pair,
    )


def _zone_exposure(
    zones: _Zones,
    heights: npt.NDArray[np.int64],
    levels: npt.NDArray[np.int64],
    stands: npt.NDArray[np.bool_],
) -> tuple[dict[str, float], bool]:
    """Each side's exposure (as the metrics compute it), and whether a clear lane runs from
    edge to edge."""
    top = np.zeros(len(zones.pair_a), dtype=np.int64)
    if len(zones.cross):
        np.maximum.at(top, zones.cross_owner, heights[zones.cross])
    if len(zones.side_a):
        np.maximum.at(
            top, zones.side_owner, np.minimum(heights[zones.side_a], heights[zones.side_b])
        )
    clear = top <= np.maximum(levels[zones.hex_a], levels[zones.hex_b])
    clear &= stands[zones.hex_a] & stands[zones.hex_b]
    grid = clear.reshape(len(zones.near["A"]), len(zones.near["B"]))
    exposure = {}
    for side, seen, own in (
        ("A", grid.any(axis=1), zones.near["A"]),
        ("B", grid.any(axis=0), zones.near["B"]),
    ):
        standing = stands[own]
        count = int(standing.sum())
        hit = int(np.count_nonzero(np.asarray(seen) & standing))
        exposure[side] = round(100 * hit / count, 1) if count else 0.0
    return exposure, bool((clear & zones.edge_pair).any())


class _Layout:
    """A candidate being laid out: its terrain, its pieces and what is left in the box."""

    def __init__(
        self,
        board: Board,
        rules: TableRules,
        library: TerrainLibrary,
        params: Parameters,
        rng: random.Random,
    ) -> None:
        self.board = board
        self.rules = rules
        self.library = library
        self.rng = rng
        self.mapping = None if params.symmetry == "none" else board.symmetry(params.symmetry)
        if params.symmetry != "none" and self.mapping is None:
            raise GenerationError(f"this board has no {params.symmetry} symmetry")
        self.terrain: dict[int, str] = {}
        self.pieces: list[Placed] = []
        self.left: dict[str, int] | None = None if params.box is None else dict(params.box)
        usable = {p.id: p for p in library.pieces.values() if self._usable(p, params)}
        if params.box is None:
            weights = library.mixes[params.mix][1]
            self.weights = {k: w for k, w in weights.items() if w > 0 and k in usable}
        else:
            self.weights = {k: n for k, n in params.box.items() if n > 0 and k in usable}
        self.usable = usable
        self.edge_rows = {board.first_row, board.last_row}
        # The high ground placed first: exposure moves never take it away.
        self.elevated_first: list[str] = []
        self.entry_max = library.generator.entry_row_blocking_max

    def _usable(self, piece: Piece, params: Parameters) -> bool:
        # A piece stands in mirror symmetry only when its mirror image is one of its turns.
        return params.symmetry != "mirror" or piece.mirror_turn is not None

    def height(self, kind: str | None) -> int:
        return 0 if kind is None else self.rules.terrain[kind].height

    # --- Placing and taking away --------------------------------------------------------

    def placements(self, piece: Piece, turn: int, anchor: tuple[int, int]) -> list[dict[int, str]]:
        """The hexes (index -> kind) of the piece and, with a symmetry, of its image; [] when
        it does not fit."""
        covered: dict[int, str] = {}
        for dq, dr, kind in piece.cells(turn):
            index = self.board.index.get((anchor[0] + dq, anchor[1] + dr))
            if index is None:
                return []
            covered[index] = kind
        if self.mapping is None:
            return [covered]
        image = {self.mapping[i]: kind for i, kind in covered.items()}
        if image == covered:
            return [covered]
        if image.keys() & covered.keys():
            return []
        return [covered, image]

    def fits(self, placements: list[dict[int, str]], piece: Piece, high: int) -> bool:
        if not placements:
            return False
        if self.left is not None and self.left.get(piece.id, 0) < len(placements):
            return False
        added = 0
        entry = dict.fromkeys(self.edge_rows, 0)
        for placement in placements:
            for index, kind in placement.items():
                if index in self.terrain:
                    return False
                added += 1
                row = self.board.hexes[index][1]
                if row in entry and not self.rules.terrain[kind].enterable:
                    entry[row] += 1
        if len(self.terrain) + added > high:
            return False
        for row, count in entry.items():
            if count and self._entry_blocking(row) + count > self.entry_max:
                return False
        walls = {
            i for p in placements for i, kind in p.items() if not self.rules.terrain[kind].enterable
        }
        return not walls or self.connected(walls)

    def connected(self, walls: set[int]) -> bool:
        """Can every hex a trooper may stand on still be reached from both table edges once
        `walls` are added? (A piece that cuts off a corner is never placed.)"""
        board = self.board
        closed = walls | {
            i for i, kind in self.terrain.items() if not self.rules.terrain[kind].enterable
        }
        open_count = len(board) - len(closed)
        for side in ("A", "B"):
            start = [i for i in board.edge_row(side) if i not in closed]
            seen = set(start)
            while start:
                for m in board.neighbours[start.pop()]:
                    if m not in closed and m not in seen:
                        seen.add(m)
                        start.append(m)
            if len(seen) != open_count:
                return False
        return True

    def _entry_blocking(self, row: int) -> int:
        return sum(
            1
            for index, kind in self.terrain.items()
            if self.board.hexes[index][1] == row and not self.rules.terrain[kind].enterable
        )

    def put(self, placements: list[dict[int, str]], piece: Piece) -> None:
        for placement in placements:
            self.terrain.update(placement)
            self.pieces.append(Placed(piece.id, tuple(sorted(placement))))
        if self.left is not None:
            self.left[piece.id] -= len(placements)

    def take(self, placed: Placed) -> None:
        """Take a piece away, with its image."""
        group = [placed]
        if self.mapping is not None:
            image = tuple(sorted(self.mapping[i] for i in placed.hexes))
            group += [p for p in self.pieces if p.hexes == image and p is not placed]
        for one in group:
            self.pieces.remove(one)
            for index in one.hexes:
                del self.terrain[index]
            if self.left is not None:
                self.left[one.piece] += 1

    def draw(self, pieces: list[str]) -> Piece | None:
        choices = [p for p in pieces if self.left is None or self.left.get(p, 0) > 0]
        if not choices:
            return None
        weights = [self.weights[p] for p in choices]
        return self.library.pieces[self.rng.choices(choices, weights)[0]]

    def try_place(self, piece: Piece, high: int, tries: int = PLACEMENT_TRIES) -> bool:
        for _ in range(tries):
            turn = self.rng.choice(piece.turns)
            anchor = self.board.hexes[self.rng.randrange(len(self.board))]
            placements = self.placements(piece, turn, anchor)
            if self.fits(placements, piece, high):
                self.put(placements, piece)
                return True
        return False

    def spec(self, params: Parameters, name: str) -> TableSpec:
        return TableSpec(
            self.board,
            dict(self.terrain),
            name or f"Table {params.seed}",
            params.seed,
            params.as_dict(),
            tuple(self.pieces),
        )

    # --- Lanes ------------------------------------------------------------------------------

    def blockers(self) -> list[str]:
        return [
            p
            for p in self.weights
            if any(self.rules.terrain[k].height > 0 for k in self.library.pieces[p].kinds())
        ]

    def covers(self) -> list[str]:
        """Pieces whose every hex is below any line of fire: placing or taking them away
        changes no lane."""
        return [
            p
            for p in self.weights
            if all(self.rules.terrain[k].height == 0 for k in self.library.pieces[p].kinds())
        ]

    def lane_score(self, placements: list[dict[int, str]], open_lanes: set[int]) -> int:
        lanes = _lanes(self.board)
        closed: set[int] = set()
        for placement in placements:
            for index, kind in placement.items():
                height = self.height(kind)
                for lane in lanes.through.get(index, ()):
                    if lane in open_lanes and height > self._threshold(lanes.ends[lane]):
                        closed.add(lane)
        return len(closed)

    def _threshold(self, ends: tuple[int, int]) -> int:
        return max(
            0 if (kind := self.terrain.get(end)) is None else self.rules.terrain[kind].level
            for end in ends
        )

    def repair(self, report: TableReport, high: int) -> bool:
        """Close the lanes the report found with one more blocking or elevated piece; False
        when no placement closes any."""
        lanes = _lanes(self.board)
        index_of = {end: k for k, end in enumerate(lanes.ends)}
        open_lanes = {index_of[(self.board.index[a], self.board.index[b])] for a, b in report.lanes}
        blockers = self.blockers()
        best: tuple[int, int, list[dict[int, str]], Piece] | None = None
        for attempt in range(REPAIR_TRIES):
            piece = self.draw(blockers)
            if piece is None:
                return False
            lane = lanes.ends[self.rng.choice(sorted(open_lanes))]
            a, b = (self.board.hexes[i] for i in lane)
            crossed = [
                h for h in crossed_hexes(self.board, a, b) if h[1] not in self.edge_rows
            ] or list(crossed_hexes(self.board, a, b))
            if not crossed:
                continue
            target = self.rng.choice(crossed)
            turn = self.rng.choice(piece.turns)
            dq, dr, _ = self.rng.choice(piece.cells(turn))
            placements = self.placements(piece, turn, (target[0] - dq, target[1] - dr))
            if not placements or not self._room(placements, piece, high):
                continue
            score = self.lane_score(placements, open_lanes)
            if not score or (best is not None and score <= best[0]):
                continue
            before = self.snapshot()
            self._make_room(placements, piece, high)
            if self.fits(placements, piece, high):
                best = (score, attempt, placements, piece)
            self.restore(before)
        if best is None:
            return False
        _, _, placements, piece = best
        self._make_room(placements, piece, high)
        self.put(placements, piece)
        return True

    def _under(self, placements: list[dict[int, str]]) -> list[Placed] | None:
        """The pieces a placement would stand on, when all of them are cover (which it then
        replaces: cover is moved elsewhere, never under a building); None otherwise."""
        standing = {i for p in placements for i in p}
        covers = set(self.covers())
        under = [p for p in self.pieces if standing & set(p.hexes)]
        return None if any(p.piece not in covers for p in under) else under

    def _room(self, placements: list[dict[int, str]], piece: Piece, high: int) -> bool:
        """Would the placement fit once the cover under it, and if need be other cover, is
        taken away?"""
        under = self._under(placements)
        if under is None:
            return False
        freed = {i for p in under for i in p.hexes}
        needed = len(self.terrain) - len(freed) + sum(len(p) for p in placements) - high
        standing = {i for p in placements for i in p}
        covers = set(self.covers())
        spare = sum(
            len(p.hexes) for p in self.pieces if p.piece in covers and not standing & set(p.hexes)
        )
        return needed <= spare

    def _make_room(self, placements: list[dict[int, str]], piece: Piece, high: int) -> None:
        for placed in self._under(placements) or []:
            if placed in self.pieces:
                self.take(placed)
        covers = set(self.covers())
        added = sum(len(p) for p in placements)
        while len(self.terrain) + added > high:
            spare = [p for p in self.pieces if p.piece in covers]
            if not spare:
                return
            self.take(self.rng.choice(spare))

    # --- Balance without symmetry ---------------------------------------------------------

    def cover_counts(self) -> dict[str, int]:
        """Each side's near-edge hexes in cover (see metrics): own hex cover, or terrain next
        to it. Cheap: no line of fire."""
        board, depth = self.board, self.rules.near_edge_depth
        counts = {"A": 0, "B": 0}
        for index in range(len(board)):
            kind = self.terrain.get(index)
            if kind is not None and not self.rules.terrain[kind].enterable:
                continue
            covered = kind == "cover" or any(m in self.terrain for m in board.neighbours[index])
            if not covered:
                continue
            for side in counts:
                if board.depth_from_edge(index, side) <= depth:
                    counts[side] += 1
        return counts

    def snapshot(self) -> tuple[dict[int, str], list[Placed], dict[str, int] | None]:
        return dict(self.terrain), list(self.pieces), None if self.left is None else dict(self.left)

    def restore(self, saved: tuple[dict[int, str], list[Placed], dict[str, int] | None]) -> None:
        self.terrain, self.pieces = dict(saved[0]), list(saved[1])
        self.left = None if saved[2] is None else dict(saved[2])

    def balance_cover(self, low: int, high: int) -> None:
        """Move cover pieces until the sides' cover near their edges is within the ruleset's
        difference: cover changes no line of fire, so lanes and exposure stay as they are."""
        covers = self.covers()
        for _ in range(12):
            counts = self.cover_counts()
            gap = abs(counts["A"] - counts["B"])
            if gap <= self.rules.cover_difference_max:
                return
            before = self.snapshot()
            best: tuple[int, Any] | None = None
            small = [p for p in covers if len(self.library.pieces[p].hexes) <= max(1, gap // 3)]
            for attempt in range(40):
                moved = self._cover_move(
                    small if attempt % 2 and small else covers, counts, low, high
                )
                if moved and self.rng.random() < 0.5:
                    moved = self._cover_move(covers, counts, low, high)  # a swap
                if not moved or not low <= len(self.terrain) <= high:
                    self.restore(before)
                    continue
                after = self.cover_counts()
                score = abs(after["A"] - after["B"])
                if score < gap and (best is None or score < best[0]):
                    best = (score, self.snapshot())
                self.restore(before)
            if best is None:
                return
            self.restore(best[1])

    def _cover_move(self, covers: list[str], counts: dict[str, int], low: int, high: int) -> bool:
        """One random move of cover towards the side with less: take a cover piece from near
        the other side's edge, or put one near this side's. False when none was made."""
        weak = "A" if counts["A"] < counts["B"] else "B"
        strong = "B" if weak == "A" else "A"
        depth = self.rules.near_edge_depth + 1
        spare = [p for p in self.pieces if p.piece in covers]
        if spare and self.rng.random() < 0.5:
            near = [
                p
                for p in spare
                if min(self.board.depth_from_edge(i, strong) for i in p.hexes) <= depth
            ]
            if near:
                self.take(self.rng.choice(near))
                return True
        piece = self.draw(covers)
        if piece is None:
            return False
        zone = [i for i in range(len(self.board)) if self.board.depth_from_edge(i, weak) <= depth]
        turn = self.rng.choice(piece.turns)
        placements = self.placements(piece, turn, self.board.hexes[self.rng.choice(zone)])
        if not self.fits(placements, piece, high):
            return False
        self.put(placements, piece)
        return True

    def exposure(self) -> tuple[dict[str, float], bool]:
        """Each side's exposure now, and whether an edge-to-edge lane is open: from the lines
        between the near-edge zones only."""
        n = len(self.board)
        heights = np.zeros(n, dtype=np.int64)
        levels = np.zeros(n, dtype=np.int64)
        stands = np.ones(n, dtype=bool)
        for index, kind in self.terrain.items():
            terrain = self.rules.terrain[kind]
            heights[index], levels[index], stands[index] = (
                terrain.height,
                terrain.level,
                terrain.enterable,
            )
        return _zone_exposure(
            _zones(self.board, self.rules.near_edge_depth), heights, levels, stands
        )

    def _exposure_move(self, kind: str, zone: list[int], high: int, keep: set[str]) -> bool:
        """Add a blocking or elevated piece at a random spot of `zone` ("add"), or take one
        away that stands within it ("take"); False when none was made."""
        blockers = self.blockers()
        if kind == "take":
            spots = set(zone)
            removable = [
                p
                for p in self.pieces
                if p.piece in blockers and spots & set(p.hexes) and p.piece not in keep
            ]
            if not removable:
                return False
            self.take(self.rng.choice(removable))
            return True
        piece = self.draw(blockers)
        if piece is None:
            return False
        turn = self.rng.choice(piece.turns)
        placements = self.placements(piece, turn, self.board.hexes[self.rng.choice(zone)])
        if not placements or not self._room(placements, piece, high):
            return False
        self._make_room(placements, piece, high)
        if not self.fits(placements, piece, high):
            return False
        self.put(placements, piece)
        return True

    def _improve(
        self, score: Callable[[dict[str, float]], float], moves: Callable[[], bool]
    ) -> None:
        """Rounds of random moves, keeping the best that lowers `score` and opens no lane."""
        for _ in range(5):
            exposure, _ = self.exposure()
            now = score(exposure)
            if not now:
                return
            before = self.snapshot()
            best: tuple[float, Any] | None = None
            for _attempt in range(20):
                if moves():
                    after, lane = self.exposure()
                    value = score(after)
                    if not lane and value < now and (best is None or value < best[0]):
                        best = (value, self.snapshot())
                self.restore(before)
            if best is None:
                return
            self.restore(best[1])

    def steer_exposure(self, band: tuple[float, float], high: int) -> None:
        """Bring the sides' exposure into the band tables are made in (so tables of one
        setting play alike, and a pack's tables are within tolerance of each other): across
        the middle of a table too open, a blocking or elevated piece is added; from a table
        too closed, one is taken away, never opening a lane."""
        depth = self.rules.near_edge_depth
        middle = [
            i
            for i in range(len(self.board))
            if min(self.board.depth_from_edge(i, side) for side in ("A", "B")) > depth
        ] or list(range(len(self.board)))
        keep = set(self.elevated_first)

        def outside(exposure: dict[str, float]) -> float:
            return sum(max(0.0, band[0] - e, e - band[1]) for e in exposure.values())

        def move() -> bool:
            exposure, _ = self.exposure()
            open_too = any(e > band[1] for e in exposure.values())
            return self._exposure_move("add" if open_too else "take", middle, high, keep)

        self._improve(outside, move)

    def balance_exposure(self, high: int) -> None:
        """Shelter the more exposed side, or open up the other: add a blocking or elevated
        piece near the more exposed side's edge, or take one away near the other's."""
        limit = self.rules.exposure_difference_max
        depth = self.rules.near_edge_depth + 2
        keep = set(self.elevated_first)

        def gap(exposure: dict[str, float]) -> float:
            return max(0.0, abs(exposure["A"] - exposure["B"]) - limit)

        def move() -> bool:
            exposure, _ = self.exposure()
            exposed = "A" if exposure["A"] > exposure["B"] else "B"
            other = "B" if exposed == "A" else "A"
            if self.rng.random() < 0.3:
                zone = [
                    i
                    for i in range(len(self.board))
                    if self.board.depth_from_edge(i, other) <= depth
                ]
                return self._exposure_move("take", zone, high, keep)
            zone = [
                i for i in range(len(self.board)) if self.board.depth_from_edge(i, exposed) <= depth
            ]
            return self._exposure_move("add", zone, high, keep)

        self._improve(gap, move)

    # --- Coverage ------------------------------------------------------------------------------

    def settle_coverage(self, low: int, high: int) -> None:
        """Bring the terrain within [low, high] with cover pieces: they change no lane."""
        covers = self.covers()
        for _ in range(40):
            if len(self.terrain) >= low:
                break
            piece = self.draw(covers)
            if piece is None:
                break
            self.try_place(piece, high)
        for _ in range(40):
            if len(self.terrain) <= high:
                break
            spare = [p for p in self.pieces if p.piece in covers]
            if not spare:
                break
            self.take(self.rng.choice(spare))


def _candidate(
    board: Board,
    rules: TableRules,
    library: TerrainLibrary,
    params: Parameters,
    rng: random.Random,
    name: str,
) -> tuple[TableSpec, TableReport]:
    layout = _Layout(board, rules, library, params, rng)
    low, high = coverage_window(params, rules, library, len(board))
    # 1. High ground first.
    elevated = [
        p
        for p in layout.weights
        if any(rules.terrain[k].level > 0 for k in library.pieces[p].kinds())
    ]
    for _ in range(library.generator.elevated_pieces_min):
        piece = layout.draw(elevated)
        if piece is not None and layout.try_place(piece, high, tries=4 * PLACEMENT_TRIES):
            layout.elevated_first.append(piece.id)
    # 2. Pieces from the mix or the box, leaving room for the repairs.
    everything = list(layout.weights)
    fill = round(low * library.generator.fill_before_repairs)
    for _ in range(400):
        if len(layout.terrain) >= fill:
            break
        piece = layout.draw(everything)
        if piece is None:
            break
        layout.try_place(piece, high)
    # 3. Close the lanes.
    spec = layout.spec(params, name)
    report = check_table(spec, rules)
    for _ in range(REPAIR_ROUNDS):
        if not report.lanes or not layout.repair(report, high):
            break
        spec = layout.spec(params, name)
        report = check_table(spec, rules)
    # 4. Exposure into the band tables are made in; without a symmetry, the two sides
    # balanced: exposure (which moves lines of fire), then cover (which does not).
    if not report.lanes:
        layout.steer_exposure(library.generator.exposure_band, high)
        if layout.mapping is None:
            layout.balance_exposure(high)
    # 5. The coverage asked for, and cover balanced again with cover pieces.
    layout.settle_coverage(low, high)
    if layout.mapping is None:
        layout.balance_cover(low, high)
    spec = layout.spec(params, name)
    report = check_table(spec, rules)
    return spec, report


def _acceptable(
    report: TableReport,
    terrain_hexes: int,
    window: tuple[int, int],
    rules: TableRules,
    params: Parameters,
    band: tuple[float, float] | None = None,
) -> bool:
    if not window[0] <= terrain_hexes <= window[1]:
        return False
    sides = report.metrics["sides"]
    if band is not None and not all(band[0] <= sides[s]["exposure"] <= band[1] for s in "AB"):
        return False
    if rules.coverage_min <= params.coverage <= rules.coverage_max:
        return report.valid
    return all(problem.code in COVERAGE_CODES for problem in report.problems)


def candidates(
    rules: TableRules,
    params: Parameters,
    board: Board,
    name: str = "",
    limit: int | None = None,
    valid_only: bool = False,
    deadline: float | None = None,
) -> Iterator[tuple[TableSpec, TableReport, int]]:
    """The seed's candidates in their fixed order (each with its report and terrain hexes),
    or only the acceptable ones; at most `limit` tried (the library's bound by default), and
    none started after `deadline` (a time.perf_counter() value) but the first."""
    library = terrain_library(tuple(rules.terrain))
    params.check(rules, library)
    window = coverage_window(params, rules, library, len(board))
    settings = library.generator
    if limit is None:
        limit = settings.max_candidates if params.box is None else settings.max_box_candidates
    for attempt in range(limit):
        if attempt and deadline is not None and time.perf_counter() > deadline:
            return
        # A string seed is hashed by random.Random deterministically, whatever PYTHONHASHSEED.
        rng = random.Random(
            f"{params.seed}:{params.coverage}:{params.symmetry}:{params.mix}:"
            f"{params.box_key()}:{attempt}"
        )
        spec, report = _candidate(board, rules, library, params, rng, name)
        # The first candidates must also be within the exposure band; later ones need only be
        # valid, so that every seed still gives a table.
        band = settings.exposure_band if attempt < settings.exposure_band_candidates else None
        if not valid_only or _acceptable(report, len(spec.terrain), window, rules, params, band):
            yield spec, report, len(spec.terrain)


def generate_table(
    rules: TableRules,
    params: Parameters,
    board: Board,
    name: str = "",
    budget_seconds: float | None = None,
    advise: bool = True,
) -> tuple[TableSpec, TableReport]:
    """A table for the seed and parameters (always the same one): valid when the coverage
    asked is, else valid in every other respect; GenerationError when none was found after
    the library's bound on candidates, or within `budget_seconds` (a request's bound: the
    table found is the same whatever the budget, a budget only gives up sooner). A terrain
    box that cannot make one gets an error saying what it lacks (up to 3 s more to find
    out; `advise=False` for a caller that passes the seed over, as a pack does)."""
    started = time.perf_counter()
    deadline = None if budget_seconds is None else started + budget_seconds
    library = terrain_library(tuple(rules.terrain))
    if params.box is not None:
        from tablegen.engine.boxes import shortfall  # it tries boxes with this module

        params.check(rules, library)
        short = shortfall(params, rules, board, library)
        if short:
            raise GenerationError(f"This terrain box cannot make a table this large. {short}")
    for spec, report, _ in candidates(
        rules, params, board, name, valid_only=True, deadline=deadline
    ):
        return spec, report
    timed_out = deadline is not None and time.perf_counter() > deadline
    if params.box is not None:
        from tablegen.engine.boxes import what_is_missing

        said = (
            f"This terrain box made no valid table within {budget_seconds:g} s. "
            if timed_out
            else "This terrain box cannot make a valid table with these settings. "
        )
        # The advice has its own bound, on top of the budget.
        advice = what_is_missing(rules, params, board, library) if advise else ""
        raise (GenerationTimeout if timed_out else GenerationError)(said + advice)
    if timed_out:
        raise GenerationTimeout(
            f"No valid table was found for seed {params.seed} within {budget_seconds:g} s; "
            "try another seed, symmetry or coverage"
        )
    raise GenerationError(
        f"no valid table found for seed {params.seed} after "
        f"{library.generator.max_candidates} candidates; try another seed, symmetry or coverage"
    )


def piece_counts(spec: TableSpec) -> dict[str, int]:
    """How many of each library piece a table uses."""
    counts: dict[str, int] = {}
    for placed in spec.placed():
        counts[placed.piece] = counts.get(placed.piece, 0) + 1
    return counts
