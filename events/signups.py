"""The events' part of signing up and logging in through a join link.

The sign-up limits (accounts.attempts.SignupRoute): an account made on its way to an open
event's join link counts against the event's places, not against the address that a whole
hall shares. One address still makes at most one event's places (256) an hour through join
links, so that organizing many events does not multiply accounts.

Joining on arrival (accounts.arrivals.Arrival): a sign-up or login through an open event's
join link joins the event in the same POST (its button says "and join Spring Open"), so
that the player does not tap Join again on the page it comes back to."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest
from django.urls import Resolver404, resolve, reverse

from accounts.arrivals import Arrival
from accounts.attempts import SignupRoute
from events.models import MAX_ENTRIES, Event, EventRefusal


def _open_event(next_page: str) -> Event | None:
    """The event whose join link ``next_page`` is, while it takes new players."""
    path = next_page.split("?", 1)[0]
    try:
        match = resolve(path)
    except Resolver404:
        return None
    if match.view_name != "events:join":
        return None
    code = str(match.kwargs.get("join_code", ""))
    event = Event.objects.filter(join_code=code).first() if len(code) <= 32 else None
    if event is None or event.locked or event.entries.count() >= MAX_ENTRIES:
        return None
    return event


def join_route(next_page: str) -> SignupRoute | None:
    """The event whose join link ``next_page`` is, while it takes new players."""
    event = _open_event(next_page)
    if event is None:
        return None
    return SignupRoute(
        key=f"event:{event.pk}", limit=MAX_ENTRIES, name=event.name, address_limit=MAX_ENTRIES
    )


def join(request: HttpRequest, event: Event) -> EventRefusal | None:
    """The signed-in player joins ``event`` (a message says so); None when they are in it,
    now or already (a second tap of Join, a sign-in through the link of an event they are
    in), else the refusal."""
    player = request.user
    if not player.is_authenticated:
        return EventRefusal("Log in to join.")
    try:
        event.join(player)
    except EventRefusal as refusal:
        if event.entries.filter(player=player).exists():
            return None
        return refusal
    messages.success(request, f"You have joined {event.name}. Now submit a list.")
    return None


def join_arrival(next_page: str) -> Arrival | None:
    """Signing in through an open event's join link joins it; a refusal met meanwhile (the
    event locked or full since) is said, and the join page shows where the event stands."""
    event = _open_event(next_page)
    if event is None:
        return None

    def act(request: HttpRequest) -> str:
        if request.user.pk == event.owner_id:  # its organizer, trying the link: not a player
            return event.get_absolute_url()
        refusal = join(request, event)
        if refusal is not None:
            messages.error(request, str(refusal))
            return event.get_join_url()
        return reverse("events:me", args=[event.pk])

    return Arrival(f"join {event.name}", act)
