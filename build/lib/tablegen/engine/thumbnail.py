"""A table's thumbnail: its terrain and pieces at a glance, for a page listing many tables.

The full map (``render.svg``) draws every hex with its own polygon, coordinate label and
title: about 30 KB for a standard table, 6 MB for a pack of 200. A thumbnail needs none of
the labels, so each colour is one path of hexes drawn on the integer lattice of ``hexgrid``
(where touching hexes share their corners exactly) and scaled once: about 5 KB a table.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from html import escape

from onefinity.rules.hexgrid import CORNERS, Board, Hex, centre
from tablegen.engine.render import (
    GRID_COLOUR,
    OPEN_COLOUR,
    OUTLINE_COLOUR,
    SIDE_COLOURS,
    colour,
    outline,
)
from tablegen.engine.tables import TableSpec

# A lattice unit across is sqrt(3)/2 of one down (see render.X_UNIT, render.Y_UNIT).
X_SCALE = math.sqrt(3) / 2
Y_SCALE = 0.5
# Round a hexagon from its top corner (CORNERS[0]) by relative moves, in SVG's shortest
# spelling, closed by "z"; a test holds it to CORNERS.
TOP = CORNERS[0]
STEPS = "l1-1v-2l-1-1-1,1v2"


def _hexes_path(hexes: Iterable[Hex]) -> str:
    parts = []
    for hex_ in hexes:
        x, y = centre(hex_)
        parts.append(f"M{x + TOP[0]},{y + TOP[1]}{STEPS}z")
    return "".join(parts)


def _rings_path(rings: list[list[tuple[int, int]]]) -> str:
    return "".join("M" + "L".join(f"{x},{y}" for x, y in ring[:-1]) + "Z" for ring in rings if ring)


def _bounds(board: Board) -> tuple[int, int, int, int]:
    xs = [centre(hex_)[0] for hex_ in board.hexes]
    ys = [centre(hex_)[1] for hex_ in board.hexes]
    return min(xs) - 1, min(ys) - 2, max(xs) + 1, max(ys) + 2


def thumbnail_svg(table: TableSpec, title: str = "") -> str:
    """A small picture of the table: ground and terrain by colour, each piece outlined,
    side A's edge row outlined in its colour at the top and side B's at the bottom. An image
    named `title` (or the table's name) for assistive technology; no links, no labels."""
    board = table.board
    left, top, right, bottom = _bounds(board)
    margin = 1.0
    width = (right - left) * X_SCALE + 2 * margin
    height = (bottom - top) * Y_SCALE + 2 * margin
    by_kind: dict[str, list[Hex]] = {}
    for index, kind in table.terrain.items():
        by_kind.setdefault(kind, []).append(board.hexes[index])
    open_ground = [hex_ for index, hex_ in enumerate(board.hexes) if index not in table.terrain]
    # Thin lines stay thin at any size: the lattice is scaled, the strokes are not.
    thin = 'vector-effect="non-scaling-stroke"'
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.1f} {height:.1f}" '
        f'class="table-thumbnail" role="img" aria-label="{escape(title or table.name)}">',
        f'<g transform="translate({margin - left * X_SCALE:.2f} {margin - top * Y_SCALE:.2f}) '
        f'scale({X_SCALE:.4f} {Y_SCALE})">',
        f'<path d="{_hexes_path(open_ground)}" fill="{OPEN_COLOUR}" stroke="{GRID_COLOUR}" '
        f'stroke-width=".5" {thin}/>',
    ]
    for kind in sorted(by_kind):
        parts.append(
            f'<path d="{_hexes_path(by_kind[kind])}" fill="{colour(kind)}" '
            f'stroke="{GRID_COLOUR}" stroke-width=".5" {thin}/>'
        )
    for side, row in (("A", board.first_row), ("B", board.last_row)):
        edge = [hex_ for hex_ in board.hexes if hex_[1] == row]
        parts.append(
            f'<path d="{_hexes_path(edge)}" fill="none" stroke="{SIDE_COLOURS[side]}" '
            f'stroke-width="1.5" {thin}/>'
        )
    pieces = "".join(_rings_path(outline(board, placed)) for placed in table.placed())
    if pieces:
        parts.append(
            f'<path d="{pieces}" fill="none" stroke="{OUTLINE_COLOUR}" stroke-width="1.5" '
            f'stroke-linejoin="round" {thin}/>'
        )
    parts.append("</g></svg>")
    return "".join(parts)
