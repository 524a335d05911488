"""The table generator's pages: thin views over the models, the engine and tablegen.maps."""

from __future__ import annotations

import secrets
import time
from dataclasses import replace
from typing import Any
from urllib.parse import urlsplit

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse, JsonResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import push_url

from accounts.ownership import (
    DamagedRecord,
    QuotaExceeded,
    StaleVersion,
    get_owned_or_404,
    get_shared_or_404,
    owned,
    owner_fields,
)
from jobs.running import JobsBusy, busy_page, refuse_fresh_work
from jobs.views import download_job_file
from onefinity.downloads import attachment, download, printed_once
from onefinity.http import HtmxHttpRequest, page_version, stale_words
from onefinity.rules import current_ruleset
from onefinity.rules.hexgrid import Board, rows_by_columns, standard_board
from onefinity.rules.ruleset import TableRules
from onefinity.rules.text import normalize_name
from tablegen import jobs as table_jobs
from tablegen.box_views import box_choices
from tablegen.engine.boxfit import Advice
from tablegen.engine.edits import EditError
from tablegen.engine.generate import (
    GenerationError,
    GenerationTimeout,
    Parameters,
    draft_table,
    generate_table,
)
from tablegen.engine.library import TerrainLibrary, terrain_library
from tablegen.engine.metrics import TableReport, check_table
from tablegen.engine.render import png
from tablegen.engine.tables import (
    MAX_NAME_LENGTH,
    TableDocumentError,
    TableSpec,
    read_table_document,
    table_document,
)
from tablegen.forms import EmptyBoardForm, GenerateForm, TerrainForm
from tablegen.jobs import (
    generation_job,
    generation_result,
    setup_sheet,
    setup_sheet_job,
    worker_prints,
)
from tablegen.maps import (
    brush_problem,
    editing,
    map_context,
    read_brush,
    read_symmetry,
    recall_drawn,
    remember_drawn,
    sentence,
    shown_view,
    spot,
    symmetry_problem,
)
from tablegen.models import Pack, Table
from tablegen.printing import qr_svg

TABLES_PER_PAGE = 25
# The longest page address whose query an htmx answer keeps (see _view_query).
MAX_VIEW_URL = 2_000
PACKS_PER_PAGE = 25
# Tables saved without a summary (a large import) or under another ruleset are checked by
# the list, for at most about this long per request; the rest show as being checked.
LIST_CHECK_SECONDS = 0.5
STALE = stale_words("This table")
PAINT_FIRST = (
    "To paint several hexes at once, choose open ground or a kind of terrain as the brush."
)


def _rules() -> TableRules:
    return current_ruleset().table


def _library() -> TerrainLibrary:
    return terrain_library(tuple(_rules().terrain))


def _board() -> Board:
    rules = _rules()
    return standard_board(rules.rows, rules.columns)


def _render_table(
    request: HtmxHttpRequest, template: str, context: dict[str, Any], status: int = 200
) -> HttpResponse:
    """The page, or for htmx its #table-view region."""
    name = f"{template}#table-view" if request.htmx else template
    return render(request, name, context, status=status)


# --- Generate -------------------------------------------------------------------------------


@require_GET
def table_new(request: HtmxHttpRequest) -> HttpResponse:
    """Generate from parameters in the URL: the URL itself is the permalink."""
    # The form's Generate button sends "generate": a new seed each press, unless the seed
    # is kept ("pin"); a permalink (no "generate") keeps its seed.
    pressed = "generate" in request.GET
    pinned = pressed and request.GET.get("pin") and request.GET.get("seed")
    if (
        "regenerate" in request.GET
        or (pressed and not pinned)
        or ("coverage" in request.GET and not request.GET.get("seed"))
    ):
        params = request.GET.copy()
        params["seed"] = str(secrets.randbelow(2**31))
        for key in ("regenerate", "generate", "pin"):
            params.pop(key, None)
        return redirect(f"{reverse('tablegen:new')}?{params.urlencode()}")
    if pressed:  # a kept seed: the address is the permalink, without the button
        params = request.GET.copy()
        params.pop("generate", None)
        return redirect(f"{reverse('tablegen:new')}?{params.urlencode()}")
    form = GenerateForm(request.GET if "seed" in request.GET else None, boxes=box_choices(request))
    context: dict[str, Any] = {"form": form, "empty_form": EmptyBoardForm()}
    if form.is_bound and form.is_valid():
        params = form.parameters()
        try:
            generated = _generated(request, params)
            if generated is None:  # the worker is making it: its progress, then the page again
                context |= {"params": params, "job": _generation_job(request, params)}
                return _render_table(request, "tablegen/new.html", context)
            table, report = generated
        except (JobsBusy, QuotaExceeded) as busy:
            return busy_page(request, busy)
        except GenerationError as error:
            context |= {"error": str(error), "advice": error.advice, "params": params}
            if error.advice is not None:
                library = _library()
                context["advice_pieces"] = [
                    (library.pieces[p].name, n) for p, n in error.advice.add.items()
                ]
            if error.draft is None:
                return _render_table(request, "tablegen/new.html", context)
            # The best table it made, not valid, its problems marked on the map: the
            # organizer may keep it as a draft and finish it by hand.
            table, report = error.draft
            context["draft"] = error.draft_attempt
        # The permalink: the generation parameters alone reproduce the table.
        base = f"{reverse('tablegen:new')}?{urlencode({'seed': params.seed, **params.as_dict()})}"
        context |= map_context(request.GET, table, _rules(), base, editable=False, report=report)
        again = {k: v for k, v in params.query().items() if k != "seed"} | {"regenerate": 1}
        context |= {
            "params": params,
            "permalink": request.build_absolute_uri(base),
            "regenerate": f"{reverse('tablegen:new')}?{urlencode(again)}",
            "hidden": params.query(),
        }
    elif form.is_bound:
        return render(request, "tablegen/new.html", context, status=400)
    return _render_table(request, "tablegen/new.html", context)


def _generated(
    request: HtmxHttpRequest, params: Parameters
) -> tuple[TableSpec, TableReport] | None:
    """The seed's table (the same whatever the budget): the one the worker made, or one made
    within the request's second; None when that second was not enough and the worker goes
    on (tablegen.jobs.generate). GenerationError when there is none: its draft and advice."""
    kept = generation_result(request, params)
    if kept is None:
        try:
            budget = table_jobs.REQUEST_SECONDS
            return generate_table(_rules(), params, _board(), budget_seconds=budget)
        except GenerationTimeout:
            if _generation_job(request, params).active:
                return None
            kept = generation_result(request, params)  # made at once (the immediate backend)
            if kept is None:
                raise
    if "table" in kept:
        spec = read_table_document(kept["table"], _rules())
        return spec, check_table(spec, _rules())
    attempt, advice = kept["draft"], kept["advice"]
    raise GenerationError(
        kept["error"],
        draft=None if attempt is None else draft_table(_rules(), params, _board(), attempt),
        advice=None if advice is None else Advice(**advice),
        draft_attempt=attempt,
    )


def _generation_job(request: HtmxHttpRequest, params: Parameters) -> Any:
    return generation_job(request, params)


@require_POST
def table_save(request: HtmxHttpRequest) -> HttpResponse:
    form = GenerateForm(request.POST, boxes=box_choices(request))
    if not form.is_valid() or form.cleaned_data["seed"] is None:
        messages.error(request, "Those parameters cannot make a table.")
        return redirect("tablegen:new")
    attempt = request.POST.get("draft", "")
    try:
        if attempt:
            # The draft the page showed (the best table its search made), as asked: to be
            # finished by hand in the editor.
            if not (attempt.isascii() and attempt.isdigit() and len(attempt) <= 4):
                raise GenerationError("That draft cannot be made again.")
            spec, report = draft_table(_rules(), form.parameters(), _board(), int(attempt))
            spec = replace(spec, name=f"Draft: {spec.name}"[:MAX_NAME_LENGTH])
        else:
            generated = _generated(request, form.parameters())
            if generated is None:
                messages.info(request, "The table is still being made: save it when it shows.")
                query = urlencode(form.parameters().query())
                return redirect(f"{reverse('tablegen:new')}?{query}")
            spec, report = generated
    except (JobsBusy, QuotaExceeded) as busy:
        return busy_page(request, busy)
    except GenerationError as error:
        messages.error(request, str(error))
        return redirect("tablegen:new")
    table = Table(**owner_fields(request, Table))
    table.set_spec(spec, report)
    table.save()
    if report.valid:
        messages.success(request, f"{table.name} saved.")
    else:
        messages.warning(
            request,
            f"{table.name} kept as a draft: not valid yet. Its problems are marked on the map "
            "in red; change the terrain until the verdict says Valid table.",
        )
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
    keep_palette: bool = False,
) -> HttpResponse:
    """The table's page (or, for htmx, its #table-view region) as stored now.

    `keep_palette`: an htmx answer to an edit made from the terrain view, whose palette an
    edit does not change: the region carries an empty palette for htmx to keep the page's
    own in its place (hx-preserve), instead of drawing its 25 links and pictures again."""
    answering = bool(request.htmx) and request.method == "POST"
    # An htmx edit, undo or redo names the map its page shows: the answer is then what
    # changed on it (maps.remember_drawn), drawn from that one. Only for a change made: a
    # refusal or another tab's change is drawn whole.
    before = (
        recall_drawn(table.pk, request.POST.get("drawn")) if answering and status == 200 else None
    )
    context = map_context(
        _view_query(request, table) if answering else request.GET,
        spec or table.to_spec(),
        _rules(),
        table.get_absolute_url(),
        editable=True,
        edit_url=reverse("tablegen:terrain", args=[table.pk]),
        report=report,
        version=table.version,
        palette=not keep_palette,
        drawn_before=before,
    )
    context |= {
        "table": table,
        "stale": stale,
        "keep_palette": keep_palette,
        "drawn": remember_drawn(table.pk, context["drawn_map"]),
    }
    if not request.htmx:  # the share panel and the way back are outside the htmx region
        if table.sharing:
            context["share_qr"] = qr_svg(request.build_absolute_uri(table.get_share_url()))
        context["copied_from"] = _copied_from(request, table)
    response = _render_table(request, "tablegen/table.html", context, status)
    if request.htmx and request.method == "POST":
        # An edit, undo or redo answered in place: the address stays the page's (htmx would
        # push a boosted form's POST address, which answers 405 to a reload).
        push_url(response, False)
    return response


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


def _refused(request: HtmxHttpRequest, table: Table, message: str) -> HttpResponse:
    """Bad input: say why, with the table as it is; nothing changed."""
    messages.error(request, message)
    return _render_editor(request, table, status=400)


def _stale(request: HtmxHttpRequest, table: Table) -> HttpResponse:
    """Refuse the second tab's change, say why, and show the latest table."""
    table.refresh_from_db()
    messages.error(request, STALE)
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
    """What a click on a hex (or a stroke dragged across hexes) does with the brush in the
    query: paint, set a library piece down, take a piece away, or (no brush, no kind) move
    the hex on to the next kind. Every one is a new version, undone as one."""
    table = get_owned_or_404(request, Table, pk)
    sent = page_version(request.POST)
    if sent != table.version:
        return _stale(request, table)
    spec = table.to_spec()  # DamagedRecord: the page says so, with the repair
    form = TerrainForm(request.POST, _rules(), most=len(spec.board))
    if not form.is_valid():
        return _refused(request, table, form.problem())
    problem = brush_problem(request.GET, _rules(), _library()) or symmetry_problem(
        request.GET.get("sym"), spec
    )
    if problem:
        return _refused(request, table, problem)
    brush = read_brush(request.GET, _rules(), _library())
    symmetry = read_symmetry(request.GET.get("sym"), spec)
    if form.stroke and form.cycles and not brush.paints:
        return _refused(request, table, PAINT_FIRST)
    done = ""
    try:
        if not form.cycles:
            report = table.paint(form.targets, form.cleaned_data["kind"], sent, symmetry)
        elif brush.paints:
            # The palette's brush: a click or a stroke paints (the page keeps the brush).
            report = table.paint(form.targets, brush.kind, expected=sent, symmetry=symmetry)
        elif brush.piece is not None:
            piece = brush.piece
            report = table.stamp(piece.id, brush.turn, form.hex, sent, symmetry)
            done = f"{piece.name} set down at {spot(form.hex)}{_image_too(symmetry)}."
        elif brush.removes:
            report = table.remove_piece(form.hex, expected=sent, symmetry=symmetry)
            done = f"The piece on {spot(form.hex)}{_image_too(symmetry)} removed."
        else:
            report = table.cycle(form.hex, expected=sent, symmetry=symmetry)
    except EditError as error:
        if brush.piece is not None or brush.removes:
            return _refused(request, table, sentence(error))
        return _refused(request, table, "That hex is not on the table.")
    except TableDocumentError as error:
        table.refresh_from_db()
        return _refused(request, table, f"That change cannot be saved: {error}.")
    except StaleVersion:
        return _stale(request, table)
    if done:
        messages.success(request, done)
    if request.htmx:
        # Edits come from the terrain view's map or hex form, where the palette is.
        return _render_editor(request, table, report=report, keep_palette=True)
    # Without JavaScript: back to the map, the painted hex still chosen (a piece is set down
    # once: its hex is not chosen again, or the page would offer to set it down again).
    chosen = {} if done or form.stroke else {"hex": spot(form.hex)}
    query = urlencode({"mode": "terrain", **chosen, **editing(brush, symmetry)})
    return redirect(f"{table.get_absolute_url()}?{query}")


def _image_too(symmetry: str) -> str:
    return f" (and its {symmetry} image)" if symmetry else ""


@require_POST
def table_step(request: HtmxHttpRequest, pk: int, offset: int) -> HttpResponse:
    """Undo (offset -1) or redo (+1) the last change, as a new version of the table."""
    table = get_owned_or_404(request, Table, pk)
    sent = page_version(request.POST)
    if sent != table.version:
        return _stale(request, table)
    try:
        moved = table.step(offset, expected=sent)
    except StaleVersion:
        return _stale(request, table)
    except TableDocumentError as error:
        table.refresh_from_db()
        return _refused(request, table, f"That revision cannot be restored: {error}.")
    if not moved:
        return _refused(request, table, f"Nothing to {'undo' if offset < 0 else 'redo'}.")
    if request.htmx:
        return _render_editor(request, table)
    # Without JavaScript: back to the view the undo or redo was made from, with the editor's
    # settings.
    spec = table.to_spec()
    brush = read_brush(request.GET, _rules(), _library())
    settings = editing(brush, read_symmetry(request.GET.get("sym"), spec))
    view = shown_view(request.GET, spec)
    if not view and not settings:
        return redirect(table)
    query = (view or {"mode": "terrain"}) | settings
    return redirect(f"{table.get_absolute_url()}?{urlencode(query)}")


@require_POST
def table_rename(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    table = get_owned_or_404(request, Table, pk)
    sent = page_version(request.POST)
    if sent != table.version:
        return _stale(request, table)
    name = normalize_name(request.POST.get("name", ""))
    if not name:
        return _refused(request, table, "A table name has 1 to 120 characters.")
    try:
        table.rename(name, expected=sent)
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
        changes = table.repair(page_version(request.POST))
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
        table.stored_document(), safe=False, json_dumps_params={"indent": 2, "ensure_ascii": True}
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
    context = map_context(
        request.GET, table.to_spec(), _rules(), table.get_share_url(), editable=False
    )
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
    share = request.build_absolute_uri(table.get_share_url()) if table.sharing else ""
    # Made once per version of the table (and per share link, which its QR code carries, and
    # ruleset, which its verdict comes from): inside the request for a board of ordinary
    # size (a fresh one counted against the visitor's limit), by the worker for a larger one
    # (tablegen.jobs: a 40 x 40 table of 1,620 one-hex pieces takes WeasyPrint 4 to 9 s).
    try:
        if worker_prints(table.to_spec()):
            job = setup_sheet_job(request, table, share)
            return download_job_file(job) if job.has_file else redirect(job)
        key = f"table-pdf:{table.pk}:{table.version}:{current_ruleset().version}:{share}"
        pdf = printed_once(
            key, lambda: setup_sheet(table, share), on_miss=lambda: refuse_fresh_work(request)
        )
    except (JobsBusy, QuotaExceeded) as busy:
        return busy_page(request, busy)
    return download(pdf, "application/pdf", table.name, "-setup.pdf", "table")
