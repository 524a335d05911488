from __future__ import annotations

from typing import Any

from django import forms

from onefinity.forms import PasteOrUploadForm, StrictIntegerField
from onefinity.rules import ForceDocumentError, ForceSpec, library, read_force_document
from onefinity.rules.force import MAX_NAME_LENGTH, MAX_POINTS_LIMIT
from onefinity.rules.jsontext import JsonTextError, parse_json
from onefinity.rules.text import normalize_name, text_problem
from onefinity.wording import problem_in_words

MAX_IMPORT_BYTES = 100_000


def _faction_choices() -> list[tuple[str, str]]:
    ruleset = library().current
    return [
        (f.id, f.name + (" (provisional)" if f.provisional else ""))
        for f in ruleset.factions.values()
    ]


class NewForceForm(forms.Form):
    name = forms.CharField(max_length=MAX_NAME_LENGTH, initial="New force")
    faction = forms.ChoiceField()
    points_limit = StrictIntegerField(
        label="Game size (points)", min_value=1, max_value=MAX_POINTS_LIMIT, initial=75
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        faction = self.fields["faction"]
        assert isinstance(faction, forms.ChoiceField)
        faction.choices = _faction_choices()
        points = self.fields["points_limit"]
        points.initial = library().current.force_limits.points

    def clean_name(self) -> str:
        name = normalize_name(self.cleaned_data["name"])
        problem = text_problem(name)
        if problem:
            raise forms.ValidationError(f"A list name {problem}.")
        if not name:
            raise forms.ValidationError("A list needs a name.")
        return name


class ImportForm(PasteOrUploadForm):
    paste_name = "document"
    paste_label = "Paste a force document (JSON)"
    paste_rows = 8
    upload_label = "or upload a .json file"
    document = "a force document"
    most_bytes = MAX_IMPORT_BYTES

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        text = cleaned["pasted"]
        try:
            document = parse_json(text)
        except JsonTextError as error:
            raise forms.ValidationError(f"This cannot be read: {error}.") from None
        try:
            spec = read_force_document(document)
        except ForceDocumentError as error:
            raise forms.ValidationError(
                f"This is not a force document we can read: {problem_in_words(error)}."
            ) from None
        if library().get(spec.ruleset) is None:
            known = ", ".join(sorted(library().rulesets))
            raise forms.ValidationError(
                f"This list uses ruleset {spec.ruleset}, which this site does not have ({known})."
            )
        cleaned["spec"] = spec
        return cleaned

    @property
    def spec(self) -> ForceSpec:
        return self.cleaned_data["spec"]
