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

from onefinity.rules.hexgrid import DIAGONALS, Board, Hex, crosses_interior, runs_along, shared_side
from onefinity.rules.ruleset import TableRules

BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True)
class BoardGeometry:
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

    def pair_index(self, i: int, j: int) -> int:
        i, j = min(i, j), max(i, j)
        n = len(self.board)
        return i * n - i * (i + 1) // 2 + (j - i - 1)


def _orient(
    ax: IntArray, ay: IntArray, bx: IntArray, by: IntArray, cx: IntArray, cy: IntArray
) -> IntArray:
    sign: IntArray = np.sign((bx - ax) * (cy - ay) - (by - ay) * (cx - ax))
    return sign


@functools.lru_cache(maxsize=16)
def board_geometry(board: Board) -> BoardGeometry:
    """Vectorised per source hex: candidate hexes near each line are pruned by a box test,
    then decided exactly with the long-diagonal test of ``hexgrid.crosses_interior``."""
    n = len(board)
    centres = np.array(board.centres, dtype=np.int64)
    xs, ys = centres[:, 0], centres[:, 1]
    pair_i_parts, pair_j_parts = [], []
    cross_pair_parts, cross_hex_parts = [], []
    offset = 0
    # Shared sides of the board: each pair of neighbours once, with its two corners.
    sides = [
        (i, j, *shared_side(board, i, j)) for i in range(n) for j in board.neighbours[i] if i < j
    ]
    side_arr = np.array(
        [(i, j, p[0], p[1], q[0], q[1]) for i, j, p, q in sides], dtype=np.int64
    ).reshape(-1, 6)
    side_pair_parts, side_a_parts, side_b_parts = [], [], []

    for i in range(n - 1):
        targets = np.arange(i + 1, n)
        pair_i_parts.append(np.full(len(targets), i))
        pair_j_parts.append(targets)
        ax, ay = xs[i], ys[i]
        bx, by = xs[targets], ys[targets]
        # Candidates: every (target, hex) whose hexagon's box overlaps the line's box.
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
            kx, ky = xs[k_idx], ys[k_idx]
            hit = np.zeros(len(t_idx), dtype=bool)
            for (px, py), (qx, qy) in DIAGONALS:
                p_x, p_y, q_x, q_y = kx + px, ky + py, kx + qx, ky + qy
                o1 = _orient(sax, say, sbx, sby, p_x, p_y)
                o2 = _orient(sax, say, sbx, sby, q_x, q_y)
                o3 = _orient(p_x, p_y, q_x, q_y, sax, say)
                o4 = _orient(p_x, p_y, q_x, q_y, sbx, sby)
                proper = (o1 * o2 < 0) & (o3 * o4 < 0)
                collinear = (o1 == 0) & (o2 == 0) & (o3 == 0) & (o4 == 0)
                if collinear.any():
                    use_x = px != qx
                    a_c = sax if use_x else say
                    b_c = sbx if use_x else sby
                    p_c = p_x if use_x else p_y
                    q_c = q_x if use_x else q_y
                    overlap = np.maximum(np.minimum(a_c, b_c), np.minimum(p_c, q_c)) < np.minimum(
                        np.maximum(a_c, b_c), np.maximum(p_c, q_c)
                    )
                    proper |= collinear & overlap
                hit |= proper
            cross_pair_parts.append(offset + t_idx[hit])
            cross_hex_parts.append(k_idx[hit])
        if len(side_arr):
            # Sides collinear with the line and overlapping it.
            s_i, s_j = side_arr[:, 0], side_arr[:, 1]
            p_x, p_y, q_x, q_y = side_arr[:, 2], side_arr[:, 3], side_arr[:, 4], side_arr[:, 5]
            o_p = (bx[:, None] - ax) * (p_y[None, :] - ay) - (by[:, None] - ay) * (
                p_x[None, :] - ax
            )
            o_q = (bx[:, None] - ax) * (q_y[None, :] - ay) - (by[:, None] - ay) * (
                q_x[None, :] - ax
            )
            along = (o_p == 0) & (o_q == 0)
            if along.any():
                t_idx, s_idx = np.nonzero(along)
                use_x = p_x[s_idx] != q_x[s_idx]
                a_c = np.where(use_x, ax, ay)
                b_c = np.where(use_x, bx[t_idx], by[t_idx])
                p_c = np.where(use_x, p_x[s_idx], p_y[s_idx])
                q_c = np.where(use_x, q_x[s_idx], q_y[s_idx])
                overlap = np.maximum(np.minimum(a_c, b_c), np.minimum(p_c, q_c)) < np.minimum(
                    np.maximum(a_c, b_c), np.maximum(p_c, q_c)
                )
                # A side of an end hex is not "between" the ends.
                ends = (
                    (s_i[s_idx] == i)
                    | (s_j[s_idx] == i)
                    | (s_i[s_idx] == targets[t_idx])
                    | (s_j[s_idx] == targets[t_idx])
                )
                keep = overlap & ~ends
                side_pair_parts.append(offset + t_idx[keep])
                side_a_parts.append(s_i[s_idx][keep])
                side_b_parts.append(s_j[s_idx][keep])
        offset += len(targets)

    def joined(parts: list[IntArray]) -> IntArray:
        return np.concatenate(parts).astype(np.int64) if parts else np.zeros(0, dtype=np.int64)

    return BoardGeometry(
        board,
        joined(pair_i_parts),
        joined(pair_j_parts),
        joined(cross_pair_parts),
        joined(cross_hex_parts),
        joined(side_pair_parts),
        joined(side_a_parts),
        joined(side_b_parts),
    )


@dataclass(frozen=True)
class Terrain:
    """Per-hex heights, levels and whether a trooper may stand there, from the ruleset."""

    heights: IntArray
    levels: IntArray
    standable: BoolArray

    @classmethod
    def of(cls, board: Board, kinds: Mapping[int, str], rules: TableRules) -> Terrain:
        n = len(board)
        heights = np.zeros(n, dtype=np.int64)
        levels = np.zeros(n, dtype=np.int64)
        standable = np.ones(n, dtype=bool)
        for i, kind_id in kinds.items():
            kind = rules.terrain[kind_id]
            heights[i], levels[i], standable[i] = kind.height, kind.level, kind.enterable
        return cls(heights, levels, standable)


def visibility(geometry: BoardGeometry, terrain: Terrain) -> BoolArray:
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
