"""Events in the account pages (accounts.part_registry): what the export holds, what deleting the
account does.

- ``export_account(user)`` is the "events" part of the export file (export only: events
  are not imported);
- ``deletion_summary(user)`` lines for the confirmation page;
- ``delete_account_data(user)`` before the user is deleted (the cascade would do the same;
  doing it first, in one transaction, keeps it explicit and testable).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.http import HttpRequest

from accounts.part_registry import AccountPart, Damaged, register
from events.models import Entry, Event

EVENTS_EXPORT_FORMAT = "onefinity-events"


def _entry_document(entry: Entry) -> dict[str, Any]:
    return {
        "player": entry.player_name,
        "joined": entry.joined_at.isoformat(),
        "submitted": entry.submitted_at.isoformat() if entry.submitted_at else None,
        "locked": entry.locked_at.isoformat() if entry.locked_at else None,
        "legal": entry.legal,
        "points": entry.points,
        "issues": entry.issues,
        # The force document as submitted (as stored, even if it no longer reads).
        "list": entry.document,
    }


def export_account(user: Any) -> dict[str, Any]:
    """Events organized (settings, players' entries with their submitted lists, rounds,
    tables and pairings) and entries made in other people's events."""
    organized = []
    for event in Event.objects.filter(owner=user).prefetch_related(
        "entries__player",
        "rounds__pairings__player_a__player",
        "rounds__pairings__player_b__player",
    ):
        organized.append(
            {
                "name": event.name,
                "date": event.date.isoformat(),
                "points_limit": event.points_limit,
                "ruleset": event.ruleset_version,
                "rounds": event.round_count,
                "notes": event.notes,
                "locked": event.locked_at.isoformat() if event.locked_at else None,
                "lists_published": event.lists_published,
                "entries": [_entry_document(entry) for entry in event.entries.all()],
                "round_tables": [
                    {
                        "round": round_.number,
                        "published": round_.published,
                        "tables": round_.tables,
                        "pairings": [
                            {
                                "table": p.table,
                                "player_a": p.player_a.player_name,
                                "player_b": p.player_b.player_name,
                            }
                            for p in round_.pairings.all()
                        ],
                    }
                    for round_ in event.rounds.all()
                ],
            }
        )
    entries = [
        {"event": entry.event.name, "date": entry.event.date.isoformat(), **_entry_document(entry)}
        for entry in Entry.objects.filter(player=user).select_related("event", "player")
    ]
    return {
        "format": EVENTS_EXPORT_FORMAT,
        "version": 1,
        "organized": organized,
        "entries": entries,
    }


def deletion_summary(user: Any) -> list[str]:
    """What deleting this account does to events, one sentence each (empty: nothing)."""
    lines = []
    for event in Event.objects.filter(owner=user):
        players = event.entries.exclude(player=user).count()
        lines.append(
            f"Your event {event.name} ({event.date:%d %b %Y}) is deleted"
            + (
                f", with the entries and lists of its {players} other player{'s' if players != 1 else ''}."
                if players
                else "."
            )
        )
    for entry in (
        Entry.objects.filter(player=user).exclude(event__owner=user).select_related("event")
    ):
        if entry.stays_without_its_player:
            lines.append(
                f"Your entry in {entry.event.name} stays with its organizer under a neutral "
                "name (its locked list, pairings and results; nothing that names you)."
            )
        else:
            lines.append(f"Your entry in {entry.event.name} is withdrawn.")
    return lines


def delete_account_data(user: Any) -> None:
    """Delete the events the user organizes; withdraw their entries in other people's
    events, except those the event needs (a locked list, a pairing), which stay with the
    event under a neutral name (Entry.depart)."""
    with transaction.atomic():
        Event.objects.filter(owner=user).delete()
        for entry in Entry.objects.filter(player=user).select_related("event"):
            if entry.stays_without_its_player:
                entry.depart()
            else:
                entry.delete()


def _count(request: HttpRequest) -> int:
    user = request.user
    if not user.is_authenticated:
        return 0
    return Event.objects.filter(owner=user).count() + Entry.objects.filter(player=user).count()


def _export(request: HttpRequest) -> tuple[Any, list[Damaged]]:
    if not request.user.is_authenticated:
        return {"format": EVENTS_EXPORT_FORMAT, "version": 1, "organized": [], "entries": []}, []
    return export_account(request.user), []


register(
    AccountPart(
        key="events",
        label="events organized or entered",
        count=_count,
        export=_export,
        deletion=deletion_summary,
        delete=delete_account_data,
    )
)
