"""Whether a pack's tables are balanced against each other: each table's key metrics, kept
with the pack when it is made, and the pack's tolerance verdict over them.

A pack promises that every table's metrics lie within the tolerance of every other's
(``tournament.pack_tolerance``); the generator keeps it by accepting only tables near a centre.
This module reads the promise back from the tables as they are, so a pack page can show it
and a table put in by hand can be held to it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tablegen.engine.metrics import SIDES, TableReport
from tablegen.engine.tournament import fairness

# Rounding of the stored figures stays well inside this; a spread equal to the tolerance
# is within it.
EPSILON = 1e-9


def table_summary(report: TableReport) -> dict[str, Any]:
    """What a pack page shows of one table and what its verdict needs: the verdict, the key
    metrics (each side's cover and exposure apart), and the values a pack keeps close."""
    metrics = report.metrics
    return {
        "valid": report.valid,
        "problems": len(report.problems),
        "coverage": metrics["coverage"],
        "edge_lanes": metrics["edge_lanes"],
        "longest_sightline": metrics["longest_sightline"],
        "dominance": metrics["dominance"],
        "sides": {
            side: {
                "cover_near_edge": metrics["sides"][side]["cover_near_edge"],
                "exposure": metrics["sides"][side]["exposure"],
            }
            for side in SIDES
        },
        "fairness": fairness(report),
    }


@dataclass(frozen=True)
class Spread:
    """How far apart the pack's tables are on one metric, against how far they may be."""

    metric: str
    low: float
    high: float
    tolerance: float

    @property
    def spread(self) -> float:
        return self.high - self.low

    @property
    def within(self) -> bool:
        return self.spread <= self.tolerance + EPSILON


def spreads(values: Sequence[Mapping[str, float]], tolerance: Mapping[str, float]) -> list[Spread]:
    """Per metric of `tolerance`, the lowest and highest of the tables' `values`."""
    return [
        Spread(
            metric,
            min((float(v[metric]) for v in values), default=0.0),
            max((float(v[metric]) for v in values), default=0.0),
            float(limit),
        )
        for metric, limit in tolerance.items()
    ]


def misfits(
    candidate: Mapping[str, float],
    others: Sequence[Mapping[str, float]],
    tolerance: Mapping[str, float],
) -> list[Spread]:
    """The metrics on which `candidate` lies further than the tolerance from one of
    `others` (empty when it fits beside every one of them), each as the spread the pack
    would then have. A pack already too wide on a metric is not held against `candidate`
    where it stays within the tolerance of every other table."""
    return [
        spread
        for spread in spreads([*others, candidate], tolerance)
        if any(
            abs(float(candidate[spread.metric]) - float(other[spread.metric]))
            > spread.tolerance + EPSILON
            for other in others
        )
    ]
