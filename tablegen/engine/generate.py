"""Table generation from real pieces: deterministic for a seed and its parameters.

A candidate is laid out as a person would build a table from a box of terrain:

0. with a symmetry, a box's odd pieces that can stand on the centre (as their own image)
   go there first; every other piece goes down with its image (a twin of the same piece);
1. a piece with elevated ground first (a table without high ground plays flat);
2. tall pieces across the edge-to-edge lanes, the lane that the fewest spots cross first,
   each at a spot that crosses the most lanes still open (`tablegen.engine.boxfit` finds a
   piece's spots once per board); then pieces drawn from the mix (from a box: its cover),
   never on other terrain, never putting more blocking hexes on an entry row than the
   generator allows;
3. lanes still open closed by adding a blocking or elevated piece across them (from a box,
   at the best spot of the tall pieces it has left, or by moving one already down), making
   room by taking away cover pieces (which never block a line of fire, so taking them opens
   no lane);
4. exposure steered into the band, the sides balanced without a symmetry, and the coverage
   brought within 2 hexes of what was asked (cover changes no line of fire).

A candidate that is still not valid is dropped (as soon as that is known) and the next one
is tried, in an order fixed by the seed, until one is, within a bound and a time budget;
the closest one is kept as a draft. A box that cannot make a table of the symmetry and
coverage at all is told so before any search, by counting (`boxfit.box_problem`).
"""

from __future__ import annotations

import bisect
import functools
import itertools
import math
import random
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import numpy.typing as npt

from onefinity.rules.hexgrid import Board, Hex
from onefinity.rules.lineoffire import _direction_pattern, crossed_hexes
from onefinity.rules.ruleset import TableRules
from tablegen.engine.boxfit import Advice, Spot, Spots, box_fit, box_problem, named, spots
from tablegen.engine.library import Piece, TerrainLibrary, terrain_library
from tablegen.engine.metrics import TableReport, _board_facts, _flood, check_table
from tablegen.engine.tables import Placed, TableSpec

SYMMETRIES = ("none", "point", "mirror")
# Random placements tried for each piece drawn, and for each lane repair.
PLACEMENT_TRIES = 12
REPAIR_TRIES = 60
REPAIR_ROUNDS = 12
# Rounds of moves that steer a table's exposure into the band, and moves tried a round.
STEER_ROUNDS = 10
STEER_ATTEMPTS = 10
# A box's lane repair: the best spots tried (the most lanes crossed first); and when its
# tall pieces are all down, the laid pieces tried for a move, and their best spots.
BOX_REPAIR_SPOTS = 40
# From a mix, the tall pieces drawn (by weight) whose spots a lane repair ranks.
MIX_REPAIR_PIECES = 3
# From a mix in mirror symmetry, the most tall pieces laid across the lanes first.
MIX_COVER_ROUNDS = 12
# ... up to this share of the terrain asked for: the rest is for cover and the mix.
MIX_COVER_SHARE = 0.5
COVER_FIRST = ("mirror", "point", "none")
# A box's tall pieces are laid first, each at one of this many best spots (drawn at random).
BOX_COVER_CHOICES = 4
RELOCATE_PIECES = 8
RELOCATE_SPOTS = 6
# Exposures of a candidate's terrains kept while it is laid out (_Layout.exposure).
KEPT_EXPOSURES = 16
# Spots tried for a piece added to steer exposure.
ADD_TRIES = 6
# With a symmetry, the share of lane repairs that try a piece standing across the centre.
CENTRE_SHARE = 0.5
# Validity codes a table asked outside the ruleset's coverage may keep (it was asked for).
COVERAGE_CODES = frozenset({"table.coverage.low", "table.coverage.high"})


# The time one table may take, on the site and from `generate_table` (its --budget): the
# search, then the advice when a box makes none (a run ends within a second of it).
BUDGET_SECONDS = 4.0
# Of it, what the search leaves for the advice when a box makes no table.
ADVICE_SECONDS = 1.0
# Seeds and candidates each of the advice's trials takes (fixed: the advice does not
# depend on the seed asked, so pressing Generate again does not change it).
ADVICE_SEEDS = (0, 1)
ADVICE_CANDIDATES = 10
# Additions the advice tries at most.
ADVICE_TRIALS = 6


class GenerationError(ValueError):
    """No table: `draft` is the best candidate made (not valid, to finish by hand), when
    one was; `advice` what would make one (with the pieces to add), when known."""

    def __init__(
        self,
        message: str,
        draft: tuple[TableSpec, TableReport] | None = None,
        advice: Advice | None = None,
        draft_attempt: int | None = None,
    ) -> None:
        super().__init__(message)
        self.draft = draft
        self.advice = advice
        # Which candidate the draft is: draft_table(..., attempt) makes it again.
        self.draft_attempt = draft_attempt


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
    # Within the slack of coverage x hexes itself, not of it rounded first (rounding 46.8 to
    # 47 let a table of 49 hexes, 2.2 from what was asked, through).
    target = params.coverage * hexes
    low, high = math.ceil(target - slack - 1e-9), math.floor(target + slack + 1e-9)
    if rules.coverage_min <= params.coverage <= rules.coverage_max:
        low = max(low, math.ceil(rules.coverage_min * hexes - 1e-9))
        high = min(high, math.floor(rules.coverage_max * hexes + 1e-9))
    return max(0, low), min(hexes, high)


# Edge-to-edge lanes as a check's report lists them: (side A's edge hex, side B's).
Lanes = tuple[tuple[Hex, Hex], ...]


@dataclass(frozen=True)
class _Lanes:
    """Every edge-to-edge line of a board and the hexes it crosses."""

    ends: tuple[tuple[int, int], ...]
    through: dict[int, tuple[int, ...]]  # hex -> the lanes whose line crosses it
    # Each lane's crossed hexes (indices) off the edge rows (all when it has none there).
    crossed: tuple[tuple[int, ...], ...]
    # Each hex's lanes as the bits of a number (bit k: lane k crosses the hex).
    masks: tuple[int, ...]


@functools.lru_cache(maxsize=8)
def _lanes(board: Board) -> _Lanes:
    ends = [(a, b) for a in board.edge_row("A") for b in board.edge_row("B")]
    through: dict[int, list[int]] = {}
    crossed = []
    edge_rows = {board.first_row, board.last_row}
    for lane, (a, b) in enumerate(ends):
        hexes = tuple(crossed_hexes(board, board.hexes[a], board.hexes[b]))
        for hex_ in hexes:
            through.setdefault(board.index[hex_], []).append(lane)
        off_edges = tuple(h for h in hexes if h[1] not in edge_rows) or hexes
        crossed.append(tuple(board.index[h] for h in off_edges))
    masks = tuple(sum(1 << lane for lane in through.get(i, ())) for i in range(len(board)))
    return _Lanes(tuple(ends), {k: tuple(v) for k, v in through.items()}, tuple(crossed), masks)


@functools.lru_cache(maxsize=256)
def _lane_rarity(
    board: Board, pieces: tuple[Piece, ...], symmetry: str, tall: frozenset[str]
) -> tuple[int, ...]:
    """How many spots of the pieces (with their images, or across the centre) cross each
    lane: the fewer, the sooner a lane must be seen to."""
    counts = [0] * len(_lanes(board).ends)
    for piece in pieces:
        for centre in (False, True):
            for _spot, mask in _spot_masks(board, piece, symmetry, centre, tall):
                while mask:
                    low = mask & -mask
                    counts[low.bit_length() - 1] += 1
                    mask ^= low
    return tuple(counts)


@functools.lru_cache(maxsize=16)
def _lane_words(board: Board) -> int:
    """64-bit words that hold a bit for each of the board's lanes."""
    return max(1, -(-len(_lanes(board).ends) // 64))


def _as_words(mask: int, words: int) -> npt.NDArray[np.uint64]:
    return np.array([(mask >> (64 * k)) & (2**64 - 1) for k in range(words)], dtype=np.uint64)


@functools.lru_cache(maxsize=4096)
def _spot_arrays(
    board: Board, piece: Piece, symmetry: str, centre: bool, tall: frozenset[str]
) -> tuple[tuple[tuple[Spot, int], ...], npt.NDArray[np.uint64]]:
    """`_spot_masks` with the masks also as rows of 64-bit words, to count them at once."""
    found = _spot_masks(board, piece, symmetry, centre, tall)
    words = _lane_words(board)
    array = np.zeros((len(found), words), dtype=np.uint64)
    for row, (_, mask) in enumerate(found):
        array[row] = _as_words(mask, words)
    return found, array


@dataclass(frozen=True, eq=False)
class _SpotRanking:
    """The spots a lane repair ranks, of some pieces each on the centre or not (`ways`), in
    one array: their lanes as rows of 64-bit words (`array`), their places in that order
    hashed (`order`: the ties are drawn from it and the seed's salt), and where each
    piece's spots begin (`starts`) in `groups`, each piece's (id, spots with their lanes).
    Counted over at once instead of piece by piece; each piece's spots are kept
    (``_spot_arrays``), not every set of pieces."""

    groups: list[tuple[str, tuple[tuple[Spot, int], ...]]]
    starts: list[int]
    array: npt.NDArray[np.uint64]
    order: npt.NDArray[np.uint64]

    @classmethod
    def of(
        cls,
        board: Board,
        ways: list[tuple[Piece, bool]],
        symmetry: str,
        tall: frozenset[str],
    ) -> _SpotRanking:
        groups, arrays, starts, count = [], [], [], 0
        for piece, centre in ways:
            found, array = _spot_arrays(board, piece, symmetry, centre, tall)
            if found:
                groups.append((piece.id, found))
                arrays.append(array)
                starts.append(count)
                count += len(found)
        joined = np.concatenate(arrays) if arrays else np.zeros((0, 1), dtype=np.uint64)
        order = np.arange(1, count + 1, dtype=np.uint64) * np.uint64(2654435761)
        return cls(groups, starts, joined, order)

    def entry(self, k: int) -> tuple[str, Spot, int]:
        """The k-th spot: its piece, the spot and its lanes."""
        group = bisect.bisect_right(self.starts, k) - 1
        piece_id, found = self.groups[group]
        spot, mask = found[k - self.starts[group]]
        return piece_id, spot, mask


@functools.lru_cache(maxsize=4096)
def _spot_masks(
    board: Board, piece: Piece, symmetry: str, centre: bool, tall: frozenset[str]
) -> tuple[tuple[Spot, int], ...]:
    """Every spot of a piece (across the centre, or with its image) with the lanes its tall
    hexes cross, as bits."""
    masks = _lanes(board).masks
    found = spots(board, piece, symmetry)
    result = []
    for spot in found.centre if centre else found.pairs:
        mask = 0
        for index, kind in zip(spot.hexes, spot.kinds, strict=True):
            if kind in tall:
                mask |= masks[index]
        if spot.image is not None:
            for index, kind in zip(spot.image, spot.kinds, strict=True):
                if kind in tall:
                    mask |= masks[index]
        if mask:
            result.append((spot, mask))
    return tuple(result)


@functools.lru_cache(maxsize=8)
def _hex_bits(board: Board) -> tuple[tuple[int, ...], int, int, tuple[int, int]]:
    """Each hex as a bit of a board-sized number (the check's layout: a neighbour's bit is
    the hex's shifted by 1, stride - 1 or stride), the stride, every hex's bits, and side A's
    and side B's edge rows' bits."""
    facts = _board_facts(board)
    bits = tuple(1 << int(bit) for bit in facts.bit.tolist())
    edges = tuple(sum(bits[i] for i in board.edge_row(side)) for side in ("A", "B"))
    return bits, facts.stride, sum(bits), (edges[0], edges[1])


@functools.lru_cache(maxsize=32)
def _near(board: Board, side: str, depth: int) -> tuple[int, ...]:
    """The hexes within `depth` rows of a side's table edge."""
    return tuple(i for i in range(len(board)) if board.depth_from_edge(i, side) <= depth)


@functools.lru_cache(maxsize=16)
def _middle(board: Board, depth: int) -> tuple[int, ...]:
    """The hexes more than `depth` rows from both table edges (every hex if none is)."""
    near = set(_near(board, "A", depth)) | set(_near(board, "B", depth))
    return tuple(i for i in range(len(board)) if i not in near) or tuple(range(len(board)))


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


def _zone_clear(
    zones: _Zones,
    heights: npt.NDArray[np.int64],
    levels: npt.NDArray[np.int64],
    stands: npt.NDArray[np.bool_],
) -> npt.NDArray[np.bool_]:
    """Which lines between the near-edge zones are clear, between standable hexes (as the
    metrics decide it: a crossed hex, or both hexes of a side run along, higher than the
    higher end's level blocks)."""
    top = np.zeros(len(zones.pair_a), dtype=np.int64)
    if len(zones.cross):
        np.maximum.at(top, zones.cross_owner, heights[zones.cross])
    if len(zones.side_a):
        np.maximum.at(
            top, zones.side_owner, np.minimum(heights[zones.side_a], heights[zones.side_b])
        )
    clear = top <= np.maximum(levels[zones.hex_a], levels[zones.hex_b])
    clear &= stands[zones.hex_a] & stands[zones.hex_b]
    return clear


def _zone_seen(
    zones: _Zones, clear: npt.NDArray[np.bool_], stands: npt.NDArray[np.bool_]
) -> dict[str, tuple[int, int]]:
    """Each side's standable near-edge hexes the other side's see, and how many there are."""
    grid = clear.reshape(len(zones.near["A"]), len(zones.near["B"]))
    found = {}
    for side, seen, own in (
        ("A", grid.any(axis=1), zones.near["A"]),
        ("B", grid.any(axis=0), zones.near["B"]),
    ):
        standing = stands[own]
        count = int(standing.sum())
        found[side] = (int(np.count_nonzero(np.asarray(seen) & standing)), count)
    return found


@functools.lru_cache(maxsize=16_384)
def _spots_within(
    board: Board, piece: Piece, symmetry: str, zone: tuple[int, ...], centre: bool
) -> tuple[Spot, ...]:
    """The spots of a piece (on the centre, or with its image) that touch `zone`."""
    within = set(zone)
    found = spots(board, piece, symmetry)
    return tuple(s for s in (found.centre if centre else found.pairs) if within & set(s.hexes))


class _Layout:
    """A candidate being laid out: its terrain, its pieces and what is left in the box, and
    the moves every step makes (place, take away, make room, keep and restore a state)."""

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
        self.symmetry = params.symmetry
        self.edge_rows = {board.first_row, board.last_row}
        # The high ground placed first: exposure moves never take it away.
        self.elevated_first: list[str] = []
        self.entry_max = library.generator.entry_row_blocking_max
        # What each piece is, found once (they were found again on every move).
        heights = {p: {rules.terrain[k].height for k in usable[p].kinds()} for p in self.weights}
        self._blockers = [p for p in self.weights if max(heights[p]) > 0]
        self._covers = [p for p in self.weights if max(heights[p]) == 0]
        self.cover_set = frozenset(self._covers)
        self.enterable = {k: t.enterable for k, t in rules.terrain.items()}
        self.tall_kinds = frozenset(k for k, t in rules.terrain.items() if t.height > 0)
        self._exposures: dict[frozenset[tuple[int, str]], tuple[dict[str, float], int]] = {}
        self._drawings: dict[tuple[str, ...], tuple[list[str], list[float]]] = {}

    def _usable(self, piece: Piece, params: Parameters) -> bool:
        # A piece stands in mirror symmetry only when its mirror image is one of its turns.
        return params.symmetry != "mirror" or piece.mirror_turn is not None

    def height(self, kind: str | None) -> int:
        return 0 if kind is None else self.rules.terrain[kind].height

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
                if row in entry and not self.enterable[kind]:
                    entry[row] += 1
        if len(self.terrain) + added > high:
            return False
        for row, count in entry.items():
            if count and self._entry_blocking(row) + count > self.entry_max:
                return False
        walls = {i for p in placements for i, kind in p.items() if not self.enterable[kind]}
        return not walls or self.connected(walls)

    def connected(self, walls: set[int]) -> bool:
        """Can every hex a trooper may stand on still be reached from both table edges once
        `walls` are added? (A piece that cuts off a corner is never placed.) The open hexes
        as the bits of a number, flooded from each side's edge as a check floods them."""
        bits, stride, everything, edges = _hex_bits(self.board)
        closed = 0
        for index in walls:
            closed |= bits[index]
        enterable = self.enterable
        for index, kind in self.terrain.items():
            if not enterable[kind]:
                closed |= bits[index]
        allowed = everything & ~closed
        return all(_flood(edge, allowed, stride) == allowed for edge in edges)

    def _entry_blocking(self, row: int) -> int:
        return sum(
            1
            for index, kind in self.terrain.items()
            if self.board.hexes[index][1] == row and not self.enterable[kind]
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

    def spots_of(self, piece: Piece) -> Spots:
        return spots(self.board, piece, self.symmetry)

    def placeable(self, piece_id: str) -> bool:
        """Is one more of the piece in the box to place? With a symmetry a piece goes down
        with its twin, or alone on the centre (as its own image)."""
        if self.left is None:
            return True
        left = self.left.get(piece_id, 0)
        if self.mapping is None or left >= 2:
            return left > 0
        return left == 1 and bool(self.spots_of(self.library.pieces[piece_id]).centre)

    def alone(self, piece_id: str) -> bool:
        """Is the piece the last of its kind in a box, with a symmetry? Then it stands on
        the centre, as its own image: it has no twin."""
        return self.mapping is not None and self.left is not None and self.left[piece_id] == 1

    def may_centre(self, piece_id: str) -> bool:
        """May one of the piece stand across the centre, as its own image? Along the middle
        row (mirror) there is room for many; the centre of point symmetry holds about one
        piece, so a box's pairs stay pairs there."""
        return self.left is None or self.symmetry == "mirror" or self.left[piece_id] % 2 == 1

    def fits_size(self, piece_id: str, high: int) -> bool:
        """Would one more of the piece (with its image) keep the terrain within `high`?"""
        size = len(self.library.pieces[piece_id].hexes)
        alone = self.mapping is None or (self.left is not None and self.left[piece_id] == 1)
        return len(self.terrain) + size * (1 if alone else 2) <= high

    def draw(self, pieces: list[str]) -> Piece | None:
        """One of the pieces still to place, drawn by weight (from a mix, every piece is:
        its running weights are worked out once for the candidate, as random.choices would
        from the weights, the same draw)."""
        if self.left is None:
            key = tuple(pieces)
            drawing = self._drawings.get(key)
            if drawing is None:
                drawing = self._drawings[key] = (
                    list(pieces),
                    list(itertools.accumulate(self.weights[p] for p in pieces)),
                )
            choices, running = drawing
            if not choices:
                return None
            return self.library.pieces[self.rng.choices(choices, cum_weights=running)[0]]
        choices = [p for p in pieces if self.placeable(p)]
        if not choices:
            return None
        weights = [self.weights[p] for p in choices]
        return self.library.pieces[self.rng.choices(choices, weights)[0]]

    def as_placements(self, spot: Spot) -> list[dict[int, str]]:
        covered = dict(zip(spot.hexes, spot.kinds, strict=True))
        if spot.image is None:
            return [covered]
        return [covered, dict(zip(spot.image, spot.kinds, strict=True))]

    def try_place(
        self, piece: Piece, high: int, tries: int = PLACEMENT_TRIES, centre: bool = False
    ) -> bool:
        """Put the piece (with a symmetry, and its image) where it fits, of `tries` spots
        drawn at random (every spot when tries is 0); on the centre, as its own image, when
        `centre` or when it is the last of its kind in the box."""
        found = self.spots_of(piece)
        alone = self.alone(piece.id)
        if (
            self.mapping is not None
            and found.centre
            and piece.id not in self.cover_set  # the centre is for tall pieces
            and self.may_centre(piece.id)
            and self.rng.random() < CENTRE_SHARE / 2
        ):
            centre = True  # now and then across the centre, as its own image
        pool = found.centre if centre or alone else found.pairs
        if not pool:
            return False
        if tries and tries < len(pool):
            order = [pool[self.rng.randrange(len(pool))] for _ in range(tries)]
        else:
            order = list(pool)
            self.rng.shuffle(order)
        for spot in order:
            placements = self.as_placements(spot)
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

    def blockers(self) -> list[str]:
        return self._blockers

    def covers(self) -> list[str]:
        """Pieces whose every hex is below any line of fire: placing or taking them away
        changes no lane."""
        return self._covers

    def under(self, placements: list[dict[int, str]]) -> list[Placed] | None:
        """The pieces a placement would stand on, when all of them are cover (which it then
        replaces: cover is moved elsewhere, never under a building); None otherwise."""
        standing = {i for p in placements for i in p}
        covers = self.cover_set
        under = [p for p in self.pieces if not standing.isdisjoint(p.hexes)]
        return None if any(p.piece not in covers for p in under) else under

    def room(self, placements: list[dict[int, str]], piece: Piece, high: int) -> bool:
        """Would the placement fit once the cover under it, and if need be other cover, is
        taken away?"""
        under = self.under(placements)
        if under is None:
            return False
        freed = {i for p in under for i in p.hexes}
        needed = len(self.terrain) - len(freed) + sum(len(p) for p in placements) - high
        standing = {i for p in placements for i in p}
        covers = self.cover_set
        spare = sum(
            len(p.hexes) for p in self.pieces if p.piece in covers and standing.isdisjoint(p.hexes)
        )
        return needed <= spare

    def make_room(self, placements: list[dict[int, str]], piece: Piece, high: int) -> None:
        for placed in self.under(placements) or []:
            if placed in self.pieces:
                self.take(placed)
        covers = self.cover_set
        added = sum(len(p) for p in placements)
        while len(self.terrain) + added > high:
            spare = [p for p in self.pieces if p.piece in covers]
            if not spare:
                return
            self.take(self.rng.choice(spare))

    def snapshot(self) -> tuple[dict[int, str], list[Placed], dict[str, int] | None]:
        return dict(self.terrain), list(self.pieces), None if self.left is None else dict(self.left)

    def restore(self, saved: tuple[dict[int, str], list[Placed], dict[str, int] | None]) -> None:
        self.terrain, self.pieces = dict(saved[0]), list(saved[1])
        self.left = None if saved[2] is None else dict(saved[2])

    def lines(self) -> _ZoneLines:
        """The lines between the near-edge zones on the terrain now."""
        return _ZoneLines.of(self.board, self.rules, self.terrain)

    def exposure(self) -> tuple[dict[str, float], int]:
        """Each side's exposure now, and how many edge-to-edge lanes are open: from the lines
        between the near-edge zones only. The last few terrains' are kept: a step that tries
        moves from one state asks again for that state's after each move taken back."""
        key = frozenset(self.terrain.items())
        found = self._exposures.get(key)
        if found is None:
            found = self.lines().exposure()
            if len(self._exposures) >= KEPT_EXPOSURES:
                self._exposures.clear()
            self._exposures[key] = found
        return dict(found[0]), found[1]


@dataclass(frozen=True, eq=False)
class _ZoneLines:
    """Which lines between the near-edge zones are clear on a terrain: all that a
    candidate's exposure and edge-to-edge lanes depend on, read without checking the whole
    table (the same lines, blocked the same way)."""

    board: Board
    zones: _Zones
    clear: npt.NDArray[np.bool_]
    stands: npt.NDArray[np.bool_]

    @classmethod
    def of(cls, board: Board, rules: TableRules, terrain: Mapping[int, str]) -> _ZoneLines:
        n = len(board)
        heights = np.zeros(n, dtype=np.int64)
        levels = np.zeros(n, dtype=np.int64)
        stands = np.ones(n, dtype=bool)
        for index, kind in terrain.items():
            ruled = rules.terrain[kind]
            heights[index], levels[index], stands[index] = (
                ruled.height,
                ruled.level,
                ruled.enterable,
            )
        zones = _zones(board, rules.near_edge_depth)
        return cls(board, zones, _zone_clear(zones, heights, levels, stands), stands)

    def exposure(self) -> tuple[dict[str, float], int]:
        """Each side's exposure (the generator's rounding), and how many lanes are open."""
        exposure = {
            side: round(100 * hit / count, 1) if count else 0.0
            for side, (hit, count) in _zone_seen(self.zones, self.clear, self.stands).items()
        }
        return exposure, int(np.count_nonzero(self.clear & self.zones.edge_pair))

    def checked_exposure(self) -> dict[str, float]:
        """Each side's exposure as a check of the table gives it (its report's metrics: the
        share seen, then as a percentage, rounded the check's way)."""
        return {
            side: round(100 * float(hit / count), 1) if count else 0.0
            for side, (hit, count) in _zone_seen(self.zones, self.clear, self.stands).items()
        }

    def open_lanes(self) -> Lanes:
        """The clear lanes from edge to edge, as a check of the table lists them (its
        report's `lanes`, in its order: side A's edge hex, then side B's, in board order): a
        tenth of a whole check, which the lane repairs, needing nothing else, used to make
        after every round."""
        hexes, zones = self.board.hexes, self.zones
        open_ = self.clear & zones.edge_pair
        return tuple(
            (hexes[a], hexes[b])
            for a, b in zip(zones.hex_a[open_].tolist(), zones.hex_b[open_].tolist(), strict=True)
        )


class _LaneCloser:
    """Steps 2 and 3: tall pieces laid across the edge-to-edge lanes, and the lanes a check
    finds still open closed (by a piece added, or one already down moved)."""

    def __init__(self, layout: _Layout) -> None:
        self.layout = layout

    def cover_lanes(self, high: int) -> None:
        """Lay the box's tall pieces across the lanes: each at one of the few spots that
        cross the most lanes still open, until every lane is crossed or none is left."""
        layout = self.layout
        ends = len(_lanes(layout.board).ends)
        rarity = _lane_rarity(
            layout.board,
            tuple(layout.library.pieces[p] for p in layout.blockers()),
            layout.symmetry,
            layout.tall_kinds,
        )
        given_up = 0
        rounds = (
            MIX_COVER_ROUNDS
            if layout.left is None
            else len(layout.pieces) + sum(layout.left.values())
        )
        for _ in range(rounds):
            open_mask = self.modelled_open() & ~given_up
            if not open_mask:
                return
            # The open lane the fewest spots cross first (the sides' lanes, most often), by
            # the spot that crosses it and the most other open lanes.
            target = min(
                (k for k in range(ends) if open_mask >> k & 1),
                key=lambda k: (rarity[k], layout.rng.random()),
            )
            pieces = self._tall_choice()
            ranked = self._ranked_spots(open_mask, pieces, must=1 << target, top=BOX_COVER_CHOICES)
            for _score, _, piece_id, spot, _mask in ranked[:BOX_COVER_CHOICES]:
                piece = layout.library.pieces[piece_id]
                placements = layout.as_placements(spot)
                if layout.fits(placements, piece, high):
                    layout.put(placements, piece)
                    break
            else:
                given_up |= 1 << target

    def modelled_open(self) -> int:
        """The lanes no tall hex crosses, as bits (the model of lanes that closes them by
        tall hexes alone: quick, and near enough to lay pieces by; a check says)."""
        layout = self.layout
        masks = _lanes(layout.board).masks
        closed = 0
        for index, kind in layout.terrain.items():
            if kind in layout.tall_kinds:
                closed |= masks[index]
        return ((1 << len(_lanes(layout.board).ends)) - 1) & ~closed

    def _tall_choice(self) -> list[str]:
        """The tall pieces a lane is closed with: every one left in a box; from the mix, a
        few drawn by their weights."""
        layout = self.layout
        if layout.left is None:
            drawn = {layout.draw(layout.blockers()) for _ in range(MIX_REPAIR_PIECES)}
            return sorted(p.id for p in drawn if p is not None)
        return [p for p in layout.blockers() if layout.placeable(p)]

    def _ranked_spots(
        self, open_mask: int, pieces: list[str], must: int = 0, top: int | None = None
    ) -> list[tuple[int, int, str, Spot, int]]:
        """The spots of the pieces that cross an open lane (and every lane of `must`), the
        most lanes first, ties in an order drawn from the seed; the first `top` of them.
        (Counted over all spots at once, with numpy: the lanes of each spot as words.)"""
        layout = self.layout
        salt = layout.rng.getrandbits(32)
        ways = []
        for piece_id in pieces:
            alone = layout.alone(piece_id)
            ways.append((piece_id, alone))
            if layout.mapping is not None and not alone and layout.may_centre(piece_id):
                ways.append((piece_id, True))
        spots_of = _SpotRanking.of(
            layout.board,
            [(layout.library.pieces[piece_id], centre) for piece_id, centre in ways],
            layout.symmetry,
            layout.tall_kinds,
        )
        if not spots_of.groups:
            return []
        words = _lane_words(layout.board)
        array = spots_of.array
        # Only the spots that cross every lane of `must` are counted (a column a word).
        crossing = None
        for word in range(words):
            bits = (must >> (64 * word)) & (2**64 - 1)
            if bits:
                column = (array[:, word] & np.uint64(bits)) == np.uint64(bits)
                crossing = column if crossing is None else crossing & column
        rows = np.arange(len(array)) if crossing is None else np.flatnonzero(crossing)
        scores = np.bitwise_count(array[rows] & _as_words(open_mask, words)).sum(
            axis=1, dtype=np.int64
        )
        rows, scores = rows[scores > 0], scores[scores > 0]
        ties = (spots_of.order[rows] ^ np.uint64(salt)) & np.uint64(0xFFFFFFFF)
        ranked = np.lexsort((ties, -scores))
        if top is not None:
            ranked = ranked[:top]
        return [
            (int(scores[k]), int(ties[k]), *spots_of.entry(int(rows[k]))) for k in ranked.tolist()
        ]

    def _open_mask(self, open_lanes: Lanes) -> int:
        layout = self.layout
        lanes = _lanes(layout.board)
        index_of = {end: k for k, end in enumerate(lanes.ends)}
        return sum(
            1 << index_of[(layout.board.index[a], layout.board.index[b])] for a, b in open_lanes
        )

    def _lane_score(self, placements: list[dict[int, str]], open_lanes: set[int]) -> int:
        lanes = _lanes(self.layout.board)
        closed: set[int] = set()
        for placement in placements:
            for index, kind in placement.items():
                height = self.layout.height(kind)
                for lane in lanes.through.get(index, ()):
                    if lane in open_lanes and height > self._threshold(lanes.ends[lane]):
                        closed.add(lane)
        return len(closed)

    def _threshold(self, ends: tuple[int, int]) -> int:
        terrain, rules = self.layout.terrain, self.layout.rules
        return max(
            0 if (kind := terrain.get(end)) is None else rules.terrain[kind].level for end in ends
        )

    def repair(self, found: Lanes, high: int) -> bool:
        """Close the lanes found open (`found`, as a report lists them) with one more
        blocking or elevated piece; False when no placement closes any."""
        layout = self.layout
        lanes = _lanes(layout.board)
        index_of = {end: k for k, end in enumerate(lanes.ends)}
        open_lanes = {index_of[(layout.board.index[a], layout.board.index[b])] for a, b in found}
        blockers = layout.blockers()
        best: tuple[int, int, list[dict[int, str]], Piece] | None = None
        # A box has no piece to spare: its repairs look harder for the best spot.
        for attempt in range(REPAIR_TRIES if layout.left is None else 3 * REPAIR_TRIES):
            piece = layout.draw(blockers)
            if piece is None:
                return False
            crossed = lanes.crossed[layout.rng.choice(sorted(open_lanes))]
            # With a symmetry, a piece may also stand across the centre as its own image
            # (the last of its kind in a box must): half the hexes of a pair.
            centre = layout.mapping is not None and (
                (layout.left is not None and layout.left[piece.id] == 1)
                or (layout.may_centre(piece.id) and layout.rng.random() < CENTRE_SHARE)
            )
            pool = _spots_within(layout.board, piece, layout.symmetry, crossed, centre)
            if not pool:
                continue
            placements = layout.as_placements(pool[layout.rng.randrange(len(pool))])
            if not layout.room(placements, piece, high):
                continue
            score = self._lane_score(placements, open_lanes)
            if not score or (best is not None and score <= best[0]):
                continue
            before = layout.snapshot()
            layout.make_room(placements, piece, high)
            if layout.fits(placements, piece, high):
                best = (score, attempt, placements, piece)
            layout.restore(before)
        if best is None:
            return False
        _, _, placements, piece = best
        layout.make_room(placements, piece, high)
        layout.put(placements, piece)
        return True

    def repair_box(self, found: Lanes, high: int) -> bool:
        """Close lanes with the box's tall pieces left: of every spot of every one of them,
        the one that crosses the most open lanes and fits (a box has few: each must count).
        From the mix, of a few tall pieces drawn by their weights."""
        layout = self.layout
        pieces = self._tall_choice()
        for _score, _, piece_id, spot, _mask in self._ranked_spots(
            self._open_mask(found), pieces, top=BOX_REPAIR_SPOTS
        ):
            piece = layout.library.pieces[piece_id]
            placements = layout.as_placements(spot)
            if not layout.room(placements, piece, high):
                continue
            before = layout.snapshot()
            layout.make_room(placements, piece, high)
            if layout.fits(placements, piece, high):
                layout.put(placements, piece)
                return True
            layout.restore(before)
        return False

    def relocate(self, found: Lanes, high: int) -> bool:
        """Close lanes by moving a tall piece already laid (with its image) across an open
        lane: for a box whose tall pieces are all down. False when no move closes more
        lanes than it opens."""
        layout = self.layout
        lanes = _lanes(layout.board)
        keep = set(layout.elevated_first)
        movable = [p for p in layout.pieces if p.piece in layout.blockers() and p.piece not in keep]
        if not movable or not found:
            return False
        _, now = layout.exposure()
        before = layout.snapshot()
        best: tuple[int, Any] | None = None
        masks = lanes.masks
        tall = layout.tall_kinds
        layout.rng.shuffle(movable)
        for placed in movable[:RELOCATE_PIECES]:
            layout.take(placed)
            # The lanes open once it is taken away (tall hexes crossed: the bits' model).
            closed = 0
            for index, kind in layout.terrain.items():
                if kind in tall:
                    closed |= masks[index]
            open_mask = ((1 << len(lanes.ends)) - 1) & ~closed
            ranked = self._ranked_spots(open_mask, [placed.piece], top=RELOCATE_SPOTS)
            for _score, _, piece_id, spot, _mask in ranked[:RELOCATE_SPOTS]:
                piece = layout.library.pieces[piece_id]
                placements = layout.as_placements(spot)
                if not layout.room(placements, piece, high):
                    continue
                moved = layout.snapshot()
                layout.make_room(placements, piece, high)
                if layout.fits(placements, piece, high):
                    layout.put(placements, piece)
                    _, after = layout.exposure()
                    if after < now and (best is None or after < best[0]):
                        best = (after, layout.snapshot())
                    break
                layout.restore(moved)
            layout.restore(before)
        if best is None:
            return False
        layout.restore(best[1])
        return True


class _ExposureSteer:
    """Step 4: the sides' exposure steered into the band tables are made in, and (without
    a symmetry) the two sides balanced, by adding or taking away blocking pieces."""

    def __init__(self, layout: _Layout) -> None:
        self.layout = layout

    def steer(self, band: tuple[float, float], high: int) -> None:
        """Bring the sides' exposure into the band tables are made in (so tables of one
        setting play alike, and a pack's tables are within tolerance of each other): across
        the middle of a table too open, a blocking or elevated piece is added; from a table
        too closed, one is taken away, never opening a lane."""
        layout = self.layout
        depth = layout.rules.near_edge_depth
        middle = list(_middle(layout.board, depth))
        keep = set(layout.elevated_first)

        def outside(exposure: dict[str, float]) -> float:
            return sum(max(0.0, band[0] - e, e - band[1]) for e in exposure.values())

        everywhere = sorted(
            set(_near(layout.board, "A", depth)) | set(_near(layout.board, "B", depth))
        )

        def move() -> bool:
            exposure, _ = layout.exposure()
            if any(e > band[1] for e in exposure.values()):
                return self._move("add", middle, high, keep)
            return self._move("take", everywhere, high, keep)

        self._improve(outside, move, rounds=STEER_ROUNDS, attempts=STEER_ATTEMPTS)

    def balance(self, high: int) -> None:
        """Shelter the more exposed side, or open up the other: add a blocking or elevated
        piece near the more exposed side's edge, or take one away near the other's."""
        layout = self.layout
        limit = layout.rules.exposure_difference_max
        depth = layout.rules.near_edge_depth + 2
        keep = set(layout.elevated_first)

        def gap(exposure: dict[str, float]) -> float:
            return max(0.0, abs(exposure["A"] - exposure["B"]) - limit)

        def move() -> bool:
            exposure, _ = layout.exposure()
            exposed = "A" if exposure["A"] > exposure["B"] else "B"
            other = "B" if exposed == "A" else "A"
            if layout.rng.random() < 0.3:
                return self._move("take", list(_near(layout.board, other, depth)), high, keep)
            return self._move("add", list(_near(layout.board, exposed, depth)), high, keep)

        self._improve(gap, move)

    def _move(self, kind: str, zone: list[int], high: int, keep: set[str]) -> bool:
        """Add a blocking or elevated piece at a random spot of `zone` ("add"), or take one
        away that stands within it ("take"); False when none was made."""
        layout = self.layout
        blockers = layout.blockers()
        if kind == "take":
            spots = set(zone)
            removable = [
                p
                for p in layout.pieces
                if p.piece in blockers and not spots.isdisjoint(p.hexes) and p.piece not in keep
            ]
            if not removable:
                return False
            layout.take(layout.rng.choice(removable))
            return True
        piece = layout.draw(blockers)
        if piece is None:
            return False
        alone = layout.alone(piece.id)
        pool = _spots_within(layout.board, piece, layout.symmetry, tuple(zone), alone)
        for _ in range(min(ADD_TRIES, len(pool))):
            placements = layout.as_placements(pool[layout.rng.randrange(len(pool))])
            if not layout.room(placements, piece, high):
                continue
            before = layout.snapshot()
            layout.make_room(placements, piece, high)
            if layout.fits(placements, piece, high):
                layout.put(placements, piece)
                return True
            layout.restore(before)
        return False

    def _improve(
        self,
        score: Callable[[dict[str, float]], float],
        moves: Callable[[], bool],
        rounds: int = 5,
        attempts: int = 20,
    ) -> None:
        """Rounds of random moves, keeping the best that lowers `score` and opens no lane."""
        for _ in range(rounds):
            exposure, _ = self.layout.exposure()
            now = score(exposure)
            if not now:
                return
            before = self.layout.snapshot()
            best: tuple[float, Any] | None = None
            for _attempt in range(attempts):
                if moves():
                    after, lane = self.layout.exposure()
                    value = score(after)
                    if not lane and value < now and (best is None or value < best[0]):
                        best = (value, self.layout.snapshot())
                self.layout.restore(before)
            if best is None:
                return
            self.layout.restore(best[1])


class _CoverSteer:
    """Step 5: the coverage asked for, reached with cover pieces, and (without a symmetry)
    the sides' cover balanced: cover changes no line of fire."""

    def __init__(self, layout: _Layout) -> None:
        self.layout = layout

    def settle(self, low: int, high: int) -> None:
        """Bring the terrain within [low, high] with cover pieces: they change no lane."""
        layout = self.layout
        covers = layout.covers()
        tries = 0 if layout.left is not None else PLACEMENT_TRIES  # a box has no piece to spare
        for pool in (covers, list(layout.weights)):
            for _ in range(40):
                if len(layout.terrain) >= low:
                    break
                piece = layout.draw([p for p in pool if layout.fits_size(p, high)])
                if piece is None:
                    break
                layout.try_place(piece, high, tries=tries)
            if layout.left is None:
                break  # from the mix, cover alone is laid here
        for _ in range(40):
            if len(layout.terrain) <= high:
                break
            spare = [p for p in layout.pieces if p.piece in covers]
            if not spare:
                break
            layout.take(layout.rng.choice(spare))

    def balance(self, low: int, high: int) -> None:
        """Move cover pieces until the sides' cover near their edges is within the ruleset's
        difference: cover changes no line of fire, so lanes and exposure stay as they are."""
        layout = self.layout
        covers = layout.covers()
        for _ in range(12):
            counts = self._counts()
            gap = abs(counts["A"] - counts["B"])
            if gap <= layout.rules.cover_difference_max:
                return
            before = layout.snapshot()
            best: tuple[int, Any] | None = None
            small = [p for p in covers if len(layout.library.pieces[p].hexes) <= max(1, gap // 3)]
            for attempt in range(40):
                moved = self._move(small if attempt % 2 and small else covers, counts, low, high)
                if moved and layout.rng.random() < 0.5:
                    moved = self._move(covers, counts, low, high)  # a swap
                if not moved or not low <= len(layout.terrain) <= high:
                    layout.restore(before)
                    continue
                after = self._counts()
                score = abs(after["A"] - after["B"])
                if score < gap and (best is None or score < best[0]):
                    best = (score, layout.snapshot())
                layout.restore(before)
            if best is None:
                return
            layout.restore(best[1])

    def _counts(self) -> dict[str, int]:
        """Each side's near-edge hexes in cover (see metrics): own hex cover, or terrain next
        to it. Cheap: no line of fire."""
        layout = self.layout
        board, depth, terrain = layout.board, layout.rules.near_edge_depth, layout.terrain
        counts = {"A": 0, "B": 0}
        for side in counts:
            for index in _near(board, side, depth):
                kind = terrain.get(index)
                if kind == "cover":
                    counts[side] += 1
                elif kind is None or layout.enterable[kind]:
                    counts[side] += any(m in terrain for m in board.neighbours[index])
        return counts

    def _move(self, covers: list[str], counts: dict[str, int], low: int, high: int) -> bool:
        """One random move of cover towards the side with less: take a cover piece from near
        the other side's edge, or put one near this side's. False when none was made."""
        layout = self.layout
        weak = "A" if counts["A"] < counts["B"] else "B"
        strong = "B" if weak == "A" else "A"
        depth = layout.rules.near_edge_depth + 1
        spare = [p for p in layout.pieces if p.piece in covers]
        if spare and layout.rng.random() < 0.5:
            theirs = set(_near(layout.board, strong, depth))
            near = [p for p in spare if theirs.intersection(p.hexes)]
            if near:
                layout.take(layout.rng.choice(near))
                return True
        piece = layout.draw(covers)
        if piece is None:
            return False
        pool = _spots_within(
            layout.board, piece, layout.symmetry, _near(layout.board, weak, depth), False
        )
        for _ in range(min(ADD_TRIES, len(pool))):
            placements = layout.as_placements(pool[layout.rng.randrange(len(pool))])
            if layout.fits(placements, piece, high):
                layout.put(placements, piece)
                return True
        return False


@dataclass(frozen=True)
class _GivenUp:
    """A candidate given up before it was laid out to the end (lanes left open, or its
    exposure outside the band): the table it gives, and the table the lane repairs left,
    whose check judges it, with what that check would find of its lanes and (lanes closed)
    its exposure, read from the lines between the near-edge zones. The check itself is made
    only when those cannot tell."""

    spec: TableSpec
    closed: TableSpec
    lanes: Lanes
    exposure: dict[str, float] | None

    def ruled_out(
        self, window: tuple[int, int], rules: TableRules, band: tuple[float, float] | None
    ) -> bool:
        """Would ``_acceptable`` refuse it, whatever else the check of `closed` found?"""
        if not window[0] <= len(self.spec.terrain) <= window[1]:
            return True
        if len(self.lanes) > rules.edge_lanes_max:
            return True  # an edge-lanes problem: neither valid nor a coverage problem alone
        return (
            band is not None
            and self.exposure is not None
            and not all(band[0] <= e <= band[1] for e in self.exposure.values())
        )


def _candidate(
    board: Board,
    rules: TableRules,
    library: TerrainLibrary,
    params: Parameters,
    rng: random.Random,
    name: str,
    band: tuple[float, float] | None = None,
    quick: bool = False,
) -> tuple[TableSpec, TableReport, bool]:
    """One candidate layout, its report, and whether it was laid out to the end: `quick`
    gives up on one that cannot be kept (lanes left open, or outside `band`) as soon as
    that is known, since the rest of the work would be thrown away; it is judged (and kept
    as a draft) by the check of the table the lane repairs left."""
    laid = _laid(board, rules, library, params, rng, name, band, quick)
    if isinstance(laid, _GivenUp):
        return laid.spec, check_table(laid.closed, rules), False
    return *laid, True


def _laid(
    board: Board,
    rules: TableRules,
    library: TerrainLibrary,
    params: Parameters,
    rng: random.Random,
    name: str,
    band: tuple[float, float] | None,
    quick: bool,
) -> tuple[TableSpec, TableReport] | _GivenUp:
    """``_candidate``, a candidate given up left unchecked."""
    layout = _Layout(board, rules, library, params, rng)
    low, high = coverage_window(params, rules, library, len(board))
    lanes = _LaneCloser(layout)
    _lay_first(layout, params, high)
    _lay_pieces(layout, lanes, params, low, high)
    closed, still_open = _close_lanes(layout, lanes, params, name, high)
    if quick and still_open:
        return _GivenUp(closed, closed, still_open, None)
    # 4. Exposure into the band tables are made in; without a symmetry, the two sides
    # balanced: exposure (which moves lines of fire), then cover (which does not).
    if not still_open:
        closed_exposure = layout.lines().checked_exposure() if quick and band is not None else None
        exposure = _ExposureSteer(layout)
        exposure.steer(library.generator.exposure_band, high)
        if quick and band is not None:
            sides, _ = layout.exposure()
            if not all(band[0] <= e <= band[1] for e in sides.values()):
                return _GivenUp(layout.spec(params, name), closed, (), closed_exposure)
        if layout.mapping is None:
            exposure.balance(high)
    # 5. The coverage asked for, and cover balanced again with cover pieces.
    cover = _CoverSteer(layout)
    cover.settle(low, high)
    if layout.mapping is None:
        cover.balance(low, high)
    spec = layout.spec(params, name)
    report = check_table(spec, rules)
    if report.lanes and len(layout.terrain) < high and layout.left is not None:
        # Tall pieces laid to reach the coverage may leave a lane: close it if the box can.
        for _ in range(REPAIR_ROUNDS // 3):
            if not report.lanes or not lanes.repair(report.lanes, high):
                break
            spec = layout.spec(params, name)
            report = check_table(spec, rules)
    return spec, report


def _lay_first(layout: _Layout, params: Parameters, high: int) -> None:
    """Steps 0 and 1: with a symmetry, a box's odd pieces that can stand on the centre go
    there first (elsewhere they would wait for a twin the box does not have); then the
    high ground."""
    library, rules = layout.library, layout.rules
    if params.box is not None and layout.mapping is not None:
        fit = box_fit(layout.board, params.box, params.symmetry, library)
        for piece_id in fit.centre:
            layout.try_place(library.pieces[piece_id], high, tries=0, centre=True)
    elevated = [
        p
        for p in layout.weights
        if any(rules.terrain[k].level > 0 for k in library.pieces[p].kinds())
    ]
    for _ in range(library.generator.elevated_pieces_min):
        piece = layout.draw(elevated)
        if piece is not None and layout.try_place(piece, high, tries=4 * PLACEMENT_TRIES):
            layout.elevated_first.append(piece.id)


def _lay_pieces(
    layout: _Layout, lanes: _LaneCloser, params: Parameters, low: int, high: int
) -> None:
    """Step 2: pieces from the mix or the box, leaving room for the repairs; from a box,
    its cover first: its tall pieces (often few) are kept for closing the lanes."""
    fill = round(low * layout.library.generator.fill_before_repairs)
    if params.box is None and params.symmetry in COVER_FIRST:
        # Mirror symmetry leaves lanes along the table that pieces laid at random seldom
        # close: its tall pieces go across them first, as a box's do.
        lanes.cover_lanes(round(low * MIX_COVER_SHARE))
    if params.box is not None:
        lanes.cover_lanes(high)
        _fill(layout, layout.covers(), fill, high)
    _fill(layout, list(layout.weights), fill, high)


def _fill(layout: _Layout, pieces: list[str], fill: int, high: int) -> None:
    """Pieces drawn from `pieces` and put where they fit until the terrain has `fill` hexes
    (or none is left to draw)."""
    for _ in range(400):
        if len(layout.terrain) >= fill:
            break
        piece = layout.draw(pieces)
        if piece is None:
            break
        layout.try_place(piece, high)


def _close_lanes(
    layout: _Layout, lanes: _LaneCloser, params: Parameters, name: str, high: int
) -> tuple[TableSpec, Lanes]:
    """Step 3: the lanes found open closed, round by round; the table after the last round
    and the lanes it leaves open (a round needs only those, not a whole check)."""
    found = layout.lines().open_lanes()
    for _ in range(REPAIR_ROUNDS):
        if not found:
            break
        # From a box, the best spot of its tall pieces left; when all are down, one is moved.
        if layout.left is None:
            # From the mix: with a symmetry, the best spot of a few tall pieces (a pair
            # crosses twice the lanes); without, a random spot of many tried, which leaves
            # the table less closed.
            repair = lanes.repair if layout.mapping is None else lanes.repair_box
            if not repair(found, high):
                break
        elif not lanes.repair_box(found, high) and not lanes.relocate(found, high):
            break
        found = layout.lines().open_lanes()
    return layout.spec(params, name), found


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
        # The first candidates must also be within the exposure band; later ones need only be
        # valid, so that every seed still gives a table.
        banded = (
            settings.exposure_band_candidates
            if params.box is None
            else settings.exposure_band_box_candidates
        )
        band = settings.exposure_band if attempt < banded else None
        spec, report, _ = _candidate(
            board, rules, library, params, _rng(params, attempt), name, band, quick=valid_only
        )
        if not valid_only or _acceptable(report, len(spec.terrain), window, rules, params, band):
            yield spec, report, len(spec.terrain)


def _rng(params: Parameters, attempt: int) -> random.Random:
    # A string seed is hashed by random.Random deterministically, whatever PYTHONHASHSEED.
    return random.Random(
        f"{params.seed}:{params.coverage}:{params.symmetry}:{params.mix}:"
        f"{params.box_key()}:{attempt}"
    )


def _shortfall(
    report: TableReport,
    terrain_hexes: int,
    window: tuple[int, int],
    band: tuple[float, float] | None,
) -> tuple[int, int]:
    """How far a candidate is from being kept: its problems (and being outside the window
    or the band count as one each), then its open lanes. (0, 0) is a table to keep."""
    missed = len(report.problems) + (not window[0] <= terrain_hexes <= window[1])
    sides = report.metrics["sides"]
    if band is not None and not all(band[0] <= sides[s]["exposure"] <= band[1] for s in "AB"):
        missed += 1
    return missed, len(report.lanes)


class _Search:
    """The seed's candidates tried in their fixed order until one is kept: how many were
    tried, the closest to being kept (for a draft), and the problems met (for advice)."""

    def __init__(
        self,
        rules: TableRules,
        params: Parameters,
        board: Board,
        library: TerrainLibrary,
        name: str,
        window: tuple[int, int],
    ) -> None:
        self.rules, self.params, self.board, self.library = rules, params, board, library
        self.name, self.window = name, window
        settings = library.generator
        box = params.box is not None
        self.limit = settings.max_box_candidates if box else settings.max_candidates
        self.banded = (
            settings.exposure_band_box_candidates if box else settings.exposure_band_candidates
        )
        # Every candidate not kept, in order: its table and report, or given up unchecked.
        self.passed: list[tuple[int, tuple[TableSpec, TableReport] | _GivenUp]] = []
        self.tried = 0

    def run(self, deadline: float | None) -> tuple[TableSpec, TableReport] | None:
        """The first candidate kept, or None when none was within the bound or `deadline`."""
        settings, params = self.library.generator, self.params
        for attempt in range(self.limit):
            if attempt and deadline is not None and time.perf_counter() > deadline:
                break
            band = settings.exposure_band if attempt < self.banded else None
            laid = _laid(
                self.board,
                self.rules,
                self.library,
                params,
                _rng(params, attempt),
                self.name,
                band,
                quick=True,
            )
            self.tried += 1
            if isinstance(laid, _GivenUp):
                if laid.ruled_out(self.window, self.rules, band):
                    self.passed.append((attempt, laid))  # checked if no table is found
                    continue
                laid = (laid.spec, check_table(laid.closed, self.rules))
            spec, report = laid
            if _acceptable(report, len(spec.terrain), self.window, self.rules, params, band):
                return spec, report
            self.passed.append((attempt, laid))
        return None

    @functools.cached_property
    def judged(self) -> tuple[tuple[tuple[int, int], int] | None, Counter[str]]:
        """Of the candidates not kept (checked now if they were given up unchecked): the
        closest to being kept, as (how far, its number), and the problems they met."""
        best: tuple[tuple[int, int], int] | None = None
        trouble: Counter[str] = Counter()
        for attempt, laid in self.passed:
            if isinstance(laid, _GivenUp):
                spec, report = laid.spec, check_table(laid.closed, self.rules)
            else:
                spec, report = laid
            trouble.update(p.code for p in report.problems)
            score = _shortfall(report, len(spec.terrain), self.window, None)
            if best is None or score < best[0]:
                best = (score, attempt)
        return best, trouble


def generate_table(
    rules: TableRules,
    params: Parameters,
    board: Board,
    name: str = "",
    budget_seconds: float | None = None,
    advise: bool = True,
) -> tuple[TableSpec, TableReport]:
    """A table for the seed and parameters (always the same one): valid when the coverage
    asked is, else valid in every other respect. GenerationError when none was found after
    the library's bound on candidates or within `budget_seconds` (a request's bound: the
    table found is the same whatever the budget, a budget only gives up sooner), carrying
    the best candidate as a draft. A terrain box that cannot make a table of the symmetry
    and coverage at all is told so at once, without a search; one whose search finds none
    gets advice too, within the same budget (`advise=False` for a caller that passes the
    seed over, as a pack does)."""
    started = time.perf_counter()
    deadline = None if budget_seconds is None else started + budget_seconds
    library = terrain_library(tuple(rules.terrain))
    params.check(rules, library)
    window = coverage_window(params, rules, library, len(board))
    if params.box is not None:
        problem = box_problem(board, params.box, params.symmetry, window, params.coverage, library)
        if problem is not None:
            if problem.cause == "coverage" and advise:
                problem = enough_terrain(rules, params, board, library, problem, deadline)
            raise GenerationError(problem.message, advice=problem)
    search_deadline = deadline
    if deadline is not None and budget_seconds is not None and params.box is not None and advise:
        search_deadline = deadline - min(ADVICE_SECONDS, budget_seconds / 4)
    search = _Search(rules, params, board, library, name, window)
    found = search.run(search_deadline)
    if found is not None:
        return found
    timed_out = search.tried < search.limit
    best, trouble = search.judged
    kept = None if best is None else best[1]
    draft = None if kept is None else draft_table(rules, params, board, kept, name)
    if params.box is not None:
        said = (
            f"This terrain box made no valid table within {budget_seconds:g} s. "
            if timed_out
            else "This terrain box cannot make a valid table with these settings. "
        )
        advice = search_advice(rules, params, board, library, trouble, deadline) if advise else None
        message = said + (advice.message if advice else "")
        raise (GenerationTimeout if timed_out else GenerationError)(message, draft, advice, kept)
    if timed_out:
        raise GenerationTimeout(
            f"No valid table was found for seed {params.seed} within {budget_seconds:g} s; "
            "try another seed, symmetry or coverage",
            draft,
            draft_attempt=kept,
        )
    raise GenerationError(
        f"no valid table found for seed {params.seed} after "
        f"{library.generator.max_candidates} candidates; try another seed, symmetry or coverage",
        draft,
        draft_attempt=kept,
    )


def draft_table(
    rules: TableRules, params: Parameters, board: Board, attempt: int, name: str = ""
) -> tuple[TableSpec, TableReport]:
    """The seed's candidate number `attempt`, laid out to the end whatever it comes to: the
    draft a search that found no table keeps (valid or not, the same each time)."""
    library = terrain_library(tuple(rules.terrain))
    params.check(rules, library)
    if not 0 <= attempt < library.generator.max_candidates:
        raise GenerationError(
            f"a candidate is numbered from 0 to {library.generator.max_candidates - 1}"
        )
    spec, report, _ = _candidate(board, rules, library, params, _rng(params, attempt), name)
    return spec, report


def enough_terrain(
    rules: TableRules,
    params: Parameters,
    board: Board,
    library: TerrainLibrary,
    problem: Advice,
    deadline: float | None,
) -> Advice:
    """Advice for a box with too few hexes, tried: its pieces added, does the box make a
    table? If not, what else it needs (closing the lanes, most often) is found and said too,
    so that following the whole advice makes a table."""
    assert params.box is not None
    box = dict(params.box)
    for piece_id, count in problem.add.items():
        box[piece_id] = box.get(piece_id, 0) + count
    trial = replace(params, box=box)
    if _makes_table(rules, trial, board, deadline) is not False:
        return problem  # it does (or there was no time to find out)
    more = search_advice(rules, trial, board, library, {"table.edge-lanes": 1}, deadline)
    if not more.add:
        return Advice(problem.cause, f"{problem.message} {more.message}", problem.add)
    add = dict(problem.add)
    for piece_id, count in more.add.items():
        add[piece_id] = add.get(piece_id, 0) + count
    extra = " and ".join(named(n, library.pieces[p], box) for p, n in more.add.items())
    return Advice(
        problem.cause,
        f"{problem.message} Those alone would leave lanes from table edge to table edge "
        f"open: add {extra} as well.",
        add,
    )


def _makes_table(
    rules: TableRules, params: Parameters, board: Board, deadline: float | None
) -> bool | None:
    """Does the box of `params` make a valid table from the advice's fixed seeds? None when
    the time ran out before it was known."""
    for seed in ADVICE_SEEDS:
        trial = replace(params, seed=seed)
        for _ in candidates(
            rules, trial, board, limit=ADVICE_CANDIDATES, valid_only=True, deadline=deadline
        ):
            return True
        if deadline is not None and time.perf_counter() > deadline:
            return None
    return False


def search_advice(
    rules: TableRules,
    params: Parameters,
    board: Board,
    library: TerrainLibrary,
    trouble: Mapping[str, int],
    deadline: float | None,
) -> Advice:
    """What to add to a box whose search found no table, by trying additions in a fixed
    order (the seed asked plays no part, so the advice is the same each time): when lanes
    stayed open, its own tall pieces again, then the catalogue's; when the sides were
    unbalanced, small cover. Only an addition that made a table is advised."""
    assert params.box is not None
    box = dict(params.box)
    cause, trials = _advice_trials(rules, params, library, trouble)
    for piece, count in trials:
        add = {piece.id: count}
        trial = replace(params, box=box | {piece.id: box.get(piece.id, 0) + count})
        if (
            box_problem(
                board,
                trial.box or {},
                params.symmetry,
                coverage_window(trial, rules, library, len(board)),
                params.coverage,
                library,
            )
            is not None
        ):
            continue
        made = _makes_table(rules, trial, board, deadline)
        if made:
            why = (
                "lanes from table edge to table edge stayed open: it needs more blocking "
                "or elevated terrain to close them"
                if cause == "lanes"
                else "the two sides stayed unequal in cover or exposure: small cover evens them"
            )
            return Advice(
                cause,
                f"In the tables it tried, {why}. Add {named(count, piece, box)}.",
                add,
            )
        if made is None:
            break
    return _no_addition(rules, params, library, cause)


def _advice_trials(
    rules: TableRules, params: Parameters, library: TerrainLibrary, trouble: Mapping[str, int]
) -> tuple[str, list[tuple[Piece, int]]]:
    """What the search mostly met ("lanes" or "balance"), and the additions that answer it
    in the order they are tried: for lanes, the box's own tall pieces, then the
    catalogue's, then small cover; for balance, small cover first."""
    assert params.box is not None
    box = params.box
    usable = [
        p
        for p in library.pieces.values()
        if params.symmetry != "mirror" or p.mirror_turn is not None
    ]
    tall = [p for p in usable if any(rules.terrain[k].height > 0 for k in p.kinds())]
    small_cover = sorted((p for p in usable if p not in tall), key=lambda p: (len(p.hexes), p.id))
    lanes = trouble.get("table.edge-lanes", 0)
    balance = trouble.get("table.exposure.unbalanced", 0) + trouble.get("table.cover.unbalanced", 0)
    held_tall = sorted((p for p in tall if box.get(p.id)), key=lambda p: (-len(p.hexes), p.id))
    other_tall = sorted((p for p in tall if not box.get(p.id)), key=lambda p: (-len(p.hexes), p.id))
    order = (
        held_tall + other_tall + small_cover[:2]
        if lanes >= balance
        else small_cover[:3] + held_tall + other_tall
    )
    step = 2 if params.symmetry != "none" else 1
    # One pair (or one piece) of each, then two: a box short of tall terrain may need more.
    trials = [(piece, step) for piece in order[:ADVICE_TRIALS]] + [
        (piece, 2 * step) for piece in order[: ADVICE_TRIALS // 2]
    ]
    return ("lanes" if lanes >= balance else "balance"), trials


def _no_addition(
    rules: TableRules, params: Parameters, library: TerrainLibrary, cause: str
) -> Advice:
    """The advice when no single addition tried made a table: what kind of piece to add."""
    assert params.box is not None
    pairs = params.symmetry != "none"
    have = sum(
        n * sum(1 for _, _, k in library.pieces[p].hexes if rules.terrain[k].height > 0)
        for p, n in params.box.items()
    )
    if cause == "lanes":
        return Advice(
            cause,
            f"In the tables it tried, lanes from table edge to table edge stayed open: its "
            f"{have} hexes of blocking and elevated terrain did not close them. Add more "
            "blocking or elevated pieces"
            + (", in pairs" if pairs else "")
            + (", or generate with no symmetry." if pairs else "."),
            {},
        )
    return Advice(
        cause,
        "In the tables it tried, the two sides stayed unequal in cover or exposure. Add "
        "small cover pieces (crates, scatter) or choose a symmetry, which makes the sides "
        "equal.",
        {},
    )


def piece_counts(spec: TableSpec) -> dict[str, int]:
    """How many of each library piece a table uses."""
    counts: dict[str, int] = {}
    for placed in spec.placed():
        counts[placed.piece] = counts.get(placed.piece, 0) + 1
    return counts
