"""Edits of a table, as pure functions: a table in, a new table out (the old one unchanged).

The editor's views parse what was sent, the model applies one of these and saves the result
with a compare-and-swap; nothing here knows of requests or the database.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from onefinity.rules.hexgrid import Hex
from onefinity.rules.ruleset import TableRules
from tablegen.engine.tables import TableSpec


class EditError(ValueError):
    """An edit that cannot apply to this table (a hex off the board, an unknown kind)."""


def kind_cycle(rules: TableRules) -> list[str | None]:
    """Open ground, then the ruleset's kinds from the lowest to the highest."""
    ordered = sorted(rules.terrain.values(), key=lambda kind: (kind.height, kind.level, kind.id))
    return [None, *(kind.id for kind in ordered)]


def next_kind(current: str | None, rules: TableRules) -> str | None:
    cycle = kind_cycle(rules)
    return cycle[(cycle.index(current) + 1) % len(cycle)] if current in cycle else None


def paint(table: TableSpec, hexes: Iterable[Hex], kind: str | None, rules: TableRules) -> TableSpec:
    """The table with `hexes` set to `kind` (None: open ground)."""
    if kind is not None and kind not in rules.terrain:
        raise EditError(f"unknown terrain kind {kind!r}")
    terrain = dict(table.terrain)
    for hex_ in hexes:
        index = table.board.index.get(hex_)
        if index is None:
            raise EditError(f"{hex_[0]},{hex_[1]} is not on the table")
        if kind is None:
            terrain.pop(index, None)
        else:
            terrain[index] = kind
    return replace(table, terrain=terrain)
