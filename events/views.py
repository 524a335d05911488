"""Events: thin views over events.models. Organizers' pages load the event through the
owner-scoped loader (404 for anyone else); players' pages through their entry. Every
page needs an account, except the join page, which sends a visitor to log in or sign up
and back."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.db.models import F
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.ownership import DamagedRecord, get_owned_or_404, owned, owner_fields
from events import printing
from events.checking import check_for_event, event_ruleset
from events.forms import EventForm, PairingsImportForm
from events.models import (
    MAX_ENTRIES,
    MAX_TABLES_PER_ROUND,
    Entry,
    Event,
    EventRefusal,
    Pairing,
    Round,
    StaleEvent,
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
from forcebuilder.forms import NewForceForm
from forcebuilder.models import Force
from forcebuilder.printing import qr_svg
from onefinity.downloads import download
from onefinity.http import HtmxHttpRequest
from onefinity.rules import ForceSpec
from tablegen.engine.render import svg
from tablegen.engine.tables import table_document
from tablegen.models import Pack, Table

# A player's lists offered for submission: the most recently changed.
LISTS_OFFERED = 50
# Saved tables offered for a round.
TABLES_OFFERED = 100

# --- Loaders --------------------------------------------------------------------------------


def _organized(request: HtmxHttpRequest, event_id: int) -> Event:
    return get_owned_or_404(request, Event, event_id)


def _my_entry(request: HtmxHttpRequest, event_id: int) -> Entry:
    entry = (
        Entry.objects.select_related("event", "force", "player")
        .filter(event_id=event_id, player=request.user)
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


def _member(request: HtmxHttpRequest, event_id: int) -> Membership:
    """The organizer or a registered player; 404 for everyone else."""
    event = Event.objects.filter(pk=event_id).first()
    if event is None:
        raise Http404("Not found")
    organizer = event.owner_id == request.user.pk
    entry = event.entries.select_related("force").filter(player=request.user).first()
    if not organizer and entry is None:
        raise Http404("Not found")
    return Membership(event, entry, organizer)


def _round(event: Event, number: int) -> Round:
    found = event.rounds.filter(number=number).first()
    if found is None:
        raise Http404("No such round")
    return found


def _sent_version(request: HtmxHttpRequest) -> int:
    try:
        return int(request.POST.get("version", ""))
    except ValueError:
        return -1


def _from(request: HtmxHttpRequest) -> int:
    value = request.GET.get("from", "1")
    return int(value) if value.isascii() and value.isdigit() and len(value) < 6 else 0


# --- My events, new event -------------------------------------------------------------------


@login_required
@require_GET
def my_events(request: HtmxHttpRequest) -> HttpResponse:
    organized = owned(request, Event)
    entries = (
        Entry.objects.filter(player=request.user)
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
        event = Event.create(**form.cleaned_data, **owner_fields(request, Event))
        messages.success(request, f"{event.name} created. Hand out the join link below.")
        return redirect(event)
    status = 400 if form.errors else 200
    return render(request, "events/event_form.html", {"form": form}, status=status)


# --- The organizer's dashboard --------------------------------------------------------------

FILTERS = {
    "all": "Everyone",
    "missing": "Not submitted",
    "illegal": "Not legal",
    "changed": "Changed since lock",
    "open": "Not locked",
    "locked": "Locked",
}


@dataclass
class PlayerRow:
    entry: Entry
    faction: str
    changed_since_lock: bool
    list_deleted: bool

    @property
    def status(self) -> str:
        entry = self.entry
        if not entry.submitted:
            return "missing"
        return "legal" if entry.legal else "illegal"

    def shown(self, show: str) -> bool:
        entry = self.entry
        return {
            "all": True,
            "missing": not entry.submitted,
            "illegal": entry.submitted and not entry.legal,
            "changed": self.changed_since_lock,
            "open": not entry.locked,
            "locked": entry.locked,
        }[show]


def _rows(event: Event) -> list[PlayerRow]:
    event.refresh_open_entries()
    ruleset = event_ruleset(event.ruleset_version)
    rows = []
    for entry in event.entries.select_related("player", "force").order_by("player__username"):
        entry.event = event
        faction = ruleset.factions.get(entry.faction)
        rows.append(
            PlayerRow(
                entry,
                faction.name if faction else entry.faction,
                entry.live_differs(),
                entry.submitted and entry.force_id is None,
            )
        )
    return rows


def _reminders(event: Event, rows: list[PlayerRow], rounds: list[Round]) -> list[str]:
    reminders = []
    missing = [r.entry.player_name for r in rows if not r.entry.submitted]
    if missing:
        names = ", ".join(missing[:12]) + (
            f" and {len(missing) - 12} more" if len(missing) > 12 else ""
        )
        reminders.append(
            f"{len(missing)} player{'s have' if len(missing) > 1 else ' has'} not submitted a list: {names}."
        )
    illegal = [r.entry.player_name for r in rows if r.entry.submitted and not r.entry.legal]
    if illegal:
        reminders.append(
            f"{len(illegal)} list{'s are' if len(illegal) > 1 else ' is'} not legal: {', '.join(illegal[:12])}."
        )
    changed = [r.entry.player_name for r in rows if r.changed_since_lock]
    if changed:
        reminders.append(
            f"{len(changed)} player{'s have' if len(changed) > 1 else ' has'} changed their list since it was locked "
            f"(the locked list is what counts): {', '.join(changed[:12])}."
        )
    if rows and not event.locked:
        reminders.append("The lists are not locked yet: lock them before round 1.")
    for round_ in rounds:
        if not round_.tables:
            reminders.append(f"Round {round_.number} has no tables yet.")
        if not round_.pairing_count:
            reminders.append(f"Round {round_.number} has no pairings yet.")
    return reminders


def _dashboard_context(request: HtmxHttpRequest, event: Event) -> dict[str, Any]:
    show = request.GET.get("show", "all")
    if show not in FILTERS:
        show = "all"
    rows = _rows(event)
    rounds = list(event.rounds.all())
    counts = {}
    for round_ in rounds:
        round_.pairing_count = round_.pairings.count()
        counts[round_.number] = round_.pairing_count
    locked = [r.entry for r in rows if r.entry.locked and r.entry.submitted]
    join_url = request.build_absolute_uri(event.get_join_url())
    return {
        "event": event,
        "rows": [r for r in rows if r.shown(show)],
        "all_rows": rows,
        "show": show,
        "filters": [
            {"key": key, "label": label, "count": sum(r.shown(key) for r in rows)}
            for key, label in FILTERS.items()
        ],
        "reminders": _reminders(event, rows, rounds),
        "rounds": rounds,
        "locked_count": len(locked),
        "print_files": printing.print_files(
            event,
            len(locked),
            {n: c for n, c in counts.items() if c},
            printing.distinct_maps(rounds),
        ),
        "join_url": join_url,
        "join_qr": qr_svg(join_url),
        "max_entries": MAX_ENTRIES,
    }


@login_required
@require_GET
def dashboard(request: HtmxHttpRequest, event_id: int) -> HttpResponse:
    event = _organized(request, event_id)
    context = _dashboard_context(request, event)
    if request.htmx:
        return render(request, "events/dashboard.html#state", context)
    return render(request, "events/dashboard.html", context)


def _back_to_dashboard(request: HtmxHttpRequest, event: Event, status: int = 200) -> HttpResponse:
    if request.htmx:
        context = _dashboard_context(request, event)
        return render(request, "events/dashboard.html#state", context, status=status)
    return redirect(event.get_absolute_url() + "#players")


@login_required
@require_http_methods(["GET", "POST"])
def event_edit(request: HtmxHttpRequest, event_id: int) -> HttpResponse:
    event = _organized(request, event_id)
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
            event.update_settings(_sent_version(request), **form.cleaned_data)
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
    event = _organized(request, event_id)
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
    event = _organized(request, event_id)
    event.new_join_code()
    messages.success(request, "A new join link is made; the old one no longer works.")
    return redirect(event.get_absolute_url() + "#join")


@login_required
@require_GET
def join_qr(request: HtmxHttpRequest, event_id: int) -> HttpResponse:
    event = _organized(request, event_id)
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
    event = _organized(request, event_id)
    change = request.POST.get("change")
    if change == "lock":
        count = event.lock_all()
        messages.success(
            request,
            f"Locked. {count} entr{'ies' if count != 1 else 'y'} frozen now; later changes to "
            "players' lists do not change what they submitted.",
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
    event = _organized(request, event_id)
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
    event = _organized(request, event_id)
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
    if change == "lock":
        entry.lock()
        messages.success(request, f"{entry.player_name}'s list is locked.")
    elif change == "unlock":
        entry.unlock()
        messages.success(request, f"{entry.player_name} can change their list again.")
    else:
        messages.error(request, "Choose to lock or to unlock.")
    return _back_to_dashboard(request, entry.event)


@require_POST
@login_required
def player_remove(request: HtmxHttpRequest, event_id: int, entry_id: int) -> HttpResponse:
    entry = _organized_entry(request, event_id, entry_id)
    name = entry.player_name
    entry.delete()
    messages.success(request, f"{name} is no longer registered (their pairings went with them).")
    return _back_to_dashboard(request, entry.event)


# --- Downloads ------------------------------------------------------------------------------


@login_required
@require_GET
def rosters_pdf(request: HtmxHttpRequest, event_id: int) -> HttpResponse:
    event = _organized(request, event_id)
    entries = printing.locked_entries(event)
    first = _from(request)
    if not 1 <= first <= max(1, len(entries)):
        raise Http404("No such part")
    part = entries[first - 1 : first - 1 + printing.ROSTERS_PER_FILE]
    pdf = printing.event_pdf(event, part, [], request)
    suffix = "-rosters.pdf" if len(part) == len(entries) else f"-rosters-from-{first}.pdf"
    return download(pdf, "application/pdf", event.name, suffix, "event")


@login_required
@require_GET
def round_sheets_pdf(request: HtmxHttpRequest, event_id: int, round_number: int) -> HttpResponse:
    event = _organized(request, event_id)
    round_ = _round(event, round_number)
    first = _from(request)
    count = round_.pairings.count()
    if not 1 <= first <= max(1, count):
        raise Http404("No such part")
    part = printing.round_pairings(round_, first, printing.SHEETS_PER_FILE)
    pdf = printing.event_pdf(event, [], [(round_, part)], request)
    suffix = (
        f"-round-{round_number}-tables.pdf"
        if first == 1
        else f"-round-{round_number}-tables-from-{first}.pdf"
    )
    return download(pdf, "application/pdf", event.name, suffix, "event")


@login_required
@require_GET
def event_pdf(request: HtmxHttpRequest, event_id: int) -> HttpResponse:
    event = _organized(request, event_id)
    entries = printing.locked_entries(event)
    rounds = list(event.rounds.all())
    sheets = sum(r.pairings.count() for r in rounds)
    if not printing.everything_fits(len(entries), sheets, printing.distinct_maps(rounds)):
        messages.error(
            request,
            f"This event has {len(entries)} locked rosters and {sheets} table sheets: too many "
            "for one file (or nothing to print yet). Download the parts listed under Print.",
        )
        return redirect(event.get_absolute_url() + "#print")
    parts = [(r, printing.round_pairings(r)) for r in rounds]
    pdf = printing.event_pdf(event, entries, parts, request)
    return download(pdf, "application/pdf", event.name, "-everything.pdf", "event")


@login_required
@require_GET
def lists_csv(request: HtmxHttpRequest, event_id: int) -> HttpResponse:
    event = _organized(request, event_id)
    text = printing.lists_csv(event, printing.locked_entries(event))
    return download(text, "text/csv; charset=utf-8", event.name, "-lists.csv", "event")


@login_required
@require_GET
def lists_zip(request: HtmxHttpRequest, event_id: int) -> HttpResponse:
    event = _organized(request, event_id)
    archive = printing.lists_zip(event, printing.locked_entries(event))
    return download(archive, "application/zip", event.name, "-lists.zip", "event")


# --- Rounds: tables and pairings ------------------------------------------------------------


def _players_by_name(event: Event) -> tuple[dict[str, int], dict[int, str]]:
    entries = event.entries.select_related("player")
    names = {entry.pk: entry.player_name for entry in entries}
    return {player_key(name): pk for pk, name in names.items()}, names


def _table_counts(event: Event) -> dict[int, int]:
    return {r.number: len(r.tables) for r in event.rounds.all()}


def _round_context(request: HtmxHttpRequest, event: Event, round_: Round) -> dict[str, Any]:
    entries = list(event.entries.select_related("player").order_by("player__username"))
    pairings = list(round_.pairings.select_related("player_a__player", "player_b__player"))
    rows = max(math.ceil(len(entries) / 2), len(pairings), 1)
    form_rows = []
    for index in range(min(rows, MAX_TABLES_PER_ROUND)):
        pairing = pairings[index] if index < len(pairings) else None
        form_rows.append(
            {
                "index": index,
                "table": pairing.table if pairing else index + 1,
                "a": pairing.player_a.player_name if pairing else "",
                "b": pairing.player_b.player_name if pairing else "",
            }
        )
    paired = {p.player_a_id for p in pairings} | {p.player_b_id for p in pairings}
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
        "table_names": [round_.table_name(n) for n in range(1, len(round_.tables) + 1)],
    }


@login_required
@require_GET
def round_detail(request: HtmxHttpRequest, event_id: int, round_number: int) -> HttpResponse:
    event = _organized(request, event_id)
    round_ = _round(event, round_number)
    return render(request, "events/round.html", _round_context(request, event, round_))


def _round_refused(
    request: HtmxHttpRequest, event: Event, round_: Round, problems: list[str]
) -> HttpResponse:
    round_.refresh_from_db()
    context = _round_context(request, event, round_) | {"problems": problems}
    return render(request, "events/round.html", context, status=400)


@require_POST
@login_required
def round_tables(request: HtmxHttpRequest, event_id: int, round_number: int) -> HttpResponse:
    event = _organized(request, event_id)
    round_ = _round(event, round_number)
    source = request.POST.get("source")
    documents: list[dict[str, Any]] = []
    if source == "pack":
        pack_id = request.POST.get("pack", "")
        pack = (
            owned(request, Pack).filter(pk=int(pack_id)).first()
            if pack_id.isascii() and pack_id.isdigit() and len(pack_id) < 12
            else None
        )
        if pack is None or len(pack.tables) < pack.count:
            return _round_refused(request, event, round_, ["Choose one of your finished packs."])
        documents = list(pack.tables)[:MAX_TABLES_PER_ROUND]
        label = f"the pack {pack.name}"
    elif source == "tables":
        chosen = [
            v for v in request.POST.getlist("tables") if v.isascii() and v.isdigit() and len(v) < 12
        ]
        if not chosen:
            return _round_refused(request, event, round_, ["Tick the saved tables to use."])
        if len(chosen) > MAX_TABLES_PER_ROUND:
            return _round_refused(
                request, event, round_, [f"A round has at most {MAX_TABLES_PER_ROUND} tables."]
            )
        found = {t.pk: t for t in owned(request, Table).filter(pk__in=[int(v) for v in chosen])}
        if len(found) != len(set(chosen)):
            return _round_refused(request, event, round_, ["Choose among your saved tables."])
        try:
            documents = [table_document(found[int(v)].to_spec()) for v in dict.fromkeys(chosen)]
        except DamagedRecord as damaged:
            return _round_refused(
                request, event, round_, [f"{damaged.record} no longer reads: {damaged.problem}."]
            )
        label = "saved tables " + ", ".join(found[int(v)].name for v in dict.fromkeys(chosen))
    elif source == "none":
        label = ""
    else:
        return _round_refused(request, event, round_, ["Choose a pack or saved tables."])
    try:
        round_.set_tables(_sent_version(request), documents, label)
    except TableDocumentError as error:
        return _round_refused(request, event, round_, [f"A table does not read: {error}."])
    except EventRefusal as refusal:
        return _round_refused(request, event, round_, [str(refusal)])
    messages.success(
        request,
        f"Round {round_.number} has {len(documents)} table{'s' if len(documents) != 1 else ''}."
        if documents
        else f"Round {round_.number} has no tables now.",
    )
    return redirect(round_)


def _save_pairings(
    event: Event, by_round: dict[int, list[PairingRow]], expected: dict[int, int] | None
) -> None:
    """Replace the pairings of each round named, in one transaction; a round whose
    version moved since the page was drawn refuses the whole change (StaleEvent)."""
    with transaction.atomic():
        for number, rows in sorted(by_round.items()):
            round_ = Round.objects.select_for_update().get(event=event, number=number)
            if expected is not None and round_.version != expected[number]:
                raise StaleEvent(
                    f"Round {number} was changed in another tab or window since your page was "
                    "drawn. Nothing was saved: check the round below and try again."
                )
            if any(row.table > len(round_.tables) for row in rows) and round_.tables:
                raise EventRefusal(f"Round {number} has only {len(round_.tables)} tables.")
            round_.pairings.all().delete()
            Pairing.objects.bulk_create(
                Pairing(
                    round=round_,
                    table=row.table,
                    player_a_id=row.player_a,
                    player_b_id=row.player_b,
                )
                for row in rows
            )
            Round.objects.filter(pk=round_.pk).update(version=F("version") + 1)


@require_POST
@login_required
def round_pairings(request: HtmxHttpRequest, event_id: int, round_number: int) -> HttpResponse:
    """The typed-in pairings of one round: rows of table, player A, player B."""
    event = _organized(request, event_id)
    round_ = _round(event, round_number)
    players, names = _players_by_name(event)
    raw = []
    rows_sent = request.POST.get("rows", "")
    if not (
        rows_sent.isascii()
        and rows_sent.isdigit()
        and 1 <= int(rows_sent[:4]) <= MAX_TABLES_PER_ROUND
    ):
        return _round_refused(
            request, event, round_, ["The form came incomplete: reload the page and try again."]
        )
    count = int(rows_sent)
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
        _save_pairings(event, {round_number: rows}, {round_number: _sent_version(request)})
    except PairingsError as error:
        return _round_refused(request, event, round_, error.shown)
    except EventRefusal as refusal:
        return _round_refused(request, event, round_, [str(refusal)])
    messages.success(
        request, f"Round {round_number}: {len(rows)} pairing{'s' if len(rows) != 1 else ''} saved."
    )
    return redirect(round_)


@require_POST
@login_required
def round_publish(request: HtmxHttpRequest, event_id: int, round_number: int) -> HttpResponse:
    event = _organized(request, event_id)
    round_ = _round(event, round_number)
    published = request.POST.get("change") == "publish"
    Round.objects.filter(pk=round_.pk).update(published=published, version=F("version") + 1)
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
    event = _organized(request, event_id)
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
            _save_pairings(event, by_round, None)
        except PairingsError as error:
            problems = error.shown
        except EventRefusal as refusal:
            problems = [str(refusal)]
        else:
            summary = "; ".join(
                f"round {n}: {len(r)} pairing{'s' if len(r) != 1 else ''}"
                for n, r in sorted(by_round.items())
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
        try:
            event.join(request.user)
        except EventRefusal as refusal:
            return render(
                request,
                "events/join.html",
                {"event": event, "entry": entry, "error": str(refusal)},
                status=400,
            )
        messages.success(request, f"You have joined {event.name}. Now submit a list.")
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
    for round_ in event.rounds.filter(published=True):
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
                spec = round_.table_spec(pairing.table)
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
        "rounds": _my_rounds(event, entry),
        "new_list_form": NewForceForm(initial={"name": f"{event.name} list"[:120]}),
        "list_deleted": entry.submitted and entry.force_id is None,
    } | extra


@login_required
@require_GET
def me(request: HtmxHttpRequest, event_id: int) -> HttpResponse:
    entry = _my_entry(request, event_id)
    return render(request, "events/me.html", _entry_context(request, entry))


def _my_list(request: HtmxHttpRequest, value: str) -> Force | None:
    if not (value.isascii() and value.isdigit() and len(value) < 12):
        return None
    return owned(request, Force).filter(pk=int(value)).first()


@require_POST
@login_required
def submit(request: HtmxHttpRequest, event_id: int) -> HttpResponse:
    entry = _my_entry(request, event_id)
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
                "can_accept": not verdict.over_limit and not entry.locked,
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
    entry = _my_entry(request, event_id)
    data = request.POST.copy()
    data["points_limit"] = str(entry.event.points_limit)  # the event's, whatever was sent
    form = NewForceForm(data)
    if not form.is_valid():
        context = _entry_context(request, entry, new_list_form=form)
        return render(request, "events/me.html", context, status=400)
    event = entry.event
    ruleset = event_ruleset(event.ruleset_version)
    spec = ForceSpec(
        name=form.cleaned_data["name"],
        faction=form.cleaned_data["faction"],
        ruleset=ruleset.version,
        points_limit=event.points_limit,
    )
    force = Force.create_from_spec(
        spec, ruleset.version, event.points_limit, **owner_fields(request, Force)
    )
    messages.success(
        request,
        f"{force.name} is started at {event.points_limit} points. When it is ready, submit it "
        f"from Events, {event.name}.",
    )
    return redirect(force)


@require_POST
@login_required
def withdraw(request: HtmxHttpRequest, event_id: int) -> HttpResponse:
    entry = _my_entry(request, event_id)
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
    entry = _my_entry(request, event_id)
    try:
        entry.leave()
    except EventRefusal as refusal:
        messages.error(request, str(refusal))
        return redirect("events:me", event_id)
    messages.success(request, f"You have left {entry.event.name}.")
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
    membership = _member(request, event_id)
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
    membership = _member(request, event_id)
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
    membership = _member(request, event_id)
    event = membership.event
    rounds = event.rounds.all() if membership.organizer else event.rounds.filter(published=True)
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
