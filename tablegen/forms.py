from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from django import forms
from django.core.validators import MaxValueValidator, MinValueValidator
from django.forms.renderers import BaseRenderer, get_default_renderer
from django.utils.safestring import SafeString

from accounts.ownership import owned
from onefinity.forms import PasteOrUploadForm, StrictIntegerField
from onefinity.http import HtmxHttpRequest
from onefinity.rules import current_ruleset
from onefinity.rules.bounded_cache import Recent
from onefinity.rules.hexgrid import MAX_BOARD_COLUMNS, MAX_BOARD_ROWS
from onefinity.rules.jsontext import JsonTextError, parse_json
from onefinity.rules.ruleset import TableRules
from onefinity.rules.text import normalize_name
from tablegen.engine.boxes import (
    MAX_COUNT,
    MAX_PIECES,
    Box,
    BoxError,
    decode_counts,
    read_new_box,
)
from tablegen.engine.generate import SYMMETRIES, Parameters
from tablegen.engine.library import terrain_library
from tablegen.engine.render import kinds
from tablegen.engine.tables import MAX_NAME_LENGTH, TableDocumentError, read_name
from tablegen.engine.tournament import MAX_PACK
from tablegen.models import TerrainBox

# A hex as a stroke names it: "q,r" (the board's coordinates are far below 6 digits).
HEX_SPOT = re.compile(r"(-?[0-9]{1,6}),(-?[0-9]{1,6})")


class _Unkept(Exception):
    """A widget's context holds a value that is not plain data: it is drawn, not kept."""


def _frozen(value: object) -> object:
    """Plain data (dicts, lists, tuples, strings, numbers, None) as a hashable key that is
    equal only for the same values of the same types (a safe string, True and 1 differ),
    dicts in their order (the order of a widget's attributes in its HTML)."""
    if isinstance(value, dict):
        return (dict, tuple((key, _frozen(item)) for key, item in value.items()))
    if isinstance(value, list | tuple):
        return (type(value), tuple(_frozen(item) for item in value))
    if value is None or type(value) in (str, SafeString, int, float, bool):
        return (type(value), value)
    raise _Unkept


class KeptWidgets(BaseRenderer):
    """The site's form renderer, each widget's HTML kept per process by the whole context it
    is drawn from: Django draws a widget through its templates (a select through one per
    option), 56 to 137 µs a field, and the generate page's nine fields are drawn on every
    table made, the same but for the seed. A widget's template reads its context alone (no
    request, no context processors), so the same context draws the same HTML; a context
    holding anything but plain data is drawn as usual."""

    def __init__(self) -> None:
        self.site = get_default_renderer()
        self.form_template_name = self.site.form_template_name
        self.formset_template_name = self.site.formset_template_name
        self.field_template_name = self.site.field_template_name

    def get_template(self, template_name: str) -> Any:
        return self.site.get_template(template_name)

    def render(self, template_name: str, context: dict[str, Any], request: Any = None) -> str:
        if request is not None:
            return str(self.site.render(template_name, context, request))
        # A number typed (the seed: new on every table) is kept as a stand-in and put back
        # in the HTML: digits, a sign and a point are the same escaped or not.
        widget = context.get("widget")
        typed = widget.get("value") if isinstance(widget, dict) else None
        if isinstance(widget, dict) and type(typed) is str and NUMBER.fullmatch(typed):
            html = self._kept(template_name, context | {"widget": widget | {"value": STAND_IN}})
            if html.count(STAND_IN) == 1:
                return html.replace(STAND_IN, typed)
            # Not a template that shows the value as it is: drawn with it.
        return self._kept(template_name, context)

    def _kept(self, template_name: str, context: dict[str, Any]) -> str:
        try:
            key = (template_name, _frozen(context))
        except _Unkept:
            return str(self.site.render(template_name, context))
        html = _WIDGETS.get(key)
        if html is None:
            html = str(self.site.render(template_name, context))
            _WIDGETS.put(key, html)
        return html


# A number as a widget's value (KeptWidgets), and what stands for it in a widget kept: a
# character no template or escaping makes or changes.
NUMBER = re.compile(r"-?[0-9]{1,30}(\.[0-9]{1,30})?")
STAND_IN = "\x00"

# The widgets drawn, by template and context (KeptWidgets): bounded in characters (a key
# weighs about what its HTML does), shared by the server's threads.
KEPT_WIDGETS_CHARACTERS = 1_000_000
_WIDGETS: Recent[tuple[str, object], str] = Recent(KEPT_WIDGETS_CHARACTERS, lambda h: 2 * len(h))


def clean_table_name(value: str) -> str:
    """A name as typed, tidied, and held to the table reader's rule (its message if not)."""
    try:
        return read_name(normalize_name(value))
    except TableDocumentError as error:
        raise forms.ValidationError(f"The name {error.problem}.") from None


class GenerateForm(forms.Form):
    default_renderer = KeptWidgets

    seed = StrictIntegerField(
        label="Seed",
        required=False,
        min_value=0,
        max_value=2**62,
        help_text="Each press of Generate draws a new seed, unless you keep this one.",
    )
    pin = forms.BooleanField(
        label="Keep this seed",
        required=False,
        help_text="To make the same table again, or the same layout with other settings.",
    )
    coverage = forms.FloatField(label="Coverage", initial=0.45)
    symmetry = forms.ChoiceField(
        label="Symmetry", choices=[(s, s.capitalize()) for s in SYMMETRIES], initial="point"
    )
    mix = forms.ChoiceField(label="Piece mix", initial="balanced")
    box = forms.CharField(
        label="Terrain box",
        required=False,
        max_length=2_000,
        widget=forms.Select,
        help_text="Only pieces you own, never more than the box holds (the mix is not used).",
    )

    def __init__(self, *args: Any, boxes: Sequence[tuple[str, str]] = (), **kwargs: Any) -> None:
        """`boxes`: the owner's terrain boxes as (their counts as text, name)."""
        super().__init__(*args, **kwargs)
        rules = current_ruleset().table
        self.library = terrain_library(tuple(rules.terrain))
        settings = self.library.generator
        coverage = self.fields["coverage"]
        coverage.validators += [
            MinValueValidator(settings.coverage_asked_min),
            MaxValueValidator(settings.coverage_asked_max),
        ]
        coverage.widget.attrs.update(
            {"step": "0.01", "min": settings.coverage_asked_min, "max": settings.coverage_asked_max}
        )
        coverage.help_text = (
            f"The share of hexes with terrain, {settings.coverage_asked_min:.2f} to "
            f"{settings.coverage_asked_max:.2f}. A valid table has {rules.coverage_min:.0%} to "
            f"{rules.coverage_max:.0%} (ruleset {current_ruleset().version}); outside that the "
            "table is made and marked not valid."
        )
        mix = self.fields["mix"]
        assert isinstance(mix, forms.ChoiceField)
        mix.choices = [(key, name) for key, (name, _) in self.library.mixes.items()]
        choices = [("", "None: the whole catalogue"), *boxes]
        sent = self.data.get("box", "") if self.is_bound else self.initial.get("box", "")
        if sent and sent not in dict(choices):
            choices.append((sent, "The pieces in the link"))
        self.fields["box"].widget.choices = choices

    def clean_box(self) -> dict[str, int] | None:
        text: str = self.cleaned_data["box"]
        if not text:
            return None
        try:
            return decode_counts(text, self.library)
        except BoxError as error:
            raise forms.ValidationError(f"That box cannot be read: {error.problem}.") from None

    def parameters(self, seed: int | None = None) -> Parameters:
        """The generator's parameters from a valid form (the seed given, or the form's)."""
        data = self.cleaned_data
        return Parameters(
            seed=data["seed"] if seed is None else seed,
            coverage=round(data["coverage"], 3),
            symmetry=data["symmetry"],
            mix=data["mix"],
            box=data.get("box"),
        )


class PackForm(GenerateForm):
    pin = None  # type: ignore[assignment]  # a pack's seed is its first table's: nothing to pin
    count = StrictIntegerField(
        label="Tables in the pack", min_value=1, max_value=MAX_PACK, initial=12
    )
    name = forms.CharField(label="Pack name", max_length=MAX_NAME_LENGTH, initial="Tournament pack")

    def clean_name(self) -> str:
        return clean_table_name(self.cleaned_data["name"])


class EmptyBoardForm(forms.Form):
    default_renderer = KeptWidgets

    name = forms.CharField(label="Name", max_length=MAX_NAME_LENGTH, initial="My table")
    rows = StrictIntegerField(label="Rows", min_value=2, max_value=MAX_BOARD_ROWS, initial=11)
    columns = StrictIntegerField(
        label="Columns", min_value=1, max_value=MAX_BOARD_COLUMNS, initial=9
    )

    def clean_name(self) -> str:
        return clean_table_name(self.cleaned_data["name"])


class TerrainForm(forms.Form):
    """What the editor sends for the terrain: one hex (q, r), or a stroke dragged across
    hexes ("q,r q,r ..." in `hexes`, at most `most`: the board's size); the kind ("" for
    open ground; none at all for the brush's, or to move the hex on to the next kind) and the
    version the page showed."""

    q = StrictIntegerField(min_value=-10_000, max_value=10_000, required=False)
    r = StrictIntegerField(min_value=-10_000, max_value=10_000, required=False)
    kind = forms.CharField(required=False, strip=False, max_length=80)
    hexes = forms.CharField(required=False)

    def __init__(self, data: Any, rules: TableRules, most: int) -> None:
        super().__init__(data)
        self.rules = rules
        self.most = most
        self.cycles = "kind" not in data
        self.stroke = "hexes" in data

    def clean_kind(self) -> str | None:
        kind: str = self.cleaned_data["kind"]
        if not self.cycles and kind and kind not in self.rules.terrain:
            raise forms.ValidationError(self.kind_choices())
        return kind or None

    def clean_hexes(self) -> list[tuple[int, int]]:
        """The stroke's hexes in the order painted, each once; the count is checked before
        anything is parsed, so a huge stroke costs no more than splitting it."""
        if not self.stroke:
            return []
        spots = self.cleaned_data["hexes"].split()
        if not spots:
            raise forms.ValidationError("That stroke names no hex.")
        if len(spots) > self.most:
            raise forms.ValidationError(
                f"A stroke paints at most {self.most:,} hexes (the whole board); "
                f"that one names {len(spots):,}."
            )
        found = []
        for spot in spots:
            match = HEX_SPOT.fullmatch(spot)
            if match is None:
                raise forms.ValidationError("That stroke names a hex that is not on the table.")
            found.append((int(match[1]), int(match[2])))
        return list(dict.fromkeys(found))

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not self.stroke and (data.get("q") is None or data.get("r") is None):
            self.add_error("q", "That hex is not on the table.")
        return data

    def kind_choices(self) -> str:
        names = [kind.name for kind in kinds(self.rules)]
        return f"Choose open ground, {', '.join(names[:-1])} or {names[-1]}."

    def problem(self) -> str:
        """Why the edit was refused, in one sentence."""
        if "kind" in self.errors:
            return self.kind_choices()
        if "hexes" in self.errors:
            return str(self.errors["hexes"][0])
        return "That hex is not on the table."

    @property
    def hex(self) -> tuple[int, int]:
        """The hex clicked (a stroke's first)."""
        return self.targets[0]

    @property
    def targets(self) -> list[tuple[int, int]]:
        """Every hex the edit names: the stroke's, or the one clicked."""
        if self.stroke:
            hexes: list[tuple[int, int]] = self.cleaned_data["hexes"]
            return hexes
        return [(self.cleaned_data["q"], self.cleaned_data["r"])]


# The box form's words for tablegen.engine.boxes.EMPTY_BOX: said of its counts.
EMPTY_COUNTS = (
    "A terrain box holds at least one piece: give a count to the pieces you own (for "
    "tables of the whole catalogue, choose no box)."
)


class BoxForm(forms.Form):
    """A terrain box: its name and how many of each library piece, one number each (a plain
    form: it works without JavaScript)."""

    name = forms.CharField(label="Name", max_length=MAX_NAME_LENGTH, initial="My terrain")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.library = terrain_library(tuple(current_ruleset().table.terrain))
        for piece in self.library.pieces.values():
            self.fields[f"count-{piece.id}"] = StrictIntegerField(
                label=piece.name, min_value=0, max_value=MAX_COUNT, initial=0, required=False
            )

    def clean_name(self) -> str:
        return clean_table_name(self.cleaned_data["name"])

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        counts = {
            piece: data.get(f"count-{piece}") or 0
            for piece in self.library.pieces
            if f"count-{piece}" in data
        }
        total = sum(counts.values())
        if total > MAX_PIECES:
            raise forms.ValidationError(
                f"That is {total} pieces; a box holds at most {MAX_PIECES}."
            )
        if not total and not self.errors:
            raise forms.ValidationError(EMPTY_COUNTS)
        data["counts"] = counts
        return data

    def box(self) -> Box:
        data = self.cleaned_data
        return Box(data["name"], {k: v for k, v in data["counts"].items() if v})

    def by_role(self) -> list[tuple[str, list[Any]]]:
        """The count fields under their roles' names, in the library's order."""
        return [
            (name, [(piece, self[f"count-{piece.id}"]) for piece in pieces])
            for _, name, pieces in self.library.by_role()
            if pieces
        ]


# The largest terrain box document imported.
MAX_BOX_BYTES = 20_000


class BoxImportForm(PasteOrUploadForm):
    """A terrain box document, pasted or uploaded."""

    paste_label = "Paste a terrain box (JSON)"
    upload_label = "Or upload one"
    document = "a terrain box"
    most_bytes = MAX_BOX_BYTES

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        text = data["pasted"]
        try:
            document = parse_json(text)
        except JsonTextError as error:
            raise forms.ValidationError(f"This cannot be read: {error}.") from None
        try:
            data["box"] = read_new_box(
                document, terrain_library(tuple(current_ruleset().table.terrain))
            )
        except BoxError as error:
            where = f"{error.path}: " if error.path else ""
            raise forms.ValidationError(
                f"This is not a terrain box: {where}{error.problem}."
            ) from None
        return data


def box_choices(request: HtmxHttpRequest) -> list[tuple[str, str]]:
    """The owner's terrain boxes as the generate and pack forms offer them (an empty one,
    stored before empty boxes were refused, would read as "no box": it is not offered)."""
    return [(box.encoded(), box.name) for box in owned(request, TerrainBox) if box.pieces]
