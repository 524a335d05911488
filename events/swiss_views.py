"""The Swiss system's pages and actions: pairing a round, its pairings as JSON, results
(the organizer's and the players'), swaps, drops and the Swiss settings. Thin views over
events.commands and events.reading; the organizer's through the owner-scoped loader (404 for anyone else), a
player's through their entry."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from events import commands, reading
from events.entry_views import _entry_context
from events.loaders import get_round, member, my_entry, organized, organizer_or_self
from events.models import Entry, Event, EventRefusal, Round, StaleEvent, Swiss
from events.round_views import _round_refused
from events.swiss_forms import (
    ByeForm,
    ClearResultForm,
    ClockForm,
    DropForm,
    ReportForm,
    ResultForm,
    SwapForm,
    problems_of,
    read_seeds,
)
from onefinity.http import HtmxHttpRequest, page_version


def _games_anchor(round_: Round, table: int | None = None) -> str:
    return round_.get_absolute_url() + (f"#game-{table}" if table else "#games")


# --- Pairing ---------------------------------------------------------------------------------


@require_POST
@login_required
def round_pair(request: HtmxHttpRequest, event_id: int, round_number: int) -> HttpResponse:
    """The contract: pair round n by the Swiss system (the usual ``version``)."""
    event = organized(request, event_id)
    round_ = get_round(event, round_number)
    if "bye_vp" in request.POST:  # asked on the pairing form when a bye is needed
        asked = ByeForm(request.POST)
        if not asked.is_valid():
            return _round_refused(request, event, round_, problems_of(asked))
        commands.set_bye_vp(event, asked.cleaned_data["bye_vp"])
    try:
        paired = commands.pair(event, round_number, page_version(request.POST))
    except EventRefusal as refusal:
        return _round_refused(request, event, round_, [str(refusal)])
    draw = paired.draw
    bye = f" {paired.names[draw.bye]} has the bye." if draw.bye is not None else ""
    avoided = (
        f" {reading.plural(draw.rematches, 'rematch', 'rematches')} could not be avoided."
        if draw.rematches
        else ""
    )
    tables = (
        f" {reading.plural(draw.repeated_tables, 'player')} could not avoid a table they "
        "played before."
        if draw.repeated_tables
        else ""
    )
    source = f" The round took {paired.tables_from}'s tables." if paired.tables_from else ""
    hidden = (
        " It was published: it is hidden again until you publish it."
        if paired.was_published
        else ""
    )
    messages.success(
        request,
        f"Round {round_number} is paired: {reading.plural(len(draw.seats), 'game')}.{bye}{avoided}"
        f"{tables}{source}{hidden} Players see it once you publish it.",
    )
    return redirect(_games_anchor(round_))


@login_required
@require_GET
def pairings_json(request: HtmxHttpRequest, event_id: int, round_number: int) -> HttpResponse:
    """The contract: the organizer always, the event's players once the round is published."""
    membership = member(request, event_id)
    round_ = get_round(membership.event, round_number)
    if not membership.organizer and not round_.published:
        raise Http404("Not published")
    document = reading.pairings_document(reading.EventPlay(membership.event), round_number)
    return JsonResponse(document)


# --- Results ---------------------------------------------------------------------------------


@require_POST
@login_required
def round_result(request: HtmxHttpRequest, event_id: int, round_number: int) -> HttpResponse:
    """The contract: the organizer records a game's result: ``a`` (a player of the game),
    ``a_vp`` (their VP) and ``b_vp`` (their opponent's), whole numbers from 0 to 99."""
    event = organized(request, event_id)
    round_ = get_round(event, round_number)
    form = ResultForm(request.POST)
    if not form.is_valid():
        return _round_refused(request, event, round_, problems_of(form))
    data = form.cleaned_data
    try:
        pairing, result = commands.record_result(
            event,
            round_number,
            data["a"],
            data["a_vp"],
            data["b_vp"],
            data["version"],
            by=request.user,
        )
    except EventRefusal as refusal:
        return _round_refused(request, event, round_, [str(refusal)])
    names = reading.EventPlay(event)
    how = (
        "Corrected by you after the round was closed: it counts, and the change is logged."
        if result.corrected
        else "Entered by you: it counts."
    )
    messages.success(
        request,
        f"Table {pairing.table}: {names.name(pairing.player_a_id)} {result.a_vp}, "
        f"{names.name(pairing.player_b_id)} {result.b_vp}. {how}",
    )
    return redirect(_games_anchor(round_, pairing.table))


@require_POST
@login_required
def round_result_clear(request: HtmxHttpRequest, event_id: int, round_number: int) -> HttpResponse:
    event = organized(request, event_id)
    round_ = get_round(event, round_number)
    form = ClearResultForm(request.POST)
    if not form.is_valid():
        return _round_refused(
            request, event, round_, ["The form came incomplete: reload the page and try again."]
        )
    try:
        pairing = commands.clear_result(
            event, round_number, form.cleaned_data["table"], form.cleaned_data["version"]
        )
    except EventRefusal as refusal:
        return _round_refused(request, event, round_, [str(refusal)])
    messages.success(
        request, f"Table {pairing.table}: your result is taken back; the players' reports count."
    )
    return redirect(_games_anchor(round_, pairing.table))


@require_POST
@login_required
def report(request: HtmxHttpRequest, event_id: int, round_number: int) -> HttpResponse:
    """A player reports their game of a published round from their event page."""
    entry = my_entry(request, event_id)
    form = ReportForm(request.POST)
    error = ""
    if not form.is_valid():
        error = " ".join(problems_of(form)) + " Nothing was sent."
    else:
        try:
            done = commands.report(
                entry,
                round_number,
                form.cleaned_data["my_vp"],
                form.cleaned_data["their_vp"],
                form.cleaned_data["version"],
            )
        except EventRefusal as refusal:
            error = str(refusal)
    if error:
        context = _entry_context(request, entry)
        inline = any(r["round"].number == round_number and r["pairing"] for r in context["rounds"])
        context["report_error"] = {"round": round_number, "text": error, "inline": inline}
        return render(request, "events/me.html", context, status=400)
    mine = form.cleaned_data["my_vp"]
    theirs = form.cleaned_data["their_vp"]
    result = done.result
    if result.confirmed:
        messages.success(
            request,
            f"Confirmed: you {mine}, {done.opponent} {theirs}. {done.opponent} reported the same.",
        )
    elif result.disputed:
        messages.warning(
            request,
            f"Sent: you {mine}, {done.opponent} {theirs}. {done.opponent} reported something "
            "else: the organizer will settle it.",
        )
    else:
        messages.success(
            request,
            f"Sent: you {mine}, {done.opponent} {theirs}. It counts once {done.opponent} "
            "reports the same.",
        )
    return redirect(reverse("events:me", args=[event_id]) + f"#round-{round_number}")


@require_POST
@login_required
def round_close(request: HtmxHttpRequest, event_id: int, round_number: int) -> HttpResponse:
    """The contract: the organizer closes a round; its results are settled."""
    event = organized(request, event_id)
    round_ = get_round(event, round_number)
    try:
        commands.close_round(event, round_number, page_version(request.POST))
    except EventRefusal as refusal:
        return _round_refused(request, event, round_, [str(refusal)])
    messages.success(
        request,
        f"Round {round_number} is closed: its results are settled. Players can no longer "
        "change them; you can still correct one (each correction is logged).",
    )
    return redirect(_games_anchor(round_))


@require_POST
@login_required
def round_check_in(request: HtmxHttpRequest, event_id: int, round_number: int) -> HttpResponse:
    """The organizer opens check-in for the round to be paired next: players check in from
    their phones, and the round pairs only the checked-in."""
    event = organized(request, event_id)
    round_ = get_round(event, round_number)
    try:
        commands.open_check_in(event, round_number)
    except EventRefusal as refusal:
        return _round_refused(request, event, round_, [str(refusal)])
    messages.success(
        request,
        f"Check-in for round {round_number} is open: players check in from their event page "
        "(tick here those without a phone). Only the checked-in players are paired.",
    )
    return redirect(round_.get_absolute_url() + "#check-in")


@require_POST
@login_required
def round_clock(request: HtmxHttpRequest, event_id: int, round_number: int) -> HttpResponse:
    """The contract: the organizer starts the round's clock, ``minutes`` long."""
    event = organized(request, event_id)
    round_ = get_round(event, round_number)
    form = ClockForm(request.POST)
    if not form.is_valid():
        return _round_refused(request, event, round_, problems_of(form))
    try:
        started = commands.start_clock(event, round_number, form.cleaned_data["minutes"])
    except EventRefusal as refusal:
        return _round_refused(request, event, round_, [str(refusal)])
    assert started.ends_at is not None
    messages.success(
        request,
        f"Round {round_number}'s clock is running: {form.cleaned_data['minutes']} minutes, "
        f"until {started.ends_at:%H:%M} UTC. Every player's page shows the time left.",
    )
    return redirect(_games_anchor(round_))


# --- Changes by hand -------------------------------------------------------------------------


@require_POST
@login_required
def round_swap(request: HtmxHttpRequest, event_id: int, round_number: int) -> HttpResponse:
    """Swap two players' seats, or two tables, in a round."""
    event = organized(request, event_id)
    round_ = get_round(event, round_number)
    form = SwapForm(request.POST)
    if not form.is_valid():
        return _round_refused(request, event, round_, problems_of(form))
    data = form.cleaned_data
    try:
        if data["kind"] == "tables":
            warnings = commands.swap_tables(
                event, round_number, data["first"], data["second"], page_version(request.POST)
            )
            done = f"The game at table {data['first']} moved to table {data['second']}."
        else:
            warnings = commands.swap_players(
                event, round_number, data["first"], data["second"], page_version(request.POST)
            )
            done = f"{data['first'].strip()} and {data['second'].strip()} swapped seats."
    except EventRefusal as refusal:
        return _round_refused(request, event, round_, [str(refusal)])
    messages.success(request, done)
    for warning in warnings:
        messages.warning(request, "Warning: " + warning)
    return redirect(_games_anchor(round_))


@require_POST
@login_required
def player_drop(request: HtmxHttpRequest, event_id: int, entry_id: int) -> HttpResponse:
    """The organizer drops a player after a round (or takes the drop back); a player drops
    themself after the last round paired (the contract: their own entry id only)."""
    membership = organizer_or_self(request, event_id, entry_id)
    event, entry = membership.event, membership.entry
    assert entry is not None
    if not membership.organizer:
        return _self_drop(request, event, entry)
    form = DropForm(request.POST)
    back = reverse("events:standings", args=[event.pk]) + f"#player-{entry.pk}"
    if not form.is_valid() or (
        form.cleaned_data["change"] == "drop" and form.cleaned_data["after"] is None
    ):
        messages.error(request, f"Choose the round after which {entry.player_name} leaves.")
        return redirect(back)
    if form.cleaned_data["change"] == "reinstate":
        commands.reinstate(entry)
        messages.success(request, f"{entry.player_name} is paired again from the next round.")
        return redirect(back)
    try:
        warnings = commands.drop(event, entry, form.cleaned_data["after"])
    except EventRefusal as refusal:
        messages.error(request, str(refusal))
        return redirect(back)
    after = form.cleaned_data["after"]
    messages.success(
        request,
        f"{entry.player_name} dropped after round {after}: not paired again, still in the "
        "standings."
        if after
        else f"{entry.player_name} dropped before round 1: not paired.",
    )
    for warning in warnings:
        messages.warning(request, warning)
    return redirect(back)


def _self_drop(request: HtmxHttpRequest, event: Event, entry: Entry) -> HttpResponse:
    try:
        after = commands.self_drop(event, entry)
    except EventRefusal as refusal:
        messages.error(request, str(refusal))
    else:
        messages.success(
            request,
            f"You have dropped out of {event.name} after round {after}: you are not paired "
            "again and stay in the standings. The organizer is told."
            if after
            else f"You have dropped out of {event.name}: you will not be paired.",
        )
    return redirect("events:me", event.pk)


@require_POST
@login_required
def player_check_in(request: HtmxHttpRequest, event_id: int, entry_id: int) -> HttpResponse:
    """The contract: the organizer, or that player, checks a player in for the next round
    to be paired (``change=out`` takes it back)."""
    membership = organizer_or_self(request, event_id, entry_id)
    event, entry = membership.event, membership.entry
    assert entry is not None
    change = request.POST.get("change", "in")
    back = (
        reverse("events:me", args=[event_id]) + "#check-in"
        if not membership.organizer
        else _check_in_page(request, event)
    )
    if change not in ("in", "out"):
        messages.error(request, 'Check in ("in") or take it back ("out"): nothing was changed.')
        return redirect(back)
    present = change == "in"
    try:
        number = commands.check_in(event, entry, present, by_organizer=membership.organizer)
    except EventRefusal as refusal:
        messages.error(request, str(refusal))
        return redirect(back)
    who = "You are" if not membership.organizer else f"{entry.player_name} is"
    messages.success(
        request,
        f"{who} checked in for round {number}."
        if present
        else f"{who} no longer checked in for round {number}.",
    )
    return redirect(back)


def _check_in_page(request: HtmxHttpRequest, event: Event) -> str:
    number = reading.EventPlay(event).next_to_pair()
    if number is None:
        return event.get_absolute_url()
    return reverse("events:round", args=[event.pk, number]) + "#check-in"


# --- Settings --------------------------------------------------------------------------------


def _swiss_form_page(
    request: HtmxHttpRequest,
    event: Event,
    swiss: Swiss,
    form: ByeForm,
    problems: list[str],
    status: int = 200,
) -> HttpResponse:
    entries = list(event.entries.select_related("player").order_by("player__username"))
    seeds = {pk: n for n, pk in enumerate(swiss.seeding, start=1)}
    sent = request.POST if request.method == "POST" else {}
    rows = [
        {
            "entry": e,
            "seed": sent.get(f"seed-{e.pk}", "") if sent else seeds.get(e.pk, ""),
        }
        for e in entries
    ]
    return render(
        request,
        "events/swiss.html",
        {"event": event, "swiss": swiss, "form": form, "rows": rows, "problems": problems},
        status=status,
    )


@login_required
@require_http_methods(["GET", "POST"])
def swiss_settings(request: HtmxHttpRequest, event_id: int) -> HttpResponse:
    """The bye's VP and the organizer's seeds for round 1."""
    event = organized(request, event_id)
    swiss = reading.swiss_of(event)
    if request.method != "POST":
        return _swiss_form_page(
            request, event, swiss, ByeForm(initial={"bye_vp": swiss.bye_vp}), []
        )
    form = ByeForm(request.POST)
    entries = list(event.entries.select_related("player").order_by("player__username"))
    seeding, problems = read_seeds(request.POST, entries)
    if not form.is_valid() or problems:
        return _swiss_form_page(request, event, swiss, form, problems, status=400)
    try:
        commands.save_settings(
            event, page_version(request.POST), form.cleaned_data["bye_vp"], seeding
        )
    except StaleEvent as refusal:
        swiss.refresh_from_db()
        return _swiss_form_page(request, event, swiss, form, [str(refusal)], status=409)
    messages.success(
        request,
        f"Saved: a bye scores {form.cleaned_data['bye_vp']} VP; "
        f"{reading.plural(len(seeding), 'seeded player')}.",
    )
    return redirect(event.get_absolute_url() + "#rounds")
