from __future__ import annotations

import datetime
from typing import Any

from django import forms

from events.models import MAX_NAME_LENGTH, MAX_NOTES_LENGTH, MAX_ROUNDS
from events.pairings import MAX_CSV_BYTES
from onefinity.forms import StrictIntegerField
from onefinity.rules import library
from onefinity.rules.force import MAX_POINTS_LIMIT
from onefinity.rules.text import normalize_name, text_problem

FIRST_YEAR, LAST_YEAR = 2000, 2100


class EventForm(forms.Form):
    name = forms.CharField(max_length=MAX_NAME_LENGTH)
    # ISO dates: what an <input type=date> reads and sends, whatever the site's locale.
    date = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
    points_limit = StrictIntegerField(label="Points limit", min_value=1, max_value=MAX_POINTS_LIMIT)
    ruleset_version = forms.ChoiceField(label="Ruleset")
    round_count = StrictIntegerField(label="Rounds", min_value=1, max_value=MAX_ROUNDS, initial=3)
    notes = forms.CharField(
        required=False,
        max_length=MAX_NOTES_LENGTH,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=f"Optional: shown to players on the join page. At most {MAX_NOTES_LENGTH:,} characters.",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        rulesets = sorted(library().rulesets, reverse=True)
        choice = self.fields["ruleset_version"]
        assert isinstance(choice, forms.ChoiceField)
        choice.choices = [(version, version) for version in rulesets]
        choice.initial = library().current.version
        self.fields["points_limit"].initial = library().current.force_limits.points
        self.fields["date"].initial = datetime.date.today()

    def clean_name(self) -> str:
        name = normalize_name(self.cleaned_data["name"])
        problem = text_problem(name)
        if problem:
            raise forms.ValidationError(f"An event name {problem}.")
        if not name:
            raise forms.ValidationError("An event needs a name.")
        return name

    def clean_date(self) -> datetime.date:
        date: datetime.date = self.cleaned_data["date"]
        if not FIRST_YEAR <= date.year <= LAST_YEAR:
            raise forms.ValidationError(f"Choose a date from {FIRST_YEAR} to {LAST_YEAR}.")
        return date

    def clean_notes(self) -> str:
        """Notes keep their lines; each line follows the text rule (no control
        characters), and runs of spaces and tabs become one space."""
        text = self.cleaned_data["notes"].replace("\r\n", "\n").replace("\r", "\n")
        lines = [" ".join(line.split()) for line in text.split("\n")]
        for number, line in enumerate(lines, start=1):
            problem = text_problem(line)
            if problem:
                raise forms.ValidationError(f"Notes, line {number}: the text {problem}.")
        notes = "\n".join(lines).strip("\n")
        if len(notes) > MAX_NOTES_LENGTH:
            raise forms.ValidationError(f"Notes are at most {MAX_NOTES_LENGTH:,} characters.")
        return notes


class PairingsImportForm(forms.Form):
    pairings = forms.CharField(
        label="Paste the pairings (CSV)",
        required=False,
        widget=forms.Textarea(attrs={"rows": 8}),
        max_length=MAX_CSV_BYTES,
    )
    file = forms.FileField(label="or upload a .csv file", required=False)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        upload = cleaned.get("file")
        text = cleaned.get("pairings") or ""
        if upload is not None:
            if upload.size > MAX_CSV_BYTES:
                raise forms.ValidationError(
                    f"That file is {upload.size:,} bytes; a pairings file is at most {MAX_CSV_BYTES:,}."
                )
            try:
                text = upload.read().decode("utf-8")
            except UnicodeDecodeError:
                raise forms.ValidationError(
                    "That file is not UTF-8 text. Save it from your spreadsheet as CSV UTF-8."
                ) from None
        if not text.strip():
            raise forms.ValidationError("Paste the pairings or choose a CSV file.")
        cleaned["text"] = text
        return cleaned
