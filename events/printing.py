"""What an organizer prints: every locked roster (one per page, each with the QR code of its
snapshot page) and one sheet per table per round (the map, the two players, their lists in
short). Also the CSV and the zip of force documents.

Every PDF is bounded: a file holds at most ROSTERS_PER_FILE rosters or SHEETS_PER_FILE
table sheets, so that no click renders for more than a few seconds; a bigger event prints
in parts. A PDF is kept (per server process) under a hash of everything it shows, so a
second download of the same thing costs nothing.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import re
import zipfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from urllib.parse import urljoin

from django.template.loader import render_to_string
from django.urls import reverse

from accounts.ownership import DamagedRecord
from events import reading
from events.checking import check_for_event, event_ruleset
from events.composing import CompositionError, compose
from events.models import Entry, Event, Pairing, Round, TableDocumentError
from forcebuilder.printing import qr_svg
from forcebuilder.sheets import ForceSheet, force_sheet
from onefinity.downloads import csv_text, file_stem, printed_once, render_pdf
from onefinity.wording import problem_in_words
from tablegen.engine.render import svg

# A roster lays out in about 0.13 s, a sheet in 0.1 s, a table map in 0.3 s (once per file,
# however many sheets show it): each file stays within about 3 s (docs/performance.md).
ROSTERS_PER_FILE = 24
SHEETS_PER_FILE = 8
# "Everything in one file" is offered while it stays this small.
EVERYTHING_MAX_PAGES = 24
EVERYTHING_MAX_MAPS = 6


# --- What a page shows --------------------------------------------------------------------


@dataclass
class Snapshot:
    """An entry's submitted list as printed: its sheet, or why it cannot be shown."""

    entry: Entry
    sheet: ForceSheet | None
    damaged: str = ""

    @property
    def faction_name(self) -> str:
        return self.sheet.faction_name if self.sheet else self.entry.faction


def snapshot_of(entry: Entry, event: Event) -> Snapshot:
    if not entry.submitted:
        return Snapshot(entry, None, "")
    try:
        spec = entry.snapshot_spec()
    except DamagedRecord as damaged:
        return Snapshot(entry, None, damaged.problem)
    checked = check_for_event(spec, event.ruleset_version, event.points_limit)
    return Snapshot(entry, force_sheet(checked.spec, checked.report))


@dataclass
class SummaryLine:
    text: str
    points: int
    unit: bool


def summary_lines(sheet: ForceSheet) -> list[SummaryLine]:
    """A list in short: each unit, then each trooper, one line each."""
    lines = []
    for unit in sheet.units:
        skills = [s.name for s in unit.skills if s is not None]
        lines.append(
            SummaryLine(
                unit.label + (f" · {', '.join(skills)}" if skills else ""), unit.points, True
            )
        )
        for trooper in unit.troopers:
            label = trooper.label
            if trooper.trooper_class and trooper.trooper_class.specialist and trooper.name:
                label += f" ({trooper.trooper_class.name})"
            weapons = [w.name for w in trooper.profile.weapons] if trooper.profile else []
            extras = [e.name for e in trooper.equipment + trooper.abilities if e is not None]
            text = f"{label}: {', '.join(weapons)}" + (f"; {', '.join(extras)}" if extras else "")
            lines.append(SummaryLine(text, trooper.points, False))
    return lines


@dataclass
class SheetSide:
    entry: Entry
    snapshot: Snapshot
    lines: list[SummaryLine] = field(default_factory=list)


@dataclass
class TableSheet:
    round: Round
    table: int
    table_name: str
    sides: list[SheetSide]
    map_key: str | None  # which distinct map this sheet shows
    map_problem: str = ""


@dataclass
class Maps:
    """The distinct table maps of a print job, each drawn once."""

    pictures: dict[str, str] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)

    def key_for(self, round_: Round, table: int) -> tuple[str | None, str]:
        """The map of table ``table`` of ``round_``: its key, or None and why not."""
        try:
            spec = round_.table_spec(table)
        except TableDocumentError as error:
            return None, f"The stored table does not read: {problem_in_words(error)}."
        if spec is None:
            return None, "No table map is attached to this table."
        key = hashlib.sha256(
            json.dumps(round_.table_document(table), sort_keys=True).encode()
        ).hexdigest()
        if key not in self.pictures:
            # Hover titles mean nothing on paper and cost a fifth of the layout time; the
            # map is named as the sheet names its table (without a pack's "(seed 8812)").
            named = svg(spec, title=round_.table_name(table))
            self.pictures[key] = re.sub(r"<title>[^<]*</title>", "", named)
            self.order.append(key)
        return key, ""


def round_pairings(round_: Round, first: int = 1, size: int | None = None) -> list[Pairing]:
    """The pairings of a round by table, from the ``first`` (from 1), ``size`` of them."""
    pairings = round_.pairings.select_related("player_a__player", "player_b__player").order_by(
        "table"
    )
    end = None if size is None else first - 1 + size
    return list(pairings[first - 1 : end])


def table_sheets(
    event: Event, rounds: Iterable[tuple[Round, list[Pairing]]], maps: Maps
) -> list[TableSheet]:
    sheets = []
    snapshots: dict[int, Snapshot] = {}

    def side(entry: Entry) -> SheetSide:
        if entry.pk not in snapshots:
            snapshots[entry.pk] = snapshot_of(entry, event)
        snapshot = snapshots[entry.pk]
        lines = summary_lines(snapshot.sheet) if snapshot.sheet else []
        return SheetSide(entry, snapshot, lines)

    for round_, pairings in rounds:
        for pairing in pairings:
            key, problem = maps.key_for(round_, pairing.table)
            sheets.append(
                TableSheet(
                    round_,
                    pairing.table,
                    round_.table_name(pairing.table),
                    [side(pairing.player_a), side(pairing.player_b)],
                    key,
                    problem,
                )
            )
    return sheets


def locked_entries(event: Event) -> list[Entry]:
    """The entries whose lists are locked: what the downloads hold."""
    return list(
        event.entries.filter(locked_at__isnull=False, document__isnull=False)
        .select_related("player")
        .order_by("player__username")
    )


# --- PDFs -------------------------------------------------------------------------------


def _rosters_html(
    event: Event, entries: list[Entry], site: str, progress: Callable[[int], None]
) -> str:
    pages = []
    for number, entry in enumerate(entries, start=1):
        progress(number)
        url = urljoin(site, entry.get_snapshot_url())
        pages.append(
            {
                "entry": entry,
                "snapshot": snapshot_of(entry, event),
                "share_url": url,
                "qr": qr_svg(url),
                "link": {"share_code": entry.code},
            }
        )
    return render_to_string("events/print_rosters.html", {"event": event, "pages": pages})


def _sheets_html(event: Event, sheets: list[TableSheet], maps: Maps, inline: bool) -> str:
    return render_to_string(
        "events/print_sheets.html",
        {"event": event, "sheets": sheets, "maps": maps.pictures, "inline": inline},
    )


# Inside an image the page's styles do not reach the map: its labels' sizes go with it.
MAP_STYLE = "<style>.coord{font-size:10px}.edge-label{font-size:10px;font-weight:700}</style>"
# Side B's summary is side A's stamp moved right by 96 mm (108 mm - 12 mm), in points.
SIDE_B_OFFSET = 96 * 72 / 25.4


def map_image(picture: str) -> str:
    """A map as an image (a data: URL): WeasyPrint draws an SVG image in about half the time
    it takes to lay the same SVG out inline."""
    styled = picture.replace(">", ">" + MAP_STYLE, 1)
    return "data:image/svg+xml;base64," + base64.b64encode(styled.encode()).decode()


@dataclass
class Stamps:
    """What the sheets repeat, each laid out once (events/composing.py): the distinct maps,
    then each player's list in short."""

    maps: list[str]
    sides: list[SheetSide]
    placements: list[list[tuple[int, float]]]

    @classmethod
    def of(cls, sheets: list[TableSheet], maps: Maps) -> Stamps:
        sides: dict[int, int] = {}
        ordered: list[SheetSide] = []
        for sheet in sheets:
            for side in sheet.sides:
                if side.snapshot.sheet is not None and side.entry.pk not in sides:
                    sides[side.entry.pk] = len(maps.order) + len(ordered)
                    ordered.append(side)
        placements = []
        for sheet in sheets:
            placed: list[tuple[int, float]] = []
            if sheet.map_key:
                placed.append((maps.order.index(sheet.map_key), 0.0))
            for offset, side in zip((0.0, SIDE_B_OFFSET), sheet.sides, strict=True):
                if side.entry.pk in sides:
                    placed.append((sides[side.entry.pk], offset))
            placements.append(placed)
        return cls([map_image(maps.pictures[k]) for k in maps.order], ordered, placements)

    def html(self, event: Event) -> str:
        return render_to_string(
            "events/print_sheets.html",
            {"event": event, "stamp_maps": self.maps, "stamp_sides": self.sides, "stamps": True},
        )


def _cached(parts: list[str], render: Callable[[], bytes]) -> bytes:
    key = "events-pdf:" + hashlib.sha256("\x00".join(parts).encode()).hexdigest()
    return printed_once(key, render)


def event_pdf(
    event: Event,
    entries: list[Entry],
    rounds: list[tuple[Round, list[Pairing]]],
    site: str,
    progress: Callable[[int, int], None] = lambda done, total: None,
) -> bytes:
    """Rosters of ``entries`` (one per page), then a sheet per table of ``rounds``; ``site``
    is the address the QR codes of the rosters point into ("https://example.org/").
    ``progress(done, total)`` hears of each roster and sheet laid out, then of the render."""
    sheet_count = sum(len(pairings) for _, pairings in rounds)
    total = len(entries) + sheet_count + 1
    rosters = _rosters_html(event, entries, site, lambda n: progress(n, total)) if entries else ""
    maps = Maps()
    sheets = table_sheets(event, rounds, maps)
    progress(len(entries) + sheet_count, total)
    sheets_html = _sheets_html(event, sheets, maps, inline=False) if sheets else ""
    stamps = Stamps.of(sheets, maps)
    stamps_html = stamps.html(event) if stamps.placements and any(stamps.placements) else ""

    def render() -> bytes:
        if not sheets:
            return render_pdf(rosters or _empty(event))
        leading = render_pdf(rosters) if rosters else None
        sheet_pdf = render_pdf(sheets_html)
        stamp_pdf = render_pdf(stamps_html) if stamps_html else b""
        try:
            return compose(leading, sheet_pdf, stamp_pdf, stamps.placements)
        except CompositionError:
            # A sheet ran over its page: lay everything out inline (slower, still right).
            inline = render_pdf(_sheets_html(event, sheets, maps, inline=True))
            return compose(leading, inline, b"", [[] for _ in _page_count(inline)])

    return _cached([rosters, sheets_html, stamps_html], render)


def _page_count(pdf: bytes) -> range:
    from pypdf import PdfReader

    return range(len(PdfReader(io.BytesIO(pdf)).pages))


def _empty(event: Event) -> str:
    return render_to_string("events/print_rosters.html", {"event": event, "pages": []})


# --- Parts: every print file of an event, each bounded -----------------------------------


@dataclass(frozen=True)
class PrintFile:
    label: str
    url: str


def chunks(count: int, size: int) -> list[tuple[int, int]]:
    """(first, last) numbers, from 1, of each part of ``count`` things, ``size`` a part."""
    return [(start + 1, min(start + size, count)) for start in range(0, count, size)]


def distinct_maps(rounds: Iterable[Round]) -> int:
    """How many different table maps the rounds' pairings are played on (one query for all
    the rounds)."""
    with_tables = {round_.pk: round_ for round_ in rounds if round_.table_names}
    if not with_tables:
        return 0
    played = (
        Pairing.objects.filter(round__in=list(with_tables))
        .order_by()
        .values_list("round_id", "table")
        .distinct()
    )
    seen = set()
    for round_id, table in played:
        keys = with_tables[round_id].table_keys
        if 1 <= table <= len(keys):
            seen.add(str(keys[table - 1]))
    return len(seen)


def everything_fits(rosters: int, sheets: int, maps: int) -> bool:
    return (
        rosters > 0
        and sheets > 0
        and rosters + sheets <= EVERYTHING_MAX_PAGES
        and maps <= EVERYTHING_MAX_MAPS
    )


def print_files(
    event: Event, rosters: int, sheets_per_round: dict[int, int], maps: int
) -> list[PrintFile]:
    """Every PDF of the event, each within its bound: one file for everything while the
    event is small, else rosters and each round's table sheets in parts."""
    files = []
    total_sheets = sum(sheets_per_round.values())
    if everything_fits(rosters, total_sheets, maps):
        files.append(
            PrintFile(
                "Everything: every locked roster, then every table sheet",
                reverse("events:event-pdf", args=[event.pk]),
            )
        )
    for first, last in chunks(rosters, ROSTERS_PER_FILE):
        label = (
            "Every locked roster, one per page"
            if rosters <= ROSTERS_PER_FILE
            else f"Locked rosters {first} to {last}"
        )
        url = reverse("events:rosters-pdf", args=[event.pk])
        files.append(PrintFile(label, url if first == 1 else f"{url}?from={first}"))
    for number, count in sorted(sheets_per_round.items()):
        url = reverse("events:round-sheets-pdf", args=[event.pk, number])
        for first, last in chunks(count, SHEETS_PER_FILE):
            label = (
                f"Round {number}: a sheet per table"
                if count <= SHEETS_PER_FILE
                else f"Round {number}: table sheets {first} to {last}"
            )
            files.append(PrintFile(label, url if first == 1 else f"{url}?from={first}"))
    return files


# --- CSV and zip --------------------------------------------------------------------------


def lists_csv(event: Event, entries: list[Entry]) -> str:
    """Player, faction, points, legal: one row per locked list, a header row first."""
    ruleset = event_ruleset(event.ruleset_version)
    rows: list[list[object]] = [
        ["player", "list", "faction", "points", "points limit", "legal", "problems"]
    ]
    for entry in entries:
        faction = ruleset.factions.get(entry.faction)
        rows.append(
            [
                entry.player_name,
                entry.list_name,
                faction.name if faction else entry.faction,
                entry.points if entry.points is not None else "",
                event.points_limit,
                "yes" if entry.legal else "no",
                len(entry.errors),
            ]
        )
    return csv_text(rows)


def lists_zip(event: Event, entries: list[Entry]) -> bytes:
    """One force document per player, named after the player; damaged snapshots as stored,
    in a folder of their own."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for number, entry in enumerate(entries, start=1):
            stem = file_stem(entry.player_name, f"player-{number}")
            try:
                entry.snapshot_spec()
                folder = ""
            except DamagedRecord:
                folder = "damaged/"
            archive.writestr(
                f"{folder}{number:03d}-{stem}.json",
                json.dumps(entry.document, indent=2, ensure_ascii=False),
            )
    return buffer.getvalue()


__all__ = [
    "PrintFile",
    "Snapshot",
    "event_pdf",
    "lists_csv",
    "lists_zip",
    "locked_entries",
    "print_files",
    "snapshot_of",
    "summary_lines",
    "table_sheets",
]


# --- Standings --------------------------------------------------------------------------


def standings_html(event: Event) -> str:
    """The standings as printed (the organizer's PDF): every player's line, the rules of the
    order, as the standings page shows them."""
    standings = reading.EventPlay(event)
    return render_to_string(
        "events/print_standings.html",
        {
            "event": event,
            "swiss": standings.swiss,
            "rows": standings.standings(),
            "rounds_played": standings.rounds_played(),
            "states": standings.states(),
        },
    )
