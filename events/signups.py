"""The events' part of the sign-up limits (accounts.attempts.SignupRoute): an account made
on its way to an open event's join link counts against the event's places, not against the
address that a whole hall shares. One address still makes at most one event's places (256)
an hour through join links, so that organizing many events does not multiply accounts."""

from __future__ import annotations

from django.urls import Resolver404, resolve

from accounts.attempts import SignupRoute
from events.models import MAX_ENTRIES, Event


def join_route(next_page: str) -> SignupRoute | None:
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
    return SignupRoute(
        key=f"event:{event.pk}", limit=MAX_ENTRIES, name=event.name, address_limit=MAX_ENTRIES
    )
