"""What makes a table fair: its metrics and whether it meets the ruleset's thresholds."""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict, deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from onefinity.rules.hexgrid import Board, Hex
from onefinity.rules.lineoffire import BoolArray, Terrain, board_visibility
from onefinity.rules.ruleset import TableRules
from onefinity.rules.visibility import Visibility
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


@dataclass(frozen=True, eq=False)
class _BoardFacts:
    """What the metrics need of a board whatever its terrain, computed once per board."""

    # (n, 6) neighbours, n where a hex has fewer than six.
    neighbours: npt.NDArray[np.int64]
    # Rows from each side's table edge, and the half each hex is on ("" on the middle row).
    depth: dict[str, npt.NDArray[np.int64]]
    side: npt.NDArray[np.str_]
    # Hex distance between every two hexes.
    distance: npt.NDArray[np.int16]
    edges: dict[str, tuple[int, ...]]


@functools.lru_cache(maxsize=8)
def _board_facts(board: Board) -> _BoardFacts:
    n = len(board)
    neighbours = np.full((n, 6), n, dtype=np.int64)
    for i, around in enumerate(board.neighbours):
        neighbours[i, : len(around)] = around
    rows = np.array([r for _, r in board.hexes], dtype=np.int64)
    depth = {"A": rows - board.first_row, "B": board.last_row - rows}
    side = np.where(depth["A"] < depth["B"], "A", np.where(depth["B"] < depth["A"], "B", ""))
    hexes = np.array(board.hexes, dtype=np.int64)
    dq = hexes[:, None, 0] - hexes[None, :, 0]
    dr = hexes[:, None, 1] - hexes[None, :, 1]
    distance = ((np.abs(dq) + np.abs(dr) + np.abs(dq + dr)) // 2).astype(np.int16)
    return _BoardFacts(neighbours, depth, side, distance, {s: board.edge_row(s) for s in SIDES})


def _reached_from_both(facts: _BoardFacts, standable: BoolArray) -> BoolArray:
    """Standable hexes that can be reached from both table edges (over standable hexes)."""
    n = len(standable)
    component = np.full(n, -1, dtype=np.int64)
    neighbours = facts.neighbours.tolist()
    stands = standable.tolist()
    label = 0
    for start in np.flatnonzero(standable).tolist():
        if component[start] >= 0:
            continue
        component[start] = label
        queue = deque([start])
        while queue:
            i = queue.popleft()
            for m in neighbours[i]:
                if m < n and stands[m] and component[m] < 0:
                    component[m] = label
                    queue.append(m)
        label += 1
    reached = standable.copy()
    for side in SIDES:
        labels = {int(component[i]) for i in facts.edges[side] if stands[i]}
        reached &= np.isin(component, list(labels))
    return reached


# Line-of-fire states kept per process, so that the next edit of a table recomputes only
# the pairs its changed hexes touch (see onefinity.rules.visibility). Bounded in bytes: the
# largest board's state is about 4 MB.
KEPT_STATES_BYTES = 64_000_000
# A change of more hexes than this is checked whole (an edit is a few hexes; a whole new
# layout costs about as much either way).
INCREMENTAL_HEXES = 64
# Boards up to this size are checked whole, per pair (0.2 ms for the standard board), unless
# a kept state of the table before the change is at hand.
SMALL_BOARD = 400
_kept: OrderedDict[tuple[Board, bytes], Visibility] = OrderedDict()
# The server answers in several threads of one process: the kept states are shared.
_kept_lock = threading.Lock()


def _key(board: Board, terrain: Terrain) -> tuple[Board, bytes]:
    return board, terrain.heights.tobytes() + terrain.levels.tobytes()


def _keep(key: tuple[Board, bytes], state: Visibility) -> None:
    with _kept_lock:
        _keep_locked(key, state)


def _keep_locked(key: tuple[Board, bytes], state: Visibility) -> None:
    _kept[key] = state
    _kept.move_to_end(key)
    size = sum(s.top.nbytes + s.clear.nbytes for s in _kept.values())
    while size > KEPT_STATES_BYTES and len(_kept) > 1:
        _, dropped = _kept.popitem(last=False)
        size -= dropped.top.nbytes + dropped.clear.nbytes


def forget_kept_states() -> None:
    """Drop every kept line-of-fire state (the benchmarks' cold start)."""
    with _kept_lock:
        _kept.clear()


def _clear_lines(
    board: Board, terrain: Terrain, rules: TableRules, before: Mapping[int, str] | None
) -> BoolArray:
    """Every clear line of fire: from a kept state of this very terrain, or by changing a kept
    state of the table before the edit (`before`), or computed whole."""
    key = _key(board, terrain)
    with _kept_lock:
        state = _kept.get(key)
    if state is None and before is not None:
        before_key = _key(board, Terrain.of(board, before, rules))
        with _kept_lock:
            previous = _kept.get(before_key)
        moved = (
            np.count_nonzero(
                (previous.heights != terrain.heights) | (previous.levels != terrain.levels)
            )
            if previous is not None
            else INCREMENTAL_HEXES + 1
        )
        if previous is not None and moved <= INCREMENTAL_HEXES:
            state = previous.changed(terrain)
    if state is None:
        if len(board) <= SMALL_BOARD and before is None:
            return board_visibility(board, terrain)
        state = Visibility.of(board, terrain)
    _keep(key, state)
    return state.clear


def check_table(
    table: TableSpec, rules: TableRules, before: Mapping[int, str] | None = None
) -> TableReport:
    """The table's metrics and problems. `before`: the terrain of the same table before an
    edit, whose kept line-of-fire state (if this process has it) is brought up to date
    instead of checking every line again."""
    board = table.board
    terrain = Terrain.of(board, table.terrain, rules)
    clear = _clear_lines(board, terrain, rules, before)
    standable = terrain.standable
    n = len(board)
    facts = _board_facts(board)
    stand_idx = np.flatnonzero(standable)
    sees = clear[np.ix_(stand_idx, stand_idx)]

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
    longest = (
        int(np.max(facts.distance[np.ix_(stand_idx, stand_idx)], where=sees, initial=0))
        if len(stand_idx)
        else 0
    )

    has_terrain = np.zeros(n + 1, dtype=bool)  # the last: "no neighbour there"
    has_terrain[list(table.terrain)] = True
    in_cover: BoolArray = np.asarray(has_terrain[facts.neighbours].any(axis=1))
    in_cover[[i for i, kind in table.terrain.items() if kind == "cover"]] = True
    high = np.zeros(n, dtype=bool)
    high[[i for i, kind in table.terrain.items() if rules.terrain[kind].level > 0]] = True
    depth = rules.near_edge_depth
    near = {side: stand_idx[facts.depth[side][stand_idx] <= depth] for side in SIDES}
    per_side: dict[str, dict[str, float]] = {}
    exposed: dict[str, BoolArray] = {}
    for side, enemy in (("A", "B"), ("B", "A")):
        own = near[side]
        seen: BoolArray = (
            np.asarray(clear[np.ix_(own, near[enemy])].any(axis=1))
            if len(own) and len(near[enemy])
            else np.zeros(len(own), dtype=bool)
        )
        exposed[side] = seen
        per_side[side] = {
            "cover_near_edge": int(np.count_nonzero(in_cover[own])),
            "exposure": round(100 * float(seen.mean()), 1) if len(own) else 0.0,
            "high_ground": int(np.count_nonzero(high & (facts.side == side))),
            "near_edge_hexes": len(own),
        }

    seen_counts = np.count_nonzero(sees, axis=1) - 1
    best = int(np.argmax(seen_counts)) if len(seen_counts) else 0
    dominance = float(seen_counts[best] / max(1, len(stand_idx) - 1)) if len(seen_counts) else 0.0

    reached = _reached_from_both(facts, standable)
    unreachable = tuple(board.hexes[i] for i in stand_idx if not reached[i])

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
