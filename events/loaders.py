"""How the events' views load what a request may see: the organizer's event through the
owner-scoped loader, a player's through their entry, a member's (either) through both; 404
for anyone else. And the small readings of a request they share."""

from __future__ import annotations

from dataclasses import dataclass

from django.http import Http404

from accounts.ownership import get_owned_or_404
from events.models import (
    Entry,
    Event,
    Round,
)
from onefinity.http import HtmxHttpRequest
from onefinity.rules.text import whole_number


def organized(request: HtmxHttpRequest, event_id: int) -> Event:
    return get_owned_or_404(request, Event, event_id)


def my_entry(request: HtmxHttpRequest, event_id: int) -> Entry:
    entry = (
        Entry.objects.select_related("event", "force", "player")
        .filter(event_id=event_id, player_id=request.user.pk)
        .first()
    )
    if entry is None:
        raise Http404("Not found")
    return entry


@dataclass
class Membership:
    event: Event
    entry: Entry | None
    organizer: bool


def member(request: HtmxHttpRequest, event_id: int) -> Membership:
    """The organizer or a registered player; 404 for everyone else."""
    event = Event.objects.filter(pk=event_id).first()
    if event is None:
        raise Http404("Not found")
    organizer = event.owner_id == request.user.pk
    entry = event.entries.select_related("force").filter(player_id=request.user.pk).first()
    if not organizer and entry is None:
        raise Http404("Not found")
    return Membership(event, entry, organizer)


def organizer_or_self(request: HtmxHttpRequest, event_id: int, entry_id: int) -> Membership:
    """The organizer acting on one of their players, or a player acting on their own entry
    (``entry`` is then the entry acted on); 404 for everyone else and any other entry."""
    membership = member(request, event_id)
    if membership.organizer:
        entry = membership.event.entries.select_related("player").filter(pk=entry_id).first()
        if entry is None:
            raise Http404("No such player")
        return Membership(membership.event, entry, True)
    if membership.entry is None or membership.entry.pk != entry_id:
        raise Http404("Not found")
    return membership


def get_round(event: Event, number: int) -> Round:
    # Without its tables' documents (up to 128 painted boards): pages read the names and
    # keys, and a single map through Round.table_spec.
    found = event.rounds.filter(number=number).defer("tables").first()
    if found is None:
        raise Http404("No such round")
    return found


def start_from(request: HtmxHttpRequest) -> int:
    return whole_number(request.GET.get("from", "1"), 0, 99_999) or 0
