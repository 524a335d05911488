"""Pictures of a table: SVG for the site, the PDF setup sheet and the palette; PNG with Pillow.

Pure: the caller passes a function giving each hex's link, so this module knows nothing of
URLs. Hexes are pointy-top, drawn at their true shape. Each piece is drawn as one outline
(the union of its hexes, by shapely, on the integer lattice of ``hexgrid`` where hexes that
touch share their corners exactly), so a table reads as the pieces a person sets down.

The map of a 40 x 40 board is 1,620 hexes: what does not depend on the terrain (each hex's
polygon and label) is laid out once per board and kept, so a redraw after an edit is mostly
joining strings.
"""

from __future__ import annotations

import functools
import io
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from html import escape

from PIL import Image, ImageDraw, ImageFont
from shapely import Polygon, unary_union
from shapely.geometry.base import BaseGeometry

from onefinity.rules import current_ruleset
from onefinity.rules.hexgrid import CORNERS, Board, Hex
from onefinity.rules.ruleset import TableRules, TerrainKind
from tablegen.engine.library import CUSTOM, Piece, TerrainLibrary, terrain_library
from tablegen.engine.tables import Placed, TableSpec

SIZE = 26.0  # circumradius in pixels
# Presentation only: the colour of each of the ruleset's terrain kinds, by kind id (a test
# checks that every kind of every ruleset has one), and of open ground.
OPEN_COLOUR = "#ece6d6"
OPEN_LABEL = "Open ground"
KIND_COLOURS = {
    "cover": "#9cc38a",
    "elevated": "#d8b46a",
    "blocking": "#4b4f5c",
}
# Light text reads on these kinds' fill; dark text on every other.
DARK_KINDS = frozenset({"blocking"})
SIDE_COLOURS = {"A": "#2f6fb3", "B": "#b3412f"}
GRID_COLOUR = "#8c8470"
OUTLINE_COLOUR = "#1d232b"
PROBLEM_COLOUR = "#c0392b"
SQRT3 = math.sqrt(3)
# Lattice units (hexgrid) to pixels: a centre (2q + r, 3r) lies at SIZE * (sqrt3/2, 1/2) times.
X_UNIT, Y_UNIT = SIZE * SQRT3 / 2, SIZE / 2
# The most pixels a PNG may have: the image is allocated before anything is drawn, so its
# size is fixed from the board first. Boards are bounded (40 x 40), so this only lowers
# the scale of the largest ones (about 1.6 instead of 2 for 40 x 40: 24 MB of pixels).
MAX_PNG_PIXELS = 8_000_000
LEGEND_HEIGHT = 30
TITLE_HEIGHT = 26


@dataclass(frozen=True)
class Overlay:
    """What to show over the terrain: a heat map, line of fire from a hex, what is wrong."""

    heat: Sequence[float] | None = None  # 0..1 per hex, in board order
    heat_label: str = ""
    source: Hex | None = None
    seen: frozenset[Hex] = frozenset()
    target: Hex | None = None
    blockers: frozenset[Hex] = frozenset()
    highlighted: frozenset[Hex] = frozenset()
    # What the verdict finds wrong: the hexes concerned, and the clear edge-to-edge lanes.
    problems: frozenset[Hex] = frozenset()
    lanes: tuple[tuple[Hex, Hex], ...] = ()


def kinds(rules: TableRules | None = None) -> list[TerrainKind]:
    """The ruleset's terrain kinds from the lowest to the highest (the order of a legend or a
    palette: cover, elevated, blocking)."""
    terrain = (rules or current_ruleset().table).terrain
    return sorted(terrain.values(), key=lambda kind: (kind.height, kind.level, kind.id))


def colour(kind: str | None) -> str:
    return OPEN_COLOUR if kind is None else KIND_COLOURS[kind]


def label(kind: str | None, rules: TableRules | None = None) -> str:
    """A kind's name as the ruleset gives it ("Open ground" for none)."""
    return OPEN_LABEL if kind is None else (rules or current_ruleset().table).terrain[kind].name


def legend(rules: TableRules | None = None) -> list[tuple[str, str]]:
    """(name, colour) of open ground and of each terrain kind."""
    return [(OPEN_LABEL, OPEN_COLOUR)] + [(kind.name, colour(kind.id)) for kind in kinds(rules)]


# --- Geometry, laid out once per board --------------------------------------------------------


def _corners(x: float, y: float, size: float = SIZE) -> list[tuple[float, float]]:
    return [
        (
            x + size * math.cos(math.radians(60 * k - 30)),
            y + size * math.sin(math.radians(60 * k - 30)),
        )
        for k in range(6)
    ]


@dataclass(frozen=True, eq=False)
class _Layout:
    origin: tuple[float, float]
    width: float
    height: float
    centres: tuple[tuple[float, float], ...]
    # Per hex, the SVG of its polygon's points and of its coordinate label.
    points: tuple[str, ...]
    labels: tuple[str, ...]
    # Per hex, its SVG shape before and after its fill colour (polygon, edge stroke, label),
    # and the start of its accessible name, its place in a player's words ("Row 3 from
    # side A, column 5: ").
    before_fill: tuple[str, ...]
    after_fill: tuple[str, ...]
    names: tuple[str, ...]


@functools.lru_cache(maxsize=16)
def _layout(board: Board) -> _Layout:
    raw = [(X_UNIT * (2 * q + r), Y_UNIT * 3 * r) for q, r in board.hexes]
    min_x = min(x for x, _ in raw) - SIZE
    min_y = min(y for _, y in raw) - SIZE
    width = max(x for x, _ in raw) - min_x + SIZE + 4
    height = max(y for _, y in raw) - min_y + SIZE + 4
    origin = (-min_x + 2, -min_y + 2 + 18)
    centres = tuple((origin[0] + x, origin[1] + y) for x, y in raw)
    points = tuple(
        " ".join(f"{px:.1f},{py:.1f}" for px, py in _corners(x, y, SIZE - 0.8)) for x, y in centres
    )
    # The coordinates drawn on each hex are for the eye (the problems and messages name hexes
    # by them); a hex's name is its place in a player's words (``places``).
    labels = tuple(
        f'<text x="{x:.1f}" y="{y + 3:.1f}" class="coord" aria-hidden="true">{q},{r}</text>'
        for (x, y), (q, r) in zip(centres, board.hexes, strict=True)
    )
    first, last = board.first_row, board.last_row
    after_fill = []
    for (_, row), text in zip(board.hexes, labels, strict=True):
        edge = row in (first, last)
        stroke = SIDE_COLOURS["A" if row == first else "B"] if edge else GRID_COLOUR
        after_fill.append(f'" stroke="{stroke}" stroke-width="{2.2 if edge else 1}"/>{text}')
    return _Layout(
        origin,
        width,
        height + 36,
        centres,
        points,
        labels,
        tuple(f'<polygon points="{p}" fill="' for p in points),
        tuple(after_fill),
        tuple(f"{place}: " for place in places(board)),
    )


@functools.lru_cache(maxsize=16)
def places(board: Board) -> tuple[str, ...]:
    """Each hex's place in a player's words, in board order: its row counted from side A's
    table edge, its column from the left of that row ("Row 3 from side A, column 5"). The
    axial coordinates (negative on most boards) mean nothing at the table. The numbers are
    the board's own (``Board.row_columns``), which a game reads and types hexes by."""
    return tuple(f"Row {row} from side A, column {column}" for row, column in board.row_columns)


def _frame(table: TableSpec) -> tuple[tuple[float, float], float, float]:
    layout = _layout(table.board)
    return layout.origin, layout.width, layout.height


def _lattice(hex_: Hex) -> tuple[int, int]:
    q, r = hex_
    return 2 * q + r, 3 * r


@functools.lru_cache(maxsize=4096)
def _outline_shape(cells: frozenset[tuple[int, int]]) -> tuple[tuple[tuple[int, int], ...], ...]:
    """The rings (outer, then holes) of the union of hexes centred at `cells` (lattice points
    relative to the piece's first hex): exact, since touching hexes share lattice corners."""
    union: BaseGeometry = unary_union(
        [Polygon([(x + dx, y + dy) for dx, dy in CORNERS]) for x, y in cells]
    )
    polygons = list(getattr(union, "geoms", [union]))
    rings = []
    for polygon in polygons:
        rings.append(tuple((int(x), int(y)) for x, y in polygon.exterior.coords))
        rings += [tuple((int(x), int(y)) for x, y in hole.coords) for hole in polygon.interiors]
    return tuple(rings)


def outline(board: Board, placed: Placed) -> list[list[tuple[int, int]]]:
    """A piece's outline as rings of lattice points (closed: the last is the first)."""
    points = [_lattice(board.hexes[i]) for i in placed.hexes]
    x0, y0 = points[0]
    rings = _outline_shape(frozenset((x - x0, y - y0) for x, y in points))
    return [[(x + x0, y + y0) for x, y in ring] for ring in rings]


def _pixels(origin: tuple[float, float], x: int, y: int) -> tuple[float, float]:
    return origin[0] + X_UNIT * x, origin[1] + Y_UNIT * y


@functools.lru_cache(maxsize=8192)
def _piece_path(board: Board, hexes: tuple[int, ...]) -> str:
    """The SVG path of the outline of a piece on these hexes (kept: an edit changes a few of
    a table's hundreds of pieces)."""
    return _path(_layout(board).origin, outline(board, Placed(CUSTOM, hexes)))


def _path(origin: tuple[float, float], rings: list[list[tuple[int, int]]]) -> str:
    parts = []
    for ring in rings:
        coords = [_pixels(origin, x, y) for x, y in ring[:-1]]
        parts.append("M" + "L".join(f"{px:.1f},{py:.1f}" for px, py in coords) + "Z")
    return "".join(parts)


# --- SVG ----------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=16_384)
def _hex_svg(
    layout: _Layout, index: int, name: str, fill: str, classes: str, ink: str, href: str | None
) -> str:
    """One hex of the SVG map, kept by everything it shows: a map drawn again after an edit
    finds all but the changed hexes ready."""
    shape = f"{layout.before_fill[index]}{fill}{layout.after_fill[index]}"
    name = f"{layout.names[index]}{name}"
    if href:
        # Named by its title (SVG's own way, which a pointer shows as a tooltip too): its
        # place and terrain, not the coordinates drawn on it, which are hidden from
        # assistive technology.
        return (
            f'<a href="{escape(href)}" class="{classes}" fill="{ink}">'
            f"<title>{name}</title>{shape}</a>"
        )
    return f'<g class="{classes}" fill="{ink}"><title>{name}</title>{shape}</g>'


def _heat_colour(value: float) -> str:
    # From pale yellow (sees little) to deep red (sees a lot).
    value = min(1.0, max(0.0, value))
    r = 255
    g = int(245 - 190 * value)
    b = int(200 - 180 * value)
    return f"#{r:02x}{g:02x}{b:02x}"


@dataclass(frozen=True, eq=False)
class DrawnMap:
    """An SVG map as drawn: its parts, and what its hexes were drawn from.

    A hex's drawing is a function of its terrain and its marks once the board, the rules,
    the view and the hexes' links are fixed (the `basis`; None for a heat map or a line of
    fire view, which colour every hex). So the next drawing of the same table on the same
    basis draws again only the hexes whose terrain or marks changed (``draw_map``'s
    `before`), and ``changed_since`` says which hexes a page showing the older map must
    replace: an edit's answer is those hexes, not the 1,620 of a large board."""

    head: str
    hexes: tuple[str, ...]
    pieces: str
    marks: str
    tail: str
    basis: tuple[object, ...] | None
    terrain: Mapping[int, str]
    marked: Mapping[int, str]

    @property
    def svg(self) -> str:
        return f"{self.head}{''.join(self.hexes)}{self.pieces}{self.marks}{self.tail}"

    def changed_since(self, before: DrawnMap) -> list[int] | None:
        """The hexes drawn differently from `before`, in board order; None when more than
        hexes, pieces and marks changed (another board, view or title: draw it all)."""
        if (
            self.basis is None
            or before.basis != self.basis
            or before.head != self.head
            or before.tail != self.tail
            or len(before.hexes) != len(self.hexes)
        ):
            return None
        old, new = before.hexes, self.hexes
        candidates = _differing(before.terrain, self.terrain) | _differing(
            before.marked, self.marked
        )
        return sorted(i for i in candidates if old[i] != new[i])

    def patch(self, before: DrawnMap) -> str | None:
        """What turns `before`'s SVG into this one, for the page (config/static/js/tables.js): an
        SVG of the hexes drawn differently, each with its number (data-at), then the
        pieces' outlines and the marks, which replace the page's; None as
        ``changed_since``."""
        changed = self.changed_since(before)
        if changed is None:
            return None
        # Each hex's drawing opens with a two-letter tag ("<a" or "<g").
        hexes = "".join(f'{self.hexes[i][:2]} data-at="{i}"{self.hexes[i][2:]}' for i in changed)
        marks = self.marks or '<g class="marks" aria-hidden="true"></g>'
        return f'<svg xmlns="http://www.w3.org/2000/svg">{hexes}{self.pieces}{marks}</svg>'


def _differing(before: Mapping[int, str], after: Mapping[int, str]) -> set[int]:
    """The keys whose values differ (or that only one of the two has)."""
    changed = {key for key, value in after.items() if before.get(key) != value}
    changed.update(key for key in before if key not in after)
    return changed


def svg(
    table: TableSpec,
    overlay: Overlay | None = None,
    link: Callable[[Hex], str | None] | None = None,
    title: str = "",
    rules: TableRules | None = None,
) -> str:
    """The table as an accessible SVG: each hex named by its place and terrain (its
    coordinates are drawn on it),
    a link when `link` gives one; each piece outlined; what is wrong marked in red."""
    return draw_map(table, overlay, link, title, rules).svg


def draw_map(
    table: TableSpec,
    overlay: Overlay | None = None,
    link: Callable[[Hex], str | None] | None = None,
    title: str = "",
    rules: TableRules | None = None,
    *,
    link_key: object = None,
    element_id: str = "",
    before: DrawnMap | None = None,
) -> DrawnMap:
    """``svg``, in parts. `link_key`: a value that is equal exactly when `link` gives the same
    links (None: unknown, never drawn in part); `before`: the same table's last drawing,
    whose hexes are kept where the terrain and marks are the same (see ``DrawnMap``)."""
    overlay = overlay or Overlay()
    rules = rules or current_ruleset().table
    layout = _layout(table.board)
    marks_of = _marked(table.board, overlay)
    draw = _hex_painter(table, layout, overlay, link, rules, marks_of)
    basis = (
        (table.board, rules, link_key)
        if link is not None
        and link_key is not None
        and overlay.heat is None
        and overlay.source is None
        else None
    )
    if before is not None and basis is not None and before.basis == basis:
        drawn = list(before.hexes)
        for index in _differing(before.terrain, table.terrain) | _differing(
            before.marked, marks_of
        ):
            drawn[index] = draw(index)
        drawn_hexes = tuple(drawn)
    else:
        drawn_hexes = tuple(draw(index) for index in range(len(table.board)))
    return DrawnMap(
        head=_map_head(table, layout, link is not None, title, element_id),
        hexes=drawn_hexes,
        pieces=_piece_outlines(table),
        marks=_marks(table.board, layout, overlay),
        tail=(
            f'<text x="4" y="{layout.height - 6:.0f}" class="edge-label" '
            f'fill="{SIDE_COLOURS["B"]}">Side B edge</text></svg>'
        ),
        basis=basis,
        terrain=dict(table.terrain),
        marked=marks_of,
    )


def _map_head(table: TableSpec, layout: _Layout, linked: bool, title: str, element_id: str) -> str:
    """The map's opening tag, with its name, and side A's edge label."""
    identity = f'id="{escape(element_id)}" ' if element_id else ""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" {identity}'
        f'viewBox="0 0 {layout.width:.0f} {layout.height:.0f}" '
        # A picture whose hexes are links is a group of controls to assistive technology,
        # not an image (an image's content is not read out: axe's nested-interactive).
        f'class="table-map" role="{"group" if linked else "img"}" '
        f'aria-label="{escape(title or table.name)}">'
        f'<text x="4" y="13" class="edge-label" fill="{SIDE_COLOURS["A"]}">Side A edge</text>'
    )


def _marked(board: Board, overlay: Overlay) -> dict[int, str]:
    """The classes of the few hexes the overlay marks, by board index, found from the marks
    (not each hex tested against every mark: a 1,620-hex map is drawn after every edit), in
    the order they are named."""
    marks_of: dict[int, str] = {}
    target = (overlay.target,) if overlay.target else ()
    for mark, hexes in (
        (" blocker", overlay.blockers),
        (" target", target),
        (" highlighted", overlay.highlighted),
        (" problem", overlay.problems),
    ):
        for hex_ in hexes:
            at = board.index.get(hex_)
            if at is not None:
                marks_of[at] = marks_of.get(at, "") + mark
    return marks_of


def _hex_painter(
    table: TableSpec,
    layout: _Layout,
    overlay: Overlay,
    link: Callable[[Hex], str | None] | None,
    rules: TableRules,
    marks_of: Mapping[int, str],
) -> Callable[[int], str]:
    """What draws one hex of this table's map, by its board index: its fill (its kind's, or
    the heat map's), its classes (kind, line of fire, marks), its label's ink and its link;
    each kind's name, fill and ink worked out once for the whole map."""
    # Accessible names (escaped once) and fills of each kind.
    names = {None: escape(OPEN_LABEL)} | {kind.id: escape(kind.name) for kind in kinds(rules)}
    fills = {kind: colour(kind) for kind in names}
    # Hexes no trooper stands on keep their colour under a heat map.
    walls = {kind.id for kind in kinds(rules) if not kind.enterable}
    base = {kind: f"hex {kind or 'open'}" for kind in names}
    # The label's colour, inherited from the hex's element (pictures are also printed
    # without the site's styles).
    inks = {
        kind: "#fff" if kind in DARK_KINDS and overlay.heat is None else "#333" for kind in names
    }
    lof = overlay.source is not None
    terrain = table.terrain
    hexes_of = table.board.hexes

    def draw(index: int) -> str:
        hex_ = hexes_of[index]
        kind = terrain.get(index)
        fill = fills[kind]
        if overlay.heat is not None and kind not in walls:
            fill = _heat_colour(overlay.heat[index])
        classes = base[kind]
        if lof:
            if hex_ == overlay.source:
                classes += " source"
            elif hex_ in overlay.seen:
                classes += " seen"
            else:
                classes += " unseen"
        if index in marks_of:
            classes += marks_of[index]
        href = link(hex_) if link else None
        return _hex_svg(layout, index, names[kind], fill, classes, inks[kind], href)

    return draw


def _piece_outlines(table: TableSpec) -> str:
    """Each piece's outline (a hand-made piece's dashed), as one group."""
    outlines = [
        f'<g class="pieces" fill="none" stroke="{OUTLINE_COLOUR}" stroke-width="2.5" '
        'stroke-linejoin="round" aria-hidden="true">'
    ]
    for placed in table.placed():
        dash = ' stroke-dasharray="5 3"' if placed.piece == CUSTOM else ""
        outlines.append(f'<path d="{_piece_path(table.board, placed.hexes)}" class="piece"{dash}/>')
    outlines.append("</g>")
    return "".join(outlines)


def _marks(board: Board, layout: _Layout, overlay: Overlay) -> str:
    """The lines drawn over the map: the open edge-to-edge lanes, and the line of fire
    from the source to the target (green when it is clear); "" when there is none."""
    marks = []
    for a, b in overlay.lanes:
        (x1, y1), (x2, y2) = layout.centres[board.index[a]], layout.centres[board.index[b]]
        marks.append(
            f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
            f'stroke="{PROBLEM_COLOUR}" stroke-width="2.5" stroke-dasharray="6 4" class="lane"/>'
        )
    if overlay.source is not None and overlay.target is not None:
        i, j = board.index[overlay.source], board.index[overlay.target]
        (x1, y1), (x2, y2) = layout.centres[i], layout.centres[j]
        line_colour = "#1a7f37" if overlay.target in overlay.seen else PROBLEM_COLOUR
        marks.append(
            f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{line_colour}" '
            'stroke-width="3" class="lof"/>'
        )
    return '<g class="marks" aria-hidden="true">' + "".join(marks) + "</g>" if marks else ""


@functools.lru_cache(maxsize=1024)
def piece_svg(piece: Piece, turn: int = 0, size: float = 11.0) -> str:
    """A small picture of a library piece turned `turn` steps: for the palette and the box
    form (decorative: the piece's name is written beside it)."""
    cells = piece.cells(turn)
    centres = [(2 * dq + dr, 3 * dr) for dq, dr, _ in cells]
    scale_x, scale_y = size * SQRT3 / 2, size / 2
    xs = [x * scale_x for x, _ in centres]
    ys = [y * scale_y for _, y in centres]
    left, top = min(xs) - size - 1, min(ys) - size - 1
    width, height = max(xs) - left + size + 1, max(ys) - top + size + 1
    shapes = []
    for (x, y), (_, _, kind) in zip(zip(xs, ys, strict=True), cells, strict=True):
        points = " ".join(
            f"{px - left:.1f},{py - top:.1f}" for px, py in _corners(x, y, size - 0.5)
        )
        shapes.append(f'<polygon points="{points}" fill="{colour(kind)}" stroke="{GRID_COLOUR}"/>')
    x0, y0 = centres[0]
    rings = _outline_shape(frozenset((x - x0, y - y0) for x, y in centres))
    path = "".join(
        "M"
        + "L".join(
            f"{(x + x0) * scale_x - left:.1f},{(y + y0) * scale_y - top:.1f}" for x, y in ring[:-1]
        )
        + "Z"
        for ring in rings
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0f} {height:.0f}" '
        f'class="piece-picture" aria-hidden="true">{"".join(shapes)}'
        f'<path d="{path}" fill="none" stroke="{OUTLINE_COLOUR}" stroke-width="1.5"/></svg>'
    )


# --- The pieces, for a person to lay the table out ---------------------------------------------


@dataclass(frozen=True)
class PieceRow:
    number: int
    name: str
    hexes: tuple[Hex, ...]
    # Where its anchor stands and how far it is turned (library pieces); None if hand-made.
    anchor: Hex | None
    degrees: int | None
    custom: bool


def piece_rows(table: TableSpec, library: TerrainLibrary, rules: TableRules) -> list[PieceRow]:
    """Every piece of the table, numbered from side A's edge down (the order a person lays
    them out in), with its name, its hexes, and for a library piece its anchor and turn."""
    board = table.board
    placed = sorted(
        table.placed(), key=lambda p: (board.hexes[p.hexes[0]][1], board.hexes[p.hexes[0]][0])
    )
    rows = []
    for number, piece in enumerate(placed, start=1):
        hexes = tuple(sorted((board.hexes[i] for i in piece.hexes), key=lambda h: (h[1], h[0])))
        entry = library.pieces.get(piece.piece)
        anchor = degrees = None
        if entry is not None:
            found = entry.match({board.hexes[i]: table.terrain[i] for i in piece.hexes})
            if found is not None:
                degrees, anchor = 60 * found[0], found[1]
            name = entry.name
        else:
            kind = table.terrain[piece.hexes[0]]
            name = f"Hand-placed {rules.terrain[kind].name.lower()}, {len(hexes)} hex{'es' if len(hexes) != 1 else ''}"
        rows.append(PieceRow(number, name, hexes, anchor, degrees, entry is None))
    return rows


def pieces(table: TableSpec) -> list[tuple[str, list[Hex]]]:
    """Terrain as pieces to set up (name, hexes), numbered as ``piece_rows``."""
    rules = current_ruleset().table
    return [
        (row.name, list(row.hexes))
        for row in piece_rows(table, terrain_library(tuple(rules.terrain)), rules)
    ]


# --- PNG ------------------------------------------------------------------------------------------


def png_scale(table: TableSpec, scale: float = 2.0, max_pixels: int = MAX_PNG_PIXELS) -> float:
    """The scale a PNG of this table is drawn at: `scale`, lowered to stay within
    `max_pixels`."""
    _, width, height = _frame(table)
    below = _legend_height(width)
    return min(scale, math.sqrt(max_pixels / (width * (height + below + TITLE_HEIGHT))))


# A legend line's height, and the space its entries take (unscaled: the box, the gap, about
# 6.5 per character of a 9-point name, and the space to the next entry).
LEGEND_LINE = 20


def _legend_lines(
    width: float, rules: TableRules | None = None
) -> list[list[tuple[float, str, str]]]:
    """The legend's entries (x, name, colour), on as many lines as the picture's width needs:
    on one line, a narrow board's picture cut the last kinds off."""
    lines: list[list[tuple[float, str, str]]] = [[]]
    x = 6.0
    for name, fill in legend(rules):
        wide = 18 + len(name) * 6.5
        if lines[-1] and x + wide > width - 4:
            lines.append([])
            x = 6.0
        lines[-1].append((x, name, fill))
        x += wide + 14
    return lines


def _legend_height(width: float, rules: TableRules | None = None) -> float:
    return LEGEND_HEIGHT + LEGEND_LINE * (len(_legend_lines(width, rules)) - 1)


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    try:
        return ImageFont.truetype("DejaVuSans.ttf", size)
    except OSError:
        return ImageFont.load_default()


def png(
    table: TableSpec,
    scale: float = 2.0,
    max_pixels: int = MAX_PNG_PIXELS,
    numbers: bool = False,
    rules: TableRules | None = None,
) -> bytes:
    """A PNG picture of the table with its name, coordinates, each piece outlined (numbered
    as on the setup sheet when `numbers`) and a legend, at most `max_pixels`."""
    rules = rules or current_ruleset().table
    picture = _Picture(table, png_scale(table, scale, max_pixels), max_pixels, rules)
    picture.hexes()
    picture.outlines()
    if numbers:
        picture.numbers()
    picture.edges_and_legend()
    return picture.encoded()


class _Picture:
    """A PNG of a table being drawn: the image, sized from the board before anything is
    drawn, and the scale and shift (the name goes above the map) from the map's SVG units
    to its pixels."""

    def __init__(self, table: TableSpec, scale: float, max_pixels: int, rules: TableRules) -> None:
        self.table, self.rules, self.scale = table, rules, scale
        self.layout = layout = _layout(table.board)
        size = (
            int(layout.width * scale),
            int((layout.height + _legend_height(layout.width, rules) + TITLE_HEIGHT) * scale),
        )
        if size[0] * size[1] > max_pixels:  # pragma: no cover - png_scale keeps within it
            raise ValueError(f"a {size[0]} x {size[1]} picture is over {max_pixels} pixels")
        self.image = Image.new("RGB", size, "white")
        self.draw = ImageDraw.Draw(self.image)
        self.font = _font(int(9 * scale))
        self.draw.text((6 * scale, 4 * scale), table.name, fill="#111", font=_font(int(15 * scale)))

    def at(self, x: float, y: float) -> tuple[float, float]:
        """The pixel of a point of the map's SVG."""
        return x * self.scale, (y + TITLE_HEIGHT) * self.scale

    def hexes(self) -> None:
        """Each hex in its kind's colour (the table edges' outlined in their side's), with
        its coordinates."""
        board, at, draw, scale = self.table.board, self.at, self.draw, self.scale
        for index, hex_ in enumerate(board.hexes):
            x, y = self.layout.centres[index]
            kind = self.table.terrain.get(index)
            row = hex_[1]
            side = "A" if row == board.first_row else "B" if row == board.last_row else None
            draw.polygon(
                [at(px, py) for px, py in _corners(x, y, SIZE - 0.8)],
                fill=colour(kind),
                outline=SIDE_COLOURS[side] if side else GRID_COLOUR,
                width=max(1, int(2 * scale)) if side else 1,
            )
            draw.text(
                at(x, y),
                f"{hex_[0]},{hex_[1]}",
                fill="white" if kind in DARK_KINDS else "#333",
                font=self.font,
                anchor="mm",
            )

    def outlines(self) -> None:
        width = max(2, int(2.5 * self.scale))
        board, origin = self.table.board, self.layout.origin
        for placed in self.table.placed():
            for ring in outline(board, placed):
                points = [self.at(*_pixels(origin, x, y)) for x, y in ring]
                self.draw.line(points, fill=OUTLINE_COLOUR, width=width, joint="curve")

    def numbers(self) -> None:
        """Each piece's number as on the setup sheet, in a badge at its hexes' centre."""
        badge = _font(int(11 * self.scale))
        board, centres = self.table.board, self.layout.centres
        for listed in piece_rows(self.table, _library(self.rules), self.rules):
            centre = [centres[board.index[h]] for h in listed.hexes]
            cx = sum(x for x, _ in centre) / len(centre)
            cy = sum(y for _, y in centre) / len(centre)
            r = 8 * self.scale
            px, py = self.at(cx, cy)
            self.draw.ellipse(
                [px - r, py - r, px + r, py + r], fill="white", outline=OUTLINE_COLOUR
            )
            self.draw.text((px, py), str(listed.number), fill="#111", font=badge, anchor="mm")

    def edges_and_legend(self) -> None:
        """The table edges' names, and the legend of the kinds below the map."""
        at, draw, font, height = self.at, self.draw, self.font, self.layout.height
        draw.text(at(4, -8), "Side A edge", fill=SIDE_COLOURS["A"], font=font)
        draw.text(at(4, height - 14), "Side B edge", fill=SIDE_COLOURS["B"], font=font)
        for line, entries in enumerate(_legend_lines(self.layout.width, self.rules)):
            top = height + 6 + line * LEGEND_LINE
            for x, name, fill in entries:
                draw.rectangle([*at(x, top), *at(x + 14, top + 14)], fill=fill, outline="#555")
                draw.text(at(x + 18, top + 7), name, fill="#222", font=font, anchor="lm")

    def encoded(self) -> bytes:
        buffer = io.BytesIO()
        # Not optimize=True: it searches for the smallest encoding, 2.5 times the time of
        # drawing the largest board, for about 10 % fewer bytes.
        self.image.save(buffer, format="PNG")
        return buffer.getvalue()


def _library(rules: TableRules) -> TerrainLibrary:
    return terrain_library(tuple(rules.terrain))
