"""What makes a table fair: its metrics and whether it meets the ruleset's thresholds."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from onefinity.rules.hexgrid import Hex, hex_distances
from onefinity.rules.lineoffire import BoolArray, Terrain, board_visibility
from onefinity.rules.ruleset import TableRules
from tablegen.engine.tables import TableSpec

SIDES = ("A", "B")


@dataclass(frozen=True)
class Problem:
    code: str
    message: str
    hexes: tuple[Hex, ...] = ()
    numbers: dict[str, float] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "message": self.message,
            "hexes": [list(h) for h in self.hexes],
            "numbers": self.numbers,
        }


@dataclass(frozen=True)
class TableReport:
    metrics: dict[str, Any]
    problems: tuple[Problem, ...]
    clear: BoolArray
    terrain: Terrain
    lanes: tuple[tuple[Hex, Hex], ...]
    unreachable: tuple[Hex, ...]

    @property
    def valid(self) -> bool:
        return not self.problems

    def as_dict(self) -> dict[str, Any]:
        return {
            "valid": self.valid,
            "metrics": self.metrics,
            "problems": [p.as_dict() for p in self.problems],
        }


def _in_cover(table: TableSpec, i: int) -> bool:
    """In cover: its own hex is cover, or a neighbouring hex holds terrain."""
    return table.terrain.get(i) == "cover" or any(
        m in table.terrain for m in table.board.neighbours[i]
    )


def _reachable(table: TableSpec, standable: BoolArray, starts: tuple[int, ...]) -> set[int]:
    seen = {i for i in starts if standable[i]}
    queue = deque(seen)
    while queue:
        i = queue.popleft()
        for m in table.board.neighbours[i]:
            if standable[m] and m not in seen:
                seen.add(m)
                queue.append(m)
    return seen


def check_table(table: TableSpec, rules: TableRules) -> TableReport:
    board = table.board
    terrain = Terrain.of(board, table.terrain, rules)
    clear = board_visibility(board, terrain)
    standable = terrain.standable
    n = len(board)
    stand_idx = np.flatnonzero(standable)
    sees = clear[np.ix_(standable, standable)]

    coverage = len(table.terrain) / n
    edge_a = [i for i in board.edge_row("A") if standable[i]]
    edge_b = [i for i in board.edge_row("B") if standable[i]]
    lane_matrix = (
        clear[np.ix_(edge_a, edge_b)] if edge_a and edge_b else np.zeros((0, 0), dtype=bool)
    )
    lanes = tuple(
        (board.hexes[edge_a[a]], board.hexes[edge_b[b]])
        for a, b in zip(*np.nonzero(lane_matrix), strict=True)
    )

    # Longest clear sightline between standable hexes, in hexes.
    longest = 0
    pairs = np.argwhere(np.triu(sees, 1))
    if len(pairs):
        hexes = np.array(board.hexes, dtype=np.int64)[stand_idx]
        longest = int(hex_distances(hexes[pairs[:, 0]], hexes[pairs[:, 1]]).max())

    near = {
        side: [i for i in stand_idx if board.depth_from_edge(int(i), side) <= rules.near_edge_depth]
        for side in SIDES
    }
    per_side: dict[str, dict[str, float]] = {}
    for side, enemy in (("A", "B"), ("B", "A")):
        own = near[side]
        seen = (
            clear[np.ix_(own, near[enemy])].any(axis=1)
            if own and near[enemy]
            else np.zeros(len(own), dtype=bool)
        )
        per_side[side] = {
            "cover_near_edge": sum(1 for i in own if _in_cover(table, int(i))),
            "exposure": round(100 * float(seen.mean()), 1) if own else 0.0,
            "high_ground": sum(
                1
                for i, kind in table.terrain.items()
                if kind == "elevated" and board.side_of(i) == side
            ),
            "near_edge_hexes": len(own),
        }

    seen_counts = sees.sum(axis=1) - 1
    best = int(np.argmax(seen_counts)) if len(seen_counts) else 0
    dominance = float(seen_counts[best] / max(1, len(stand_idx) - 1)) if len(seen_counts) else 0.0

    from_a = _reachable(table, standable, board.edge_row("A"))
    from_b = _reachable(table, standable, board.edge_row("B"))
    unreachable = tuple(board.hexes[i] for i in stand_idx if i not in from_a or i not in from_b)

    metrics: dict[str, Any] = {
        "hexes": n,
        "terrain_hexes": len(table.terrain),
        "coverage": round(coverage, 4),
        "edge_lanes": len(lanes),
        "longest_sightline": longest,
        "sides": per_side,
        "dominance": round(dominance, 4),
        "dominant_hex": list(board.hexes[int(stand_idx[best])]) if len(stand_idx) else None,
        "connected": not unreachable,
        "line_of_fire_policy": rules.line_of_fire_version,
    }

    problems = []
    terrain_hexes = tuple(board.hexes[i] for i in sorted(table.terrain))
    if coverage < rules.coverage_min:
        problems.append(
            Problem(
                "table.coverage.low",
                f"Terrain covers {coverage:.0%} of the table; it needs at least {rules.coverage_min:.0%}.",
                terrain_hexes,
                {"coverage": round(coverage, 4), "minimum": rules.coverage_min},
            )
        )
    if coverage > rules.coverage_max:
        problems.append(
            Problem(
                "table.coverage.high",
                f"Terrain covers {coverage:.0%} of the table; at most {rules.coverage_max:.0%}.",
                terrain_hexes,
                {"coverage": round(coverage, 4), "maximum": rules.coverage_max},
            )
        )
    if len(lanes) > rules.edge_lanes_max:
        ends = tuple(sorted({h for lane in lanes for h in lane}))
        problems.append(
            Problem(
                "table.edge-lanes",
                f"{len(lanes)} clear firing lane{'s' if len(lanes) != 1 else ''} run from edge to edge; "
                f"at most {rules.edge_lanes_max}.",
                ends,
                {"edge_lanes": len(lanes), "maximum": rules.edge_lanes_max},
            )
        )
    cover_a, cover_b = per_side["A"]["cover_near_edge"], per_side["B"]["cover_near_edge"]
    if abs(cover_a - cover_b) > rules.cover_difference_max:
        problems.append(
            Problem(
                "table.cover.unbalanced",
                f"Side A has {cover_a:g} hexes in cover near its edge and side B {cover_b:g}; "
                f"they may differ by at most {rules.cover_difference_max}.",
                (),
                {
                    "side_a": cover_a,
                    "side_b": cover_b,
                    "maximum_difference": rules.cover_difference_max,
                },
            )
        )
    exposure_a, exposure_b = per_side["A"]["exposure"], per_side["B"]["exposure"]
    if abs(exposure_a - exposure_b) > rules.exposure_difference_max:
        problems.append(
            Problem(
                "table.exposure.unbalanced",
                f"Side A's near-edge hexes are {exposure_a:g} % exposed and side B's {exposure_b:g} %; "
                f"they may differ by at most {rules.exposure_difference_max:g} points.",
                (),
                {
                    "side_a": exposure_a,
                    "side_b": exposure_b,
                    "maximum_difference": rules.exposure_difference_max,
                },
            )
        )
    if rules.connected and unreachable:
        problems.append(
            Problem(
                "table.disconnected",
                f"{len(unreachable)} standable hex{'es' if len(unreachable) != 1 else ''} cannot be reached from both table edges.",
                unreachable,
                {"unreachable": len(unreachable)},
            )
        )
    return TableReport(metrics, tuple(problems), clear, terrain, lanes, unreachable)


def report_summary(report: TableReport) -> dict[str, Any]:
    """What a list of tables shows of a table's report: small, kept with the table when it
    is saved, so listing tables never checks one (40 x 40 takes a second each)."""
    metrics = report.metrics
    return {
        "valid": report.valid,
        "problems": len(report.problems),
        "coverage": metrics["coverage"],
        "hexes": metrics["hexes"],
        "terrain_hexes": metrics["terrain_hexes"],
        "edge_lanes": metrics["edge_lanes"],
    }


def sightlines(report: TableReport) -> list[int]:
    """How many standable hexes each hex sees (for the heat map); 0 for blocking hexes."""
    standable = report.terrain.standable
    counts = (report.clear & standable[None, :]).sum(axis=1) - 1
    return [int(c) if standable[i] else 0 for i, c in enumerate(counts)]
