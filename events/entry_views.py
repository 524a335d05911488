"""A player's side of an event: joining by its link, their entry (submitting, withdrawing,
leaving) and reading the lists and rounds once they are revealed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.ownership import DamagedRecord, owned, owner_fields
from events import commands, live, printing, reading, signups
from events.checking import check_for_event, event_ruleset, ruleset_shipped
from events.loaders import (
    Membership,
    member,
    my_entry,
)
from events.models import (
    MAX_ENTRIES,
    Entry,
    Event,
    EventRefusal,
    TableDocumentError,
)
from forcebuilder.forms import NewForceForm
from forcebuilder.models import Force
from onefinity.http import HtmxHttpRequest, record_id
from onefinity.once import made_once
from onefinity.rules import ForceSpec
from tablegen.engine.render import svg

# A player's lists offered for submission: the most recently changed.
LISTS_OFFERED = 50

# --- Joining --------------------------------------------------------------------------------


def _event_for_join_code(join_code: str) -> Event:
    event = Event.objects.filter(join_code=join_code).first() if len(join_code) <= 32 else None
    if event is None:
        raise Http404("Not found")
    return event


@require_http_methods(["GET", "POST"])
def join(request: HtmxHttpRequest, join_code: str) -> HttpResponse:
    event = _event_for_join_code(join_code)
    if not request.user.is_authenticated:
        if request.method == "POST":
            return redirect(f"{reverse('login')}?next={event.get_join_url()}")
        return render(request, "events/join.html", {"event": event})
    entry = event.entries.filter(player=request.user).first()
    if request.method == "POST":
        # A second tap of Join (or a resend) finds the player in: it leads to their entry.
        refusal = signups.join(request, event)
        if refusal is not None:
            return render(
                request,
                "events/join.html",
                {"event": event, "entry": entry, "error": str(refusal)},
                status=400,
            )
        return redirect("events:me", event.pk)
    if entry is not None:
        return redirect("events:me", event.pk)
    return render(
        request, "events/join.html", {"event": event, "full": event.entries.count() >= MAX_ENTRIES}
    )


# --- The player's entry ---------------------------------------------------------------------


@dataclass
class OfferedList:
    force: Force
    points: int | None
    legal: bool | None
    over_limit: bool
    damaged: str


def _offered(request: HtmxHttpRequest, event: Event) -> list[OfferedList]:
    offered = []
    for force in owned(request, Force).order_by("-updated")[:LISTS_OFFERED]:
        try:
            checked = check_for_event(force.to_spec(), event.ruleset_version, event.points_limit)
        except DamagedRecord as damaged:
            offered.append(OfferedList(force, None, None, False, damaged.problem))
            continue
        offered.append(OfferedList(force, checked.points, checked.legal, checked.over_limit, ""))
    return offered


def _my_rounds(event: Event, entry: Entry) -> list[dict[str, Any]]:
    shown = []
    rounds = list(event.rounds.filter(published=True).defer("tables"))
    # The map of the newest round only: a painted 40 x 40 board takes a tenth of a second
    # to draw, and the earlier rounds' games are played.
    newest = rounds[-1].number if rounds else None
    for round_ in rounds:
        pairing = (
            round_.pairings.select_related("player_a__player", "player_b__player")
            .filter(player_a=entry)
            .first()
            or round_.pairings.select_related("player_a__player", "player_b__player")
            .filter(player_b=entry)
            .first()
        )
        row: dict[str, Any] = {"round": round_, "pairing": pairing}
        if pairing is not None:
            row["opponent"] = (
                pairing.player_b if pairing.player_a_id == entry.pk else pairing.player_a
            )
            row["side"] = "A" if pairing.player_a_id == entry.pk else "B"
            row["table_name"] = round_.table_name(pairing.table)
            try:
                spec = round_.table_spec(pairing.table) if round_.number == newest else None
            except TableDocumentError:
                spec = None
            if spec is not None:
                row["map"] = svg(spec, title=f"Round {round_.number}, table {pairing.table}")
        shown.append(row)
    return shown


def _entry_context(request: HtmxHttpRequest, entry: Entry, **extra: Any) -> dict[str, Any]:
    event = entry.event
    entry.follow_live_list(event)
    ruleset = event_ruleset(event.ruleset_version)
    faction = ruleset.factions.get(entry.faction)
    return {
        "event": event,
        "entry": entry,
        "faction": faction.name if faction else entry.faction,
        "offered": [] if entry.locked else _offered(request, event),
        **reading.my_page(event, entry, _my_rounds(event, entry)),
        "new_list_form": NewForceForm(initial={"name": f"{event.name} list"[:120]}),
        "list_deleted": entry.submitted and entry.force_id is None,
        "live_token": live.live_token(event.pk),
        "poll_seconds": live.POLL_SECONDS,
    } | extra


@login_required
@require_GET
def me(request: HtmxHttpRequest, event_id: int) -> HttpResponse:
    entry = my_entry(request, event_id)
    if (nothing_new := live.unchanged(request, event_id)) is not None:
        return nothing_new
    return render(request, "events/me.html", _entry_context(request, entry))


def _my_list(request: HtmxHttpRequest, value: str) -> Force | None:
    pk = record_id(value)
    return None if pk is None else owned(request, Force).filter(pk=pk).first()


@require_POST
@login_required
def submit(request: HtmxHttpRequest, event_id: int) -> HttpResponse:
    entry = my_entry(request, event_id)
    force = _my_list(request, request.POST.get("force", ""))
    if force is None:
        context = _entry_context(request, entry, error="Choose one of your lists to submit.")
        return render(request, "events/me.html", context, status=400)
    accept = request.POST.get("accept_problems") == "yes"
    try:
        checked = entry.submit(force, accept)
    except EventRefusal as refusal:
        preview = None
        try:
            spec = force.to_spec()
            verdict = check_for_event(spec, entry.event.ruleset_version, entry.event.points_limit)
            preview = {
                "force": force,
                "checked": verdict,
                "can_accept": not verdict.over_limit and not verdict.refused and not entry.locked,
            }
        except DamagedRecord:
            pass
        context = _entry_context(request, entry, error=str(refusal), preview=preview)
        return render(request, "events/me.html", context, status=400)
    if checked.legal:
        messages.success(request, f"{checked.spec.name} is submitted to {entry.event.name}.")
    else:
        messages.warning(
            request,
            f"{checked.spec.name} is submitted, although it is not legal; the organizer sees its problems.",
        )
    return redirect("events:me", event_id)


@require_POST
@login_required
def new_list(request: HtmxHttpRequest, event_id: int) -> HttpResponse:
    """Start a list at the event's points limit and ruleset, in the player's lists."""
    entry = my_entry(request, event_id)
    data = request.POST.copy()
    data["points_limit"] = str(entry.event.points_limit)  # the event's, whatever was sent
    form = NewForceForm(data)
    if not form.is_valid():
        context = _entry_context(request, entry, new_list_form=form)
        return render(request, "events/me.html", context, status=400)
    event = entry.event
    if not ruleset_shipped(event.ruleset_version):
        context = _entry_context(
            request,
            entry,
            error=f"{event.name} plays ruleset {event.ruleset_version}, which this site no "
            "longer ships: a list built now would be under another ruleset, so none was "
            "started. Ask the organizer to move the event to a ruleset the site ships.",
        )
        return render(request, "events/me.html", context, status=400)
    ruleset = event_ruleset(event.ruleset_version)
    spec = ForceSpec(
        name=form.cleaned_data["name"],
        faction=form.cleaned_data["faction"],
        ruleset=ruleset.version,
        points_limit=event.points_limit,
    )
    # A double tap (or a resend) of the form starts one list: both answers lead to it.
    force, _ = made_once(
        request,
        owned(request, Force),
        lambda: Force.create_from_spec(
            spec, ruleset.version, event.points_limit, **owner_fields(request, Force)
        ),
    )
    # The way back to the event is the editor's own (forcebuilder.destinations): above the
    # list, whenever it is opened, until the entry holds it.
    messages.success(
        request,
        f"{force.name} is started at {event.points_limit} points under ruleset {ruleset.version}.",
    )
    return redirect(force)


@require_POST
@login_required
def withdraw(request: HtmxHttpRequest, event_id: int) -> HttpResponse:
    entry = my_entry(request, event_id)
    try:
        entry.withdraw()
    except EventRefusal as refusal:
        messages.error(request, str(refusal))
    else:
        messages.success(request, "Your list is withdrawn. You are still registered.")
    return redirect("events:me", event_id)


@require_POST
@login_required
def leave(request: HtmxHttpRequest, event_id: int) -> HttpResponse:
    entry = my_entry(request, event_id)
    try:
        kept = commands.leave(entry)
    except EventRefusal as refusal:
        messages.error(request, str(refusal))
        return redirect("events:me", event_id)
    messages.success(
        request,
        f"You have left {entry.event.name}. The games you played stay in its standings, "
        "under a neutral name."
        if kept
        else f"You have left {entry.event.name}.",
    )
    return redirect("events:mine")


# --- Reading lists: the snapshot page, the reveal, the published rounds ---------------------


def _can_read_snapshot(membership: Membership, entry: Entry) -> bool:
    if membership.organizer:
        return True
    if membership.entry is not None and membership.entry.pk == entry.pk:
        return True
    return membership.event.lists_published and entry.locked


@login_required
@require_GET
def snapshot(request: HtmxHttpRequest, event_id: int, list_code: str) -> HttpResponse:
    membership = member(request, event_id)
    event = membership.event
    entry = (
        event.entries.select_related("player", "force").filter(code=list_code).first()
        if len(list_code) <= 32
        else None
    )
    if entry is None or not entry.submitted or not _can_read_snapshot(membership, entry):
        raise Http404("Not found")
    entry.event = event
    shown = printing.snapshot_of(entry, event)
    context = {
        "event": event,
        "entry": entry,
        "snapshot": shown,
        "organizer": membership.organizer,
        "mine": membership.entry is not None and membership.entry.pk == entry.pk,
        "changed_since_lock": membership.organizer and entry.live_differs(),
        "link": {"share_code": entry.code},
    }
    return render(request, "events/snapshot.html", context, status=409 if shown.damaged else 200)


@login_required
@require_GET
def reveal(request: HtmxHttpRequest, event_id: int) -> HttpResponse:
    membership = member(request, event_id)
    event = membership.event
    if not (membership.organizer or event.lists_published):
        raise Http404("Not found")
    ruleset = event_ruleset(event.ruleset_version)
    rows = []
    for entry in printing.locked_entries(event):
        faction = ruleset.factions.get(entry.faction)
        rows.append({"entry": entry, "faction": faction.name if faction else entry.faction})
    return render(
        request,
        "events/reveal.html",
        {"event": event, "rows": rows, "organizer": membership.organizer},
    )


@login_required
@require_GET
def published_rounds(request: HtmxHttpRequest, event_id: int) -> HttpResponse:
    membership = member(request, event_id)
    event = membership.event
    rounds = (
        event.rounds.all() if membership.organizer else event.rounds.filter(published=True)
    ).defer("tables")
    shown = []
    for round_ in rounds:
        pairings = list(round_.pairings.select_related("player_a__player", "player_b__player"))
        shown.append(
            {
                "round": round_,
                "pairings": [
                    {"pairing": p, "table_name": round_.table_name(p.table)} for p in pairings
                ],
            }
        )
    reading.add_results(event, shown)
    return render(
        request,
        "events/rounds.html",
        {
            "event": event,
            "rounds": shown,
            "organizer": membership.organizer,
            "reveal": event.lists_published,
            "me": membership.entry,
        },
    )
