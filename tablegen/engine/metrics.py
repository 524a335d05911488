"""What makes a table fair: its metrics and whether it meets the ruleset's thresholds."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from onefinity.rules.bounded_cache import Recent
from onefinity.rules.hexgrid import NEIGHBOUR_STEPS, Board, Hex
from onefinity.rules.lineoffire import BoolArray, IntArray, Terrain
from onefinity.rules.ruleset import TableRules
from onefinity.rules.visibility import Visibility, board_visibility
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

    # (n, 6) neighbours (in no particular order), n where a hex has fewer than six.
    neighbours: npt.NDArray[np.int64]
    # Rows from each side's table edge, and the half each hex is on ("" on the middle row).
    depth: dict[str, npt.NDArray[np.int64]]
    side: npt.NDArray[np.str_]
    # (n, 2) axial coordinates, for hex distances.
    hexes: npt.NDArray[np.int64]
    edges: dict[str, tuple[int, ...]]
    # Each hex's bit in a board-sized integer (rows of `stride` bits, two of them spare, so
    # that a neighbour's bit is the hex's shifted by 1, stride - 1 or stride): the flood fill
    # of ``_reached_from_both``.
    stride: int
    bit: npt.NDArray[np.int64]
    # Longer than the longest distance between two hexes of the board.
    lengths: int


@functools.lru_cache(maxsize=8)
def _board_facts(board: Board) -> _BoardFacts:
    n = len(board)
    hexes = np.array(board.hexes, dtype=np.int64)
    rows = hexes[:, 1]
    # Neighbours, by a look-up grid with a border of "none" (n) round the board.
    q0, r0 = int(hexes[:, 0].min()), int(rows.min())
    grid = np.full((int(rows.max()) - r0 + 3, int(hexes[:, 0].max()) - q0 + 3), n)
    grid[rows - r0 + 1, hexes[:, 0] - q0 + 1] = np.arange(n)
    neighbours = np.stack(
        [grid[rows - r0 + 1 + dr, hexes[:, 0] - q0 + 1 + dq] for dq, dr in NEIGHBOUR_STEPS],
        axis=1,
    ).astype(np.int64)
    depth = {"A": rows - board.first_row, "B": board.last_row - rows}
    side = np.where(depth["A"] < depth["B"], "A", np.where(depth["B"] < depth["A"], "B", ""))
    q0 = int(hexes[:, 0].min())
    span_q = int(hexes[:, 0].max()) - q0 + 1
    stride = span_q + 2
    bit = (rows - board.first_row) * stride + hexes[:, 0] - q0
    lengths = span_q + int(rows.max() - rows.min()) + 1
    return _BoardFacts(
        neighbours, depth, side, hexes, {s: board.edge_row(s) for s in SIDES}, stride, bit, lengths
    )


def _distance(
    facts: _BoardFacts, i: npt.NDArray[np.integer[Any]], j: npt.NDArray[np.integer[Any]]
) -> IntArray:
    """Hex distances between the hexes i and j (arrays of board indices)."""
    dq = facts.hexes[i, 0] - facts.hexes[j, 0]
    dr = facts.hexes[i, 1] - facts.hexes[j, 1]
    result: IntArray = (np.abs(dq) + np.abs(dr) + np.abs(dq + dr)) // 2
    return result


def _as_int(facts: _BoardFacts, hexes: BoolArray) -> int:
    bits = np.zeros(int(facts.bit.max()) + 1, dtype=bool)
    bits[facts.bit] = hexes
    return int.from_bytes(np.packbits(bits, bitorder="little").tobytes(), "little")


def _flood(start: int, allowed: int, stride: int) -> int:
    """Every hex of `allowed` reached from `start` through neighbours in `allowed`."""
    reached = start & allowed
    while True:
        grown = reached | reached << 1 | reached >> 1 | reached << stride | reached >> stride
        grown |= reached << (stride - 1) | reached >> (stride - 1)
        grown &= allowed
        if grown == reached:
            return reached
        reached = grown


def _reached_from_both(facts: _BoardFacts, standable: BoolArray) -> BoolArray:
    """Standable hexes that can be reached from both table edges (over standable hexes)."""
    allowed = _as_int(facts, standable)
    reached = allowed
    for side in SIDES:
        edge = np.zeros(len(standable), dtype=bool)
        edge[list(facts.edges[side])] = True
        reached &= _flood(_as_int(facts, edge), allowed, facts.stride)
    size = int(facts.bit.max()) // 8 + 1
    bits = np.unpackbits(
        np.frombuffer(reached.to_bytes(size, "little"), dtype=np.uint8), bitorder="little"
    )
    found: BoolArray = bits[facts.bit].astype(bool)
    return found


def _packed(rows: BoolArray) -> npt.NDArray[np.uint64]:
    """Rows of booleans as 64-bit words (bit j of word k: column 64 k + j)."""
    packed = np.packbits(rows, axis=-1, bitorder="little")
    spare = -packed.shape[-1] % 8
    if spare:
        packed = np.concatenate(
            [packed, np.zeros((*packed.shape[:-1], spare), dtype=np.uint8)], axis=-1
        )
    words: npt.NDArray[np.uint64] = packed.view("<u8")
    return words


def _seen_by(clear: BoolArray, audiences: list[BoolArray]) -> list[IntArray]:
    """For each audience (a set of hexes), how many of its hexes each hex sees."""
    rows = _packed(clear)
    counts: list[IntArray] = []
    for audience in audiences:
        mask = _packed(audience)
        counts.append(np.bitwise_count(rows & mask).sum(axis=1, dtype=np.int64))
    return counts


def _lengths_whole(facts: _BoardFacts, clear: BoolArray, standable: BoolArray) -> IntArray:
    """Clear lines between two standable hexes (each pair once), by their length in hexes."""
    stand = np.flatnonzero(standable)
    s, t = np.nonzero(np.triu(clear[np.ix_(stand, stand)], 1))
    lengths: IntArray = np.bincount(_distance(facts, stand[s], stand[t]), minlength=facts.lengths)
    return lengths


def _lengths_of(facts: _BoardFacts, state: Visibility, standable: BoolArray) -> IntArray:
    """``_lengths_whole`` from a line-of-fire state: its pairs taken a segment (one
    direction, so one length) at a time."""
    lines = state.lines
    # Each hex's level (as ``visibility._clear``: 127 sees over any height) and whether it
    # is standable, in one number: two gathers a pair.
    code = np.minimum(state.levels, 127).astype(np.int16) * 2 + standable
    a, b = code[lines.pair_s], code[lines.pair_t]
    counted = (state.top <= (np.maximum(a, b) >> 1)) & ((a & b & 1) == 1)
    per_segment = np.add.reduceat(counted.view(np.int8), lines.seg_pairs)
    dq, dr = lines.dir_q[lines.seg_dir], lines.dir_r[lines.seg_dir]
    length = (np.abs(dq) + np.abs(dr) + np.abs(dq + dr)) // 2
    lengths: IntArray = np.bincount(length, weights=per_segment, minlength=facts.lengths).astype(
        np.int64
    )
    return lengths


def _longest(state: Visibility, standable: BoolArray) -> int:
    """The longest clear line between two standable hexes, in hexes: the pairs of the
    longest directions first, stopping at the first length that has one (a whole check
    needs no more than this; lines by length are counted when an edit first needs them)."""
    lines = state.lines
    dq, dr = lines.dir_q.astype(np.int64), lines.dir_r.astype(np.int64)
    length = (np.abs(dq) + np.abs(dr) + np.abs(dq + dr)) // 2
    # Pairs are in order of segments, and segments in order of direction.
    seg_start = np.searchsorted(lines.seg_dir, np.arange(len(dq) + 1))
    bounds = np.append(lines.seg_pairs, lines.pairs)[seg_start]
    code = np.minimum(state.levels, 127).astype(np.int16) * 2 + standable
    # Each length once, longest first (not np.unique: its first call imports numpy.ma,
    # 30 ms of a cold check).
    for value in np.flatnonzero(np.bincount(length))[::-1].tolist():
        chosen = np.flatnonzero(length == value)
        starts, sizes = bounds[chosen], bounds[chosen + 1] - bounds[chosen]
        if not sizes.any():
            continue
        pairs = np.repeat(starts - np.cumsum(sizes) + sizes, sizes) + np.arange(sizes.sum())
        a, b = code[lines.pair_s[pairs]], code[lines.pair_t[pairs]]
        if ((state.top[pairs] <= (np.maximum(a, b) >> 1)) & ((a & b & 1) == 1)).any():
            return int(value)
    return 0


@dataclass(frozen=True, eq=False)
class _State:
    """What a check keeps of a table's terrain for the next edit: its line-of-fire state,
    and the clear lines between standable hexes by length (kept up to date pair by pair;
    None until an edit first needs them)."""

    lines: Visibility
    standable: BoolArray
    lengths: IntArray | None

    def longest(self) -> int:
        if self.lengths is None:
            return _longest(self.lines, self.standable)
        return int(np.flatnonzero(self.lengths)[-1]) if self.lengths.any() else 0

    @property
    def nbytes(self) -> int:
        return self.lines.top.nbytes + self.lines.clear.nbytes

    def changed(self, facts: _BoardFacts, terrain: Terrain) -> _State:
        """The state of the table with `terrain`, recomputing only the pairs whose line
        crosses, runs along or ends at a changed hex."""
        lines, pairs = self.lines.changed_pairs(terrain)
        standable = terrain.standable
        moved = np.flatnonzero(standable != self.standable)
        # Each pair once (a mark per pair: np.unique hashes, ten times slower here).
        marked = np.zeros(lines.lines.pairs, dtype=bool)
        marked[pairs] = True
        for index in moved.tolist():
            marked[lines.pairs_at(index)] = True
        pairs = np.flatnonzero(marked)
        at, s, t = lines.lines.places(pairs)
        was = self.lines.clear.reshape(-1)[at] & self.standable[s] & self.standable[t]
        now = lines.clear.reshape(-1)[at] & standable[s] & standable[t]
        length = _distance(facts, s, t)
        before = (
            self.lengths
            if self.lengths is not None
            else _lengths_of(facts, self.lines, self.standable)
        )
        lengths = (
            before
            + np.bincount(length[now], minlength=facts.lengths)
            - np.bincount(length[was], minlength=facts.lengths)
        )
        return _State(lines, standable.copy(), lengths)


# Line-of-fire states kept per process, so that the next edit of a table recomputes only
# the pairs its changed hexes touch (see onefinity.rules.visibility; onefinity.rules.bounded_cache
# says why a pure engine keeps them). Bounded in bytes: the largest board's state is about
# 4 MB.
KEPT_STATES_BYTES = 64_000_000
# A change of more hexes than this is checked whole (an edit is a few hexes; a whole new
# layout costs about as much either way).
INCREMENTAL_HEXES = 64
# Boards up to this size are checked whole, per pair (0.2 ms for the standard board), unless
# a kept state of the table before the change is at hand.
SMALL_BOARD = 400
# Shared by the server's threads of one process.
_kept: Recent[tuple[Board, bytes], _State] = Recent(KEPT_STATES_BYTES, lambda s: s.nbytes)


def _key(board: Board, terrain: Terrain) -> tuple[Board, bytes]:
    return board, (
        terrain.heights.tobytes() + terrain.levels.tobytes() + terrain.standable.tobytes()
    )


def forget_kept_states() -> None:
    """Drop every kept line-of-fire state (the benchmarks' cold start)."""
    _kept.clear()


def _nearest(board: Board, terrain: Terrain) -> _State | None:
    """The kept state of this board whose terrain differs from `terrain` in the fewest
    hexes, if at most INCREMENTAL_HEXES: most often the table before the edit, but also the
    same table a few edits ago (a server's other worker, which saw the table before its
    last edits) or another table much like it. Changing any of them is exact."""
    same_board = [state for (kept, _), state in _kept.items() if kept == board]
    nearest, fewest = None, INCREMENTAL_HEXES + 1
    for state in same_board:
        moved = int(
            np.count_nonzero(
                (state.lines.heights != terrain.heights)
                | (state.lines.levels != terrain.levels)
                | (state.standable != terrain.standable)
            )
        )
        if moved < fewest:
            nearest, fewest = state, moved
    return nearest


def _clear_lines(
    board: Board, terrain: Terrain, before: Mapping[int, str] | None
) -> tuple[BoolArray, int]:
    """Every clear line of fire, and the longest between two standable hexes: from a kept
    state of this very terrain, or by changing the nearest kept state of the board (for an
    edit, `before` given, or on a large board), or computed whole."""
    facts = _board_facts(board)
    key = _key(board, terrain)
    state = _kept.get(key)
    if state is None and (before is not None or len(board) > SMALL_BOARD):
        previous = _nearest(board, terrain)
        if previous is not None:
            state = previous.changed(facts, terrain)
    if state is None:
        if len(board) <= SMALL_BOARD and before is None:
            clear = board_visibility(board, terrain)
            lengths = _lengths_whole(facts, clear, terrain.standable)
            return clear, int(np.flatnonzero(lengths)[-1]) if lengths.any() else 0
        state = _State(Visibility.of(board, terrain), terrain.standable.copy(), None)
    _kept.put(key, state)
    return state.lines.clear, state.longest()


@dataclass(frozen=True, eq=False)
class _Sightings:
    """Who sees whom, as the side metrics and the dominance read it: each side's standable
    hexes near its own edge, and per hex how many standable hexes it sees and how many of
    each side's near-edge hexes."""

    near: dict[str, IntArray]
    standable_seen: IntArray
    near_seen: dict[str, IntArray]

    @classmethod
    def of(
        cls, facts: _BoardFacts, clear: BoolArray, standable: BoolArray, depth: int
    ) -> _Sightings:
        near_hexes = {side: standable & (facts.depth[side] <= depth) for side in SIDES}
        # One pass over the lines for the three audiences.
        seen_all, seen_from_a, seen_from_b = _seen_by(
            clear, [standable, near_hexes["A"], near_hexes["B"]]
        )
        return cls(
            {side: np.flatnonzero(near_hexes[side]) for side in SIDES},
            seen_all,
            {"A": seen_from_a, "B": seen_from_b},
        )


def _edge_lanes(
    board: Board, facts: _BoardFacts, clear: BoolArray, standable: BoolArray
) -> tuple[tuple[Hex, Hex], ...]:
    """The clear lines of fire from a standable hex of side A's edge row to one of side B's."""
    edge_a = [i for i in facts.edges["A"] if standable[i]]
    edge_b = [i for i in facts.edges["B"] if standable[i]]
    lane_matrix = (
        clear[np.ix_(edge_a, edge_b)] if edge_a and edge_b else np.zeros((0, 0), dtype=bool)
    )
    return tuple(
        (board.hexes[edge_a[a]], board.hexes[edge_b[b]])
        for a, b in zip(*np.nonzero(lane_matrix), strict=True)
    )


def _in_cover(table: TableSpec, facts: _BoardFacts) -> BoolArray:
    """The hexes in cover: cover terrain, and every hex next to any terrain."""
    has_terrain = np.zeros(len(table.board) + 1, dtype=bool)  # the last: "no neighbour there"
    has_terrain[list(table.terrain)] = True
    in_cover: BoolArray = np.asarray(has_terrain[facts.neighbours].any(axis=1))
    in_cover[[i for i, kind in table.terrain.items() if kind == "cover"]] = True
    return in_cover


def _side_metrics(
    facts: _BoardFacts, terrain: Terrain, sightings: _Sightings, in_cover: BoolArray
) -> dict[str, dict[str, float]]:
    """Each side's cover and exposure near its edge (as the other side sees it), and its
    high ground."""
    high = terrain.levels > 0
    per_side: dict[str, dict[str, float]] = {}
    for side, enemy in (("A", "B"), ("B", "A")):
        own = sightings.near[side]
        seen: BoolArray = sightings.near_seen[enemy][own] > 0
        per_side[side] = {
            "cover_near_edge": int(np.count_nonzero(in_cover[own])),
            "exposure": round(100 * float(seen.mean()), 1) if len(own) else 0.0,
            "high_ground": int(np.count_nonzero(high & (facts.side == side))),
            "near_edge_hexes": len(own),
        }
    return per_side


def _dominance(
    board: Board, sightings: _Sightings, stand_idx: IntArray
) -> tuple[float, list[int] | None]:
    """The share of the other standable hexes that the hex seeing most of them sees, and
    that hex (the first of them in board order)."""
    seen_counts = sightings.standable_seen[stand_idx] - 1
    best = int(np.argmax(seen_counts)) if len(seen_counts) else 0
    dominance = float(seen_counts[best] / max(1, len(stand_idx) - 1)) if len(seen_counts) else 0.0
    return dominance, list(board.hexes[int(stand_idx[best])]) if len(stand_idx) else None


def check_table(
    table: TableSpec, rules: TableRules, before: Mapping[int, str] | None = None
) -> TableReport:
    """The table's metrics and problems. `before`: the terrain of the same table before an
    edit, whose kept line-of-fire state (if this process has it) is brought up to date
    instead of checking every line again."""
    board = table.board
    terrain = Terrain.of(board, table.terrain, rules)
    clear, longest = _clear_lines(board, terrain, before)
    standable = terrain.standable
    facts = _board_facts(board)
    stand_idx = np.flatnonzero(standable)
    lanes = _edge_lanes(board, facts, clear, standable)
    sightings = _Sightings.of(facts, clear, standable, rules.near_edge_depth)
    in_cover = _in_cover(table, facts)
    per_side = _side_metrics(facts, terrain, sightings, in_cover)
    dominance, dominant_hex = _dominance(board, sightings, stand_idx)
    reached = _reached_from_both(facts, standable)
    unreachable = tuple(board.hexes[i] for i in stand_idx[~reached[stand_idx]].tolist())
    coverage = len(table.terrain) / len(board)
    metrics: dict[str, Any] = {
        "hexes": len(board),
        "terrain_hexes": len(table.terrain),
        "coverage": round(coverage, 4),
        "edge_lanes": len(lanes),
        "longest_sightline": longest,
        "sides": per_side,
        "dominance": round(dominance, 4),
        "dominant_hex": dominant_hex,
        "connected": not unreachable,
        "line_of_fire_policy": rules.line_of_fire_version,
    }
    findings = _Findings(table, coverage, lanes, sightings, in_cover, per_side, unreachable)
    problems = tuple(
        problem for verdict in _VERDICTS if (problem := verdict(findings, rules)) is not None
    )
    return TableReport(metrics, problems, clear, terrain, lanes, unreachable)


# Reports already made in this process, by everything a check reads of a table: its board
# and each hex's kind (the rules are kept with the report and must be the very same). A page
# drawn again for a table that has not changed (a shared table's line of fire from another
# hex, the editor opened again, the generate page of a table the worker made) reads its
# report here instead of checking every line again; a table changed in any hex is another
# key, so a kept report is never an old one. Bounded in bytes (a report holds n x n lines of
# fire: 11 KB for the standard board, 2.6 MB for 40 x 40), shared by the server's threads;
# a report is read, never changed, by the pages (onefinity.rules.bounded_cache).
KEPT_REPORTS_BYTES = 16_000_000
_reports: Recent[tuple[Board, frozenset[tuple[int, str]]], tuple[TableRules, TableReport]] = Recent(
    KEPT_REPORTS_BYTES, lambda kept: _report_bytes(kept[1])
)


def _report_bytes(report: TableReport) -> int:
    # Its lines of fire and per-hex arrays, and its key: about 100 bytes a terrain hex.
    terrain = report.terrain
    arrays = terrain.heights.nbytes + terrain.levels.nbytes + terrain.standable.nbytes
    return report.clear.nbytes + arrays + 100 * int(report.metrics["terrain_hexes"])


def checked_table(
    table: TableSpec, rules: TableRules, before: Mapping[int, str] | None = None
) -> TableReport:
    """``check_table``'s report, the one kept if this process has checked a table of the
    same board and terrain under the same rules before (the name, seed and pieces change
    no report); otherwise checked (from `before`, as check_table does) and kept."""
    key = (table.board, frozenset(table.terrain.items()))
    kept = _reports.get(key)
    if kept is not None and kept[0] is rules:
        return kept[1]
    report = check_table(table, rules, before=before)
    _reports.put(key, (rules, report))
    return report


def forget_kept_reports() -> None:
    """Drop every kept report (the benchmarks' cold start, and tests)."""
    _reports.clear()


# --- The verdict: each of the ruleset's thresholds, one check -----------------------------------


@dataclass(frozen=True, eq=False)
class _Findings:
    """What the checks against the ruleset's thresholds read of a table."""

    table: TableSpec
    coverage: float
    lanes: tuple[tuple[Hex, Hex], ...]
    sightings: _Sightings
    in_cover: BoolArray
    sides: dict[str, dict[str, float]]
    unreachable: tuple[Hex, ...]

    def terrain_hexes(self) -> tuple[Hex, ...]:  # named only by a coverage problem
        board = self.table.board
        return tuple(board.hexes[i] for i in sorted(self.table.terrain))


def _coverage_low(findings: _Findings, rules: TableRules) -> Problem | None:
    coverage = findings.coverage
    if coverage >= rules.coverage_min:
        return None
    return Problem(
        "table.coverage.low",
        f"Terrain covers {coverage:.0%} of the table; it needs at least {rules.coverage_min:.0%}.",
        findings.terrain_hexes(),
        {"coverage": round(coverage, 4), "minimum": rules.coverage_min},
    )


def _coverage_high(findings: _Findings, rules: TableRules) -> Problem | None:
    coverage = findings.coverage
    if coverage <= rules.coverage_max:
        return None
    return Problem(
        "table.coverage.high",
        f"Terrain covers {coverage:.0%} of the table; at most {rules.coverage_max:.0%}.",
        findings.terrain_hexes(),
        {"coverage": round(coverage, 4), "maximum": rules.coverage_max},
    )


def _edge_lanes_open(findings: _Findings, rules: TableRules) -> Problem | None:
    lanes = findings.lanes
    if len(lanes) <= rules.edge_lanes_max:
        return None
    return Problem(
        "table.edge-lanes",
        f"{len(lanes)} clear firing lane{'s' if len(lanes) != 1 else ''} run from edge to edge; "
        f"at most {rules.edge_lanes_max}.",
        tuple(sorted({h for lane in lanes for h in lane})),
        {"edge_lanes": len(lanes), "maximum": rules.edge_lanes_max},
    )


def _cover_unbalanced(findings: _Findings, rules: TableRules) -> Problem | None:
    cover_a = findings.sides["A"]["cover_near_edge"]
    cover_b = findings.sides["B"]["cover_near_edge"]
    if abs(cover_a - cover_b) <= rules.cover_difference_max:
        return None
    weaker = "A" if cover_a < cover_b else "B"
    board = findings.table.board
    return Problem(
        "table.cover.unbalanced",
        f"Side A has {cover_a:g} hexes in cover near its edge and side B {cover_b:g}; "
        f"they may differ by at most {rules.cover_difference_max}. Marked: side "
        f"{weaker}'s near-edge hexes without cover.",
        tuple(
            board.hexes[i]
            for i in findings.sightings.near[weaker].tolist()
            if not findings.in_cover[i]
        ),
        {
            "side_a": cover_a,
            "side_b": cover_b,
            "maximum_difference": rules.cover_difference_max,
        },
    )


def _exposure_unbalanced(findings: _Findings, rules: TableRules) -> Problem | None:
    exposure_a = findings.sides["A"]["exposure"]
    exposure_b = findings.sides["B"]["exposure"]
    if abs(exposure_a - exposure_b) <= rules.exposure_difference_max:
        return None
    exposed = "A" if exposure_a > exposure_b else "B"
    enemy = "B" if exposed == "A" else "A"
    board, sightings = findings.table.board, findings.sightings
    return Problem(
        "table.exposure.unbalanced",
        f"Side A's near-edge hexes are {exposure_a:g} % exposed and side B's {exposure_b:g} %; "
        f"they may differ by at most {rules.exposure_difference_max:g} points. Marked: "
        f"side {exposed}'s near-edge hexes that side {enemy} sees.",
        tuple(
            board.hexes[i]
            for i in sightings.near[exposed].tolist()
            if sightings.near_seen[enemy][i] > 0
        ),
        {
            "side_a": exposure_a,
            "side_b": exposure_b,
            "maximum_difference": rules.exposure_difference_max,
        },
    )


def _disconnected(findings: _Findings, rules: TableRules) -> Problem | None:
    unreachable = findings.unreachable
    if not (rules.connected and unreachable):
        return None
    return Problem(
        "table.disconnected",
        f"{len(unreachable)} standable hex{'es' if len(unreachable) != 1 else ''} cannot be reached from both table edges.",
        unreachable,
        {"unreachable": len(unreachable)},
    )


# In the order a report lists its problems.
_VERDICTS: tuple[Callable[[_Findings, TableRules], Problem | None], ...] = (
    _coverage_low,
    _coverage_high,
    _edge_lanes_open,
    _cover_unbalanced,
    _exposure_unbalanced,
    _disconnected,
)


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
