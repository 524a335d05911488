"""Events: thin views over events.models: the organizer's pages (my events, the dashboard,
the downloads); rounds are in round_views, joining and the player's entry in entry_views. Organizers' pages load the event through the
owner-scoped loader (404 for anyone else); players' pages through their entry. Every
page needs an account, except the join page, which sends a visitor to log in or sign up
and back."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.ownership import QuotaExceeded, owned, owner_fields
from events import commands, printing
from events.dashboard import organizer_dashboard
from events.forms import EventForm
from events.jobs import PrintAsked, print_job
from events.loaders import (
    get_round,
    organized,
    start_from,
)
from events.models import (
    Entry,
    Event,
    EventRefusal,
    Pairing,
    StaleEvent,
)
from forcebuilder.printing import qr_svg
from jobs.models import Job
from jobs.running import JobsBusy
from jobs.views import download_job_file
from onefinity.downloads import download
from onefinity.http import HtmxHttpRequest, page_version
from onefinity.once import made_once

# --- My events, new event -------------------------------------------------------------------


@login_required
@require_GET
def my_events(request: HtmxHttpRequest) -> HttpResponse:
    organized = owned(request, Event)
    entries = (
        Entry.objects.filter(player_id=request.user.pk)
        .select_related("event", "event__owner")
        .order_by("-event__date")
    )
    return render(
        request,
        "events/my_events.html",
        {"organized": organized, "entries": entries, "quota": Event.quota.account},
    )


@login_required
@require_http_methods(["GET", "POST"])
def event_new(request: HtmxHttpRequest) -> HttpResponse:
    form = EventForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        # A double tap (or a resend) of the form makes one event: both answers lead to it.
        event, _ = made_once(
            request,
            owned(request, Event),
            lambda: Event.create(**form.cleaned_data, **owner_fields(request, Event)),
        )
        messages.success(request, f"{event.name} created. Hand out the join link below.")
        return redirect(event)
    status = 400 if form.errors else 200
    return render(request, "events/event_form.html", {"form": form}, status=status)


# --- The organizer's dashboard --------------------------------------------------------------


def _dashboard_context(request: HtmxHttpRequest, event: Event) -> dict[str, Any]:
    context = organizer_dashboard(event, request.GET.get("show", "all"))
    join_url = request.build_absolute_uri(event.get_join_url())
    return context | {
        "join_url": join_url,
        "join_qr": qr_svg(join_url),
        # The printouts the worker is making (or made) for this event: their progress here.
        "print_jobs": list(
            owned(request, Job).filter(kind="event-print", params__event=event.pk)[:6]
        ),
    }


@login_required
@require_GET
def dashboard(request: HtmxHttpRequest, event_id: int) -> HttpResponse:
    event = organized(request, event_id)
    context = _dashboard_context(request, event)
    if request.htmx:
        return render(request, "events/dashboard.html#state", context)
    return render(request, "events/dashboard.html", context)


def _back_to_dashboard(request: HtmxHttpRequest, event: Event, status: int = 200) -> HttpResponse:
    """The dashboard after a change: its region for htmx; the page itself for a refusal (a
    stale page's 409 shows the latest), a redirect to it after a change made."""
    if request.htmx or status != 200:
        context = _dashboard_context(request, event)
        template = "events/dashboard.html#state" if request.htmx else "events/dashboard.html"
        return render(request, template, context, status=status)
    return redirect(event.get_absolute_url() + "#players")


@login_required
@require_http_methods(["GET", "POST"])
def event_edit(request: HtmxHttpRequest, event_id: int) -> HttpResponse:
    event = organized(request, event_id)
    initial = {
        "name": event.name,
        "date": event.date,
        "points_limit": event.points_limit,
        "ruleset_version": event.ruleset_version,
        "round_count": event.round_count,
        "notes": event.notes,
    }
    form = EventForm(request.POST or None, initial=initial)
    error = ""
    if request.method == "POST" and form.is_valid():
        try:
            event.update_settings(page_version(request.POST), **form.cleaned_data)
        except EventRefusal as refusal:
            error = str(refusal)
            event.refresh_from_db()
        else:
            messages.success(request, "Settings saved.")
            return redirect(event)
    status = 400 if form.errors or error else 200
    return render(
        request,
        "events/event_form.html",
        {"form": form, "event": event, "error": error},
        status=status,
    )


@login_required
@require_http_methods(["GET", "POST"])
def event_delete(request: HtmxHttpRequest, event_id: int) -> HttpResponse:
    event = organized(request, event_id)
    if request.method == "POST":
        name = event.name
        event.delete()
        messages.success(request, f"{name} deleted, with its entries, rounds and pairings.")
        return redirect("events:mine")
    return render(
        request, "events/event_delete.html", {"event": event, "entries": event.entries.count()}
    )


@require_POST
@login_required
def join_link(request: HtmxHttpRequest, event_id: int) -> HttpResponse:
    event = organized(request, event_id)
    event.new_join_code()
    messages.success(request, "A new join link is made; the old one no longer works.")
    return redirect(event.get_absolute_url() + "#join")


@login_required
@require_GET
def join_qr(request: HtmxHttpRequest, event_id: int) -> HttpResponse:
    event = organized(request, event_id)
    picture = qr_svg(request.build_absolute_uri(event.get_join_url()))
    return download(
        '<?xml version="1.0" encoding="utf-8"?>\n' + picture,
        "image/svg+xml",
        event.name,
        "-join-qr.svg",
        "event",
    )


@require_POST
@login_required
def event_lock(request: HtmxHttpRequest, event_id: int) -> HttpResponse:
    event = organized(request, event_id)
    change = request.POST.get("change")
    if change == "lock":
        locked = event.lock_all()
        messages.success(
            request,
            f"Locked. {locked}. Later changes to players' lists do not change what they submitted.",
        )
    elif change == "unlock":
        event.unlock_all()
        messages.success(
            request,
            "Unlocked: every player can change their list again (the list reveal is closed).",
        )
    else:
        messages.error(request, "Choose to lock or to unlock.")
    return _back_to_dashboard(request, event)


@require_POST
@login_required
def event_publish(request: HtmxHttpRequest, event_id: int) -> HttpResponse:
    event = organized(request, event_id)
    publish = request.POST.get("change") == "publish"
    try:
        event.set_lists_published(publish)
    except EventRefusal as refusal:
        messages.error(request, str(refusal))
    else:
        messages.success(
            request,
            "The locked lists are published: every player of the event can read them."
            if publish
            else "The lists are hidden again: each player sees only their own.",
        )
    return redirect(event.get_absolute_url() + "#reveal")


def _organized_entry(request: HtmxHttpRequest, event_id: int, entry_id: int) -> Entry:
    event = organized(request, event_id)
    entry = event.entries.select_related("player", "force").filter(pk=entry_id).first()
    if entry is None:
        raise Http404("No such player")
    entry.event = event
    return entry


@require_POST
@login_required
def player_lock(request: HtmxHttpRequest, event_id: int, entry_id: int) -> HttpResponse:
    entry = _organized_entry(request, event_id, entry_id)
    change = request.POST.get("change")
    try:
        if change == "lock":
            entry.lock(page_version(request.POST))
            messages.success(request, f"{entry.player_name}'s list is locked.")
        elif change == "unlock":
            entry.unlock(page_version(request.POST))
            messages.success(request, f"{entry.player_name} can change their list again.")
        else:
            messages.error(request, "Choose to lock or to unlock.")
    except StaleEvent as stale:
        messages.error(request, str(stale))
        return _back_to_dashboard(request, entry.event, status=409)
    return _back_to_dashboard(request, entry.event)


@require_POST
@login_required
def player_add(request: HtmxHttpRequest, event_id: int) -> HttpResponse:
    """The organizer adds a late player by their user name (the join link is closed while
    the event is locked)."""
    event = organized(request, event_id)
    typed = request.POST.get("username", "").strip()[:150]
    player = get_user_model().objects.filter(username__iexact=typed).first() if typed else None
    if player is None:
        messages.error(
            request,
            f"No account is called {typed!r}: the player signs up first, then tells you "
            "their user name."
            if typed
            else "Type the late player's user name.",
        )
        return _back_to_dashboard(request, event)
    try:
        event.add_late_player(player)
    except EventRefusal as refusal:
        messages.error(request, str(refusal))
        return _back_to_dashboard(request, event)
    messages.success(
        request,
        f"{player.get_username()} is added. They submit their list from their event page "
        "(Events); it is checked as everyone's, and you lock it when it is right.",
    )
    return _back_to_dashboard(request, event)


@require_POST
@login_required
def player_remove(request: HtmxHttpRequest, event_id: int, entry_id: int) -> HttpResponse:
    entry = _organized_entry(request, event_id, entry_id)
    name = entry.player_name
    try:
        commands.remove_player(entry)
    except EventRefusal as refusal:
        messages.error(request, str(refusal))
        return _back_to_dashboard(request, entry.event)
    messages.success(request, f"{name} is no longer registered (their pairings went with them).")
    return _back_to_dashboard(request, entry.event)


# --- Downloads ------------------------------------------------------------------------------


@login_required
@require_GET
def rosters_pdf(request: HtmxHttpRequest, event_id: int) -> HttpResponse:
    event = organized(request, event_id)
    first = start_from(request)
    if not 1 <= first <= max(1, len(printing.locked_entries(event))):
        raise Http404("No such part")
    return _printed(request, event, PrintAsked("rosters", first))


@login_required
@require_GET
def round_sheets_pdf(request: HtmxHttpRequest, event_id: int, round_number: int) -> HttpResponse:
    event = organized(request, event_id)
    round_ = get_round(event, round_number)
    first = start_from(request)
    if not 1 <= first <= max(1, round_.pairings.count()):
        raise Http404("No such part")
    return _printed(request, event, PrintAsked("round", first, round_number))


@login_required
@require_GET
def event_pdf(request: HtmxHttpRequest, event_id: int) -> HttpResponse:
    event = organized(request, event_id)
    entries = printing.locked_entries(event)
    rounds = list(event.rounds.all())
    sheets = Pairing.objects.filter(round__event=event).count()
    if not printing.everything_fits(len(entries), sheets, printing.distinct_maps(rounds)):
        messages.error(
            request,
            f"This event has {len(entries)} locked rosters and {sheets} table sheets: too many "
            "for one file (or nothing to print yet). Download the parts listed under Print.",
        )
        return redirect(event.get_absolute_url() + "#print")
    return _printed(request, event, PrintAsked("everything"))


def _printed(request: HtmxHttpRequest, event: Event, asked: PrintAsked) -> HttpResponse:
    """The file, once the worker has made it; until then its job's page, which shows how
    far it is and offers the download when it is ready."""
    try:
        job = print_job(request, event, asked)
    except (JobsBusy, QuotaExceeded) as busy:
        messages.error(request, str(busy))
        return redirect(event.get_absolute_url() + "#print")
    if job.has_file:
        return download_job_file(job)
    return redirect(job)


@login_required
@require_GET
def lists_csv(request: HtmxHttpRequest, event_id: int) -> HttpResponse:
    event = organized(request, event_id)
    text = printing.lists_csv(event, printing.locked_entries(event))
    return download(text, "text/csv; charset=utf-8", event.name, "-lists.csv", "event")


@login_required
@require_GET
def lists_zip(request: HtmxHttpRequest, event_id: int) -> HttpResponse:
    return _printed(request, organized(request, event_id), PrintAsked("lists-zip"))
