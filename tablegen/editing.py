"""The table editor's use cases: what a hex click, a stroke, undo and redo do to a saved
table, from the request's fields to the new version.

The editor's settings (its brush and its symmetric editing) ride in the edit's query; they
are read once here (``read_settings``), with why an edit cannot take them, and the map of the
answer is drawn from the same reading (``tablegen.maps.map_context(settings=...)``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from accounts.ownership import StaleVersion
from onefinity.rules import current_ruleset
from onefinity.rules.hexgrid import Hex
from tablegen.engine.edits import EditError
from tablegen.engine.library import TerrainLibrary, terrain_library
from tablegen.engine.metrics import TableReport
from tablegen.engine.tables import TableDocumentError, TableSpec
from tablegen.forms import TerrainForm
from tablegen.maps import (
    PIECE,
    TURNS,
    Brush,
    read_brush,
    read_symmetry,
    sentence,
    spot,
    symmetry_problem,
)
from tablegen.models import Table

PAINT_FIRST = (
    "To paint several hexes at once, choose open ground or a kind of terrain as the brush."
)


class Refused(Exception):
    """Bad input: nothing changed; the message says why (the table is shown as it is)."""


@dataclass(frozen=True)
class Settings:
    """The editor's brush and symmetric editing, read once from an edit's query; ``problem``
    says why an edit cannot be made with them ("" when it can)."""

    brush: Brush
    symmetry: str
    problem: str = ""


def read_settings(
    query: Mapping[str, str], table: TableSpec, library: TerrainLibrary | None = None
) -> Settings:
    """The brush and symmetry an edit's query names. A page reads an unknown brush as none,
    but an edit made with one would do what was not asked (move the hex on to the next kind
    instead of setting a piece down, or set it down unturned), so for an edit it is a
    problem; so is symmetric editing the board does not have (one hex changed where two
    were asked)."""
    rules = current_ruleset().table
    library = library or terrain_library(tuple(rules.terrain))
    value = query.get("brush") or ""
    brush = read_brush(query, rules, library)
    symmetry = read_symmetry(query.get("sym"), table)
    problem = symmetry_problem(query.get("sym"), table)
    if value.startswith(PIECE) and brush.piece is None:
        problem = (
            f"The terrain library has no piece “{value[len(PIECE) :][:40]}”: choose a "
            "piece from the palette."
        )
    elif value and brush.key != value:
        problem = "That brush is not in the palette: choose one from it."
    elif brush.piece is not None and (query.get("turn") or "0") not in TURNS:
        problem = "A piece turns 0 to 5 steps of 60 degrees: turn it with Rotate."
    return Settings(brush, symmetry, problem)


@dataclass(frozen=True)
class TerrainEdit:
    """A change made: its report, what to say ("" for a plain paint), the hex clicked (None
    for a stroke) and the settings it was made with."""

    report: TableReport | None  # None: the change left the table as it was
    done: str
    hex: Hex | None
    settings: Settings


def edit_terrain(
    table: Table, data: Mapping[str, object], query: Mapping[str, str], expected: int
) -> TerrainEdit:
    """What a click on a hex (or a stroke dragged across hexes) does with the query's brush:
    paint, set a library piece down, take a piece away, or (no brush, no kind) move the hex
    on to the next kind. Each is one new version, undone as one.

    StaleVersion when the table moved on since the page (at ``expected``) was drawn;
    Refused (nothing changed) for input the editor cannot take; DamagedRecord when the
    stored table no longer reads."""
    if expected != table.version:
        raise StaleVersion(table.version, expected)
    spec = table.to_spec()
    form = TerrainForm(data, current_ruleset().table, most=len(spec.board))
    if not form.is_valid():
        raise Refused(form.problem())
    settings = read_settings(query, spec)
    if settings.problem:
        raise Refused(settings.problem)
    brush, symmetry = settings.brush, settings.symmetry
    if form.stroke and form.cycles and not brush.paints:
        raise Refused(PAINT_FIRST)
    done = ""
    try:
        if not form.cycles:
            report = table.paint(form.targets, form.cleaned_data["kind"], expected, symmetry)
        elif brush.paints:
            # The palette's brush: a click or a stroke paints (the page keeps the brush).
            report = table.paint(form.targets, brush.kind, expected, symmetry)
        elif brush.piece is not None:
            report = table.stamp(brush.piece.id, brush.turn, form.hex, expected, symmetry)
            done = f"{brush.piece.name} set down at {spot(form.hex)}{_image_too(symmetry)}."
        elif brush.removes:
            report = table.remove_piece(form.hex, expected=expected, symmetry=symmetry)
            done = f"The piece on {spot(form.hex)}{_image_too(symmetry)} removed."
        else:
            report = table.cycle(form.hex, expected=expected, symmetry=symmetry)
    except EditError as error:
        if brush.piece is not None or brush.removes:
            raise Refused(sentence(error)) from None
        raise Refused("That hex is not on the table.") from None
    except TableDocumentError as error:
        table.refresh_from_db()
        raise Refused(f"That change cannot be saved: {error}.") from None
    return TerrainEdit(report, done, None if form.stroke else form.hex, settings)


def _image_too(symmetry: str) -> str:
    return f" (and its {symmetry} image)" if symmetry else ""
