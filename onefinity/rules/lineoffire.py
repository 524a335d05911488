"""Line of fire between hexes, exactly as the ruleset's policy says.

The geometry of a board (which hexes each centre-to-centre line crosses, and which
shared sides it runs along) does not depend on the terrain, so it is computed once per
board and cached; a table's visibility is then a few vectorised operations over it.
Everything is decided with exact integer arithmetic on the lattice of ``hexgrid``.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from onefinity.rules.hexgrid import CORNERS as CORNERS_LATTICE
from onefinity.rules.hexgrid import (
    DIAGONALS,
    Board,
    Hex,
    crosses_interior,
    runs_along,
    shared_side,
    side_corners,
)
from onefinity.rules.ruleset import TableRules

__all__ = [
    "PAIR_GEOMETRY_LIMIT",
    "BoolArray",
    "LineOfFire",
    "Terrain",
    "crossed_hexes",
    "crosses_hexes",
    "line_of_fire",
    "open_overlap",
    "orient",
    "visibility_by_pairs",
]

BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True)
class _BoardGeometry:
    """For every pair of hexes i < j: the hexes its line crosses and the sides it runs along."""

    board: Board
    pair_i: IntArray
    pair_j: IntArray
    # Crossings as (pair, hex) entries.
    cross_pair: IntArray
    cross_hex: IntArray
    # Shared sides a line runs along as (pair, hex, other hex) entries.
    side_pair: IntArray
    side_a: IntArray
    side_b: IntArray


def orient(
    ax: IntArray, ay: IntArray, bx: IntArray, by: IntArray, cx: IntArray, cy: IntArray
) -> IntArray:
    sign: IntArray = np.sign((bx - ax) * (cy - ay) - (by - ay) * (cx - ax))
    return sign


def open_overlap(a: IntArray, b: IntArray, p: IntArray, q: IntArray) -> BoolArray:
    """Collinear segments, along one axis: does a-b overlap the open segment p-q?"""
    overlap: BoolArray = np.maximum(np.minimum(a, b), np.minimum(p, q)) < np.minimum(
        np.maximum(a, b), np.maximum(p, q)
    )
    return overlap


def crosses_hexes(
    ax: IntArray, ay: IntArray, bx: IntArray, by: IntArray, kx: IntArray, ky: IntArray
) -> BoolArray:
    """Vectorised ``hexgrid.crosses_interior``: does each segment a-b cross the interior of
    the hex centred at k? It does when it meets a long diagonal away from the diagonal's ends."""
    hit = np.zeros(len(kx), dtype=bool)
    for (px, py), (qx, qy) in DIAGONALS:
        p_x, p_y, q_x, q_y = kx + px, ky + py, kx + qx, ky + qy
        o1 = orient(ax, ay, bx, by, p_x, p_y)
        o2 = orient(ax, ay, bx, by, q_x, q_y)
        o3 = orient(p_x, p_y, q_x, q_y, ax, ay)
        o4 = orient(p_x, p_y, q_x, q_y, bx, by)
        crossing = (o1 * o2 < 0) & (o3 * o4 < 0)
        collinear = (o1 == 0) & (o2 == 0) & (o3 == 0) & (o4 == 0)
        if collinear.any():
            # Compare along an axis on which the diagonal has length.
            if px != qx:
                crossing |= collinear & open_overlap(ax, bx, p_x, q_x)
            else:
                crossing |= collinear & open_overlap(ay, by, p_y, q_y)
        hit |= crossing
    return hit


@functools.lru_cache(maxsize=16)
def _board_geometry(board: Board) -> _BoardGeometry:
    """Vectorised per source hex: candidate hexes near each line are pruned by a box test,
    then decided exactly with the long-diagonal test of ``hexgrid.crosses_interior``."""
    builder = _GeometryBuilder(board)
    for i in range(len(board) - 1):
        builder.add_lines_from(i)
    return builder.geometry()


def _joined(parts: list[IntArray]) -> IntArray:
    return np.concatenate(parts).astype(np.int64) if parts else np.zeros(0, dtype=np.int64)


class _GeometryBuilder:
    """A board's geometry, gathered one source hex at a time: the lines from it to every
    later hex (pairs numbered in that order), the hexes each line crosses and the shared
    sides each runs along."""

    def __init__(self, board: Board) -> None:
        self.board = board
        centres = np.array(board.centres, dtype=np.int64)
        self.xs, self.ys = centres[:, 0], centres[:, 1]
        # Shared sides of the board: each pair of neighbours once, with its two corners, as
        # rows (i, j, px, py, qx, qy).
        n = len(board)
        sides = [
            (i, j, *shared_side(board, i, j))
            for i in range(n)
            for j in board.neighbours[i]
            if i < j
        ]
        self.sides = np.array(
            [(i, j, p[0], p[1], q[0], q[1]) for i, j, p, q in sides], dtype=np.int64
        ).reshape(-1, 6)
        # Work arrays for the cross products of each source's lines with the sides' corners,
        # (lines, sides), kept from one source to the next: made anew for each source they
        # were returned to the system and faulted in again (7,400 page faults in a standard
        # board's build instead of 1,000, a third more time).
        self._products = np.empty((3, max(n - 1, 0), len(self.sides)), dtype=np.int64)
        self.offset = 0  # the number of the next source's first pair
        self.pair_i: list[IntArray] = []
        self.pair_j: list[IntArray] = []
        self.cross_pair: list[IntArray] = []
        self.cross_hex: list[IntArray] = []
        self.side_pair: list[IntArray] = []
        self.side_a: list[IntArray] = []
        self.side_b: list[IntArray] = []

    def add_lines_from(self, i: int) -> None:
        """The lines from hex i to every later hex."""
        targets = np.arange(i + 1, len(self.board))
        self.pair_i.append(np.full(len(targets), i))
        self.pair_j.append(targets)
        self._crossings(i, targets)
        if len(self.sides):
            self._sides_along(i, targets)
        self.offset += len(targets)

    def _crossings(self, i: int, targets: IntArray) -> None:
        """The hexes each line from i crosses: every (target, hex) whose hexagon's box
        overlaps the line's box, decided exactly."""
        xs, ys = self.xs, self.ys
        ax, ay = xs[i], ys[i]
        bx, by = xs[targets], ys[targets]
        lo_x, hi_x = np.minimum(ax, bx)[:, None], np.maximum(ax, bx)[:, None]
        lo_y, hi_y = np.minimum(ay, by)[:, None], np.maximum(ay, by)[:, None]
        near = (
            (xs[None, :] + 1 > lo_x)
            & (xs[None, :] - 1 < hi_x)
            & (ys[None, :] + 2 > lo_y)
            & (ys[None, :] - 2 < hi_y)
        )
        near[:, i] = False
        near[np.arange(len(targets)), targets] = False
        t_idx, k_idx = np.nonzero(near)
        if len(t_idx):
            sbx, sby = bx[t_idx], by[t_idx]
            sax, say = np.full(len(t_idx), ax), np.full(len(t_idx), ay)
            hit = crosses_hexes(sax, say, sbx, sby, xs[k_idx], ys[k_idx])
            self.cross_pair.append(self.offset + t_idx[hit])
            self.cross_hex.append(k_idx[hit])

    def _sides_along(self, i: int, targets: IntArray) -> None:
        """The shared sides each line from i runs along: collinear with it and overlapping
        it, a side of neither end."""
        ax, ay = self.xs[i], self.ys[i]
        bx, by = self.xs[targets], self.ys[targets]
        side_arr = self.sides
        s_i, s_j = side_arr[:, 0], side_arr[:, 1]
        p_x, p_y, q_x, q_y = side_arr[:, 2], side_arr[:, 3], side_arr[:, 4], side_arr[:, 5]
        # Each corner's cross product with the line (zero: on it), as
        # (bx - ax) * (y - ay) - (by - ay) * (x - ax).
        o_p, o_q, work = self._products[:, : len(targets)]
        dx, dy = (bx - ax)[:, None], (by - ay)[:, None]
        np.multiply(dx, (p_y - ay)[None, :], out=o_p)
        o_p -= np.multiply(dy, (p_x - ax)[None, :], out=work)
        np.multiply(dx, (q_y - ay)[None, :], out=o_q)
        o_q -= np.multiply(dy, (q_x - ax)[None, :], out=work)
        along = (o_p == 0) & (o_q == 0)
        if not along.any():
            return
        t_idx, s_idx = np.nonzero(along)
        use_x = p_x[s_idx] != q_x[s_idx]
        a_c = np.where(use_x, ax, ay)
        b_c = np.where(use_x, bx[t_idx], by[t_idx])
        p_c = np.where(use_x, p_x[s_idx], p_y[s_idx])
        q_c = np.where(use_x, q_x[s_idx], q_y[s_idx])
        overlap = open_overlap(a_c, b_c, p_c, q_c)
        # A side of an end hex is not "between" the ends.
        ends = (
            (s_i[s_idx] == i)
            | (s_j[s_idx] == i)
            | (s_i[s_idx] == targets[t_idx])
            | (s_j[s_idx] == targets[t_idx])
        )
        keep = overlap & ~ends
        self.side_pair.append(self.offset + t_idx[keep])
        self.side_a.append(s_i[s_idx][keep])
        self.side_b.append(s_j[s_idx][keep])

    def geometry(self) -> _BoardGeometry:
        return _BoardGeometry(
            self.board,
            _joined(self.pair_i),
            _joined(self.pair_j),
            _joined(self.cross_pair),
            _joined(self.cross_hex),
            _joined(self.side_pair),
            _joined(self.side_a),
            _joined(self.side_b),
        )


@dataclass(frozen=True)
class Terrain:
    """Per-hex heights, levels and whether a trooper may stand there, from the ruleset."""

    heights: IntArray
    levels: IntArray
    standable: BoolArray

    @classmethod
    def of(cls, board: Board, kinds: Mapping[int, str], rules: TableRules) -> Terrain:
        # Each hex's kind as a number (the ruleset's kinds, then open ground), and each
        # property looked up by number: no loop in Python over a large table's thousand
        # terrain hexes but the one that numbers their kinds.
        ruled = list(rules.terrain.values())
        number = {kind.id: j for j, kind in enumerate(ruled)}
        code = np.full(len(board), len(ruled), dtype=np.intp)
        if kinds:
            at = np.fromiter(kinds.keys(), dtype=np.intp, count=len(kinds))
            code[at] = [number[kind_id] for kind_id in kinds.values()]
        heights = np.array([kind.height for kind in ruled] + [0], dtype=np.int64)
        levels = np.array([kind.level for kind in ruled] + [0], dtype=np.int64)
        standable = np.array([kind.enterable for kind in ruled] + [True], dtype=bool)
        return cls(heights[code], levels[code], standable[code])


def visibility_by_pairs(board: Board, terrain: Terrain) -> BoolArray:
    """All-pairs visibility from the board's per-pair geometry (built once per board): the
    fastest exact method up to PAIR_GEOMETRY_LIMIT hexes (visibility.board_visibility)."""
    return _visibility_by_pairs(_board_geometry(board), terrain)


def _visibility_by_pairs(geometry: _BoardGeometry, terrain: Terrain) -> BoolArray:
    """The symmetric matrix of clear lines of fire between all hexes (standable or not)."""
    n = len(geometry.board)
    pairs = len(geometry.pair_i)
    threshold = np.maximum(terrain.levels[geometry.pair_i], terrain.levels[geometry.pair_j])
    blocked = np.zeros(pairs, dtype=bool)
    if len(geometry.cross_pair):
        hit = terrain.heights[geometry.cross_hex] > threshold[geometry.cross_pair]
        blocked[geometry.cross_pair[hit]] = True
    if len(geometry.side_pair):
        limit = threshold[geometry.side_pair]
        hit = (terrain.heights[geometry.side_a] > limit) & (
            terrain.heights[geometry.side_b] > limit
        )
        blocked[geometry.side_pair[hit]] = True
    clear = np.zeros((n, n), dtype=bool)
    clear[geometry.pair_i, geometry.pair_j] = ~blocked
    clear |= clear.T
    np.fill_diagonal(clear, True)
    return clear


@dataclass(frozen=True)
class LineOfFire:
    clear: bool
    # Hexes whose interior the line crosses and which are too high, and shared sides
    # (pairs of hexes) the line runs along where both are too high.
    blocked_by: tuple[Hex, ...]
    blocked_along: tuple[tuple[Hex, Hex], ...]


def line_of_fire(board: Board, terrain: Terrain, a: Hex, b: Hex) -> LineOfFire:
    """One line, with what blocks it: for explaining a blocked pair to a player."""
    i, j = board.index[a], board.index[b]
    if i == j or j in board.neighbours[i]:
        return LineOfFire(True, (), ())
    threshold = max(int(terrain.levels[i]), int(terrain.levels[j]))
    ca, cb = board.centres[i], board.centres[j]
    blockers = tuple(
        board.hexes[k]
        for k in range(len(board))
        if k not in (i, j)
        and terrain.heights[k] > threshold
        and crosses_interior(ca, cb, board.centres[k])
    )
    sides = []
    for k in range(len(board)):
        if k in (i, j) or terrain.heights[k] <= threshold:
            continue
        for m in board.neighbours[k]:
            if (
                m > k
                and m not in (i, j)
                and terrain.heights[m] > threshold
                and runs_along(ca, cb, *shared_side(board, k, m))
            ):
                sides.append((board.hexes[k], board.hexes[m]))
    return LineOfFire(not blockers and not sides, blockers, tuple(sides))


# --- Large boards: patterns by direction --------------------------------------------------
#
# The hexes a centre-to-centre line crosses depend only on its direction vector, not on
# where it starts. A board of N hexes has about 4N directions but N^2/2 pairs, so for
# large boards each direction's pattern is computed once (exactly) and a table is checked
# by gathering heights along the patterns, vectorised over every starting hex.

# Boards up to this many hexes use the per-pair geometry (faster per check, costlier to
# build); larger ones use direction patterns.
PAIR_GEOMETRY_LIMIT = 400


def _symmetries() -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """The 12 symmetries of the hex grid about a centre, as integer 2x2 matrices acting on
    axial (q, r): six rotations by 60 degrees, each with and without a reflection."""
    rotation = ((0, -1), (1, 1))  # (q, r) -> (-r, q + r)
    reflection = ((0, 1), (1, 0))  # (q, r) -> (r, q)

    def times(
        a: tuple[tuple[int, int], tuple[int, int]], b: tuple[tuple[int, int], tuple[int, int]]
    ) -> tuple[tuple[int, int], tuple[int, int]]:
        return (
            (a[0][0] * b[0][0] + a[0][1] * b[1][0], a[0][0] * b[0][1] + a[0][1] * b[1][1]),
            (a[1][0] * b[0][0] + a[1][1] * b[1][0], a[1][0] * b[0][1] + a[1][1] * b[1][1]),
        )

    group = []
    turn = ((1, 0), (0, 1))
    for _ in range(6):
        group.append(turn)
        group.append(times(turn, reflection))
        turn = times(rotation, turn)
    return group


SYMMETRIES = _symmetries()


@functools.lru_cache(maxsize=20_000)
def _direction_pattern(dq: int, dr: int) -> tuple[IntArray, IntArray]:
    """Axial offsets of the hexes crossed by the line from (0, 0) to (dq, dr), and the
    shared sides it runs along as rows (q1, r1, q2, r2).

    A symmetry of the grid maps a line's pattern onto its image's, so only one direction
    per orbit of the 12 symmetries is computed; the others are mapped from it.
    """
    images = [((m[0][0] * dq + m[0][1] * dr, m[1][0] * dq + m[1][1] * dr), m) for m in SYMMETRIES]
    canonical = min(image for image, _ in images)
    crossed, sides = _direction_pattern_direct(*canonical)
    # Find h with h(canonical) = d: the pattern of d is h applied to the canonical pattern.
    for h in SYMMETRIES:
        if (
            h[0][0] * canonical[0] + h[0][1] * canonical[1],
            h[1][0] * canonical[0] + h[1][1] * canonical[1],
        ) == (dq, dr):
            matrix = np.array(h, dtype=np.int64)
            mapped_crossed = crossed @ matrix.T
            mapped_sides = np.concatenate(
                [sides[:, :2] @ matrix.T, sides[:, 2:] @ matrix.T], axis=1
            )
            return mapped_crossed, mapped_sides.reshape(-1, 4)
    raise AssertionError("the symmetry group maps every direction's canonical form back")


@functools.lru_cache(maxsize=4_000)
def _direction_pattern_direct(dq: int, dr: int) -> tuple[IntArray, IntArray]:
    bx, by = 2 * dq + dr, 3 * dr
    r_lo, r_hi = min(0, dr) - 1, max(0, dr) + 1
    x_lo, x_hi = min(0, bx) - 1, max(0, bx) + 1
    rows = np.arange(r_lo, r_hi + 1, dtype=np.int64)
    q_from = (x_lo - rows) // 2 - 1
    q_to = (x_hi - rows) // 2 + 1
    span = int((q_to - q_from).max()) + 1
    grid_q = q_from[:, None] + np.arange(span, dtype=np.int64)[None, :]
    grid_r = np.broadcast_to(rows[:, None], grid_q.shape)
    in_range = grid_q <= q_to[:, None]
    cq, cr = grid_q[in_range], grid_r[in_range]
    # Exact band filter: a hexagon meets the line only if the line's cross product with its
    # centre lies within the range its corners span.
    reach = max(abs(bx * cy - by * cx) for cx, cy in CORNERS_LATTICE)
    band = np.abs(bx * (3 * cr) - by * (2 * cq + cr)) <= reach
    cq, cr = cq[band], cr[band]
    qs, rs = cq.tolist(), cr.tolist()
    keep = ~(((cq == 0) & (cr == 0)) | ((cq == dq) & (cr == dr)))
    cq, cr = cq[keep], cr[keep]
    kx, ky = 2 * cq + cr, 3 * cr
    zeros = np.zeros(len(cq), dtype=np.int64)
    hit = crosses_hexes(zeros, zeros, np.full(len(cq), bx), np.full(len(cq), by), kx, ky)
    crossed = (
        np.stack([cq[hit], cr[hit]], axis=1) if hit.any() else np.zeros((0, 2), dtype=np.int64)
    )
    # Only lines parallel to a side can run along one: lattice directions (1,-1), (0,1), (1,1).
    sides: list[tuple[int, int, int, int]] = []
    if bx == 0 or abs(bx) == abs(by):
        near = set(zip(qs, rs, strict=True)) - {(0, 0), (dq, dr)}
        for q, r in sorted(near):
            for sq, sr in ((1, 0), (0, 1), (-1, 1)):
                m = (q + sq, r + sr)
                if m in near and runs_along((0, 0), (bx, by), *side_corners((q, r), m)):
                    sides.append((q, r, m[0], m[1]))
    side_rows = np.array(sides, dtype=np.int64).reshape(-1, 4)
    return crossed, side_rows


def _visibility_by_patterns(board: Board, terrain: Terrain) -> BoolArray:
    """All-pairs visibility for any board, without per-pair geometry."""
    n = len(board)
    hexes = np.array(board.hexes, dtype=np.int64)
    q0, r0 = hexes[:, 0].min(), hexes[:, 1].min()
    width, height = hexes[:, 0].max() - q0 + 1, hexes[:, 1].max() - r0 + 1
    # A padded grid from axial coordinates to board index; n means "no hex" (height 0).
    pad = 2
    grid = np.full((int(width) + 2 * pad, int(height) + 2 * pad), n, dtype=np.int64)
    gq, gr = hexes[:, 0] - q0 + pad, hexes[:, 1] - r0 + pad
    grid[gq, gr] = np.arange(n)
    heights = np.append(terrain.heights, 0)
    clear = np.zeros((n, n), dtype=bool)
    # Canonical directions: every pair once, from its lower row (or lower q on one row).
    # Each row's q extent bounds the directions worth visiting: only those joining two hexes.
    rows: dict[int, tuple[int, int]] = {}
    for q, r in board.hexes:
        low, high = rows.get(r, (q, q))
        rows[r] = (min(low, q), max(high, q))
    directions = []
    for dr in range(0, int(height)):
        spans = [
            (rows[r + dr][0] - rows[r][1], rows[r + dr][1] - rows[r][0])
            for r in rows
            if r + dr in rows
        ]
        if spans:
            first = 1 if dr == 0 else min(low for low, _ in spans)
            directions += [(dq, dr) for dq in range(first, max(high for _, high in spans) + 1)]
    for dq, dr in directions:
        tq, tr = gq + dq, gr + dr
        inside = (tq >= 0) & (tq < grid.shape[0]) & (tr >= 0) & (tr < grid.shape[1])
        sources = np.flatnonzero(inside)
        if not len(sources):
            continue
        targets = grid[tq[sources], tr[sources]]
        on_board = targets < n
        sources, targets = sources[on_board], targets[on_board]
        if not len(sources):
            continue
        threshold = np.maximum(terrain.levels[sources], terrain.levels[targets])
        crossed, sides = _direction_pattern(dq, dr)
        sq, sr = gq[sources][:, None], gr[sources][:, None]
        # Every crossed hex lies within a column of the board's extent, so inside the
        # padded grid: gather all of this direction's offsets in one step.
        blocked = (heights[grid[sq + crossed[:, 0], sr + crossed[:, 1]]] > threshold[:, None]).any(
            axis=1
        )
        if len(sides):
            first = heights[grid[sq + sides[:, 0], sr + sides[:, 1]]] > threshold[:, None]
            second = heights[grid[sq + sides[:, 2], sr + sides[:, 3]]] > threshold[:, None]
            blocked |= (first & second).any(axis=1)
        clear[sources, targets] = ~blocked
    clear |= clear.T
    np.fill_diagonal(clear, True)
    return clear


def crossed_hexes(board: Board, a: Hex, b: Hex) -> tuple[Hex, ...]:
    """The hexes of the board whose interior the centre-to-centre line from a to b crosses
    (the two ends excluded), whatever their terrain."""
    if a == b:
        return ()
    crossed, _ = _direction_pattern(b[0] - a[0], b[1] - a[1])
    on_board = ((a[0] + int(dq), a[1] + int(dr)) for dq, dr in crossed)
    return tuple(hex_ for hex_ in on_board if hex_ in board)
