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
from tablegen.engine.tables import MAX_NAME_LENGTH, TableSpec, table_document
from tablegen.engine.thumbnail import thumbnail_svg
from tablegen.engine.tournament import pack_tolerance

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


@dataclass(frozen=True)
class Bring:
    """One piece of terrain to bring to the hall: how many all the pack's tables use at
    once, the most one table uses, and how many the pack's terrain box holds (None: no box)."""

    name: str
    hall: int
    most: int
    box: int | None


def terrain_to_bring(
    documents: Sequence[object], box: Mapping[str, int] | None
) -> tuple[list[Bring], list[tuple[int, list[tuple[str, int]]]]]:
    """The terrain a hall needs for the pack, every table standing at once (each library
    piece, counted from the stored documents' pieces; hexes made by hand counted by kind),
    and each table's own list. A document that does not read is left out (the page says
    when one is damaged)."""
    from tablegen.engine.library import CUSTOM, terrain_library

    library = terrain_library(tuple(current_ruleset().table.terrain))
    per_table: list[tuple[int, list[tuple[str, int]]]] = []
    hall: dict[str, int] = {}
    most: dict[str, int] = {}
    for number, document in enumerate(documents, start=1):
        pieces = document.get("pieces") if isinstance(document, dict) else None
        if not isinstance(pieces, list):
            continue
        counts: dict[str, int] = {}
        for entry in pieces:
            piece = entry.get("piece") if isinstance(entry, dict) else None
            if not isinstance(piece, str):
                continue
            if piece in library.pieces:
                counts[piece] = counts.get(piece, 0) + 1
            elif piece == CUSTOM and isinstance(entry.get("hexes"), list):
                counts[CUSTOM] = counts.get(CUSTOM, 0) + len(entry["hexes"])
        for piece, count in counts.items():
            hall[piece] = hall.get(piece, 0) + count
            most[piece] = max(most.get(piece, 0), count)
        per_table.append(
            (number, [(_piece_name(library, p), n) for p, n in _ordered(library, counts)])
        )
    rows = [
        Bring(
            _piece_name(library, piece),
            count,
            most[piece],
            None if box is None else int(box.get(piece, 0)),
        )
        for piece, count in _ordered(library, hall)
    ]
    return rows, per_table


def _ordered(library: Any, counts: Mapping[str, int]) -> list[tuple[str, int]]:
    order = {piece: k for k, piece in enumerate(library.pieces)}
    return sorted(counts.items(), key=lambda kv: order.get(kv[0], len(order)))


def _piece_name(library: Any, piece: str) -> str:
    return library.pieces[piece].name if piece in library.pieces else "Hexes made by hand"
