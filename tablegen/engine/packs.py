"""Tournament packs: N distinct valid tables whose metrics are within tolerance of each other."""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, replace
from statistics import median

from onefinity.rules.hexgrid import Board
from onefinity.rules.ruleset import TableRules
from tablegen.engine.generate import PIECES_FILE, GenerationError, Parameters, generate_table
from tablegen.engine.metrics import TableReport
from tablegen.engine.tables import TableSpec

MAX_PACK = 200


@functools.cache
def pack_tolerance() -> dict[str, float]:
    with PIECES_FILE.open("rb") as handle:
        values = tomllib.load(handle).get("pack_tolerance", {})
    wanted = {"coverage", "longest_sightline", "dominance", "exposure", "cover_near_edge"}
    if set(values) != wanted or not all(
        isinstance(v, int | float) and v >= 0 for v in values.values()
    ):
        raise GenerationError(
            f"{PIECES_FILE.name}: pack_tolerance needs numbers for {', '.join(sorted(wanted))}"
        )
    return {k: float(v) for k, v in values.items()}


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


def tournament_pack(
    rules: TableRules,
    board: Board,
    count: int,
    params: Parameters,
    progress: Callable[[int, int], None] | None = None,
) -> Pack:
    """Accept tables within half the tolerance of a centre (the median of the first
    candidates), so any two accepted tables are within tolerance of each other."""
    if not 1 <= count <= MAX_PACK:
        raise GenerationError(f"a pack has from 1 to {MAX_PACK} tables")
    tolerance = pack_tolerance()
    seen: set[frozenset[tuple[int, str]]] = set()
    sample: list[tuple[TableSpec, TableReport]] = []
    accepted: list[tuple[TableSpec, TableReport]] = []
    centre: dict[str, float] | None = None
    limit = max(count * 10, 100)
    seed = params.seed
    candidates = 0
    while len(accepted) < count and candidates < limit:
        table, report = generate_table(
            rules, replace(params, seed=seed), board, name=f"Table {seed}"
        )
        seed += 1
        layout = frozenset(table.terrain.items())
        if layout in seen:
            continue
        seen.add(layout)
        candidates += 1
        if centre is None:
            sample.append((table, report))
            if len(sample) < min(CENTRE_SAMPLE, count):
                continue
            values = [fairness(r) for _, r in sample]
            centre = {k: median(v[k] for v in values) for k in tolerance}
            pending = sample
        else:
            pending = [(table, report)]
        for candidate in pending:
            values_one = fairness(candidate[1])
            if (
                all(abs(values_one[k] - centre[k]) <= tolerance[k] / 2 for k in tolerance)
                and len(accepted) < count
            ):
                accepted.append(candidate)
                if progress:
                    progress(len(accepted), count)
    if len(accepted) < count:
        raise GenerationError(
            f"only {len(accepted)} of {count} tables within tolerance after {candidates} candidates; "
            "widen pack_tolerance or change the parameters"
        )
    values = [fairness(r) for _, r in accepted]
    spread = {k: round(max(v[k] for v in values) - min(v[k] for v in values), 4) for k in tolerance}
    named = tuple(
        (replace(t, name=f"Table {n + 1} (seed {t.seed})"), r) for n, (t, r) in enumerate(accepted)
    )
    return Pack(named, spread, candidates)
