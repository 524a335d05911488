from __future__ import annotations

from typing import Any

from django import forms
from django.core.validators import MaxValueValidator, MinValueValidator

from onefinity.rules import current_ruleset
from onefinity.rules.hexgrid import MAX_BOARD_COLUMNS, MAX_BOARD_ROWS
from onefinity.rules.ruleset import TableRules
from onefinity.rules.text import normalize_name
from tablegen.engine.generate import SYMMETRIES, Parameters
from tablegen.engine.library import terrain_library
from tablegen.engine.packs import MAX_PACK
from tablegen.engine.render import kinds
from tablegen.engine.tables import MAX_NAME_LENGTH, TableDocumentError, read_name


def clean_table_name(value: str) -> str:
    """A name as typed, tidied, and held to the table reader's rule (its message if not)."""
    try:
        return read_name(normalize_name(value))
    except TableDocumentError as error:
        raise forms.ValidationError(f"The name {error.problem}.") from None


class GenerateForm(forms.Form):
    seed = forms.IntegerField(
        label="Seed",
        required=False,
        min_value=0,
        max_value=2**62,
        help_text="Leave empty for a new random table.",
    )
    coverage = forms.FloatField(
        label="Coverage", initial=0.45, help_text="Share of hexes with terrain."
    )
    symmetry = forms.ChoiceField(
        label="Symmetry", choices=[(s, s.capitalize()) for s in SYMMETRIES], initial="point"
    )
    mix = forms.ChoiceField(label="Piece mix", initial="balanced")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        rules = current_ruleset().table
        coverage = self.fields["coverage"]
        coverage.validators += [
            MinValueValidator(rules.coverage_min),
            MaxValueValidator(rules.coverage_max),
        ]
        coverage.widget.attrs.update(
            {"step": "0.01", "min": rules.coverage_min, "max": rules.coverage_max}
        )
        mix = self.fields["mix"]
        assert isinstance(mix, forms.ChoiceField)
        mix.choices = [
            (key, name) for key, (name, _) in terrain_library(tuple(rules.terrain)).mixes.items()
        ]

    def parameters(self, seed: int | None = None) -> Parameters:
        """The generator's parameters from a valid form (the seed given, or the form's)."""
        data = self.cleaned_data
        return Parameters(
            seed=data["seed"] if seed is None else seed,
            coverage=round(data["coverage"], 3),
            symmetry=data["symmetry"],
            mix=data["mix"],
        )


class PackForm(GenerateForm):
    count = forms.IntegerField(
        label="Tables in the pack", min_value=1, max_value=MAX_PACK, initial=12
    )
    name = forms.CharField(label="Pack name", max_length=MAX_NAME_LENGTH, initial="Tournament pack")

    def clean_name(self) -> str:
        return clean_table_name(self.cleaned_data["name"])


class EmptyBoardForm(forms.Form):
    name = forms.CharField(label="Name", max_length=MAX_NAME_LENGTH, initial="My table")
    rows = forms.IntegerField(label="Rows", min_value=2, max_value=MAX_BOARD_ROWS, initial=11)
    columns = forms.IntegerField(
        label="Columns", min_value=1, max_value=MAX_BOARD_COLUMNS, initial=9
    )

    def clean_name(self) -> str:
        return clean_table_name(self.cleaned_data["name"])


class TerrainForm(forms.Form):
    """One hex's terrain as the editor sends it: the hex, the kind ("" for open ground; none
    at all to move the hex on to the next kind) and the version the page showed."""

    q = forms.IntegerField(min_value=-10_000, max_value=10_000)
    r = forms.IntegerField(min_value=-10_000, max_value=10_000)
    kind = forms.CharField(required=False, strip=False, max_length=80)

    def __init__(self, data: Any, rules: TableRules) -> None:
        super().__init__(data)
        self.rules = rules
        self.cycles = "kind" not in data

    def clean_kind(self) -> str | None:
        kind: str = self.cleaned_data["kind"]
        if not self.cycles and kind and kind not in self.rules.terrain:
            raise forms.ValidationError(self.kind_choices())
        return kind or None

    def kind_choices(self) -> str:
        names = [kind.name for kind in kinds(self.rules)]
        return f"Choose open ground, {', '.join(names[:-1])} or {names[-1]}."

    def problem(self) -> str:
        """Why the edit was refused, in one sentence."""
        return self.kind_choices() if "kind" in self.errors else "That hex is not on the table."

    @property
    def hex(self) -> tuple[int, int]:
        return (self.cleaned_data["q"], self.cleaned_data["r"])


def sent_version(data: Any, current: int) -> int:
    """The version of the record the page showed (the current one when the form sent none,
    as a script might); -1, always stale, when it is not a number."""
    try:
        return int(data.get("version", current))
    except (TypeError, ValueError):
        return -1
