"""The forms of the Swiss system: results (0 to 99 victory points, bounded before use), the
bye's VP and the organizer's seeds, swaps and drops."""

from __future__ import annotations

from typing import Any

from django import forms

from events.models import MAX_ENTRIES, MAX_RESULT_VP, MAX_ROUNDS, MAX_TABLES_PER_ROUND
from events.pairings import MAX_CELL_LENGTH
from onefinity.forms import StrictIntegerField


def vp_field(label: str) -> StrictIntegerField:
    return StrictIntegerField(
        label=label,
        min_value=0,
        max_value=MAX_RESULT_VP,
        error_messages={
            "required": f"{label}: a whole number from 0 to {MAX_RESULT_VP}.",
            "invalid": f"{label}: a whole number from 0 to {MAX_RESULT_VP}.",
            "min_value": f"{label}: a whole number from 0 to {MAX_RESULT_VP}.",
            "max_value": f"{label}: a whole number from 0 to {MAX_RESULT_VP}.",
        },
    )


def problems_of(form: forms.Form) -> list[str]:
    """A form's errors as sentences, each once."""
    found: list[str] = []
    for errors in form.errors.values():
        for error in errors:
            if error not in found:
                found.append(str(error))
    return found


class ResultForm(forms.Form):
    """The organizer's result (the contract: ``a`` names a player of the game, ``a_vp`` is
    their VP, ``b_vp`` their opponent's; ``version`` is optional, sent by the site's page)."""

    a = forms.CharField(max_length=MAX_CELL_LENGTH)
    a_vp = vp_field("Player A's VP")
    b_vp = vp_field("Player B's VP")
    version = StrictIntegerField(required=False, min_value=0, max_value=2**62)


class ReportForm(forms.Form):
    """A player's report of their own game (``version``: the result's, as the page showed it;
    optional, so that a tool sending the two VP alone still reports)."""

    my_vp = vp_field("Your VP")
    their_vp = vp_field("Your opponent's VP")
    version = StrictIntegerField(required=False, min_value=0, max_value=2**62)


class ClearResultForm(forms.Form):
    table = StrictIntegerField(min_value=1, max_value=MAX_TABLES_PER_ROUND)
    version = StrictIntegerField(min_value=0, max_value=2**62)


class SwapForm(forms.Form):
    kind = forms.ChoiceField(choices=[("players", "players"), ("tables", "tables")])
    first = forms.CharField(max_length=MAX_CELL_LENGTH, required=False)
    second = forms.CharField(max_length=MAX_CELL_LENGTH, required=False)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if cleaned.get("kind") == "tables":
            for name in ("first", "second"):
                text = (cleaned.get(name) or "").strip()
                if not (text.isascii() and text.isdigit() and len(text) <= 4):
                    raise forms.ValidationError(
                        f"Tables are numbers from 1 to {MAX_TABLES_PER_ROUND}."
                    )
                cleaned[name] = int(text)
            if not all(1 <= cleaned[n] <= MAX_TABLES_PER_ROUND for n in ("first", "second")):
                raise forms.ValidationError(f"Tables are numbers from 1 to {MAX_TABLES_PER_ROUND}.")
        return cleaned


class DropForm(forms.Form):
    change = forms.ChoiceField(choices=[("drop", "drop"), ("reinstate", "reinstate")])
    after = StrictIntegerField(required=False, min_value=0, max_value=MAX_ROUNDS)


class ByeForm(forms.Form):
    bye_vp = StrictIntegerField(
        label="VP a bye scores",
        min_value=0,
        max_value=MAX_RESULT_VP,
        help_text=f"A bye counts as a win with these victory points (0 to {MAX_RESULT_VP}).",
    )


def read_seeds(data: Any, entries: list[Any]) -> tuple[list[int], list[str]]:
    """The organizer's seeds: a number (1 to the number of players) per seeded player, read
    from ``seed-<entry id>`` for each registered entry (at most MAX_ENTRIES, so the work is
    bounded by the event, not by the request). The seeded entries' ids, top seed first, and
    the problems."""
    problems: list[str] = []
    seeds: dict[int, Any] = {}
    limit = min(len(entries), MAX_ENTRIES)
    for entry in entries[:MAX_ENTRIES]:
        text = str(data.get(f"seed-{entry.pk}", "")).strip()
        if not text:
            continue
        if not (text.isascii() and text.isdigit() and len(text) <= 3 and 1 <= int(text) <= limit):
            problems.append(f"{entry.player_name}: a seed is a number from 1 to {limit}.")
            continue
        number = int(text)
        if number in seeds:
            problems.append(
                f"Seed {number} is given to both {seeds[number].player_name} and "
                f"{entry.player_name}."
            )
            continue
        seeds[number] = entry
    return [seeds[n].pk for n in sorted(seeds)], problems


class ClockForm(forms.Form):
    minutes = StrictIntegerField(
        label="Minutes",
        min_value=1,
        max_value=600,
        error_messages={
            "required": "The round's length: a whole number of minutes from 1 to 600.",
            "invalid": "The round's length: a whole number of minutes from 1 to 600.",
            "min_value": "The round's length: a whole number of minutes from 1 to 600.",
            "max_value": "The round's length: a whole number of minutes from 1 to 600.",
        },
    )
