"""What makes the event's live pages (a player's event page, the organizer's round page, the
standings) cheap to poll: one token for everything they show, read in a few aggregate
queries. A page polls itself with ``?since=<token>``; unchanged, the answer is a 204 with
no body (htmx swaps nothing), changed, the page itself (htmx takes its live region).

Polling was chosen over server-sent events for our threaded gunicorn: an open event stream
holds one of the server's WORKERS x 8 threads for as long as a phone keeps the page open,
so 60 phones would need 60 threads; a poll every 5 s holds one for a few milliseconds
(docs/performance.md, "Live pages")."""

from __future__ import annotations

import hashlib

from django.db.models import Count, Max, Sum
from django.http import HttpRequest, HttpResponse

from events.models import Drop, Entry, Event, Result, Round, Swiss

# How often a live page asks (seconds): within the 10 s the players wait at most.
POLL_SECONDS = 5


def live_token(event_id: int) -> str:
    """Changes whenever a round, a result, an entry, a drop or the standings change."""
    event = Event.objects.filter(pk=event_id).values_list("version", "finished_at").first()
    rounds = Round.objects.filter(event_id=event_id).aggregate(v=Sum("version"), n=Count("pk"))
    results = Result.objects.filter(pairing__round__event_id=event_id).aggregate(
        v=Sum("version"), n=Count("pk")
    )
    entries = Entry.objects.filter(event_id=event_id).aggregate(
        v=Sum("version"), n=Count("pk"), c=Sum("checked_in_for")
    )
    drops = Drop.objects.filter(entry__event_id=event_id).aggregate(
        n=Count("pk"), a=Sum("after_round"), d=Max("dropped_at")
    )
    swiss = Swiss.objects.filter(event_id=event_id).values_list("version", flat=True).first()
    text = repr((event, rounds, results, entries, drops, swiss))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def unchanged(request: HttpRequest, event_id: int) -> HttpResponse | None:
    """The answer to a poll of a page whose event has not changed since ``since``: 204."""
    since = request.GET.get("since")
    if since and since == live_token(event_id):
        return HttpResponse(status=204)
    return None
