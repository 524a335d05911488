"""Pictures of a table: SVG for the site and the PDF setup sheet, PNG with Pillow.

Pure: the caller passes a function giving each hex's link, so this module knows nothing
of URLs. Hexes are pointy-top, drawn at their true shape.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape

from PIL import Image, ImageDraw, ImageFont

from onefinity.rules import current_ruleset
from onefinity.rules.hexgrid import Hex
from onefinity.rules.ruleset import TableRules, TerrainKind
from tablegen.engine.tables import TableSpec

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
SQRT3 = math.sqrt(3)
# The most pixels a PNG may have: the image is allocated before anything is drawn, so its
# size is fixed from the board first. Boards are bounded (40 x 40), so this only lowers
# the scale of the largest ones (about 1.6 instead of 2 for 40 x 40: 24 MB of pixels).
MAX_PNG_PIXELS = 8_000_000
LEGEND_HEIGHT = 30


@dataclass(frozen=True)
class Overlay:
    """What to show over the terrain: a heat map, and/or line of fire from a hex."""

    heat: Sequence[float] | None = None  # 0..1 per hex, in board order
    heat_label: str = ""
    source: Hex | None = None
    seen: frozenset[Hex] = frozenset()
    target: Hex | None = None
    blockers: frozenset[Hex] = frozenset()
    highlighted: frozenset[Hex] = frozenset()


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


def _centre(hex_: Hex, origin: tuple[float, float]) -> tuple[float, float]:
    q, r = hex_
    return origin[0] + SIZE * SQRT3 * (q + r / 2), origin[1] + SIZE * 1.5 * r


def _corners(x: float, y: float, size: float = SIZE) -> list[tuple[float, float]]:
    return [
        (
            x + size * math.cos(math.radians(60 * k - 30)),
            y + size * math.sin(math.radians(60 * k - 30)),
        )
        for k in range(6)
    ]


def _frame(table: TableSpec) -> tuple[tuple[float, float], float, float]:
    raw = [_centre(h, (0.0, 0.0)) for h in table.board.hexes]
    min_x = min(x for x, _ in raw) - SIZE
    min_y = min(y for _, y in raw) - SIZE
    width = max(x for x, _ in raw) - min_x + SIZE + 4
    height = max(y for _, y in raw) - min_y + SIZE + 4
    return (-min_x + 2, -min_y + 2 + 18), width, height + 36


def _heat_colour(value: float) -> str:
    # From pale yellow (sees little) to deep red (sees a lot).
    value = min(1.0, max(0.0, value))
    r = 255
    g = int(245 - 190 * value)
    b = int(200 - 180 * value)
    return f"#{r:02x}{g:02x}{b:02x}"


def svg(
    table: TableSpec,
    overlay: Overlay | None = None,
    link: Callable[[Hex], str | None] | None = None,
    title: str = "",
) -> str:
    """The table as an accessible SVG: each hex labelled with its coordinates and terrain,
    a link when `link` gives one."""
    overlay = overlay or Overlay()
    names = {None: OPEN_LABEL} | {kind.id: kind.name for kind in kinds()}
    # Hexes no trooper stands on keep their colour under a heat map.
    walls = {kind.id for kind in kinds() if not kind.enterable}
    origin, width, height = _frame(table)
    board = table.board
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0f} {height:.0f}" class="table-map" role="img" '
        f'aria-label="{escape(title or table.name)}">'
    ]
    parts.append(
        f'<text x="4" y="13" class="edge-label" fill="{SIDE_COLOURS["A"]}">Side A edge</text>'
    )
    for index, hex_ in enumerate(board.hexes):
        x, y = _centre(hex_, origin)
        kind = table.terrain.get(index)
        fill = colour(kind)
        if overlay.heat is not None and kind not in walls:
            fill = _heat_colour(overlay.heat[index])
        classes = [f"hex {kind or 'open'}"]
        if overlay.source is not None:
            if hex_ == overlay.source:
                classes.append("source")
            elif hex_ in overlay.seen:
                classes.append("seen")
            else:
                classes.append("unseen")
        if hex_ in overlay.blockers:
            classes.append("blocker")
        if hex_ == overlay.target:
            classes.append("target")
        if hex_ in overlay.highlighted:
            classes.append("highlighted")
        side = None
        if hex_[1] == board.first_row:
            side = "A"
        elif hex_[1] == board.last_row:
            side = "B"
        stroke = SIDE_COLOURS[side] if side else "#8c8470"
        points = " ".join(f"{px:.1f},{py:.1f}" for px, py in _corners(x, y, SIZE - 0.8))
        name = f"{hex_[0]},{hex_[1]} {names[kind]}"
        text_fill = "#fff" if kind in DARK_KINDS and overlay.heat is None else "#333"
        polygon = (
            f'<polygon points="{points}" fill="{fill}" stroke="{stroke}" stroke-width="{2.2 if side else 1}"/>'
            f'<text x="{x:.1f}" y="{y + 3:.1f}" text-anchor="middle" class="coord" fill="{text_fill}">'
            f"{hex_[0]},{hex_[1]}</text>"
        )
        href = link(hex_) if link else None
        if href:
            parts.append(
                f'<a href="{escape(href)}" class="{" ".join(classes)}" aria-label="{escape(name)}">'
                f"<title>{escape(name)}</title>{polygon}</a>"
            )
        else:
            parts.append(
                f'<g class="{" ".join(classes)}"><title>{escape(name)}</title>{polygon}</g>'
            )
    if overlay.source is not None and overlay.target is not None:
        (x1, y1), (x2, y2) = _centre(overlay.source, origin), _centre(overlay.target, origin)
        line_colour = "#1a7f37" if overlay.target in overlay.seen else "#c0392b"
        parts.append(
            f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{line_colour}" stroke-width="3" class="lof"/>'
        )
    parts.append(
        f'<text x="4" y="{height - 6:.0f}" class="edge-label" fill="{SIDE_COLOURS["B"]}">Side B edge</text>'
    )
    parts.append("</svg>")
    return "".join(parts)


def legend(rules: TableRules | None = None) -> list[tuple[str, str]]:
    """(name, colour) of open ground and of each terrain kind."""
    return [(OPEN_LABEL, OPEN_COLOUR)] + [(kind.name, colour(kind.id)) for kind in kinds(rules)]


def png_scale(table: TableSpec, scale: float = 2.0, max_pixels: int = MAX_PNG_PIXELS) -> float:
    """The scale a PNG of this table is drawn at: `scale`, lowered to stay within
    `max_pixels`."""
    _, width, height = _frame(table)
    return min(scale, math.sqrt(max_pixels / (width * (height + LEGEND_HEIGHT))))


def png(table: TableSpec, scale: float = 2.0, max_pixels: int = MAX_PNG_PIXELS) -> bytes:
    """A PNG picture of the table with coordinates and a legend, at most `max_pixels`."""
    origin, width, height = _frame(table)
    scale = png_scale(table, scale, max_pixels)
    size = (int(width * scale), int((height + LEGEND_HEIGHT) * scale))
    if size[0] * size[1] > max_pixels:  # pragma: no cover - png_scale keeps within it
        raise ValueError(f"a {size[0]} x {size[1]} picture is over {max_pixels} pixels")
    image = Image.new("RGB", size, "white")
    draw = ImageDraw.Draw(image)
    font: ImageFont.FreeTypeFont | ImageFont.ImageFont
    try:
        font = ImageFont.truetype("DejaVuSans.ttf", int(9 * scale))
    except OSError:
        font = ImageFont.load_default()
    for index, hex_ in enumerate(table.board.hexes):
        x, y = _centre(hex_, origin)
        kind = table.terrain.get(index)
        side = (
            "A"
            if hex_[1] == table.board.first_row
            else "B"
            if hex_[1] == table.board.last_row
            else None
        )
        points = [(px * scale, py * scale) for px, py in _corners(x, y, SIZE - 0.8)]
        draw.polygon(
            points,
            fill=colour(kind),
            outline=SIDE_COLOURS[side] if side else "#8c8470",
            width=max(1, int(2 * scale)) if side else 1,
        )
        draw.text(
            (x * scale, y * scale),
            f"{hex_[0]},{hex_[1]}",
            fill="white" if kind in DARK_KINDS else "#333",
            font=font,
            anchor="mm",
        )
    draw.text((4 * scale, 4 * scale), "Side A edge", fill=SIDE_COLOURS["A"], font=font)
    draw.text((4 * scale, (height - 14) * scale), "Side B edge", fill=SIDE_COLOURS["B"], font=font)
    x = 6.0
    top = height + 6
    for name, fill in legend():
        draw.rectangle(
            [x * scale, top * scale, (x + 14) * scale, (top + 14) * scale],
            fill=fill,
            outline="#555",
        )
        draw.text(((x + 18) * scale, (top + 7) * scale), name, fill="#222", font=font, anchor="lm")
        x += 18 + len(name) * 6.5 + 14
    buffer = io.BytesIO()
    # Not optimize=True: it searches for the smallest encoding, 2.5 times the time of
    # drawing the largest board, for about 10 % fewer bytes.
    image.save(buffer, format="PNG")
    return buffer.getvalue()


def pieces(table: TableSpec) -> list[tuple[str, list[Hex]]]:
    """Terrain as pieces to set up: connected hexes of one kind, largest first."""
    seen: set[int] = set()
    found = []
    for start, kind in sorted(table.terrain.items()):
        if start in seen:
            continue
        group, stack = [], [start]
        seen.add(start)
        while stack:
            i = stack.pop()
            group.append(i)
            for m in table.board.neighbours[i]:
                if m not in seen and table.terrain.get(m) == kind:
                    seen.add(m)
                    stack.append(m)
        found.append((kind, sorted(table.board.hexes[i] for i in group)))
    found.sort(key=lambda piece: (-len(piece[1]), piece[0], piece[1]))
    return [(label(kind), hexes) for kind, hexes in found]
