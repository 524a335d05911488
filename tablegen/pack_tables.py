"""What a pack's page shows of its tables, and whether a table edited by hand may take one's
place: built from the summaries the pack keeps (tablegen.engine.balance), so showing a pack
checks no table.

An organizer compares the tables to see that the pack is fair: each table's key metrics
beside its thumbnail, and, over the whole pack, how far apart the tables are on each metric
the pack keeps close, against how far they may be.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from onefinity.rules import current_ruleset
from onefinity.rules.hexgrid import standard_board
from tablegen.engine.balance import Spread, misfits, spreads, table_summary
from tablegen.engine.metrics import TableReport
from tablegen.engine.packs import pack_tolerance
from tablegen.engine.tables import MAX_NAME_LENGTH, TableSpec, table_document
from tablegen.engine.thumbnail import thumbnail_svg

# Tables shown on one page of a pack (a pack has up to 200): each is a thumbnail of about
# 5 KB and a few figures.
TABLES_PER_PAGE = 24

# The metrics a pack keeps close, in words, and what each value is counted in.
METRICS = {
    "coverage": ("Coverage", "share"),
    "longest_sightline": ("Longest sightline", "hexes"),
    "dominance": ("Dominance", "share"),
    "exposure": ("Exposure (sides' average)", "percent"),
    "cover_near_edge": ("Cover near edge (sides' average)", "hexes"),
}


def _number(value: float) -> str:
    return f"{value:.1f}".removesuffix(".0")


def figure(metric: str, value: float) -> str:
    """A value of a pack metric as the page shows it: "44 %", "10 hexes"."""
    unit = METRICS[metric][1]
    # One decimal, as each table's card shows a share or a percentage.
    if unit == "share":
        return f"{100 * value:.1f} %"
    if unit == "percent":
        return f"{value:.1f} %"
    return f"{_number(value)} hex{'' if value == 1 else 'es'}"


def gap(metric: str, value: float) -> str:
    """A difference between two values of a pack metric: "3 points", "2 hexes"."""
    unit = METRICS[metric][1]
    if unit == "share":
        value *= 100
    if unit in ("share", "percent"):
        return f"{_number(value)} point{'' if value == 1 else 's'}"
    return f"{_number(value)} hex{'' if value == 1 else 'es'}"


@dataclass(frozen=True)
class BalanceRow:
    """One metric of the pack's tolerance verdict, in words."""

    metric: str
    label: str
    low: str
    high: str
    spread: str
    tolerance: str
    within: bool


def balance_rows(found: Sequence[Spread]) -> list[BalanceRow]:
    return [
        BalanceRow(
            spread.metric,
            METRICS[spread.metric][0],
            figure(spread.metric, spread.low),
            figure(spread.metric, spread.high),
            gap(spread.metric, spread.spread),
            gap(spread.metric, spread.tolerance),
            spread.within,
        )
        for spread in found
    ]


def pack_balance(summaries: Sequence[Mapping[str, Any]]) -> list[BalanceRow]:
    """How far apart the pack's tables are on each metric it keeps close."""
    return balance_rows(spreads([summary["fairness"] for summary in summaries], pack_tolerance()))


def thumbnail(spec: TableSpec) -> str:
    return thumbnail_svg(spec, title=f"Map of {spec.name}")


def document_key(document: object) -> str:
    """A short fingerprint of a stored table: a form carries it, so that a change made on a
    page drawn from an older table is refused."""
    text = json.dumps(document, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def edited_name(pack_name: str, number: int) -> str:
    """The name of a table put into a pack by hand: "<pack> <n> (edited)", shortened as
    ``pack_table_name`` does (no seed: no seed makes it)."""
    suffix = f" {number} (edited)"
    room = MAX_NAME_LENGTH - len(suffix)
    name = pack_name.strip()
    if len(name) > room:
        name = name[: room - 1].rstrip() + "…"
    return name + suffix


@dataclass(frozen=True)
class Neighbour:
    """Another table of the pack, as a table put in beside it is compared with it."""

    number: int
    summary: Mapping[str, Any]
    document: object


def fit_problems(spec: TableSpec, report: TableReport, others: Sequence[Neighbour]) -> list[str]:
    """Why `spec` (with its `report`) may not take a place in a pack beside the `others`, in
    words; empty when it may: a valid table on the pack's standard board, unlike each other
    table, and within the pack's tolerance of every one of them."""
    rules = current_ruleset().table
    if spec.board.hexes != standard_board(rules.rows, rules.columns).hexes:
        return [
            f"it is not on the standard {rules.rows} x {rules.columns} board the pack's tables use"
        ]
    problems = []
    if not report.valid:
        count = len(report.problems)
        problems.append(f"it is not a valid table ({count} problem{'s' if count != 1 else ''})")
    terrain = table_document(spec)["terrain"]
    for other in others:
        if isinstance(other.document, dict) and other.document.get("terrain") == terrain:
            problems.append(f"it has the same terrain as the pack's table {other.number}")
    fairness = table_summary(report)["fairness"]
    known = [other.summary["fairness"] for other in others]
    for spread in misfits(fairness, known, pack_tolerance()):
        label, _ = METRICS[spread.metric]
        problems.append(
            f"its {label.lower()} would spread the pack's tables "
            f"{gap(spread.metric, spread.spread)} apart "
            f"({figure(spread.metric, spread.low)} to {figure(spread.metric, spread.high)}); "
            f"at most {gap(spread.metric, spread.tolerance)}"
        )
    return problems
