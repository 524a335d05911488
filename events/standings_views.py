"""The standings: the live page (the organizer always; the event's players, and anyone with
its link, once the organizer publishes it), its CSV, JSON and PDF, and each player's
history of opponents, tables and results."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from accounts.ownership import QuotaExceeded
from events import commands, live, reading
from events.jobs import PrintAsked, print_job
from events.loaders import Membership, member, organized
from events.models import Event, EventRefusal, StaleEvent, Swiss
from jobs.running import JobsBusy
from jobs.views import download_job_file
from onefinity.downloads import csv_text, download
from onefinity.http import HtmxHttpRequest, page_version

# The live page asks again this often (seconds): a poll of an unchanged event is a 204.
POLL_SECONDS = live.POLL_SECONDS


def _readable(request: HtmxHttpRequest, event_id: int) -> tuple[Membership, reading.EventPlay]:
    """The organizer always; the event's players once the standings are published."""
    membership = member(request, event_id)
    standings = reading.EventPlay(membership.event)
    if not membership.organizer and not standings.swiss.standings_published:
        raise Http404("Not published")
    return membership, standings


def _may_read(request: HtmxHttpRequest, event_id: int) -> Membership:
    """_readable's check alone (a poll of an unchanged event reads nothing more)."""
    membership = member(request, event_id)
    published = Swiss.objects.filter(event=membership.event, standings_published=True)
    if not membership.organizer and not published.exists():
        raise Http404("Not published")
    return membership


def _context(event: Event, standings: reading.EventPlay, **extra: Any) -> dict[str, Any]:
    rows = standings.standings()
    return {
        "event": event,
        "swiss": standings.swiss,
        "rows": rows,
        "rounds_played": standings.rounds_played(),
        "states": standings.states(),
        "all_played": standings.rounds_played() >= event.round_count,
        "poll_seconds": POLL_SECONDS,
        "live_token": live.live_token(event.pk),
    } | extra


def _page(
    request: HtmxHttpRequest, template_context: dict[str, Any], poll_url: str
) -> HttpResponse:
    template_context["poll_url"] = f"{poll_url}?since={template_context['live_token']}"
    if request.htmx:
        return render(request, "events/standings.html#live", template_context)
    return render(request, "events/standings.html", template_context)


@login_required
@require_GET
def standings_page(request: HtmxHttpRequest, event_id: int) -> HttpResponse:
    _may_read(request, event_id)
    if (nothing_new := live.unchanged(request, event_id)) is not None:
        return nothing_new
    membership, standings = _readable(request, event_id)
    event = membership.event
    context = _context(
        event,
        standings,
        organizer=membership.organizer,
        me=membership.entry,
        public_link=request.build_absolute_uri(standings.swiss.get_standings_link()),
        history_links=True,
    )
    return _page(request, context, reverse("events:standings", args=[event.pk]))


@require_GET
def standings_public(request: HtmxHttpRequest, standings_code: str) -> HttpResponse:
    """The published standings for anyone holding the link, signed in or not."""
    swiss = (
        Swiss.objects.select_related("event").filter(standings_code=standings_code).first()
        if len(standings_code) <= 32
        else None
    )
    if swiss is None or not swiss.standings_published:
        raise Http404("Not found")
    if (nothing_new := live.unchanged(request, swiss.event_id)) is not None:
        return nothing_new
    event = swiss.event
    context = _context(event, reading.EventPlay(event), organizer=False, me=None, public=True)
    return _page(request, context, swiss.get_standings_link())


@require_POST
@login_required
def standings_publish(request: HtmxHttpRequest, event_id: int) -> HttpResponse:
    event = organized(request, event_id)
    if request.POST.get("change") == "finish":
        try:
            commands.finish(event, page_version(request.POST))
        except EventRefusal as refusal:
            messages.error(request, str(refusal))
        else:
            messages.success(
                request,
                f"{event.name} is finished: the final standings are published, every round "
                "is closed. You can still correct a result; each correction is logged and "
                "marked on the standings.",
            )
        return redirect(reverse("events:standings", args=[event.pk]))
    publish = request.POST.get("change") == "publish"
    try:
        commands.publish_standings(event, page_version(request.POST), publish)
    except StaleEvent as refusal:
        messages.error(request, str(refusal))
    else:
        messages.success(
            request,
            "The standings are published: the players and anyone with the link can read them."
            if publish
            else "The standings are hidden again: only you can read them.",
        )
    return redirect(reverse("events:standings", args=[event.pk]))


@login_required
@require_GET
def standings_json(request: HtmxHttpRequest, event_id: int) -> HttpResponse:
    """The contract: rounds played, and the standings in order, ranks 1 to n."""
    _, standings = _readable(request, event_id)
    return JsonResponse(reading.standings_document(standings))


CSV_COLUMNS = (
    "rank",
    "player",
    "score",
    "wins",
    "draws",
    "losses",
    "sos",
    "vp",
    "vp_against",
    "byes",
    "dropped_after_round",
)


@login_required
@require_GET
def standings_csv(request: HtmxHttpRequest, event_id: int) -> HttpResponse:
    membership, standings = _readable(request, event_id)
    rows: list[list[object]] = [list(CSV_COLUMNS)]
    for row in standings.standings():
        s = row.standing
        rows.append(
            [
                s.rank,
                row.name,
                s.score,
                s.wins,
                s.draws,
                s.losses,
                s.sos,
                s.vp,
                s.vp_against,
                s.byes,
                "" if row.dropped_after is None else row.dropped_after,
            ]
        )
    return download(
        csv_text(rows),
        "text/csv; charset=utf-8",
        membership.event.name,
        "-standings.csv",
        "event",
    )


@login_required
@require_GET
def standings_pdf(request: HtmxHttpRequest, event_id: int) -> HttpResponse:
    """The organizer's printout, made by the worker (256 players take seconds to print);
    the players and the public link have the page and the CSV."""
    event = organized(request, event_id)
    try:
        job = print_job(request, event, PrintAsked("standings"))
    except (JobsBusy, QuotaExceeded) as busy:
        messages.error(request, str(busy))
        return redirect(reverse("events:standings", args=[event.pk]))
    if job.has_file:
        return download_job_file(job)
    return redirect(job)


@login_required
@require_GET
def player_history(request: HtmxHttpRequest, event_id: int, entry_id: int) -> HttpResponse:
    """A player's rounds: the organizer, the player, and (once the standings are published)
    the event's other players."""
    membership = member(request, event_id)
    event = membership.event
    standings = reading.EventPlay(event, with_tables=True)
    entry = standings.entries.get(entry_id)
    mine = membership.entry is not None and membership.entry.pk == entry_id
    if entry is None or not (membership.organizer or mine or standings.swiss.standings_published):
        raise Http404("Not found")
    row = next(r for r in standings.standings() if r.entry.pk == entry_id)
    return render(
        request,
        "events/history.html",
        {
            "event": event,
            "entry": entry,
            "row": row,
            "games": reading.history(standings, entry_id, published_only=not membership.organizer),
            "organizer": membership.organizer,
            "mine": mine,
            "bye_vp": standings.swiss.bye_vp,
            "drop_rounds": range(0, event.round_count + 1),
            "last_paired": standings.last_paired(),
        },
    )
