"""How the table pages are drawn: the page or, for htmx, its #table-view region; the
table editor's page as stored now (or as an edit left it), with the way back to a pack; its
answers to bad input and to a stale page."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from django.contrib import messages
from django.http import HttpResponse, QueryDict
from django.shortcuts import render
from django.urls import reverse
from django_htmx.http import push_url

from accounts.ownership import owned
from onefinity.http import HtmxHttpRequest, stale_words
from onefinity.rules import current_ruleset
from onefinity.rules.hexgrid import Board
from onefinity.rules.ruleset import TableRules
from tablegen.engine.library import TerrainLibrary, terrain_library
from tablegen.engine.metrics import TableReport
from tablegen.engine.tables import TableSpec, read_board
from tablegen.maps import Brush, map_context, recall_drawn, remember_drawn
from tablegen.models import Pack, Table
from tablegen.printing import qr_svg

# The longest page address whose query an htmx answer keeps (see _view_query).
MAX_VIEW_URL = 2_000
STALE = stale_words("This table")


def table_rules() -> TableRules:
    return current_ruleset().table


def table_library() -> TerrainLibrary:
    return terrain_library(tuple(table_rules().terrain))


def board() -> Board:
    """The standard board, the very object a table read from its document has: the
    engine's caches of a board's geometry are keyed by it, and an equal board made anew
    for each request compared its 104 hexes one by one on every look-up."""
    return read_board({"standard": True}, table_rules())


def render_table(
    request: HtmxHttpRequest, template: str, context: dict[str, Any], status: int = 200
) -> HttpResponse:
    """The page, or for htmx its #table-view region."""
    name = f"{template}#table-view" if request.htmx else template
    return render(request, name, context, status=status)


def render_editor(
    request: HtmxHttpRequest,
    table: Table,
    spec: TableSpec | None = None,
    report: TableReport | None = None,
    status: int = 200,
    stale: bool = False,
    keep_palette: bool = False,
    settings: tuple[Brush, str] | None = None,
) -> HttpResponse:
    """The table's page (or, for htmx, its #table-view region) as stored now.

    `keep_palette`: an htmx answer to an edit made from the terrain view, whose palette an
    edit does not change: the region carries an empty palette for htmx to keep the page's
    own in its place (hx-preserve), instead of drawing its 25 links and pictures again.
    `settings`: the brush and symmetry the edit read from its query (drawn with them)."""
    answering = bool(request.htmx) and request.method == "POST"
    # An htmx edit, undo or redo names the map its page shows: the answer is then what
    # changed on it (maps.remember_drawn), drawn from that one. Only for a change made: a
    # refusal or another tab's change is drawn whole.
    drawn_before = answering and status == 200
    before = recall_drawn(table.pk, request.POST.get("drawn")) if drawn_before else None
    context = map_context(
        _view_query(request, table) if answering else request.GET,
        spec or table.to_spec(),
        table_rules(),
        table.get_absolute_url(),
        editable=True,
        edit_url=reverse("tablegen:terrain", args=[table.pk]),
        report=report,
        version=table.version,
        palette=not keep_palette,
        drawn_before=before,
        settings=settings,
    )
    drawn = remember_drawn(table.pk, context["drawn_map"])
    context |= {"table": table, "stale": stale, "keep_palette": keep_palette, "drawn": drawn}
    if not request.htmx:  # the share panel and the way back are outside the htmx region
        context |= _outside_the_region(request, table)
    response = render_table(request, "tablegen/table.html", context, status)
    if request.htmx and request.method == "POST":
        # An edit, undo or redo answered in place: the address stays the page's (htmx would
        # push a boosted form's POST address, which answers 405 to a reload).
        push_url(response, False)
    return response


def _outside_the_region(request: HtmxHttpRequest, table: Table) -> dict[str, Any]:
    """The share panel's QR code and the way back to a pack: drawn with the whole page."""
    context: dict[str, Any] = {"copied_from": _copied_from(request, table)}
    if table.sharing:
        context["share_qr"] = qr_svg(request.build_absolute_uri(table.get_share_url()))
    return context


def _view_query(request: HtmxHttpRequest, table: Table) -> QueryDict:
    """What the page an htmx edit, undo or redo came from shows: the query of its address
    (the view, the line of fire's hexes, the hex chosen, the brush), which the answer keeps
    (it does not change the address). The request's own query when the page is another's."""
    current = request.htmx.current_url or ""
    try:
        found = urlsplit(current[:MAX_VIEW_URL])
    except ValueError:  # not an address ("http://[x/"): the request's own query
        return request.GET
    if found.path != table.get_absolute_url() or len(current) > MAX_VIEW_URL:
        return request.GET
    return QueryDict(found.query)


def _copied_from(request: HtmxHttpRequest, table: Table) -> dict[str, str] | None:
    """The owner's pack this table is the edited copy of (the name, and the pack's page of
    that table, where the copy may be put in its place); None for any other table. Reads
    only the packs' copy lists, at most the owner's quota of packs."""
    for pk, name, copies in owned(request, Pack).values_list("pk", "name", "copies"):
        if not isinstance(copies, dict):
            continue
        for number, copy in copies.items():
            # What remember_copy writes: "number" -> the copy's id (a stored value of any
            # other shape, True included, names no copy).
            if (
                type(copy) is int
                and copy == table.pk
                and str(number).isascii()
                and str(number).isdigit()
            ):
                url = reverse("tablegen:pack-table", args=[pk])
                return {
                    "pack": name,
                    "number": str(number),
                    "url": f"{url}?table={number}#your-copy",
                }
    return None


def refused(request: HtmxHttpRequest, table: Table, message: str) -> HttpResponse:
    """Bad input: say why, with the table as it is; nothing changed."""
    messages.error(request, message)
    return render_editor(request, table, status=400)


def stale(request: HtmxHttpRequest, table: Table) -> HttpResponse:
    """Refuse the second tab's change, say why, and show the latest table."""
    table.refresh_from_db()
    messages.error(request, STALE)
    return render_editor(request, table, status=409, stale=True)
