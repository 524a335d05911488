"""An event's rounds: the tables and pairings the organizer sets, and their publishing."""

from __future__ import annotations

import math
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.ownership import DamagedRecord, owned
from events import commands, live, reading
from events.forms import PairingsImportForm
from events.loaders import (
    get_round,
    organized,
)
from events.models import (
    MAX_TABLES_PER_ROUND,
    Event,
    EventRefusal,
    Round,
    TableDocumentError,
)
from events.pairings import (
    PairingRow,
    PairingsError,
    RawRow,
    check_rows,
    csv_label,
    form_label,
    player_key,
    read_csv_rows,
)
from onefinity.http import HtmxHttpRequest, page_version, record_id
from onefinity.rules.text import whole_number
from onefinity.wording import problem_in_words
from tablegen.engine.tables import table_document
from tablegen.models import Pack, Table

# Saved tables offered for a round.
TABLES_OFFERED = 100

# --- Rounds: tables and pairings ------------------------------------------------------------


def _players_by_name(event: Event) -> tuple[dict[str, int], dict[int, str]]:
    entries = event.entries.select_related("player")
    names = {entry.pk: entry.player_name for entry in entries}
    return {player_key(name): pk for pk, name in names.items()}, names


def _table_counts(event: Event) -> dict[int, int]:
    return {n: len(names) for n, names in event.rounds.values_list("number", "table_names")}


def _round_context(request: HtmxHttpRequest, event: Event, round_: Round) -> dict[str, Any]:
    entries = list(event.entries.select_related("player").order_by("player__username"))
    pairings = list(round_.pairings.select_related("player_a__player", "player_b__player"))
    byes = list(round_.byes.select_related("entry__player").order_by("pk"))
    # The games, then the byes (player A alone, no table), then empty rows to type in.
    form_rows: list[dict[str, Any]] = [
        {"table": p.table, "a": p.player_a.player_name, "b": p.player_b.player_name}
        for p in pairings
    ] + [{"table": "", "a": bye.entry.player_name, "b": ""} for bye in byes]
    rows = max(math.ceil(len(entries) / 2), len(form_rows), 1)
    form_rows += [{"table": "", "a": "", "b": ""} for _ in range(rows - len(form_rows))]
    form_rows = form_rows[:MAX_TABLES_PER_ROUND]
    for index, row in enumerate(form_rows):
        row["index"] = index
        if not row["a"]:
            row["table"] = index + 1
    paired = {p.player_a_id for p in pairings} | {p.player_b_id for p in pairings}
    paired |= {bye.entry_id for bye in byes}
    packs = [p for p in owned(request, Pack).order_by("-created")[:50] if len(p.tables) >= p.count]
    tables = owned(request, Table).order_by("-updated")[:TABLES_OFFERED]
    return {
        "event": event,
        "round": round_,
        "entries": entries,
        "pairings": pairings,
        "form_rows": form_rows,
        "unpaired": [e for e in entries if e.pk not in paired],
        "packs": packs,
        "saved_tables": tables,
        "table_names": [round_.table_name(n) for n in range(1, round_.table_count + 1)],
        "tables_settled": round_.closed_at is not None or reading.round_started(round_),
        "earlier_tables": _earlier_tables(event, round_),
        "live_token": live.live_token(event.pk),
        "poll_seconds": live.POLL_SECONDS,
    } | reading.round_page(event, round_)


def _earlier_tables(event: Event, round_: Round) -> str:
    """The round whose tables pairing this one (without its own) would take, or ""."""
    earlier = (
        event.rounds.filter(number__lt=round_.number)
        .exclude(tables_source="")
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
    )
    return f"round {earlier}" if earlier else ""


@login_required
@require_GET
def round_detail(request: HtmxHttpRequest, event_id: int, round_number: int) -> HttpResponse:
    event = organized(request, event_id)
    if (nothing_new := live.unchanged(request, event.pk)) is not None:
        return nothing_new
    round_ = get_round(event, round_number)
    return render(request, "events/round.html", _round_context(request, event, round_))


def _round_refused(
    request: HtmxHttpRequest, event: Event, round_: Round, problems: list[str]
) -> HttpResponse:
    round_.refresh_from_db()
    context = _round_context(request, event, round_) | {"problems": problems}
    return render(request, "events/round.html", context, status=400)


def _chosen_tables(request: HtmxHttpRequest, source: str) -> tuple[list[dict[str, Any]], str]:
    """The table documents the organizer chose for a round (from one of their packs, or
    their saved tables, or none) and how to name them; EventRefusal saying why not."""
    if source == "none":
        return [], ""
    if source == "pack":
        pack_pk = record_id(request.POST.get("pack", ""))
        pack = owned(request, Pack).filter(pk=pack_pk).first() if pack_pk else None
        if pack is None or len(pack.tables) < pack.count:
            raise EventRefusal("Choose one of your finished packs.")
        return list(pack.tables)[:MAX_TABLES_PER_ROUND], f"the pack {pack.name}"
    if source != "tables":
        raise EventRefusal("Choose a pack or saved tables.")
    chosen = [pk for v in request.POST.getlist("tables") if (pk := record_id(v)) is not None]
    if not chosen:
        raise EventRefusal("Tick the saved tables to use.")
    if len(chosen) > MAX_TABLES_PER_ROUND:
        raise EventRefusal(f"A round has at most {MAX_TABLES_PER_ROUND} tables.")
    found = {t.pk: t for t in owned(request, Table).filter(pk__in=chosen)}
    if len(found) != len(set(chosen)):
        raise EventRefusal("Choose among your saved tables.")
    try:
        documents = [table_document(found[pk].to_spec()) for pk in dict.fromkeys(chosen)]
    except DamagedRecord as damaged:
        raise EventRefusal(f"{damaged.record} no longer reads: {damaged.problem}.") from None
    return documents, "saved tables " + ", ".join(found[pk].name for pk in dict.fromkeys(chosen))


@require_POST
@login_required
def round_tables(request: HtmxHttpRequest, event_id: int, round_number: int) -> HttpResponse:
    event = organized(request, event_id)
    round_ = get_round(event, round_number)
    try:
        documents, label = _chosen_tables(request, request.POST.get("source", ""))
        round_.set_tables(page_version(request.POST), documents, label)
    except TableDocumentError as error:
        return _round_refused(
            request, event, round_, [f"A table does not read: {problem_in_words(error)}."]
        )
    except EventRefusal as refusal:
        return _round_refused(request, event, round_, [str(refusal)])
    messages.success(
        request,
        f"Round {round_.number} has {len(documents)} table{'s' if len(documents) != 1 else ''}."
        if documents
        else f"Round {round_.number} has no tables now.",
    )
    return redirect(round_)


@require_POST
@login_required
def round_pairings(request: HtmxHttpRequest, event_id: int, round_number: int) -> HttpResponse:
    """The typed-in pairings of one round: rows of table, player A, player B."""
    event = organized(request, event_id)
    round_ = get_round(event, round_number)
    players, names = _players_by_name(event)
    raw = []
    # How many rows the form drew: bounded before it is looped over (the first four
    # characters were checked and then all were read: 0001000000 held a thread for 42 s).
    count = whole_number(request.POST.get("rows", ""), 1, MAX_TABLES_PER_ROUND)
    if count is None:
        return _round_refused(
            request, event, round_, ["The form came incomplete: reload the page and try again."]
        )
    for index in range(count):
        a = request.POST.get(f"a-{index}", "")
        b = request.POST.get(f"b-{index}", "")
        table = request.POST.get(f"table-{index}", "")
        if not a.strip() and not b.strip():
            continue  # an empty row
        raw.append(RawRow(f"row {index + 1}", (str(round_number), table, a, b)))
    try:
        rows = check_rows(
            raw,
            players,
            names,
            event.round_count,
            _table_counts(event),
            MAX_TABLES_PER_ROUND,
            form_label,
        )
        commands.replace_pairings(
            event, {round_number: rows}, {round_number: page_version(request.POST)}
        )
    except PairingsError as error:
        return _round_refused(request, event, round_, error.shown)
    except EventRefusal as refusal:
        return _round_refused(request, event, round_, [str(refusal)])
    messages.success(request, f"Round {round_number}: {_games_and_byes(rows)} saved.")
    return redirect(round_)


def _games_and_byes(rows: list[PairingRow]) -> str:
    byes = sum(row.bye for row in rows)
    games = len(rows) - byes
    said = f"{games} pairing{'s' if games != 1 else ''}"
    return said + (f" and {byes} bye{'s' if byes != 1 else ''}" if byes else "")


@require_POST
@login_required
def round_publish(request: HtmxHttpRequest, event_id: int, round_number: int) -> HttpResponse:
    event = organized(request, event_id)
    round_ = get_round(event, round_number)
    published = request.POST.get("change") == "publish"
    # The round's page sends its version: a tab drawn before the round was paired again does
    # not publish pairings nobody looked at (checked and written under the pairing's lock).
    try:
        commands.publish_round(event, round_number, published, page_version(request.POST))
    except EventRefusal as refusal:
        return _round_refused(request, event, round_, [str(refusal)])
    messages.success(
        request,
        f"Round {round_number}'s tables and pairings are published to the players."
        if published
        else f"Round {round_number} is hidden from the players again.",
    )
    return redirect(round_)


@login_required
@require_http_methods(["GET", "POST"])
def pairings_import(request: HtmxHttpRequest, event_id: int) -> HttpResponse:
    event = organized(request, event_id)
    form = PairingsImportForm(request.POST or None, request.FILES or None)
    problems: list[str] = []
    if request.method == "POST" and form.is_valid():
        players, names = _players_by_name(event)
        try:
            raw = read_csv_rows(form.cleaned_data["text"], event.round_count * MAX_TABLES_PER_ROUND)
            rows = check_rows(
                raw,
                players,
                names,
                event.round_count,
                _table_counts(event),
                MAX_TABLES_PER_ROUND,
                csv_label,
            )
            by_round: dict[int, list[PairingRow]] = {}
            for row in rows:
                by_round.setdefault(row.round, []).append(row)
            commands.replace_pairings(event, by_round, None)
        except PairingsError as error:
            problems = error.shown
        except EventRefusal as refusal:
            problems = [str(refusal)]
        else:
            summary = "; ".join(
                f"round {n}: {_games_and_byes(r)}" for n, r in sorted(by_round.items())
            )
            messages.success(request, f"Pairings imported ({summary}).")
            return redirect(event.get_absolute_url() + "#rounds")
    status = 400 if form.errors or problems else 200
    return render(
        request,
        "events/pairings_import.html",
        {"event": event, "form": form, "problems": problems, "max_tables": MAX_TABLES_PER_ROUND},
        status=status,
    )
