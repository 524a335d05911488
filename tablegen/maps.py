"""What a table's map and its facts show for one request, built once per request.

Everything comes from the engine: the report (metrics, problems, visibility) and the
pictures. This module only picks what the chosen view shows (terrain, line of fire from a
hex, a heat map), and the link each hex carries. The links are plain hrefs: htmx is set once
on the map's container (see config/templates/tablegen/view_body.html and config/static/js/tables.js), so
the map works the same without JavaScript.
"""

from __future__ import annotations

import functools
import re
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import quote_plus

from django.utils.http import urlencode

from onefinity.rules.bounded_cache import Recent
from onefinity.rules.hexgrid import Hex
from onefinity.rules.lineoffire import line_of_fire
from onefinity.rules.ruleset import TableRules
from onefinity.rules.text import whole_number
from tablegen.engine.edits import EditError, footprint, mapping, remove_piece, stamp
from tablegen.engine.library import Piece, TerrainLibrary, terrain_library
from tablegen.engine.metrics import TableReport, checked_table, sightlines
from tablegen.engine.render import (
    DrawnMap,
    Overlay,
    colour,
    draw_map,
    kinds,
    label,
    legend,
    piece_svg,
    places,
)
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

# The editor's map element (an edit's answer that patches the map keeps the page's own).
MAP_ID = "table-map"

# The maps the editor drew last in this process, by a token the page carries (data-drawn)
# and sends with each edit: the edit's answer is then what changed on the map (a few hexes)
# instead of the whole map. A token is made for one drawing, so a page sending it shows
# exactly that map. Another process's token, or one forgotten, gets the whole map.
# (onefinity.rules.bounded_cache says why a process keeps them, and how they are bounded.)
_DRAWN: Recent[str, tuple[int, DrawnMap]] = Recent(most=32)


def remember_drawn(table_pk: int, drawn: DrawnMap) -> str:
    """Keep a drawing of a saved table's map (if another can be drawn from it: not a heat
    map or a line of fire view); the token to find it again ("" for none)."""
    if drawn.basis is None:
        return ""
    token = secrets.token_urlsafe(12)
    _DRAWN.put(token, (table_pk, drawn))
    return token


def recall_drawn(table_pk: int, token: object) -> DrawnMap | None:
    """The drawing of this table's map that `token` names, if this process keeps it."""
    if not isinstance(token, str):
        return None
    kept = _DRAWN.get(token)
    return kept[1] if kept is not None and kept[0] == table_pk else None


# The palette's brushes besides the terrain kinds: open ground (a hex's kind is None there),
# taking a whole piece away, and a library piece ("piece:<id>"; ids never hold a colon).
OPEN = "open"
REMOVE = "remove"
PIECE = "piece:"
TURNS = ("0", "1", "2", "3", "4", "5")


@dataclass(frozen=True)
class Brush:
    """What a click on a hex does in the editor, as the query carries it (`brush`, `turn`).

    "" (no brush) moves the hex on to the next kind; "open" or a terrain kind paints, by a
    click or a stroke dragged across hexes; "piece:<id>" sets a library piece down with its
    anchor on the hex, turned `turn` steps of 60 degrees clockwise; "remove" takes the whole
    piece on the hex away."""

    key: str = ""
    piece: Piece | None = None
    turn: int = 0

    @property
    def paints(self) -> bool:
        return bool(self.key) and self.piece is None and self.key != REMOVE

    @property
    def kind(self) -> str | None:
        """The kind a painting brush sets (None: open ground)."""
        return None if self.key == OPEN or not self.paints else self.key

    @property
    def removes(self) -> bool:
        return self.key == REMOVE

    @property
    def degrees(self) -> int:
        return 60 * self.turn

    def query(self) -> dict[str, str]:
        """The brush as its links carry it (the turn only for a piece, and only when turned)."""
        found = {"brush": self.key} if self.key else {}
        if self.piece is not None and self.turn:
            found["turn"] = str(self.turn)
        return found

    def rotated(self) -> Brush:
        """The piece turned on to its next distinct footprint (a round piece stays)."""
        if self.piece is None:
            return self
        turns = self.piece.turns
        later = [turn for turn in turns if turn > self.turn]
        return replace(self, turn=later[0] if later else turns[0])


def read_brush(query: Mapping[str, str], rules: TableRules, library: TerrainLibrary) -> Brush:
    """The editor's brush from the query; anything unknown is no brush (each click moves the
    hex on to the next kind), a turn other than 0 to 5 is no turn."""
    value = query.get("brush") or ""
    if value in (OPEN, REMOVE) or value in rules.terrain:
        return Brush(value)
    if value.startswith(PIECE) and (piece := library.pieces.get(value[len(PIECE) :])):
        turn = query.get("turn") or "0"
        return Brush(value, piece, int(turn) if turn in TURNS else 0)
    return Brush()


SYMMETRIC_EDITING = {"point": "Point", "mirror": "Mirror"}


def read_symmetry(value: str | None, table: TableSpec) -> str:
    """Symmetric editing from the query: "point" or "mirror" when the board has that
    symmetry (every edit is then made again on the image hex), else "" (off)."""
    if value in SYMMETRIC_EDITING and table.board.symmetry(value) is not None:
        return value
    return ""


def symmetry_problem(value: str | None, table: TableSpec) -> str:
    """Why an edit cannot be made with the symmetric editing its query names ("" when it
    can): made without it, it would change one hex where two were asked."""
    if not value:
        return ""
    if value not in SYMMETRIC_EDITING:
        return "Symmetric editing is point, mirror or off: choose one of them."
    if not read_symmetry(value, table):
        return f"This table's board has no {value} symmetry: turn symmetric editing off."
    return ""


def editing(brush: Brush, symmetry: str) -> dict[str, str]:
    """The editor's settings as they ride in its links and edit URL."""
    return brush.query() | ({"sym": symmetry} if symmetry else {})


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
    parts = (value or "").split(",")
    if len(parts) != 2:
        return None
    # Far past any board's coordinates, read only once their size is known.
    q, r = (whole_number(part, -10_000, 10_000) for part in parts)
    return (q, r) if q is not None and r is not None and (q, r) in table.board else None


def spot(hex_: Hex) -> str:
    return f"{hex_[0]},{hex_[1]}"


def place(table: TableSpec, hex_: Hex | None) -> str:
    """A hex in a player's words, with the coordinates drawn on it: "Row 3 from side A,
    column 5 (0,2)" ("" for none)."""
    if hex_ is None:
        return ""
    return f"{places(table.board)[table.board.index[hex_]]} ({spot(hex_)})"


def brush_name(brush: Brush, rules: TableRules) -> str:
    """What the brush does, as the palette names it."""
    if brush.piece is not None:
        return brush.piece.name
    if brush.removes:
        return "Remove piece"
    if brush.paints:
        return label(brush.kind, rules)
    return "Cycle"


def shown_view(query: Mapping[str, str], table: TableSpec) -> dict[str, str]:
    """The view a page's query shows, other than the terrain view (the default), as it
    rides in a query: the mode, and for the line of fire the hexes chosen, those on the
    table only. Undo and redo without JavaScript go back to it."""
    mode = query.get("mode", "terrain")
    if mode not in MODES or mode == "terrain":
        return {}
    ends = {"from": hex_param(query.get("from"), table), "to": hex_param(query.get("to"), table)}
    chosen = {key: spot(hex_) for key, hex_ in ends.items() if hex_ is not None}
    return {"mode": mode, **(chosen if mode == "lof" else {})}


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


# An open board has a lane from nearly every hex of one edge to nearly every hex of the
# other (81 on an empty standard board): drawn all, they hide the map. At most one lane
# from each edge hex, and at most this many, are drawn; the hint says how many there are.
MAX_LANES_DRAWN = 12


def lanes_to_draw(lanes: tuple[tuple[Hex, Hex], ...]) -> tuple[tuple[Hex, Hex], ...]:
    """Lanes that show where the table is open: no two from one hex or to one hex."""
    drawn: list[tuple[Hex, Hex]] = []
    ends: set[Hex] = set()
    for start, end in lanes:
        if start not in ends and end not in ends:
            drawn.append((start, end))
            ends |= {start, end}
            if len(drawn) == MAX_LANES_DRAWN:
                break
    return tuple(drawn)


def problem_overlay(report: TableReport, highlighted: frozenset[Hex] = frozenset()) -> Overlay:
    """The terrain view: the hexes the verdict's problems concern, and the clear lanes from
    edge to edge drawn as lines (with the hexes an edit is about, if any)."""
    hexes = frozenset(
        hex_
        for problem in report.problems
        if problem.code not in WHOLE_TABLE_CODES
        for hex_ in problem.hexes
    )
    return Overlay(highlighted=highlighted, problems=hexes, lanes=lanes_to_draw(report.lanes))


def sentence(error: Exception) -> str:
    """An engine's refusal ("x does not fit there") as a sentence for the page."""
    text = str(error)
    return f"{text[:1].upper()}{text[1:]}."


def preview(
    table: TableSpec, library: TerrainLibrary, brush: Brush, symmetry: str, hex_: Hex
) -> tuple[frozenset[Hex], str]:
    """What a click on `hex_` with a piece brush or the remove brush would change (the hexes
    to outline before it is made: the page without JavaScript asks first), or why it cannot."""
    board = table.board
    try:
        if brush.piece is not None:
            stamp(table, library, brush.piece.id, brush.turn, hex_, symmetry or "none")
            covered = set(footprint(board, library, brush.piece.id, brush.turn, hex_))
            image = mapping(board, symmetry or "none")
            if image is not None:
                covered |= {image[i] for i in covered}
        else:
            after = remove_piece(table, hex_, symmetry or "none")
            covered = set(table.terrain) - set(after.terrain)
            if not covered:
                return frozenset(), f"There is no piece on {spot(hex_)}."
    except EditError as error:
        return frozenset(), sentence(error)
    return frozenset(board.hexes[i] for i in covered), ""


_VIEWBOX = re.compile(r'viewBox="0 0 (\d+) (\d+)"')


def at_true_size(picture: str) -> str:
    """A piece's picture drawn at its own size (the renderer gives it a viewBox only, so a
    page would stretch every picture to one box and a crate would look as big as a
    building)."""
    found = _VIEWBOX.search(picture)
    if found is None:
        return picture
    return picture.replace("<svg ", f'<svg width="{found[1]}" height="{found[2]}" ', 1)


def _image_rule(table: TableSpec, symmetry: str) -> str:
    """What the editor's script needs to find a hex's image under `symmetry` (the same
    rule as ``Board.symmetry``): "" without symmetric editing."""
    if not symmetry:
        return ""
    xs = [x for x, _ in table.board.centres]
    ys = [y for _, y in table.board.centres]
    return f"{symmetry},{min(xs) + max(xs)},{min(ys) + max(ys)}"


@functools.lru_cache(maxsize=256)
def _palette_picture(piece: Piece) -> str:
    # Drawn once per piece and process: the palette is on every editor answer.
    return at_true_size(piece_svg(piece, size=9))


def box_of(table: TableSpec, library: TerrainLibrary) -> dict[str, int]:
    """The terrain box a table was made from (its library pieces and counts), or {}."""
    box = table.params.get("box") if table.params else None
    if not isinstance(box, dict):
        return {}
    return {p: n for p, n in box.items() if p in library.pieces and isinstance(n, int) and n > 0}


def box_left(table: TableSpec, library: TerrainLibrary) -> list[dict[str, Any]]:
    """For a table made from a terrain box: each of the box's pieces with how many the table
    uses and how many are left, then any library piece it uses that the box lacks (over)."""
    box = box_of(table, library)
    if not box:
        return []
    used: dict[str, int] = {}
    for placed in table.placed():
        if placed.piece in library.pieces:
            used[placed.piece] = used.get(placed.piece, 0) + 1
    rows = []
    for piece_id in [p for p in library.pieces if p in box or p in used]:
        held, count = box.get(piece_id, 0), used.get(piece_id, 0)
        rows.append(
            {
                "piece": library.pieces[piece_id],
                "held": held,
                "used": count,
                "left": max(0, held - count),
                "over": count > held,
            }
        )
    return rows


def piece_palette(
    library: TerrainLibrary,
    brush: Brush,
    at: Callable[..., str],
    symmetry: str,
    box: Mapping[str, int] | None = None,
) -> list[tuple[str, str, list[dict[str, Any]]]]:
    """The library's pieces to stamp, by role: (role id, its name, each piece's name, small
    picture, link and whether it is the brush); a table made from a terrain box has the
    box's pieces first."""
    first: list[tuple[str, str, list[Piece]]] = (
        [
            (
                "box",
                "In this table's terrain box",
                [p for p in library.pieces.values() if p.id in box],
            )
        ]
        if box
        else []
    )
    return [
        (
            role,
            name,
            [
                {
                    "piece": piece,
                    "picture": _palette_picture(piece),
                    "href": at(mode="terrain", **editing(Brush(PIECE + piece.id, piece), symmetry)),
                    "current": brush.piece is not None and brush.piece.id == piece.id,
                }
                for piece in pieces
            ],
        )
        for role, name, pieces in first + library.by_role()
        if pieces
    ]


@dataclass(frozen=True)
class _Asked:
    """The view a request asks for, read once: the mode, the hexes it names, the brush and
    symmetric editing."""

    mode: str
    source: Hex | None
    target: Hex | None
    selected: Hex | None
    brush: Brush
    symmetry: str

    @property
    def painting(self) -> dict[str, str]:
        return editing(self.brush, self.symmetry)

    @property
    def selection(self) -> dict[str, str]:
        # Turning the piece or switching symmetry keeps the hex chosen (the page without
        # JavaScript shows where the piece would land before it is set down).
        if self.selected is not None and self.mode == "terrain":
            return {"hex": spot(self.selected)}
        return {}


def _read_asked(
    query: Mapping[str, str],
    table: TableSpec,
    rules: TableRules,
    library: TerrainLibrary,
    editable: bool,
    settings: tuple[Brush, str] | None,
) -> _Asked:
    mode = query.get("mode", "terrain")
    if mode not in MODES:
        mode = "terrain"
    if settings is not None:
        brush, symmetry = settings
    else:
        brush = read_brush(query, rules, library) if editable else Brush()
        symmetry = read_symmetry(query.get("sym"), table)
    return _Asked(
        mode,
        hex_param(query.get("from"), table),
        hex_param(query.get("to"), table),
        hex_param(query.get("hex"), table),
        brush,
        symmetry,
    )


class _Links:
    """The page's links: to a view of the page (`at`), and the one each hex of the map
    carries (`link`), with everything the hex links depend on (`key`)."""

    def __init__(self, base: str, asked: _Asked, editable: bool) -> None:
        self.base, self.asked, self.editable = base, asked, editable
        self.joiner = "&" if "?" in base else "?"
        source = asked.source
        self.from_hex = self._per_hex(mode="lof", **{"from": HEX})
        self.to_hex = self._per_hex(mode="lof", to=HEX, **{"from": spot(source) if source else ""})
        self.terrain_hex = self._per_hex(mode="terrain", hex=HEX, **asked.painting)
        # Everything the links depend on: equal exactly when `link` gives the same links.
        self.key = (
            asked.mode,
            editable,
            base,
            spot(source) if source else "",
            tuple(asked.painting.items()),
        )

    def at(self, **values: str) -> str:
        return f"{self.base}{self.joiner}{urlencode(values)}"

    def _per_hex(self, **values: str) -> Callable[[Hex], str]:
        """``at`` with the hex's spot where a value is HEX: the query encoded once, not
        for each of 1,600 hexes (a spot "q,r" encodes as "q%2Cr")."""
        head, _, tail = urlencode(values).partition(quote_plus(HEX))
        base, joiner = self.base, self.joiner
        return lambda hex_: f"{base}{joiner}{head}{hex_[0]}%2C{hex_[1]}{tail}"

    def link(self, hex_: Hex) -> str:
        mode, source = self.asked.mode, self.asked.source
        if mode == "lof":
            if source is None or hex_ == source:
                return self.from_hex(hex_)
            return self.to_hex(hex_)
        if mode == "terrain" and self.editable:
            return self.terrain_hex(hex_)
        return self.from_hex(hex_)


# What an editor's palette context holds as text, empty on a read-only map.
_READ_ONLY_BRUSH = (
    "brush_colour",
    "remove_href",
    "piece_picture",
    "rotate_href",
    "image_of",
    "footprint",
)


def _read_only_brush(asked: _Asked) -> dict[str, Any]:
    """A read-only map's (a shared table, a table generated, a pack's): no palette, brush
    or symmetric editing (view_body.html draws them for an editor only), so none of their
    links is made."""
    return dict.fromkeys(_READ_ONLY_BRUSH, "") | {
        "brush": asked.brush,
        "brushes": [],
        "pieces": [],
        "box_left": [],
        "box_over": [],
        "symmetry": asked.symmetry,
        "symmetries": [],
    }


def _brush_context(
    table: TableSpec,
    rules: TableRules,
    library: TerrainLibrary,
    asked: _Asked,
    links: _Links,
    *,
    editable: bool,
    palette: bool,
) -> dict[str, Any]:
    """An editor's palette: the brushes, the pieces to stamp, the terrain box's count, the
    brush's piece and its outline, and symmetric editing."""
    if not editable:
        return _read_only_brush(asked)
    brush, symmetry, at = asked.brush, asked.symmetry, links.at
    left = box_left(table, library)
    return {
        "brush": brush,
        "brushes": [
            (key, name, swatch, at(mode="terrain", **editing(Brush(key), symmetry)))
            for key, name, swatch in [("", "Cycle", ""), (OPEN, "Open ground", colour(None))]
            + [(kind.id, kind.name, colour(kind.id)) for kind in kinds(rules)]
        ]
        if palette
        else [],
        "brush_colour": colour(brush.kind) if brush.paints else "",
        "pieces": (
            piece_palette(library, brush, at, symmetry, box_of(table, library)) if palette else []
        ),
        "box_left": left,
        "box_over": [row for row in left if row["over"]],
        "remove_href": at(mode="terrain", **editing(Brush(REMOVE), symmetry)),
        "piece_picture": (
            at_true_size(piece_svg(brush.piece, brush.turn, size=14)) if brush.piece else ""
        ),
        "rotate_href": (
            at(mode="terrain", **editing(brush.rotated(), symmetry), **asked.selection)
            if brush.piece is not None and len(brush.piece.turns) > 1
            else ""
        ),
        # With symmetric editing, how the outline's image is found: "kind,sx,sy", the sums
        # of the board's extreme centres (x = 2q + r, y = 3r) that the image mirrors about.
        "image_of": _image_rule(table, symmetry) if brush.piece is not None else "",
        # The piece's hexes turned, with their colours, for the outline under the pointer.
        "footprint": (
            " ".join(f"{dq},{dr},{colour(kind)}" for dq, dr, kind in brush.piece.cells(brush.turn))
            if brush.piece is not None
            else ""
        ),
        "symmetry": symmetry,
        "symmetries": [
            (key, name, at(mode="terrain", **editing(brush, key), **asked.selection))
            for key, name in [("", "Off"), *SYMMETRIC_EDITING.items()]
            if not key or table.board.symmetry(key) is not None
        ],
    }


def _view_context(
    table: TableSpec, rules: TableRules, asked: _Asked, links: _Links, drawn: Overlay
) -> dict[str, Any]:
    """The view shown: its mode and the modes to switch to, the hexes it names, the legend
    and the metrics' notes."""
    mode, brush, selected = asked.mode, asked.brush, asked.selected
    return {
        "mode": mode,
        "mode_name": MODES[mode],
        "brush_name": brush_name(brush, rules),
        "source_place": place(table, asked.source),
        "target_place": place(table, asked.target),
        "selected_place": place(table, selected),
        "modes": [(key, name, links.at(mode=key)) for key, name in MODES.items()],
        "source": asked.source,
        "target": asked.target,
        "selected": selected,
        "selected_kind": (
            brush.kind if brush.paints else (table.kind_at(selected) if selected else None)
        ),
        "legend": legend(rules),
        "notes": metric_notes(rules),
        "heat_label": drawn.heat_label,
        "lanes_drawn": len(drawn.lanes),
        "kinds": [("", "Open ground")] + [(kind.id, kind.name) for kind in kinds(rules)],
    }


def _shown(
    table: TableSpec,
    report: TableReport,
    rules: TableRules,
    library: TerrainLibrary,
    asked: _Asked,
) -> tuple[Overlay, str, frozenset[Hex], str]:
    """What the map shows over the terrain and its explanation; with a hex chosen for the
    brush's piece (or its removal), where it would land, or why it cannot."""
    drawn, explanation = overlay(table, report, rules, asked.mode, asked.source, asked.target)
    landing: frozenset[Hex] = frozenset()
    refusal = ""
    if asked.selected is not None and asked.mode == "terrain":
        if asked.brush.piece is not None or asked.brush.removes:
            landing, refusal = preview(table, library, asked.brush, asked.symmetry, asked.selected)
        drawn = problem_overlay(report, landing | {asked.selected})
    return drawn, explanation, landing, refusal


def _edit_context(
    query: Mapping[str, str], table: TableSpec, asked: _Asked, edit_url: str, version: int | None
) -> dict[str, Any]:
    """Where an edit goes, with the brush and symmetric editing, and the version it sends."""
    painting = asked.painting
    stepping = shown_view(query, table) | painting
    return {
        "edit_url": f"{edit_url}?{urlencode(painting)}" if edit_url and painting else edit_url,
        # Undo and redo keep the view, the brush, its turn and symmetric editing, as edits
        # do (without JavaScript, they go back to the view they were made from).
        "editing_query": f"?{urlencode(stepping)}" if stepping else "",
        "version": version,
    }


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
    palette: bool = True,
    drawn_before: DrawnMap | None = None,
    settings: tuple[Brush, str] | None = None,
) -> dict[str, Any]:
    """The map and its facts for the view asked in `query` (mode, from, to, hex); the
    palette's brushes and pieces only with `palette`.

    The map is `drawn_map` (its SVG `picture`); with `drawn_before`, the map the page shows,
    also `map_patch`: what turns that one into this one (see ``DrawnMap.patch``), None when
    it cannot.

    `settings`: the brush and symmetric editing an edit read from its query already
    (tablegen.editing.read_settings), instead of reading them from `query` again.

    `base` is the page's own URL (it may carry a query: the generate page's parameters);
    `version` is the saved table's, carried by every edit the page sends so that an edit
    drawn from an older version is refused."""
    report = report or checked_table(table, rules)
    library = terrain_library(tuple(rules.terrain))
    asked = _read_asked(query, table, rules, library, editable, settings)
    drawn, explanation, landing, refusal = _shown(table, report, rules, library, asked)
    links = _Links(base, asked, editable)
    drawn_map = draw_map(
        table,
        drawn,
        links.link,
        title=f"{table.name}: {MODES[asked.mode]}",
        rules=rules,
        link_key=links.key,
        element_id=MAP_ID if editable else "",
        before=drawn_before,
    )
    return {
        "spec": table,
        "report": report,
        "metrics": report.metrics,
        "drawn_map": drawn_map,
        "drawn_map_id": MAP_ID,
        # Joined (584 KB on a 40 x 40 board) only if the page draws it whole.
        "picture": lambda: drawn_map.svg,
        "map_patch": drawn_map.patch(drawn_before) if drawn_before is not None else None,
        "base": base,
        "landing": landing,
        "refusal": refusal,
        "explanation": explanation,
        "editable": editable,
        **_edit_context(query, table, asked, edit_url, version),
        **_view_context(table, rules, asked, links, drawn),
        **_brush_context(table, rules, library, asked, links, editable=editable, palette=palette),
    }
