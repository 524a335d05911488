"""The organizer's dashboard as a use case: who has submitted what (with the filters and
their counts), the reminders, each round's state and what to do next, what there is to
print. The view adds what belongs to the request (the join link, the printouts' jobs)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Count

from events import printing, reading
from events.checking import event_ruleset, ruleset_shipped, shipped_rulesets
from events.models import MAX_ENTRIES, Entry, Event, Round

FILTERS = {
    "all": "Everyone",
    "missing": "Not submitted",
    "illegal": "Not legal",
    "changed": "Changed since lock",
    "open": "Not locked",
    "locked": "Locked",
}


@dataclass
class PlayerRow:
    entry: Entry
    faction: str
    changed_since_lock: bool
    list_deleted: bool

    @property
    def status(self) -> str:
        entry = self.entry
        if not entry.submitted:
            return "missing"
        return "legal" if entry.legal else "illegal"

    def shown(self, show: str) -> bool:
        entry = self.entry
        return {
            "all": True,
            "missing": not entry.submitted,
            "illegal": entry.submitted and not entry.legal,
            "changed": self.changed_since_lock,
            "open": not entry.locked,
            "locked": entry.locked,
        }[show]


def _rows(event: Event) -> list[PlayerRow]:
    event.refresh_open_entries()
    ruleset = event_ruleset(event.ruleset_version)
    rows = []
    for entry in event.entries.select_related("player", "force").order_by("player__username"):
        entry.event = event
        faction = ruleset.factions.get(entry.faction)
        rows.append(
            PlayerRow(
                entry,
                faction.name if faction else entry.faction,
                entry.live_differs(),
                entry.submitted and entry.force_id is None,
            )
        )
    return rows


def _reminders(
    event: Event, rows: list[PlayerRow], rounds: Sequence[Round], pairings: dict[int, int]
) -> list[str]:
    reminders = []
    missing = [r.entry.player_name for r in rows if not r.entry.submitted]
    if missing:
        names = ", ".join(missing[:12]) + (
            f" and {len(missing) - 12} more" if len(missing) > 12 else ""
        )
        reminders.append(
            f"{len(missing)} player{'s have' if len(missing) > 1 else ' has'} not submitted a list: {names}."
        )
    illegal = [r.entry.player_name for r in rows if r.entry.submitted and not r.entry.legal]
    if illegal:
        reminders.append(
            f"{len(illegal)} list{'s are' if len(illegal) > 1 else ' is'} not legal: {', '.join(illegal[:12])}."
        )
    changed = [r.entry.player_name for r in rows if r.changed_since_lock]
    if changed:
        reminders.append(
            f"{len(changed)} player{'s have' if len(changed) > 1 else ' has'} changed their list since it was locked "
            f"(the locked list is what counts): {', '.join(changed[:12])}."
        )
    if rows and not event.locked:
        reminders.append("The lists are not locked yet: lock them before round 1.")
    if not ruleset_shipped(event.ruleset_version):
        reminders.insert(
            0,
            f"This event plays ruleset {event.ruleset_version}, which the site no longer "
            "ships: no list can be checked or submitted. Edit the event and choose a "
            f"ruleset it ships ({', '.join(shipped_rulesets())}); unlock the lists first if "
            "they are locked.",
        )
    with_tables = 0
    for round_ in rounds:
        if round_.table_names:
            with_tables = round_.number
        elif with_tables:
            pass  # pairing it takes the tables of the round before (events.commands.pair)
        else:
            reminders.append(f"Round {round_.number} has no tables yet.")
        if not pairings[round_.number]:
            reminders.append(f"Round {round_.number} has no pairings yet.")
            break  # rounds are paired one after another: the later ones wait for this one
    return reminders


def organizer_dashboard(event: Event, show: str) -> dict[str, Any]:
    """The dashboard's state: the players (filtered by ``show``) with their counts, the
    reminders, each round's state and pairings, what to print and what to do next."""
    if show not in FILTERS:
        show = "all"
    rows = _rows(event)
    # Each round with its count of pairings, in one query.
    rounds = list(event.rounds.defer("tables").annotate(pairing_count=Count("pairings")))
    counts = {round_.number: round_.pairing_count for round_ in rounds}
    swiss = reading.dashboard(event, rounds)
    locked = [r.entry for r in rows if r.entry.locked and r.entry.submitted]
    return {
        "event": event,
        "rows": [r for r in rows if r.shown(show)],
        "all_rows": rows,
        "show": show,
        "filters": [
            {"key": key, "label": label, "count": sum(r.shown(key) for r in rows)}
            for key, label in FILTERS.items()
        ],
        "reminders": _reminders(event, rows, rounds, counts),
        "rounds": rounds,
        "locked_count": len(locked),
        "print_files": printing.print_files(
            event,
            len(locked),
            {n: c for n, c in counts.items() if c},
            printing.distinct_maps(rounds),
        ),
        "max_entries": MAX_ENTRIES,
        "swiss": swiss,
        "ruleset_shipped": ruleset_shipped(event.ruleset_version),
    }
