"""The events' part of a new list's way back (forcebuilder.destinations): a list started,
copied or imported by a player whose entry still takes a list leads back to that event's
page, where it is offered for submission."""

from __future__ import annotations

from django.http import HttpRequest
from django.urls import reverse

from events.models import Entry
from forcebuilder.destinations import MOST_SHOWN, Destination
from forcebuilder.models import Force


def events_waiting_for_a_list(request: HttpRequest, force: Force) -> list[Destination]:
    """The player's events whose entry is open (not locked, the event not finished) and
    does not hold this very list as it is now (submitted, unchanged since), the latest
    first: their own page's "Submit a list" takes the list."""
    if not request.user.is_authenticated:
        return []  # lists kept in a browser: only accounts play in events
    entries = (
        Entry.objects.filter(
            player=request.user, locked_at__isnull=True, event__finished_at__isnull=True
        )
        .exclude(force=force, force_version=force.version)
        .select_related("event")
        .order_by("-event__date", "-event__pk")[:MOST_SHOWN]
    )
    return [
        Destination(entry.event.name, reverse("events:me", args=[entry.event_id]) + "#submit")
        for entry in entries
    ]
