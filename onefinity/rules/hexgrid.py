"""Hex boards in axial coordinates (pointy-top), and the lattice that makes geometry exact.

A hex (q, r) has its centre at x = sqrt(3) * (q + r/2), y = 3/2 * r (circumradius 1).
Scaling x by 2/sqrt(3) and y by 2 is an affine map, so it keeps every incidence the line
of fire depends on (crossing an interior, touching a corner, running along a side) and
puts every centre and every corner on integer points: the centre at (2q + r, 3r), the
corners at centre + (0, ±2), (±1, ±1). All geometry here is integer arithmetic: exact,
with a tolerance of zero.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import numpy.typing as npt

Hex = tuple[int, int]

# Corners in lattice units, going round the hexagon.
CORNERS: tuple[tuple[int, int], ...] = ((0, 2), (1, 1), (1, -1), (0, -2), (-1, -1), (-1, 1))
# The three long diagonals, as pairs of opposite corners.
DIAGONALS: tuple[tuple[tuple[int, int], tuple[int, int]], ...] = (
    ((0, 2), (0, -2)),
    ((1, 1), (-1, -1)),
    ((1, -1), (-1, 1)),
)
NEIGHBOUR_STEPS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))

# Every board fits in the largest board the editor makes: 40 rows by 40 columns, rows
# alternating 40 and 41 hexes. The bound is on the board's extent, not only its hex count:
# line of fire costs grow with the square of the hexes and every picture allocates the
# board's bounding box, so 20 hexes spread over 200 rows must be refused as well.
MAX_BOARD_ROWS = 40
MAX_BOARD_COLUMNS = 40
# Across, in hexes: the long rows of the 40-column board (41 hexes).
MAX_BOARD_WIDTH = MAX_BOARD_COLUMNS + 1
# The most hexes a board within those bounds can hold: the 40 x 40 board itself.
MAX_BOARD_HEXES = MAX_BOARD_ROWS // 2 * (2 * MAX_BOARD_COLUMNS + 1)


class BoardError(ValueError):
    pass


def centre(hex_: Hex) -> tuple[int, int]:
    q, r = hex_
    return 2 * q + r, 3 * r


def distance(a: Hex, b: Hex) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def rows_by_columns(rows: int, columns: int) -> list[Hex]:
    """The rectangular board: rows alternating `columns` and `columns + 1` hexes."""
    if rows < 2 or columns < 1:
        raise BoardError("a board needs at least 2 rows and 1 column")
    if rows > MAX_BOARD_ROWS or columns > MAX_BOARD_COLUMNS:
        raise BoardError(
            f"a board has at most {MAX_BOARD_ROWS} rows and {MAX_BOARD_COLUMNS} columns, "
            f"not {rows} x {columns}"
        )
    hexes = []
    for r in range(rows):
        for q in range(-((r + 1) // 2), columns - r // 2):
            hexes.append((q, r))
    return hexes


@dataclass(frozen=True)
class Board:
    """A set of hexes; side A's table edge is the first row, side B's the last."""

    hexes: tuple[Hex, ...]
    standard: bool = False
    index: dict[Hex, int] = field(init=False, repr=False, compare=False)
    # Boards key the caches of their geometry: hash the 1,600 hexes once, not per look-up.
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if len(self.hexes) < 2:
            raise BoardError("a board needs at least 2 hexes")
        if len(self.hexes) > MAX_BOARD_HEXES:
            raise BoardError(f"a board has at most {MAX_BOARD_HEXES} hexes, not {len(self.hexes)}")
        ordered = tuple(sorted(set(self.hexes), key=lambda h: (h[1], h[0])))
        if len(ordered) != len(self.hexes):
            raise BoardError("a hex is listed twice")
        object.__setattr__(self, "hexes", ordered)
        object.__setattr__(self, "index", {h: i for i, h in enumerate(ordered)})
        object.__setattr__(self, "_hash", hash((ordered, self.standard)))
        if self.first_row == self.last_row:
            raise BoardError("a board needs at least 2 rows: one table edge for each side")
        rows = self.last_row - self.first_row + 1
        if rows > MAX_BOARD_ROWS:
            raise BoardError(f"a board spans {rows} rows; at most {MAX_BOARD_ROWS}")
        # Across in half-hex steps: x = 2q + r is a hex centre's column on the lattice.
        xs = [2 * q + r for q, r in ordered]
        width = (max(xs) - min(xs)) // 2 + 1
        if width > MAX_BOARD_WIDTH:
            raise BoardError(
                f"a board is {width} hexes wide; at most {MAX_BOARD_WIDTH} "
                f"(the {MAX_BOARD_COLUMNS}-column board's long rows)"
            )

    def __hash__(self) -> int:
        return self._hash

    @classmethod
    def of(cls, hexes: Iterable[Hex], standard: bool = False) -> Board:
        return cls(tuple(hexes), standard)

    def __len__(self) -> int:
        return len(self.hexes)

    def __contains__(self, hex_: object) -> bool:
        return hex_ in self.index

    @cached_property
    def rectangle(self) -> tuple[int, int] | None:
        """(rows, columns) when this is ``rows_by_columns(rows, columns)``'s board, else None:
        a document then names the board in two numbers instead of listing its hexes."""
        if self.first_row != 0:
            return None
        rows = self.last_row + 1
        columns = sum(1 for _, r in self.hexes if r == 0)
        if columns < 1 or rows > MAX_BOARD_ROWS or columns > MAX_BOARD_COLUMNS:
            return None
        if self.hexes != tuple(rows_by_columns(rows, columns)):
            return None
        return rows, columns

    @cached_property
    def first_row(self) -> int:
        return min(r for _, r in self.hexes)

    @cached_property
    def last_row(self) -> int:
        return max(r for _, r in self.hexes)

    @cached_property
    def neighbours(self) -> tuple[tuple[int, ...], ...]:
        return tuple(
            tuple(
                self.index[(q + dq, r + dr)]
                for dq, dr in NEIGHBOUR_STEPS
                if (q + dq, r + dr) in self.index
            )
            for q, r in self.hexes
        )

    @cached_property
    def centres(self) -> tuple[tuple[int, int], ...]:
        return tuple(centre(h) for h in self.hexes)

    @cached_property
    def row_columns(self) -> tuple[tuple[int, int], ...]:
        """Each hex's place as the players count it, in board order: (row, column), the row
        counted from 1 at side A's table edge, the column from 1 at the left of that row
        (the board's order is row by row, each from the left). The axial coordinates
        (negative on most boards) mean nothing at the table."""
        found = []
        row, column = None, 0
        for _, r in self.hexes:
            column = column + 1 if r == row else 1
            row = r
            found.append((r - self.first_row + 1, column))
        return tuple(found)

    def at_row_column(self, row: int, column: int) -> Hex | None:
        """The hex at a place as the players count it (``row_columns``), or None."""
        at = self._by_row_column.get((row, column))
        return None if at is None else self.hexes[at]

    @cached_property
    def _by_row_column(self) -> dict[tuple[int, int], int]:
        return {place: i for i, place in enumerate(self.row_columns)}

    def edge_row(self, side: str) -> tuple[int, ...]:
        row = self.first_row if side == "A" else self.last_row
        return tuple(i for i, (_, r) in enumerate(self.hexes) if r == row)

    def depth_from_edge(self, i: int, side: str) -> int:
        """Rows between a hex and a side's table edge (0 on the edge itself)."""
        r = self.hexes[i][1]
        return r - self.first_row if side == "A" else self.last_row - r

    def symmetry(self, kind: str) -> tuple[int, ...] | None:
        """The hex each hex maps to under a point (180 degree) or mirror (A <-> B) symmetry,
        or None when this board does not have that symmetry (found once per board: every
        editor page asks which symmetries its board has)."""
        if kind not in self._symmetries:
            self._symmetries[kind] = self._symmetry(kind)
        return self._symmetries[kind]

    @cached_property
    def _symmetries(self) -> dict[str, tuple[int, ...] | None]:
        return {}

    def _symmetry(self, kind: str) -> tuple[int, ...] | None:
        xs = [x for x, _ in self.centres]
        ys = [y for _, y in self.centres]
        sx, sy = min(xs) + max(xs), min(ys) + max(ys)
        mapping = []
        for x, y in self.centres:
            image_x, image_y = (sx - x, sy - y) if kind == "point" else (x, sy - y)
            if image_y % 3 or (image_x - image_y // 3) % 2:
                return None
            r = image_y // 3
            target = ((image_x - r) // 2, r)
            if target not in self.index:
                return None
            mapping.append(self.index[target])
        return tuple(mapping)


def standard_board(rows: int, columns: int) -> Board:
    return Board.of(rows_by_columns(rows, columns), standard=True)


def orient(ax: int, ay: int, bx: int, by: int, cx: int, cy: int) -> int:
    """Sign of the turn a -> b -> c: 1 left, -1 right, 0 collinear (exact)."""
    value = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
    return (value > 0) - (value < 0)


def crosses_interior(a: Sequence[int], b: Sequence[int], hex_centre: Sequence[int]) -> bool:
    """Does the segment a-b (two centres of other hexes) cross the hex's interior?

    A segment whose ends lie outside a convex hexagon meets its interior exactly when it
    meets one of the three long diagonals at a point other than their ends: cutting a
    corner crosses the diagonal to that corner, touching a corner or running along a side
    meets diagonals only at their ends.
    """
    ax, ay = a
    bx, by = b
    cx, cy = hex_centre
    for (px, py), (qx, qy) in DIAGONALS:
        p = (cx + px, cy + py)
        q = (cx + qx, cy + qy)
        o1 = orient(ax, ay, bx, by, *p)
        o2 = orient(ax, ay, bx, by, *q)
        o3 = orient(*p, *q, ax, ay)
        o4 = orient(*p, *q, bx, by)
        if o1 * o2 < 0 and o3 * o4 < 0:
            return True
        if o1 == o2 == o3 == o4 == 0 and _open_overlap(a, b, p, q):
            return True
    return False


def _open_overlap(a: Sequence[int], b: Sequence[int], p: Sequence[int], q: Sequence[int]) -> bool:
    """Collinear segments: does a-b overlap the open segment p-q with positive length?"""
    axis = 0 if p[0] != q[0] else 1
    lo, hi = sorted((a[axis], b[axis]))
    plo, phi = sorted((p[axis], q[axis]))
    return max(lo, plo) < min(hi, phi)


def runs_along(a: Sequence[int], b: Sequence[int], p: Sequence[int], q: Sequence[int]) -> bool:
    """Does the segment a-b run along the side p-q (collinear, overlapping in length)?"""
    return orient(*a, *b, *p) == 0 and orient(*a, *b, *q) == 0 and _open_overlap(a, b, p, q)


def side_corners(a: Hex, b: Hex) -> tuple[tuple[int, int], tuple[int, int]]:
    """The two corners (lattice points) of the side shared by neighbouring hexes a and b."""
    ca, cb = centre(a), centre(b)
    corners_a = {(ca[0] + dx, ca[1] + dy) for dx, dy in CORNERS}
    corners_b = {(cb[0] + dx, cb[1] + dy) for dx, dy in CORNERS}
    p, q = sorted(corners_a & corners_b)
    return p, q


def shared_side(board: Board, i: int, j: int) -> tuple[tuple[int, int], tuple[int, int]]:
    return side_corners(board.hexes[i], board.hexes[j])


def hex_distances(a: npt.NDArray[np.int64], b: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """Vectorised ``distance`` for arrays of axial (q, r) rows."""
    delta = a - b
    dq, dr = delta[:, 0], delta[:, 1]
    result: npt.NDArray[np.int64] = (np.abs(dq) + np.abs(dr) + np.abs(dq + dr)) // 2
    return result
