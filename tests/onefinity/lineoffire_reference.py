"""A straightforward, per-pair line of fire with shapely: the independent reference.

It states the policy in the plainest terms (does the line's interior meet the hexagon's
interior; does the line overlap a shared side with positive length) and asks GEOS, on
the same integer lattice, so its predicates are exact. The tests compare the fast engine
with it, and the benchmark times it beside the engine.
"""

from __future__ import annotations

from shapely import LineString, Polygon

from onefinity.rules.hexgrid import CORNERS, Board, Hex, shared_side
from onefinity.rules.lineoffire import Terrain


def _hexagon(board: Board, k: int) -> Polygon:
    x, y = board.centres[k]
    return Polygon([(x + dx, y + dy) for dx, dy in CORNERS])


def reference_clear(board: Board, terrain: Terrain, a: Hex, b: Hex) -> bool:
    i, j = board.index[a], board.index[b]
    if i == j or j in board.neighbours[i]:
        return True
    threshold = max(int(terrain.levels[i]), int(terrain.levels[j]))
    line = LineString([board.centres[i], board.centres[j]])
    too_high = [k for k in range(len(board)) if k not in (i, j) and terrain.heights[k] > threshold]
    for k in too_high:
        # DE-9IM: the first cell says whether the two interiors meet.
        if line.relate(_hexagon(board, k))[0] != "F":
            return False
    high = set(too_high)
    for k in too_high:
        for m in board.neighbours[k]:
            if m > k and m in high:
                side = LineString(shared_side(board, k, m))
                if line.intersection(side).length > 0:
                    return False
    return True
