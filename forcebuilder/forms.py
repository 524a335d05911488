from __future__ import annotations

import json
from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm

from onefinity.rules import ForceDocumentError, ForceSpec, library, read_force_document
from onefinity.rules.force import MAX_NAME_LENGTH, MAX_POINTS_LIMIT

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
    points_limit = forms.IntegerField(
        label="Game size (points)", min_value=1, max_value=MAX_POINTS_LIMIT, initial=75
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        faction = self.fields["faction"]
        assert isinstance(faction, forms.ChoiceField)
        faction.choices = _faction_choices()
        points = self.fields["points_limit"]
        points.initial = library().current.force_limits.points


class ImportForm(forms.Form):
    document = forms.CharField(
        label="Paste a force document (JSON)",
        widget=forms.Textarea(attrs={"rows": 8}),
        required=False,
    )
    file = forms.FileField(label="or upload a .json file", required=False)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        upload = cleaned.get("file")
        text = cleaned.get("document") or ""
        if upload is not None:
            if upload.size > MAX_IMPORT_BYTES:
                raise forms.ValidationError(
                    f"That file is {upload.size:,} bytes; a force document is at most {MAX_IMPORT_BYTES:,}."
                )
            try:
                text = upload.read().decode("utf-8")
            except UnicodeDecodeError:
                raise forms.ValidationError(
                    "That file is not UTF-8 text, so not a force document."
                ) from None
        if not text.strip():
            raise forms.ValidationError("Paste a force document or choose a file.")
        if len(text.encode("utf-8")) > MAX_IMPORT_BYTES:
            raise forms.ValidationError(f"A force document is at most {MAX_IMPORT_BYTES:,} bytes.")
        try:
            document = json.loads(text)
        except json.JSONDecodeError as error:
            raise forms.ValidationError(
                f"This is not valid JSON (line {error.lineno}, column {error.colno}: {error.msg})."
            ) from None
        except RecursionError:
            raise forms.ValidationError(
                "This document is nested too deeply to be a force document."
            ) from None
        try:
            spec = read_force_document(document)
        except ForceDocumentError as error:
            raise forms.ValidationError(
                f"This is not a force document we can read: {error}."
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


class SignupForm(UserCreationForm):  # type: ignore[type-arg]
    class Meta(UserCreationForm.Meta):  # type: ignore[name-defined]
        model = get_user_model()
        fields = ("username", "email")
