"""All-pairs line of fire on a board: computed whole, fast, and kept up to date after an edit.

The policy is the ruleset's (see ``lineoffire``): a line between two hexes is blocked when it
crosses the interior of a hex higher than both ends' levels, or runs along the side shared by
two such hexes. So what a pair needs to know of the terrain between its ends is one number:
the greatest height along its line (a side counting with the lower of its two hexes). The
pair sees when that height is at most its threshold, the higher level of its two ends. This
module keeps that number, ``top``, for every pair, and decides each pair exactly from it.

Computed whole: a line's crossings depend only on its direction, so the board is taken a
direction at a time, and every row of a board fits in one 64-bit word (a board is at most 61
hexes across in q). "Some hex of height >= f is crossed" for all sources of a direction and
row is then an OR of shifted rows of the height-f obstacle map, 64 sources per operation.

Kept up to date: when one hex changes height, only the pairs whose line crosses it (or runs
along one of its sides) can change their ``top``, and only the pairs ending at it change
their threshold. A rise is a maximum; a fall recomputes exactly the pairs whose ``top`` was
that hex's old height. Tests keep this, the whole computation and the two older exact
methods in ``lineoffire`` in agreement on every pair.

Everything is integer arithmetic on the lattice of ``hexgrid``: exact, no tolerance.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from onefinity.rules.hexgrid import Board
from onefinity.rules.lineoffire import (
    PAIR_GEOMETRY_LIMIT,
    Terrain,
    crosses_hexes,
    open_overlap,
    orient,
    visibility_by_pairs,
)

__all__ = ["WORD_BITS", "BoardLines", "Visibility", "board_lines", "board_visibility"]

IntArray = npt.NDArray[np.int64]
Ints = npt.NDArray[np.integer[Any]]
WordArray = npt.NDArray[np.uint64]
BoolArray = npt.NDArray[np.bool_]
HeightArray = npt.NDArray[np.int8]

WORD_BITS = 64
SHIFTS = 2 * WORD_BITS + 1  # the shifts of a row word: -WORD_BITS..WORD_BITS
# Hexes of a board row, in q, that one word holds; boards within the editor's limits are at
# most 61 across (hexgrid.MAX_BOARD_WIDTH and 40 rows).
_PAD = WORD_BITS  # columns of padding each side of the gathered height grid
# Segments whose crossings ``_tops`` gathers at once.
_SEGMENTS_AT_ONCE = 8192
# Neighbour steps whose shared side a line may run along (each pair of neighbours once), with
# the two corners of that side, in lattice units from the first hex's centre.
_SIDE_CORNERS = {
    (1, 0): ((1, 1), (1, -1)),
    (0, 1): ((0, 2), (1, 1)),
    (-1, 1): ((-1, 1), (0, 2)),
}


def _crosses(bx: IntArray, by: IntArray, kx: IntArray, ky: IntArray) -> BoolArray:
    """Does the segment from the origin to (bx, by) cross the interior of the hex centred at
    (kx, ky)? It does when it meets one of the hex's long diagonals away from their ends
    (``hexgrid.crosses_interior``), vectorised."""
    zero = np.zeros_like(bx)
    return crosses_hexes(zero, zero, bx, by, kx, ky)


def _ragged_arange(lengths: IntArray) -> IntArray:
    """0..n-1 for each n of `lengths`, concatenated."""
    total = int(lengths.sum())
    starts = np.cumsum(lengths) - lengths
    result: IntArray = np.arange(total, dtype=np.int64) - np.repeat(starts, lengths)
    return result


def _patterns(dq: IntArray, dr: IntArray) -> tuple[IntArray, IntArray, IntArray, IntArray]:
    """For each direction (dq, dr), dr >= 0: the offsets of the hexes its line from (0, 0)
    crosses, ends excluded, as (direction number, oq, or) rows sorted by direction; and the
    shared sides it runs along as (direction number, aq, ar, bq, br) rows."""
    bx, by = 2 * dq + dr, 3 * dr
    crossed_dir, crossed_q, crossed_r = _crossed_offsets(dq, dr, bx, by)
    return crossed_dir, crossed_q, crossed_r, _sides_along(dq, dr, bx, by)


def _crossed_offsets(
    dq: IntArray, dr: IntArray, bx: IntArray, by: IntArray
) -> tuple[IntArray, IntArray, IntArray]:
    """The hexes each direction's line crosses, as (direction number, oq, or), sorted by
    direction; (bx, by) is its far end on the lattice.

    On the lattice the line through the origin towards B = (bx, by) meets the interior of the
    hex centred at C exactly when |bx*cy - by*cx| < reach, reach = max(2|bx|, |bx| + |by|):
    the value ranges over the hex's corners from that minus reach to that plus reach, so
    the corners lie strictly on both sides. A hex between the rows of the two ends lies within
    the segment's span, so there that is the whole test, and the crossed hexes of each such
    row are an interval of q. On the ends' own rows the crossing may lie behind an end: those
    few candidates are decided by the long-diagonal test."""
    reach = np.maximum(2 * np.abs(bx), np.abs(bx) + by)
    rows_each = dr + 1
    direction = np.repeat(np.arange(len(dq)), rows_each)
    row = _ragged_arange(rows_each)
    dbx, dby, dreach = bx[direction], by[direction], reach[direction]
    # |dbx*3r - dby*x| < reach, x = 2q + r: the open interval of x, then of q.
    centre = dbx * 3 * row
    safe = np.maximum(dby, 1)
    x_lo = np.where(dby > 0, (centre - dreach) // safe + 1, 1)
    x_hi = np.where(dby > 0, -((-(centre + dreach)) // safe) - 1, dbx - 1)
    q_lo = -((row - x_lo) // 2)
    q_hi = (x_hi - row) // 2
    counts = np.maximum(q_hi - q_lo + 1, 0)
    cand_dir = np.repeat(direction, counts)
    cand_row = np.repeat(row, counts)
    cand_q = np.repeat(q_lo, counts) + _ragged_arange(counts)
    cdq, cdr = dq[cand_dir], dr[cand_dir]
    end_row = (cand_row == 0) | (cand_row == cdr)
    is_end = ((cand_q == 0) & (cand_row == 0)) | ((cand_q == cdq) & (cand_row == cdr))
    keep = ~end_row | (cdr == 0)  # a row between the ends (or a line along one row)
    check = end_row & (cdr > 0) & ~is_end
    keep[check] = _crosses(
        bx[cand_dir[check]],
        by[cand_dir[check]],
        2 * cand_q[check] + cand_row[check],
        3 * cand_row[check],
    )
    # (Made direction by direction, so already sorted by direction.)
    return cand_dir[keep], cand_q[keep], cand_row[keep]


def _sides_along(dq: IntArray, dr: IntArray, bx: IntArray, by: IntArray) -> IntArray:
    """The shared sides each direction's line runs along, each once, as (direction number,
    aq, ar, bq, br) rows sorted by direction; (bx, by) is its far end on the lattice.

    Only lines parallel to a side can run along one: lattice directions with bx == 0 or
    |bx| == by (never a row's own direction). On such a line x = bx * y / by is a whole
    number at each row's centre height; the hexes beside it there are the candidates."""
    parallel = np.flatnonzero((dr > 0) & ((bx == 0) | (np.abs(bx) == by)))
    near_counts = dr[parallel] + 1
    d = np.repeat(parallel, near_counts)
    ar = _ragged_arange(near_counts)
    x_line = bx[d] * 3 * ar // np.maximum(by[d], 1)
    window = 6
    d = np.repeat(d, window)
    aq = np.repeat((x_line - 4 - ar) // 2, window) + np.tile(np.arange(window), len(ar))
    ar = np.repeat(ar, window)
    ax_, ay_ = 2 * aq + ar, 3 * ar
    zero = np.zeros_like(d)
    sides = []
    for (sq, sr), ((px, py), (qx, qy)) in _SIDE_CORNERS.items():
        mq, mr = aq + sq, ar + sr
        p_x, p_y, q_x, q_y = ax_ + px, ay_ + py, ax_ + qx, ay_ + qy
        on_line = (orient(zero, zero, bx[d], by[d], p_x, p_y) == 0) & (
            orient(zero, zero, bx[d], by[d], q_x, q_y) == 0
        )
        overlap = np.where(
            p_x != q_x,
            open_overlap(zero, bx[d], p_x, q_x),
            open_overlap(zero, by[d], p_y, q_y),
        )
        ends = ((aq == 0) & (ar == 0)) | ((aq == dq[d]) & (ar == dr[d]))
        ends |= ((mq == 0) & (mr == 0)) | ((mq == dq[d]) & (mr == dr[d]))
        keep_side = on_line & overlap & ~ends
        sides.append(
            np.stack(
                [d[keep_side], aq[keep_side], ar[keep_side], mq[keep_side], mr[keep_side]], axis=1
            )
        )
    # Each side once, sorted by direction (as np.unique(axis=0), which on first use
    # imports numpy.ma: a fifth of a cold check's time).
    found = np.concatenate(sides)
    found = found[np.lexsort(found.T[::-1])]
    first = np.ones(len(found), dtype=bool)
    first[1:] = (found[1:] != found[:-1]).any(axis=1)
    side_rows: IntArray = found[first]
    return side_rows


def _words(bits: BoolArray) -> WordArray:
    """Rows of WORD_BITS booleans as one uint64 each (bit j = column j)."""
    packed = np.packbits(bits, axis=-1, bitorder="little")
    words: WordArray = packed.view("<u8")[..., 0].astype(np.uint64)
    return words


def _shift(words: WordArray, k: Ints) -> WordArray:
    """Bit j of the result is bit j + k of the word (k may be negative; beyond the word: 0).
    `k` broadcasts against `words` (one shift per row, say): its own arrays stay small."""
    right = np.maximum(k, 0).astype(np.uint64)
    left = np.maximum(-k, 0).astype(np.uint64)
    inside = np.abs(k) < WORD_BITS
    shifted: WordArray = np.where(inside, (words >> right) << left, np.uint64(0))
    return shifted


@dataclass(frozen=True)
class PaddedOffsets:
    """A board's hexes and line offsets as flat places in a grid of heights padded by
    ``_PAD`` on every side (see ``Visibility._recompute``)."""

    size: int
    cell_at: Ints  # each hex's place
    direction_at: Ints  # each hex's value whose differences give dir_of's flat place
    crossed: tuple[Ints]  # each crossing offset's flat offset
    sides: tuple[Ints, Ints]  # each side's two hexes' flat offsets


@dataclass(frozen=True, eq=False)
class BoardLines:
    """Every centre-to-centre line of a board, grouped by direction and source row: built
    once per board, independent of its terrain."""

    board: Board
    q0: int
    r0: int
    rows: int
    # (rows, WORD_BITS) board index of each (row, bit), -1 off the board.
    cell: Ints
    # Directions (dq, dr), dr >= 0 (dq > 0 when dr == 0), joining at least one pair, and the
    # number of each by (dr, dq + WORD_BITS).
    dir_q: Ints
    dir_r: Ints
    dir_of: Ints
    # Crossing offsets, sorted by direction: direction d's are [pat_start[d], pat_start[d+1]).
    pat_start: Ints
    pat_dir: Ints
    pat_q: Ints
    pat_r: Ints
    # Shared sides a direction's line runs along: offsets of the two hexes, by direction.
    side_start: Ints
    side_dir: Ints
    side_aq: Ints
    side_ar: Ints
    side_bq: Ints
    side_br: Ints
    # Segments: one per (direction, source row) holding a pair; `valid` has a bit per source.
    seg_dir: Ints
    seg_row: Ints
    seg_valid: WordArray
    seg_pairs: Ints  # index of the segment's first pair
    seg_of: Ints  # (directions, rows) segment number, -1 for none
    # (segments, WORD_BITS): the pairs, in order, are the set bits.
    valid_bits: BoolArray
    # Pairs, ordered by segment and source bit: their hexes, and where they sit in an n x n
    # matrix (s * n + t; the mirror place t * n + s is found when needed).
    pair_s: Ints
    pair_t: Ints
    pair_st: Ints
    # The whole computation's gathers, built once: for each (segment, crossing offset) of
    # directions with crossings, the word of the table of shifted obstacle rows to read
    # (row * SHIFTS + shift + WORD_BITS); where each segment's words start.
    cross_segs: Ints
    cross_starts: Ints
    cross_word: Ints
    side_segs: Ints
    side_starts: Ints
    side_word_a: Ints
    side_word_b: Ints

    @property
    def pairs(self) -> int:
        return len(self.pair_s)

    def places(self, pairs: Ints) -> tuple[Ints, Ints, Ints]:
        """The pairs' places in the n x n matrix (s * n + t), and their two hexes s and t:
        one gather (the pairs an edit touches lie all over the pair arrays, so each
        gather is mostly cache misses), the hexes worked out from the place."""
        at = np.take(self.pair_st, pairs)
        s, t = np.divmod(at, np.int32(len(self.board)))
        return at, s, t

    @functools.cached_property
    def padded(self) -> PaddedOffsets:
        """Flat offsets in a padded grid of heights, for recomputing pairs one by one."""
        width = WORD_BITS + 2 * _PAD
        hexes = np.array(self.board.hexes, dtype=np.int32)
        q, r = hexes[:, 0] - self.q0, hexes[:, 1] - self.r0
        return PaddedOffsets(
            size=(self.rows + 2 * _PAD) * width,
            cell_at=((r + _PAD) * width + q + _PAD).astype(np.int32),
            # dir_of's flat place of (dr, dq) is dr * (2 * WORD_BITS + 1) + dq + WORD_BITS:
            # the difference of two hexes' values, plus WORD_BITS.
            direction_at=(r * (2 * WORD_BITS + 1) + q).astype(np.int32),
            crossed=((self.pat_r * width + self.pat_q).astype(np.int32),),
            sides=(
                (self.side_ar * width + self.side_aq).astype(np.int32),
                (self.side_br * width + self.side_bq).astype(np.int32),
            ),
        )

    @functools.cached_property
    def crossings_by_row(self) -> tuple[Ints, Ints, Ints]:
        """The crossing offsets sorted by their row offset, for finding the pairs whose line
        crosses one hex (``Visibility._crossing``): each entry's row offset and q offset, and
        where its direction's segments start in ``seg_of`` less its row offset (int32). Made
        on the first edit of a board, not by the whole computation."""
        order = np.argsort(self.pat_r, kind="stable")
        rows_of = self.pat_r[order].astype(np.int32)
        return (
            rows_of,
            self.pat_q[order].astype(np.int32),
            (self.pat_dir[order] * self.rows).astype(np.int32) - rows_of,
        )


def _valid_words(member: WordArray, dq: Ints, dr: Ints, rows: int) -> WordArray:
    """(directions, rows): bit j of row r set when (j, r) and (j + dq, r + dr) are both on the
    board (as row-words of `member`)."""
    r = np.arange(rows)
    target_row = r[None, :] + dr[:, None]
    inside = target_row < rows
    targets = np.where(inside, member[np.minimum(target_row, rows - 1)], np.uint64(0))
    shifted = _shift(targets, dq[:, None])
    valid: WordArray = member[None, :] & shifted
    return valid


def _gathers(
    starts: Ints, seg_dir: Ints, seg_row: Ints, offsets_q: Ints, offsets_r: Ints
) -> tuple[Ints, Ints, Ints]:
    """For the segments whose direction has entries (crossings or sides): the segments, where
    each one's words start, and the word of the shift table each entry reads."""
    lengths = (starts[1:] - starts[:-1]).astype(np.int32)[seg_dir]
    segs = np.flatnonzero(lengths).astype(np.int32)
    counts = lengths[segs]
    first = np.cumsum(counts) - counts
    # Entry e of segment g reads row seg_row[g] + or_e, shift oq_e: a word of the shift
    # table, whose rows * SHIFTS words fit 16 bits (half the memory of a 2 million entry
    # list, written once, then read by every whole computation).
    offset = (offsets_r * SHIFTS + offsets_q + WORD_BITS).astype(np.int16)
    entry = np.repeat((starts[seg_dir[segs]] - first).astype(np.int32), counts)
    entry += np.arange(len(entry), dtype=np.int32)
    word = np.take(offset, entry)
    word += np.repeat((seg_row[segs] * SHIFTS).astype(np.int16), counts)
    return segs, first.astype(np.intp), word


@functools.lru_cache(maxsize=4)
def board_lines(board: Board) -> BoardLines:
    """The lines of a board (cached: a few boards per process; the largest takes 30 MB)."""
    q0, r0, cell = _board_rows(board)
    rows = len(cell)
    dir_q, dir_r, valid = _directions(cell)
    dir_of = np.full((rows, 2 * WORD_BITS + 1), -1, dtype=np.int32)
    dir_of[dir_r, dir_q + WORD_BITS] = np.arange(len(dir_q))
    pat_dir, pat_q, pat_r, side_rows = _patterns(dir_q, dir_r)
    pat_start = np.searchsorted(pat_dir, np.arange(len(dir_q) + 1))
    side_dir = side_rows[:, 0]
    side_start = np.searchsorted(side_dir, np.arange(len(dir_q) + 1))
    segments = _Segments.of(valid)
    seg_d, seg_r = segments.direction, segments.row
    pair_s, pair_t, pair_st = segments.pairs(cell, len(board), dir_q, dir_r)
    cross_segs, cross_starts, cross_word = _gathers(pat_start, seg_d, seg_r, pat_q, pat_r)
    side_segs, side_starts, side_word_a = _gathers(
        side_start, seg_d, seg_r, side_rows[:, 1], side_rows[:, 2]
    )
    _, _, side_word_b = _gathers(side_start, seg_d, seg_r, side_rows[:, 3], side_rows[:, 4])
    return BoardLines(
        board=board,
        q0=q0,
        r0=r0,
        rows=rows,
        cell=cell,
        dir_q=dir_q,
        dir_r=dir_r,
        dir_of=dir_of,
        pat_start=pat_start,
        pat_dir=pat_dir,
        pat_q=pat_q,
        pat_r=pat_r,
        side_start=side_start,
        side_dir=side_dir,
        side_aq=side_rows[:, 1],
        side_ar=side_rows[:, 2],
        side_bq=side_rows[:, 3],
        side_br=side_rows[:, 4],
        seg_dir=seg_d,
        seg_row=seg_r,
        seg_valid=segments.valid,
        seg_pairs=segments.first_pair,
        seg_of=segments.of_direction_row,
        valid_bits=segments.valid_bits,
        pair_s=pair_s,
        pair_t=pair_t,
        pair_st=pair_st,
        cross_segs=cross_segs,
        cross_starts=cross_starts,
        cross_word=cross_word,
        side_segs=side_segs,
        side_starts=side_starts,
        side_word_a=side_word_a,
        side_word_b=side_word_b,
    )


def _board_rows(board: Board) -> tuple[int, int, Ints]:
    """The board as rows of words: the first q and r, and the (rows, WORD_BITS) board index
    of each (row, bit), -1 off the board. ValueError when a row does not fit a word or the
    board does not fit the 16-bit numbers the lines are kept in."""
    hexes = np.array(board.hexes, dtype=np.int64)
    n = len(hexes)
    q0, r0 = int(hexes[:, 0].min()), int(hexes[:, 1].min())
    rows = int(hexes[:, 1].max()) - r0 + 1
    span = int(hexes[:, 0].max()) - q0 + 1
    if span > WORD_BITS:
        raise ValueError(f"a board {span} hexes across in q does not fit in a word")
    if n >= 2**15 or rows * SHIFTS >= 2**15:
        raise ValueError(f"a board of {n} hexes in {rows} rows does not fit 16-bit numbers")
    cell = np.full((rows, WORD_BITS), -1, dtype=np.int32)
    cell[hexes[:, 1] - r0, hexes[:, 0] - q0] = np.arange(n)
    return q0, r0, cell


def _directions(cell: Ints) -> tuple[IntArray, IntArray, WordArray]:
    """The directions (dq, dr), dr >= 0 (dq > 0 when dr == 0), joining at least one pair
    of the board's hexes, and each one's valid words (``_valid_words``) by row."""
    rows = len(cell)
    member = _words(cell >= 0)
    all_dr = np.repeat(np.arange(rows), 2 * WORD_BITS - 1)
    all_dq = np.tile(np.arange(-(WORD_BITS - 1), WORD_BITS), rows)
    forward = (all_dr > 0) | (all_dq > 0)
    all_dq, all_dr = all_dq[forward], all_dr[forward]
    valid = _valid_words(member, all_dq, all_dr, rows)
    used = (valid != 0).any(axis=1)
    return all_dq[used], all_dr[used], valid[used]


@dataclass(frozen=True)
class _Segments:
    """The segments of a board's lines: one per (direction, source row) holding a pair,
    with a bit per source in its valid word; and the pairs they hold, in segment order."""

    direction: Ints
    row: Ints
    valid: WordArray
    # (directions, rows): each one's segment number, -1 for none.
    of_direction_row: Ints
    # (segments, WORD_BITS): the pairs, in order, are the set bits.
    valid_bits: BoolArray
    counts: Ints  # each segment's pairs
    first_pair: Ints

    @classmethod
    def of(cls, valid: WordArray) -> _Segments:
        """From each direction's valid words by row (``_directions``)."""
        seg_d, seg_r = np.nonzero(valid != 0)
        seg_valid = valid[seg_d, seg_r]
        seg_of = np.full(valid.shape, -1, dtype=np.int32)
        seg_of[seg_d, seg_r] = np.arange(len(seg_d))
        valid_bits = np.unpackbits(
            seg_valid.astype("<u8").view(np.uint8).reshape(-1, 8), axis=1, bitorder="little"
        ).view(bool)
        counts = np.bitwise_count(seg_valid).astype(np.int64)
        return cls(seg_d, seg_r, seg_valid, seg_of, valid_bits, counts, np.cumsum(counts) - counts)

    def pairs(self, cell: Ints, n: int, dir_q: Ints, dir_r: Ints) -> tuple[Ints, Ints, Ints]:
        """The pairs, ordered by segment and source bit: their two hexes s and t, and where
        they sit in the n x n matrix of the board's n hexes (s * n + t)."""
        valid_bits, counts, seg_d, seg_r = self.valid_bits, self.counts, self.direction, self.row
        # Each pair's source bit, segment by segment, as bytes: the bits' numbers picked by
        # the valid bits (a flat index of the 4 million bits would be a 10 MB array; on this
        # machine every new page costs, and a cold check's time is a third page faults).
        bit = np.broadcast_to(np.arange(WORD_BITS, dtype=np.int8), valid_bits.shape)[valid_bits]
        # Hex numbers fit in 16 bits (a board has at most 1,620 hexes): half the memory.
        cells = cell.reshape(-1).astype(np.int16)
        # Slots come segment by segment, `counts` of each: repeating beats gathering by
        # segment.
        pair_s = np.take(cells, np.repeat((seg_r * WORD_BITS).astype(np.int32), counts) + bit)
        target = ((seg_r + dir_r[seg_d]) * WORD_BITS + dir_q[seg_d]).astype(np.int32)
        pair_t = np.take(cells, np.repeat(target, counts) + bit)
        del bit
        pair_st = pair_s.astype(np.int32)
        pair_st *= np.int32(n)
        pair_st += pair_t
        return pair_s, pair_t, pair_st


def _shift_table(obstacles: WordArray) -> WordArray:
    """Every row of obstacle words shifted by every k in -WORD_BITS..WORD_BITS, flattened:
    word row * SHIFTS + k + WORD_BITS."""
    k = np.arange(-WORD_BITS, WORD_BITS + 1)
    table = _shift(obstacles[:, None], k[None, :])
    flat: WordArray = table.reshape(-1)
    return flat


def _tops(lines: BoardLines, heights: HeightArray) -> HeightArray:
    """The greatest height along every pair's line, the whole board at once."""
    grid = np.zeros((lines.rows, WORD_BITS), dtype=np.int8)
    on_board = lines.cell >= 0
    grid[on_board] = heights[lines.cell[on_board]]
    highest = int(heights.max()) if len(heights) else 0
    # Per source bit of every segment, how many levels block its line: summed over the
    # levels, then picked for the pairs once.
    levels = np.zeros((len(lines.seg_dir), WORD_BITS), dtype=np.uint8)
    for level in range(1, highest + 1):
        shifted = _shift_table(_words(grid >= level))
        blocked = np.zeros(len(lines.seg_dir), dtype=np.uint64)
        # A few thousand segments at a time: the words they read stay small (a whole board's
        # are 15 MB, all written once, then read once).
        for first in range(0, len(lines.cross_segs), _SEGMENTS_AT_ONCE):
            last = min(first + _SEGMENTS_AT_ONCE, len(lines.cross_segs))
            begin = lines.cross_starts[first]
            end = (
                lines.cross_starts[last] if last < len(lines.cross_segs) else len(lines.cross_word)
            )
            blocked[lines.cross_segs[first:last]] = np.bitwise_or.reduceat(
                np.take(shifted, lines.cross_word[begin:end]),
                lines.cross_starts[first:last] - begin,
            )
        if len(lines.side_segs):
            along = shifted[lines.side_word_a] & shifted[lines.side_word_b]
            blocked[lines.side_segs] |= np.bitwise_or.reduceat(along, lines.side_starts)
        levels += np.unpackbits(blocked.view(np.uint8).reshape(-1, 8), axis=1, bitorder="little")
    top: HeightArray = levels[lines.valid_bits].view(np.int8)
    return top


def _clear(lines: BoardLines, top: HeightArray, levels: Ints) -> BoolArray:
    n = len(lines.board)
    # Gather bytes, not words: a line's top is a height (int8), so any level from 127 up
    # sees over everything, as 127 does.
    small = np.minimum(levels, 127).astype(np.int8)
    sees = top <= np.maximum(np.take(small, lines.pair_s), np.take(small, lines.pair_t))
    clear = np.zeros(n * n, dtype=bool)
    clear[lines.pair_st] = sees
    result: BoolArray = clear.reshape(n, n)
    # Each pair is listed once, one way round: the other is its mirror image (a transposed
    # copy is faster than a second scattered write).
    result |= result.T
    clear[:: n + 1] = True
    return result


def _other_height(
    lines: BoardLines, dq: Ints, dr: Ints, q: int, r: int, heights: HeightArray
) -> IntArray:
    """The height of the hex at (q + dq, r + dr), 0 off the board."""
    bit, row = q + dq - lines.q0, r + dr - lines.r0
    inside = (row >= 0) & (row < lines.rows) & (bit >= 0) & (bit < WORD_BITS)
    cell = np.where(inside, lines.cell[np.where(inside, row, 0), np.where(inside, bit, 0)], -1)
    found: IntArray = np.where(cell >= 0, heights[np.maximum(cell, 0)], 0).astype(np.int64)
    return found


@dataclass(frozen=True, eq=False)
class Visibility:
    """The clear lines of fire of one table: ``clear[i, j]`` when hex i sees hex j."""

    lines: BoardLines
    heights: HeightArray
    levels: Ints
    top: HeightArray
    clear: BoolArray

    @classmethod
    def of(cls, board: Board, terrain: Terrain) -> Visibility:
        """Computed whole."""
        lines = board_lines(board)
        heights = terrain.heights.astype(np.int8)
        top = _tops(lines, heights)
        return cls(lines, heights, terrain.levels.copy(), top, _clear(lines, top, terrain.levels))

    def changed(self, terrain: Terrain) -> Visibility:
        """The visibility of the same board with `terrain`, recomputing only the pairs
        whose line crosses, runs along or ends at a hex whose height or level changed."""
        return self.changed_pairs(terrain)[0]

    def changed_pairs(self, terrain: Terrain) -> tuple[Visibility, IntArray]:
        """``changed``, and the pairs it recomputed (indices of ``lines``' pairs, perhaps
        some twice): every pair whose line may have changed is among them."""
        heights = terrain.heights.astype(np.int8)
        levels = terrain.levels
        moved = np.flatnonzero((heights != self.heights) | (levels != self.levels))
        top = self.top.copy()
        clear = self.clear.copy()
        flat = clear.reshape(-1)
        current = self.heights.copy()
        lines = self.lines
        recomputed = [np.zeros(0, dtype=np.int64)]
        for index in moved.tolist():
            current[index] = heights[index]
            touched = self._update(index, int(self.heights[index]), current, top)
            pairs = np.concatenate([touched, self.pairs_at(index)])
            at, s, t = lines.places(pairs)
            sees = np.take(top, pairs) <= np.maximum(levels[s], levels[t])
            flat[at] = sees
            flat[t * np.int32(len(lines.board)) + s] = sees
            recomputed.append(pairs)
        return Visibility(lines, heights, levels.copy(), top, clear), np.concatenate(recomputed)

    # --- One hex at a time --------------------------------------------------------------

    def _locate(self, q: Ints, r: Ints, directions: Ints) -> IntArray:
        """The pair of direction `directions` whose source is (q, r), or -1 where none is."""
        lines = self.lines
        row, bit = r - lines.r0, q - lines.q0
        inside = (row >= 0) & (row < lines.rows) & (bit >= 0) & (bit < WORD_BITS)
        seg = np.full(len(q), -1, dtype=np.int64)
        seg[inside] = lines.seg_of[directions[inside], row[inside]]
        found = seg >= 0
        word = lines.seg_valid[np.where(found, seg, 0)]
        shift = np.where(found, bit, 0).astype(np.uint64)
        found &= ((word >> shift) & np.uint64(1)) == 1
        below = word & ((np.uint64(1) << shift) - np.uint64(1))
        rank = np.bitwise_count(below).astype(np.int64)
        pairs: IntArray = np.where(found, lines.seg_pairs[np.where(found, seg, 0)] + rank, -1)
        return pairs

    def _crossing(self, q: int, r: int) -> IntArray:
        """The pairs whose line crosses the hex (q, r): ``_locate`` over every crossing
        offset, but only over the offsets whose source row is on the board (sorted by row
        offset, a prefix), in 32-bit integers, ranking only the sources that are there (three
        times faster on the 108,000 offsets of a 1,620-hex board)."""
        lines = self.lines
        rows_of, q_of, seg_base = lines.crossings_by_row
        row = r - lines.r0
        # Offsets whose source row r - offset is on the board: 0 <= row - offset (< rows).
        upto = int(np.searchsorted(rows_of, row, side="right"))
        bit = np.int32(q - lines.q0) - q_of[:upto]
        seg = np.take(lines.seg_of, seg_base[:upto] + np.int32(row))
        # A negative bit reads as a large unsigned one: one comparison for 0 <= bit < 64.
        at = np.flatnonzero((bit.view(np.uint32) < WORD_BITS) & (seg >= 0))
        seg, shift = np.take(seg, at), np.take(bit, at).astype(np.uint64)
        word = np.take(lines.seg_valid, seg)
        there = ((word >> shift) & np.uint64(1)) == 1
        rank = np.bitwise_count(word & ((np.uint64(1) << shift) - np.uint64(1)))
        pairs: IntArray = (np.take(lines.seg_pairs, seg) + rank.astype(np.int64))[there]
        return pairs

    def pairs_at(self, index: int) -> IntArray:
        """The pairs (indices of ``lines``' pairs) one of whose hexes is `index`."""
        lines = self.lines
        q, r = lines.board.hexes[index]
        directions = np.arange(len(lines.dir_q))
        as_source = self._locate(
            np.full_like(directions, q), np.full_like(directions, r), directions
        )
        as_target = self._locate(q - lines.dir_q, r - lines.dir_r, directions)
        both = np.concatenate([as_source, as_target])
        found: IntArray = both[both >= 0]
        return found

    def _update(self, index: int, old: int, heights: HeightArray, top: HeightArray) -> IntArray:
        """Bring `top` up to date for the pairs crossing (or running along a side of) the hex
        `index`, whose height went from `old` to heights[index]; the pairs touched."""
        lines = self.lines
        new = int(heights[index])
        q, r = lines.board.hexes[index]
        crossing = self._crossing(q, r)
        as_a = self._locate(q - lines.side_aq, r - lines.side_ar, lines.side_dir)
        as_b = self._locate(q - lines.side_bq, r - lines.side_br, lines.side_dir)
        other_of_a = _other_height(
            lines, lines.side_bq - lines.side_aq, lines.side_br - lines.side_ar, q, r, heights
        )
        other_of_b = _other_height(
            lines, lines.side_aq - lines.side_bq, lines.side_ar - lines.side_br, q, r, heights
        )
        along = np.concatenate([as_a[as_a >= 0], as_b[as_b >= 0]])
        along_other = np.concatenate([other_of_a[as_a >= 0], other_of_b[as_b >= 0]])
        touched = np.concatenate([crossing, along])
        if new > old:
            # Each crossing pair once (one source per offset): a plain gather and scatter,
            # not maximum.at.
            top[crossing] = np.maximum(top[crossing], np.int8(new))
            if len(along):
                np.maximum.at(top, along, np.minimum(new, along_other).astype(np.int8))
        elif new < old:
            # Pairs whose top was this hex's old height may have lost it: recompute them. (A
            # side counts with the lower of its two hexes, so its pairs may sit below `old`.)
            again = touched[top[touched] <= old]  # (a pair listed twice is recomputed twice)
            if len(again):
                top[again] = self._recompute(again, heights)
        return touched

    def _recompute(self, pairs: IntArray, heights: HeightArray) -> HeightArray:
        """The greatest height along each pair's line, pair by pair.

        The heights are laid in a grid padded on every side, so that each hex a line
        crosses is one flat offset from its source's cell; each pair's values are gathered
        in one run and reduced with ``maximum.reduceat`` (``maximum.at`` and two-axis
        gathers took three times as long on the 28,000 pairs through a 1,620-hex board's
        centre). Indices are 32-bit and the board's offsets are made once
        (``BoardLines.padded``)."""
        lines = self.lines
        padded = lines.padded
        grid = np.zeros(padded.size, dtype=np.int8)
        grid[padded.cell_at] = heights
        _, s, t = lines.places(pairs)
        base = padded.cell_at[s]
        direction = lines.dir_of.reshape(-1)[
            padded.direction_at[t] - padded.direction_at[s] + WORD_BITS
        ]
        top = np.zeros(len(pairs), dtype=np.int8)
        for start, offsets in ((lines.pat_start, padded.crossed), (lines.side_start, padded.sides)):
            first = start[direction].astype(np.int32)
            lengths = start[direction + 1].astype(np.int32) - first
            some = lengths > 0
            if not some.any():
                continue
            runs = np.cumsum(lengths, dtype=np.int32) - lengths  # where each pair's values begin
            entry = np.arange(int(lengths.sum()), dtype=np.int32) + np.repeat(first - runs, lengths)
            at = np.repeat(base, lengths)
            # np.take: a third faster than indexing for these long gathers.
            values = np.take(grid, at + np.take(offsets[0], entry))
            for other in offsets[1:]:  # a side counts with the lower of its two hexes
                values = np.minimum(values, np.take(grid, at + np.take(other, entry)))
            top[some] = np.maximum(top[some], np.maximum.reduceat(values, runs[some]))
        return top


def board_visibility(board: Board, terrain: Terrain) -> BoolArray:
    """All-pairs visibility (a[i, j]: hex i sees hex j), by the fastest exact method for
    the board's size: per-pair geometry (``lineoffire``) for small boards, the word-parallel
    directions of this module for large ones (which also keep a table up to date after an
    edit). Tests keep all of them, and the direction patterns of ``lineoffire``, in agreement."""
    if len(board) <= PAIR_GEOMETRY_LIMIT:
        return visibility_by_pairs(board, terrain)
    return Visibility.of(board, terrain).clear
