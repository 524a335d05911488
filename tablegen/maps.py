"""What a table's map and its facts show for one request, built once per request.

Everything comes from the engine: the report (metrics, problems, visibility) and the
pictures. This module only picks what the chosen view shows (terrain, line of fire from a
hex, a heat map), and the link each hex carries. The links are plain hrefs: htmx is set once
on the map's container (see templates/tablegen/view_body.html and static/js/tables.js), so
the map works the same without JavaScript.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import quote_plus

from django.utils.http import urlencode

from onefinity.rules.hexgrid import Hex
from onefinity.rules.lineoffire import line_of_fire
from onefinity.rules.ruleset import TableRules
from tablegen.engine.library import terrain_library
from tablegen.engine.metrics import TableReport, check_table, sightlines
from tablegen.engine.render import Overlay, kinds, legend, svg
from tablegen.engine.tables import TableSpec

MODES = {
    "terrain": "Terrain",
    "lof": "Line of fire",
    "sightlines": "Heat map: hexes seen",
    "exposure-a": "Heat map: side A's exposure",
    "exposure-b": "Heat map: side B's exposure",
}


# Where a hex's spot goes in a link encoded once for every hex (never in a real value).
HEX = "\x00"

# The palette's brush for open ground (a hex's kind is None there).
OPEN = "open"


def read_brush(value: str | None, rules: TableRules) -> str:
    """The editor's brush from the query: "open", a terrain kind, or "" (each click moves
    the hex on to the next kind) for anything else."""
    return value if value == OPEN or (value and value in rules.terrain) else ""


SYMMETRIC_EDITING = {"point": "Point", "mirror": "Mirror"}


def read_symmetry(value: str | None, table: TableSpec) -> str:
    """Symmetric editing from the query: "point" or "mirror" when the board has that
    symmetry (every edit is then made again on the image hex), else "" (off)."""
    if value in SYMMETRIC_EDITING and table.board.symmetry(value) is not None:
        return value
    return ""


def editing(brush: str, symmetry: str) -> dict[str, str]:
    """The editor's settings as they ride in its links and edit URL."""
    return {k: v for k, v in (("brush", brush), ("sym", symmetry)) if v}


def metric_notes(rules: TableRules) -> dict[str, dict[str, str]]:
    """Each metric's meaning in one line and its threshold: the ruleset's limit for a valid
    table, or, for metrics without one, how far a tournament pack's tables may differ."""
    tolerance = terrain_library(tuple(rules.terrain)).pack_tolerance
    depth = rules.near_edge_depth
    return {
        "coverage": {
            "means": "The share of the table's hexes that have terrain.",
            "limit": f"Valid: {rules.coverage_min:.0%} to {rules.coverage_max:.0%}.",
        },
        "edge_lanes": {
            "means": "Clear lines of fire from one side's table edge to the other's, "
            "drawn as red dashed lines on the map.",
            "limit": f"Valid: at most {rules.edge_lanes_max}.",
        },
        "longest_sightline": {
            "means": "The longest clear line of fire between two hexes a trooper can stand on.",
            "limit": "No limit for one table; a pack's tables differ by at most "
            f"{tolerance['longest_sightline']:g} hexes.",
        },
        "dominance": {
            "means": "The largest share of the standable hexes one hex sees (that hex in "
            "brackets): high means one spot watches the table.",
            "limit": "No limit for one table; a pack's tables differ by at most "
            f"{tolerance['dominance']:.0%}.",
        },
        "connected": {
            "means": "Whether every hex a trooper can stand on is reachable from both table edges.",
            "limit": "Valid: yes." if rules.connected else "Not required by this ruleset.",
        },
        "cover_near_edge": {
            "means": f"Standable hexes within {depth} hexes of the side's edge that are "
            "cover or touch terrain.",
            "limit": f"Valid: the sides differ by at most {rules.cover_difference_max}.",
        },
        "exposure": {
            "means": f"The share of the side's hexes within {depth} of its edge that the "
            "other side's near-edge hexes see.",
            "limit": "Valid: the sides differ by at most "
            f"{rules.exposure_difference_max:g} points.",
        },
        "high_ground": {
            "means": "Elevated hexes on the side's half of the table.",
            "limit": "No limit.",
        },
    }


def hex_param(value: str | None, table: TableSpec) -> Hex | None:
    """A hex "q,r" from the query, if it is on the table."""
    try:
        q, r = (int(part) for part in (value or "").split(","))
    except ValueError:
        return None
    return (q, r) if (q, r) in table.board else None


def spot(hex_: Hex) -> str:
    return f"{hex_[0]},{hex_[1]}"


def overlay(
    table: TableSpec,
    report: TableReport,
    rules: TableRules,
    mode: str,
    source: Hex | None,
    target: Hex | None,
) -> tuple[Overlay, Any]:
    """What to draw over the terrain in this view, and the line-of-fire explanation of the
    pair chosen (if any)."""
    board = table.board
    if mode == "lof" and source is not None:
        i = board.index[source]
        standable = report.terrain.standable
        seen = frozenset(
            board.hexes[k]
            for k in range(len(board))
            if report.clear[i, k] and standable[k] and k != i
        )
        explanation = None
        blockers: frozenset[Hex] = frozenset()
        if target is not None:
            explanation = line_of_fire(board, report.terrain, source, target)
            blockers = frozenset(explanation.blocked_by) | frozenset(
                h for pair in explanation.blocked_along for h in pair
            )
        return Overlay(source=source, seen=seen, target=target, blockers=blockers), explanation
    if mode == "sightlines":
        counts = sightlines(report)
        top = max(counts) or 1
        return Overlay(heat=[c / top for c in counts], heat_label="hexes seen"), None
    if mode in ("exposure-a", "exposure-b"):
        enemy = "B" if mode == "exposure-a" else "A"
        watchers = [
            k
            for k in range(len(board))
            if report.terrain.standable[k]
            and board.depth_from_edge(k, enemy) <= rules.near_edge_depth
        ]
        counts = report.clear[:, watchers].sum(axis=1) if watchers else [0] * len(board)
        top = max(int(c) for c in counts) or 1
        return Overlay(
            heat=[int(c) / top for c in counts], heat_label=f"seen from side {enemy}'s edge"
        ), None
    return problem_overlay(report), None


# Problems that concern every terrain hex (too much or too little of it): marking them all
# would show nothing, so the map marks the hexes of the other problems only.
WHOLE_TABLE_CODES = frozenset({"table.coverage.low", "table.coverage.high"})


def problem_overlay(report: TableReport, selected: Hex | None = None) -> Overlay:
    """The terrain view: the hexes the verdict's problems concern, and each clear lane from
    edge to edge drawn as a line (with the hex chosen for editing, if any)."""
    hexes = frozenset(
        hex_
        for problem in report.problems
        if problem.code not in WHOLE_TABLE_CODES
        for hex_ in problem.hexes
    )
    return Overlay(
        highlighted=frozenset({selected}) if selected is not None else frozenset(),
        problems=hexes,
        lanes=report.lanes,
    )


def map_context(
    query: Mapping[str, str],
    table: TableSpec,
    rules: TableRules,
    base: str,
    *,
    editable: bool,
    edit_url: str = "",
    report: TableReport | None = None,
    version: int | None = None,
) -> dict[str, Any]:
    """The map and its facts for the view asked in `query` (mode, from, to, hex).

    `base` is the page's own URL (it may carry a query: the generate page's parameters);
    `version` is the saved table's, carried by every edit the page sends so that an edit
    drawn from an older version is refused."""
    report = report or check_table(table, rules)
    mode = query.get("mode", "terrain")
    if mode not in MODES:
        mode = "terrain"
    source = hex_param(query.get("from"), table)
    target = hex_param(query.get("to"), table)
    selected = hex_param(query.get("hex"), table)
    drawn, explanation = overlay(table, report, rules, mode, source, target)
    if selected is not None and mode == "terrain":
        drawn = problem_overlay(report, selected)
    joiner = "&" if "?" in base else "?"

    def at(**values: str) -> str:
        return f"{base}{joiner}{urlencode(values)}"

    def per_hex(**values: str) -> Callable[[Hex], str]:
        """``at`` with the hex's spot where a value is HEX: the query encoded once, not
        for each of 1,600 hexes (a spot "q,r" encodes as "q%2Cr")."""
        head, _, tail = urlencode(values).partition(quote_plus(HEX))
        return lambda hex_: f"{base}{joiner}{head}{hex_[0]}%2C{hex_[1]}{tail}"

    brush = read_brush(query.get("brush"), rules)
    symmetry = read_symmetry(query.get("sym"), table)
    painting = editing(brush, symmetry)
    from_hex = per_hex(mode="lof", **{"from": HEX})
    to_hex = per_hex(mode="lof", to=HEX, **{"from": spot(source) if source else ""})
    terrain_hex = per_hex(mode="terrain", hex=HEX, **painting)

    def link(hex_: Hex) -> str:
        if mode == "lof":
            if source is None or hex_ == source:
                return from_hex(hex_)
            return to_hex(hex_)
        if mode == "terrain" and editable:
            return terrain_hex(hex_)
        return from_hex(hex_)

    return {
        "spec": table,
        "report": report,
        "metrics": report.metrics,
        "picture": svg(table, drawn, link, title=f"{table.name}: {MODES[mode]}"),
        "mode": mode,
        "modes": [(key, name, at(mode=key)) for key, name in MODES.items()],
        "base": base,
        "source": source,
        "target": target,
        "selected": selected,
        "selected_kind": (
            (None if brush == OPEN else brush)
            if brush
            else (table.kind_at(selected) if selected else None)
        ),
        "brush": brush,
        "brushes": [
            (key, name, at(mode="terrain", **editing(key, symmetry)))
            for key, name in [("", "Cycle"), (OPEN, "Open ground")]
            + [(kind.id, kind.name) for kind in kinds(rules)]
        ],
        "explanation": explanation,
        "editable": editable,
        "symmetry": symmetry,
        "symmetries": [
            (key, name, at(mode="terrain", **editing(brush, key)))
            for key, name in [("", "Off"), *SYMMETRIC_EDITING.items()]
            if not key or table.board.symmetry(key) is not None
        ],
        "edit_url": f"{edit_url}?{urlencode(painting)}" if edit_url and painting else edit_url,
        "version": version,
        "legend": legend(rules),
        "notes": metric_notes(rules),
        "heat_label": drawn.heat_label,
        "kinds": [("", "Open ground")] + [(kind.id, kind.name) for kind in kinds(rules)],
    }
