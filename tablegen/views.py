from __future__ import annotations

import io
import json
import secrets
import time
import zipfile
from dataclasses import replace
from typing import Any

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.html import escape
from django.utils.http import urlencode
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.ownership import (
    DamagedRecord,
    StaleVersion,
    get_owned_or_404,
    get_shared_or_404,
    owned,
    owner_fields,
)
from onefinity.downloads import attachment, download
from onefinity.http import HtmxHttpRequest
from onefinity.rules import current_ruleset
from onefinity.rules.hexgrid import Board, Hex, rows_by_columns, standard_board
from onefinity.rules.lineoffire import line_of_fire
from onefinity.rules.text import normalize_name
from tablegen.engine.generate import GenerationError, generate_table
from tablegen.engine.metrics import TableReport, check_table, sightlines
from tablegen.engine.packs import PackState
from tablegen.engine.render import Overlay, legend, png, svg
from tablegen.engine.tables import TableDocumentError, TableSpec, table_document
from tablegen.forms import EmptyBoardForm, GenerateForm, PackForm
from tablegen.models import Pack, Table
from tablegen.packwork import advance_pack
from tablegen.printing import setup_pdf

MODES = {
    "terrain": "Terrain",
    "lof": "Line of fire",
    "sightlines": "Heat map: hexes seen",
    "exposure-a": "Heat map: side A's exposure",
    "exposure-b": "Heat map: side B's exposure",
}
KIND_CYCLE = [None, "cover", "elevated", "blocking"]
TABLES_PER_PAGE = 25
PACKS_PER_PAGE = 25
# Tables saved without a summary (a large import) or under another ruleset are checked by
# the list, for at most about this long per request; the rest show as being checked.
LIST_CHECK_SECONDS = 0.5


def _rules():  # type: ignore[no-untyped-def]
    return current_ruleset().table


def _board():  # type: ignore[no-untyped-def]
    rules = _rules()
    return standard_board(rules.rows, rules.columns)


def _hex_param(value: str | None, table: TableSpec) -> Hex | None:
    try:
        q, r = (int(part) for part in (value or "").split(","))
    except ValueError:
        return None
    return (q, r) if (q, r) in table.board else None


def _overlay(
    table: TableSpec, report: TableReport, mode: str, source: Hex | None, target: Hex | None
) -> tuple[Overlay, Any]:
    board = table.board
    explanation = None
    if mode == "lof" and source is not None:
        i = board.index[source]
        standable = report.terrain.standable
        seen = frozenset(
            board.hexes[k]
            for k in range(len(board))
            if report.clear[i, k] and standable[k] and k != i
        )
        blockers: frozenset[Hex] = frozenset()
        if target is not None:
            explanation = line_of_fire(board, report.terrain, source, target)
            blockers = frozenset(explanation.blocked_by) | frozenset(
                h for pair in explanation.blocked_along for h in pair
            )
        return Overlay(source=source, seen=seen, target=target, blockers=blockers), explanation
    if mode == "sightlines":
        counts = sightlines(report)
        top = max(counts) or 1
        return Overlay(heat=[c / top for c in counts], heat_label="hexes seen"), None
    if mode in ("exposure-a", "exposure-b"):
        enemy = "B" if mode == "exposure-a" else "A"
        depth = _rules().near_edge_depth
        watchers = [
            k
            for k in range(len(board))
            if report.terrain.standable[k] and board.depth_from_edge(k, enemy) <= depth
        ]
        counts = report.clear[:, watchers].sum(axis=1) if watchers else [0] * len(board)
        top = max(int(c) for c in counts) or 1
        return Overlay(
            heat=[int(c) / top for c in counts], heat_label=f"seen from side {enemy}'s edge"
        ), None
    return Overlay(), None


def _table_context(
    request: HtmxHttpRequest,
    table: TableSpec,
    base: str,
    editable: bool,
    edit_url: str = "",
    report: TableReport | None = None,
    version: int | None = None,
) -> dict[str, Any]:
    """What the map and its facts show. `version`: the saved table's, carried by every
    edit the page sends so that an edit drawn from an older version is refused."""
    report = report or check_table(table, _rules())
    mode = request.GET.get("mode", "terrain")
    if mode not in MODES:
        mode = "terrain"
    source = _hex_param(request.GET.get("from"), table)
    target = _hex_param(request.GET.get("to"), table)
    selected = _hex_param(request.GET.get("hex"), table)
    overlay, explanation = _overlay(table, report, mode, source, target)
    if selected is not None and mode == "terrain":
        overlay = Overlay(highlighted=frozenset({selected}))
    problem_hexes = frozenset(h for p in report.problems for h in p.hexes)

    # `base` may already carry a query (the generate page's parameters).
    joiner = "&" if "?" in base else "?"

    def at(**query: str) -> str:
        return f"{base}{joiner}{urlencode(query)}"

    def spot(hex_: Hex) -> str:
        return f"{hex_[0]},{hex_[1]}"

    def link(hex_: Hex) -> str:
        if mode == "lof":
            if source is None or hex_ == source:
                return at(mode="lof", **{"from": spot(hex_)})
            return at(mode="lof", to=spot(hex_), **{"from": spot(source)})
        if mode == "terrain" and editable:
            return at(mode="terrain", hex=spot(hex_))
        return at(mode="lof", **{"from": spot(hex_)})

    def attributes(hex_: Hex) -> str:
        if mode == "terrain" and editable:
            sent = {"q": hex_[0], "r": hex_[1]} | ({} if version is None else {"version": version})
            vals = escape(json.dumps(sent))
            return f' hx-post="{escape(edit_url)}" hx-vals="{vals}" hx-target="#table-view" hx-swap="outerHTML"'
        return f' hx-get="{escape(link(hex_))}" hx-target="#table-view" hx-swap="outerHTML" hx-push-url="true"'

    picture = svg(table, overlay, link, attributes, title=f"{table.name}: {MODES[mode]}")
    return {
        "spec": table,
        "report": report,
        "metrics": report.metrics,
        "picture": picture,
        "mode": mode,
        "modes": MODES,
        "mode_links": {key: at(mode=key) for key in MODES},
        "base": base,
        "source": source,
        "target": target,
        "selected": selected,
        "selected_kind": table.kind_at(selected) if selected else None,
        "explanation": explanation,
        "editable": editable,
        "edit_url": edit_url,
        "version": version,
        "legend": legend(),
        "heat_label": overlay.heat_label,
        "problem_hexes": sorted(problem_hexes),
        "kinds": [
            ("", "Open ground"),
            ("cover", "Cover"),
            ("elevated", "Elevated"),
            ("blocking", "Blocking"),
        ],
    }


def _render_table(
    request: HtmxHttpRequest, template: str, context: dict[str, Any], status: int = 200
) -> HttpResponse:
    name = f"{template}#table-view" if request.htmx else template
    return render(request, name, context, status=status)


# --- Generate -------------------------------------------------------------------------------


@require_GET
def table_new(request: HtmxHttpRequest) -> HttpResponse:
    """Generate from parameters in the URL: the URL itself is the permalink."""
    if "regenerate" in request.GET or ("coverage" in request.GET and not request.GET.get("seed")):
        params = request.GET.copy()
        params["seed"] = str(secrets.randbelow(2**31))
        params.pop("regenerate", None)
        return redirect(f"{reverse('tablegen:new')}?{params.urlencode()}")
    form = GenerateForm(request.GET if "seed" in request.GET else None)
    context: dict[str, Any] = {"form": form, "empty_form": EmptyBoardForm()}
    if form.is_bound and form.is_valid():
        params = form.parameters()
        try:
            table, report = generate_table(_rules(), params, _board())
        except GenerationError as error:
            context["error"] = str(error)
        else:
            # The permalink: the generation parameters alone reproduce the table.
            query = urlencode(
                {
                    "seed": params.seed,
                    "coverage": params.coverage,
                    "symmetry": params.symmetry,
                    "mix": params.mix,
                }
            )
            base = f"{reverse('tablegen:new')}?{query}"
            context |= _table_context(request, table, base=base, editable=False, report=report)
            context |= {"params": params, "permalink": request.build_absolute_uri(base)}
    elif form.is_bound:
        return render(request, "tablegen/new.html", context, status=400)
    return _render_table(request, "tablegen/new.html", context)


@require_POST
def table_save(request: HtmxHttpRequest) -> HttpResponse:
    form = GenerateForm(request.POST)
    if not form.is_valid() or form.cleaned_data["seed"] is None:
        messages.error(request, "Those parameters cannot make a table.")
        return redirect("tablegen:new")
    params = form.parameters()
    try:
        spec, report = generate_table(_rules(), params, _board())
    except GenerationError as error:
        messages.error(request, str(error))
        return redirect("tablegen:new")
    table = Table(**owner_fields(request, Table))
    table.set_spec(spec, report)
    table.save()
    messages.success(request, f"{table.name} saved.")
    return redirect(table)


@require_POST
def table_empty(request: HtmxHttpRequest) -> HttpResponse:
    """Build your own: an empty board of any size up to 40 x 40, opened in the editor."""
    form = EmptyBoardForm(request.POST)
    if not form.is_valid():
        return render(
            request, "tablegen/new.html", {"form": GenerateForm(), "empty_form": form}, status=400
        )
    rules = _rules()
    rows, columns = form.cleaned_data["rows"], form.cleaned_data["columns"]
    standard = (rows, columns) == (rules.rows, rules.columns)
    board = Board.of(rows_by_columns(rows, columns), standard=standard)
    table = Table(**owner_fields(request, Table))
    table.set_spec(TableSpec(board, {}, form.cleaned_data["name"]))
    table.save()
    messages.success(request, f"An empty {rows} x {columns} board: click hexes to place terrain.")
    return redirect(table)


# --- My tables ---------------------------------------------------------------------------------


@require_GET
def table_list(request: HtmxHttpRequest) -> HttpResponse:
    """A page of tables, each from its stored summary, and a page of packs."""
    tables = Paginator(owned(request, Table).order_by("-updated", "-pk"), TABLES_PER_PAGE)
    page = tables.get_page(request.GET.get("page"))
    started = time.perf_counter()
    rows = []
    for table in page:
        try:
            spec = table.to_spec()  # a few milliseconds, even for 40 x 40
        except DamagedRecord as damaged:
            # One unreadable table must not hide the others: it is listed with a repair.
            rows.append({"table": table, "damaged": damaged.problem})
            continue
        if not table.summary_is_current() and time.perf_counter() - started < LIST_CHECK_SECONDS:
            table.store_summary(check_table(spec, _rules()))
        rows.append(
            {"table": table, "summary": table.summary if table.summary_is_current() else None}
        )
    packs = Paginator(
        owned(request, Pack).defer("tables", "state", "pdf").order_by("-created", "-pk"),
        PACKS_PER_PAGE,
    )
    context = {
        "rows": rows,
        "page": page,
        "packs": packs.get_page(request.GET.get("packs")),
        "checking": any("damaged" not in row and row["summary"] is None for row in rows),
    }
    return render(request, "tablegen/list.html", context)


def _render_editor(
    request: HtmxHttpRequest,
    table: Table,
    spec: TableSpec | None = None,
    report: TableReport | None = None,
    status: int = 200,
    stale: bool = False,
) -> HttpResponse:
    """The table's page (or, for htmx, its #table-view region) as stored now."""
    context = _table_context(
        request,
        spec or table.to_spec(),
        base=table.get_absolute_url(),
        editable=True,
        edit_url=reverse("tablegen:terrain", args=[table.pk]),
        report=report,
        version=table.version,
    )
    context |= {"table": table, "stale": stale}
    return _render_table(request, "tablegen/table.html", context, status)


def _refused(request: HtmxHttpRequest, table: Table, message: str) -> HttpResponse:
    """Bad input: say why, with the table as it is; nothing changed."""
    messages.error(request, message)
    return _render_editor(request, table, status=400)


def _sent_version(request: HtmxHttpRequest, table: Table) -> int:
    """The version of the table the editing page showed (the current one when the form
    sent none, as a script might)."""
    try:
        return int(request.POST.get("version", table.version))
    except ValueError:
        return -1


def _stale(request: HtmxHttpRequest, table: Table) -> HttpResponse:
    """Refuse the second tab's change, say why, and show the latest table."""
    table.refresh_from_db()
    messages.error(
        request,
        "This table was changed in another tab or window since your page was drawn. "
        "Your change was not saved: the map below is the latest; make it again.",
    )
    return _render_editor(request, table, status=409, stale=True)


@require_GET
def table_detail(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    table = get_owned_or_404(request, Table, pk)
    spec = table.to_spec()
    report = check_table(spec, _rules())
    table.store_summary(report)  # made anyway: keeps the list right after a ruleset change
    return _render_editor(request, table, spec, report)


@require_POST
def table_terrain(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Set (kind given) or cycle (no kind) one hex's terrain."""
    table = get_owned_or_404(request, Table, pk)
    sent = _sent_version(request, table)
    if sent != table.version:
        return _stale(request, table)
    spec = table.to_spec()
    try:
        hex_ = (int(request.POST.get("q", "")), int(request.POST.get("r", "")))
    except ValueError:
        hex_ = None
    if hex_ is None or hex_ not in spec.board:
        return _refused(request, table, "That hex is not on the table.")
    index = spec.board.index[hex_]
    if "kind" in request.POST:
        kind = request.POST["kind"] or None
        if kind not in KIND_CYCLE:
            return _refused(request, table, "Choose open ground, cover, elevated or blocking.")
    else:
        kind = KIND_CYCLE[(KIND_CYCLE.index(spec.terrain.get(index)) + 1) % len(KIND_CYCLE)]
    if kind is None:
        spec.terrain.pop(index, None)
    else:
        spec.terrain[index] = kind
    try:
        report = table.record(spec, expected=sent)
    except TableDocumentError as error:
        table.refresh_from_db()
        return _refused(request, table, f"That change cannot be saved: {error}.")
    except StaleVersion:
        return _stale(request, table)
    if request.htmx:
        return _render_editor(request, table, spec, report)
    return redirect(f"{table.get_absolute_url()}?mode=terrain&hex={hex_[0]},{hex_[1]}")


@require_POST
def table_rename(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    table = get_owned_or_404(request, Table, pk)
    sent = _sent_version(request, table)
    if sent != table.version:
        return _stale(request, table)
    name = normalize_name(request.POST.get("name", ""))
    if not name:
        return _refused(request, table, "A table name has 1 to 120 characters.")
    spec = table.to_spec()
    try:
        table.record(replace(spec, name=name), expected=sent)
    except TableDocumentError as error:
        table.refresh_from_db()
        return _refused(request, table, f"The name {error.problem}.")
    except StaleVersion:
        return _stale(request, table)
    messages.success(request, "Renamed.")
    return redirect(table)


@require_POST
def table_sharing(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Turn the share link off or on, or replace it (every printed copy stops working)."""
    table = get_owned_or_404(request, Table, pk)
    try:
        messages.success(request, table.set_sharing(request.POST.get("change", "")))
    except ValueError as error:
        messages.error(request, str(error))
    return redirect(table)


@require_http_methods(["GET", "POST"])
def table_delete(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    table = get_owned_or_404(request, Table, pk)
    if request.method == "POST":
        table.delete()
        messages.success(request, f"{table.name} deleted.")
        return redirect("tablegen:list")
    return render(request, "tablegen/delete.html", {"table": table})


@require_POST
def table_repair(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Mend a table saved in a form the reader no longer takes (see tablegen.engine.repair)."""
    table = get_owned_or_404(request, Table, pk)
    try:
        changes = table.repair(_sent_version(request, table))
    except StaleVersion:
        return _stale(request, table)
    if changes:
        messages.success(request, "Repaired: " + "; ".join(changes) + ".")
    else:
        messages.info(request, "This table reads as it is: nothing to repair.")
    return redirect(table)


@require_GET
def table_stored(request: HtmxHttpRequest, pk: int) -> JsonResponse:
    """The document exactly as stored, readable or not: nothing is lost to a repair."""
    table = get_owned_or_404(request, Table, pk)
    response = JsonResponse(
        table.stored_document(),
        safe=False,
        json_dumps_params={"indent": 2, "ensure_ascii": True},
    )
    return attachment(response, table.name, "-stored.json", "table")


# --- Shared, downloads --------------------------------------------------------------------


def _readable(request: HtmxHttpRequest, pk: int | None, code: str | None) -> Table:
    if code is not None:
        return get_shared_or_404(Table, code)
    if pk is None:
        raise Http404("Not found")
    return get_owned_or_404(request, Table, pk)


@require_GET
def table_shared(request: HtmxHttpRequest, code: str) -> HttpResponse:
    table = get_shared_or_404(Table, code)
    context = _table_context(request, table.to_spec(), base=table.get_share_url(), editable=False)
    return _render_table(request, "tablegen/shared.html", context | {"table": table})


@require_POST
def table_copy(request: HtmxHttpRequest, code: str) -> HttpResponse:
    original = get_shared_or_404(Table, code)
    copy = Table(**owner_fields(request, Table))
    copy.set_spec(original.to_spec())
    copy.save()
    messages.success(request, f"{copy.name} copied to your tables.")
    return redirect(copy)


@require_GET
def table_json(
    request: HtmxHttpRequest, pk: int | None = None, code: str | None = None
) -> JsonResponse:
    table = _readable(request, pk, code)
    response = JsonResponse(table_document(table.to_spec()), json_dumps_params={"indent": 2})
    return attachment(response, table.name, ".json", "table")


@require_GET
def table_png(
    request: HtmxHttpRequest, pk: int | None = None, code: str | None = None
) -> HttpResponse:
    table = _readable(request, pk, code)
    return download(png(table.to_spec()), "image/png", table.name, ".png", "table")


@require_GET
def table_pdf(
    request: HtmxHttpRequest, pk: int | None = None, code: str | None = None
) -> HttpResponse:
    table = _readable(request, pk, code)
    pdf = setup_pdf([table.to_spec()], table.name, _rules(), request)
    return download(pdf, "application/pdf", table.name, "-setup.pdf", "table")


# --- Tournament packs ------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def pack_new(request: HtmxHttpRequest) -> HttpResponse:
    form = PackForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        seed = form.cleaned_data["seed"]
        params = {
            "seed": seed if seed is not None else secrets.randbelow(2**31),
            "coverage": round(form.cleaned_data["coverage"], 3),
            "symmetry": form.cleaned_data["symmetry"],
            "mix": form.cleaned_data["mix"],
        }
        pack = Pack.objects.create(
            name=form.cleaned_data["name"],
            count=form.cleaned_data["count"],
            params=params,
            state=PackState(seed=params["seed"]).as_json(),
            **owner_fields(request, Pack),
        )
        return redirect(pack)
    return render(
        request, "tablegen/pack_new.html", {"form": form}, status=400 if form.errors else 200
    )


def _pack(request: HtmxHttpRequest, pk: int, with_pdf: bool = False) -> Pack:
    """The owner's pack, without its PDF (megabytes) unless it is to be sent."""
    packs = owned(request, Pack)
    found = (packs if with_pdf else packs.defer("pdf")).filter(pk=pk).first()
    if found is None:
        raise Http404("Not found")
    return found


def _not_ready(request: HtmxHttpRequest, pack: Pack) -> HttpResponse:
    """A download asked for before it exists: say what is being made, on the pack's page
    (which makes it)."""
    if pack.error:
        messages.error(request, f"This pack stopped before it was finished: {pack.error}")
        return redirect(pack)
    pack.table_specs()  # DamagedRecord: the page says so, with the repair
    if pack.made < pack.count:
        messages.info(
            request,
            f"The pack is being made: {pack.made} of {pack.count} tables. "
            "Its downloads are here when it is finished.",
        )
    else:
        messages.info(
            request,
            f"The PDF is being made: {pack.printed} of {pack.count} sheets. "
            "It is here to download when it is finished.",
        )
    return redirect(pack)


@require_GET
def pack_detail(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The pack's progress; each view moves its making forward by a bounded step."""
    pack = _pack(request, pk)
    template = "tablegen/pack.html#progress" if request.htmx else "tablegen/pack.html"
    try:
        advance_pack(pack)
    except DamagedRecord as damaged:
        return render(request, template, {"pack": pack, "damaged": damaged.problem}, status=409)
    return render(request, template, {"pack": pack})


@require_POST
def pack_repair(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    pack = _pack(request, pk)
    changes = pack.repair()
    if changes:
        shown = "; ".join(changes[:10]) + (
            f"; and {len(changes) - 10} more" if len(changes) > 10 else ""
        )
        messages.success(request, f"Repaired: {shown}.")
    else:
        messages.info(request, "This pack reads as it is: nothing to repair.")
    return redirect(pack)


@require_http_methods(["GET", "POST"])
def pack_delete(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    pack = _pack(request, pk)
    if request.method == "POST":
        pack.delete()
        messages.success(request, f"{pack.name} deleted.")
        return redirect("tablegen:list")
    return render(request, "tablegen/pack_delete.html", {"pack": pack})


@require_GET
def pack_pdf(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The PDF made on the pack's page, as stored: never rendered during a download."""
    pack = _pack(request, pk, with_pdf=True)
    if not pack.pdf_ready or pack.pdf is None:
        return _not_ready(request, pack)
    return download(bytes(pack.pdf), "application/pdf", pack.name, ".pdf", "pack")


@require_GET
def pack_zip(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The pack's tables as stored, one JSON file each (also when they no longer read)."""
    pack = _pack(request, pk)
    if pack.made < pack.count or not isinstance(pack.tables, list):
        return _not_ready(request, pack)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for number, document in enumerate(pack.tables, start=1):
            seed = document.get("seed") if isinstance(document, dict) else None
            archive.writestr(
                f"table-{number:03d}-seed-{seed if isinstance(seed, int) else 'none'}.json",
                json.dumps(document, indent=2),
            )
    return download(buffer.getvalue(), "application/zip", pack.name, ".zip", "pack")
