"""Tournament packs: N distinct valid tables whose metrics are within tolerance of each other."""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from statistics import median
from typing import Any

from onefinity.rules.hexgrid import Board
from onefinity.rules.ruleset import TableRules
from tablegen.engine.boxes import what_is_missing
from tablegen.engine.generate import (
    GenerationError,
    GenerationTimeout,
    Parameters,
    generate_table,
)
from tablegen.engine.library import terrain_library
from tablegen.engine.metrics import TableReport, check_table
from tablegen.engine.tables import (
    MAX_NAME_LENGTH,
    TableSpec,
    read_table_document,
    table_document,
)

MAX_PACK = 200
# The most one table of a pack may take: a step of a pack's work stays short whatever the seed.
TABLE_SECONDS = 2.0
# Seeds a pack from a terrain box tries before it gives up when none has made a table: the
# box cannot make them (the pack then says what the box lacks, once).
BOX_TRIES = 5


def pack_table_name(pack_name: str, number: int, seed: int | None) -> str:
    """The name of a pack's table: "<pack> <n> (seed <s>)", the pack's name shortened (with
    an ellipsis) when the whole would be over the name limit, so every table reads back."""
    suffix = f" {number} (seed {seed})"
    room = MAX_NAME_LENGTH - len(suffix)
    name = pack_name.strip()
    if len(name) > room:
        name = name[: room - 1].rstrip() + "…"
    return name + suffix


def pack_tolerance() -> dict[str, float]:
    """How close a pack's tables must be, metric by metric (from the terrain library)."""
    return dict(terrain_library().pack_tolerance)


def fairness(report: TableReport) -> dict[str, float]:
    """The numbers a pack keeps close: one value per metric, sides averaged."""
    m = report.metrics
    return {
        "coverage": m["coverage"],
        "longest_sightline": m["longest_sightline"],
        "dominance": m["dominance"],
        "exposure": (m["sides"]["A"]["exposure"] + m["sides"]["B"]["exposure"]) / 2,
        "cover_near_edge": (m["sides"]["A"]["cover_near_edge"] + m["sides"]["B"]["cover_near_edge"])
        / 2,
    }


@dataclass(frozen=True)
class Pack:
    tables: tuple[tuple[TableSpec, TableReport], ...]
    spread: dict[str, float]
    candidates: int


# Candidates whose median sets the pack's centre.
CENTRE_SAMPLE = 20


@dataclass
class PackState:
    """Where a pack's generation stands, as plain data so it can be resumed later."""

    seed: int
    candidates: int = 0
    centre: dict[str, float] | None = None
    sample: list[dict[str, Any]] = field(default_factory=list)
    seen: list[str] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "candidates": self.candidates,
            "centre": self.centre,
            "sample": self.sample,
            "seen": self.seen,
        }

    @classmethod
    def from_json(cls, saved: dict[str, Any]) -> PackState:
        return cls(
            int(saved["seed"]),
            int(saved["candidates"]),
            saved["centre"],
            list(saved["sample"]),
            list(saved["seen"]),
        )


def aligned(summaries: object, count: int) -> list[Any]:
    """A pack's stored summaries, one place per table (an empty one where none is kept)."""
    kept = list(summaries)[:count] if isinstance(summaries, list) else []
    return kept + [{}] * (count - len(kept))


def _layout_key(table: TableSpec) -> str:
    return hashlib.sha1(json.dumps(sorted(table.terrain.items())).encode()).hexdigest()


def advance(
    state: PackState,
    rules: TableRules,
    board: Board,
    params: Parameters,
    count: int,
    accepted: int,
    budget_seconds: float | None = None,
) -> list[tuple[TableSpec, TableReport]]:
    """Generate candidates until `count` are accepted in all, the candidate limit is
    reached, or the time budget is spent; return the newly accepted tables.

    A table is accepted when within half the tolerance of the centre (the median of the
    first candidates), so any two accepted tables are within tolerance of each other.
    """
    if not 1 <= count <= MAX_PACK:
        raise GenerationError(f"a pack has from 1 to {MAX_PACK} tables")
    tolerance = pack_tolerance()
    limit = max(count * 10, 100)
    started = time.perf_counter()
    new: list[tuple[TableSpec, TableReport]] = []
    seen = set(state.seen)
    while accepted + len(new) < count and state.candidates < limit:
        if budget_seconds is not None and time.perf_counter() - started > budget_seconds:
            break
        found = _next_layout(state, rules, board, params, seen)
        if found is None:
            continue
        for candidate, values_one, known in _to_judge(state, *found, rules, count, tolerance):
            assert state.centre is not None
            if accepted + len(new) < count and all(
                abs(values_one[k] - state.centre[k]) <= tolerance[k] / 2 for k in tolerance
            ):
                new.append((candidate, known or check_table(candidate, rules)))
    if accepted + len(new) < count and state.candidates >= limit:
        raise GenerationError(
            f"Only {accepted + len(new)} of {count} tables close enough to each other in "
            f"fairness were found in {state.candidates} tries. Make the pack again with "
            "another seed, fewer tables, or another coverage or symmetry."
        )
    return new


def _next_layout(
    state: PackState, rules: TableRules, board: Board, params: Parameters, seen: set[str]
) -> tuple[TableSpec, TableReport] | None:
    """The next seed's table, if it is a layout new to the pack; None when the seed is
    passed over (no table found quickly, or a layout the pack has seen)."""
    if params.box is not None and not state.seen and state.candidates >= BOX_TRIES:
        raise GenerationError(
            f"This terrain box made no valid table of its first {BOX_TRIES} seeds. "
            + what_is_missing(rules, params, board, terrain_library(tuple(rules.terrain)))
        )
    try:
        table, report = generate_table(
            rules,
            replace(params, seed=state.seed),
            board,
            name=f"Table {state.seed}",
            budget_seconds=TABLE_SECONDS,
            advise=False,  # the seed is passed over: what a box lacks is said above
        )
    except GenerationError as error:
        # A seed that finds no table quickly is passed over, like a duplicate layout; so
        # is one a terrain box makes no table of (the next seed's may: a box's tables
        # are fewer), until BOX_TRIES seeds in a row made none.
        if not isinstance(error, GenerationTimeout) and params.box is None:
            raise
        state.seed += 1
        state.candidates += 1
        return None
    state.seed += 1
    key = _layout_key(table)
    if key in seen:
        return None
    seen.add(key)
    state.seen.append(key)
    state.candidates += 1
    return table, report


def _to_judge(
    state: PackState,
    table: TableSpec,
    report: TableReport,
    rules: TableRules,
    count: int,
    tolerance: dict[str, float],
) -> list[tuple[TableSpec, dict[str, float], TableReport | None]]:
    """The candidates to hold against the centre now: this one, once the centre is known;
    until then none, and the whole sample the moment it sets the centre."""
    if state.centre is not None:
        return [(table, fairness(report), report)]
    state.sample.append({"document": table_document(table), "fairness": fairness(report)})
    if len(state.sample) < min(CENTRE_SAMPLE, count):
        return []
    values = [entry["fairness"] for entry in state.sample]
    state.centre = {k: median(v[k] for v in values) for k in tolerance}
    # The sample may come back from saved state, without its reports.
    pending: list[tuple[TableSpec, dict[str, float], TableReport | None]] = [
        (read_table_document(e["document"], rules), e["fairness"], None) for e in state.sample
    ]
    state.sample = []
    return pending


def tournament_pack(
    rules: TableRules,
    board: Board,
    count: int,
    params: Parameters,
    progress: Callable[[int, int], None] | None = None,
) -> Pack:
    if not 1 <= count <= MAX_PACK:
        raise GenerationError(f"a pack has from 1 to {MAX_PACK} tables")
    state = PackState(seed=params.seed)
    accepted: list[tuple[TableSpec, TableReport]] = []
    while len(accepted) < count:
        accepted += advance(state, rules, board, params, count, len(accepted), budget_seconds=0.25)
        if progress:
            progress(len(accepted), count)
    values = [fairness(r) for _, r in accepted]
    tolerance = pack_tolerance()
    spread = {k: round(max(v[k] for v in values) - min(v[k] for v in values), 4) for k in tolerance}
    named = tuple(
        (replace(t, name=f"Table {n + 1} (seed {t.seed})"), r) for n, (t, r) in enumerate(accepted)
    )
    return Pack(named, spread, state.candidates)
