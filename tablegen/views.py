"""The table generator's pages: thin views over the models, the engine and tablegen.maps."""

from __future__ import annotations

import time

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.http import urlencode
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.ownership import (
    DamagedRecord,
    QuotaExceeded,
    StaleVersion,
    get_owned_or_404,
    get_shared_or_404,
    owned,
)
from jobs.running import JobsBusy, busy_page, refuse_fresh_work
from jobs.views import download_job_file
from onefinity.downloads import attachment, download, printed_once
from onefinity.http import HtmxHttpRequest, page_version
from onefinity.rules import current_ruleset
from onefinity.rules.text import normalize_name
from tablegen import pages
from tablegen.editing import Refused, edit_terrain, read_settings
from tablegen.engine.metrics import check_table, checked_table
from tablegen.engine.render import png
from tablegen.engine.tables import TableDocumentError, table_document
from tablegen.jobs import setup_sheet, setup_sheet_job, worker_prints
from tablegen.maps import editing, map_context, shown_view, spot
from tablegen.models import Pack, Table
from tablegen.pages import refused, render_table, stale, table_rules
from tablegen.saving import kept_once

TABLES_PER_PAGE = 25
PACKS_PER_PAGE = 25
# Tables saved without a summary (a large import) or under another ruleset are checked by
# the list, for at most about this long per request; the rest show as being checked.
LIST_CHECK_SECONDS = 0.5


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
            table.store_summary(check_table(spec, table_rules()))
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


@require_GET
def table_detail(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    table = get_owned_or_404(request, Table, pk)
    spec = table.to_spec()
    report = checked_table(spec, table_rules())
    table.store_summary(report)  # made anyway: keeps the list right after a ruleset change
    return pages.render_editor(request, table, spec, report)


@require_POST
def table_terrain(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """A click on a hex or a stroke across hexes, with the brush in the query
    (tablegen.editing.edit_terrain)."""
    table = get_owned_or_404(request, Table, pk)
    try:
        edit = edit_terrain(table, request.POST, request.GET, page_version(request.POST))
    except Refused as refusal:
        return refused(request, table, str(refusal))
    except StaleVersion:
        return stale(request, table)
    if edit.done:
        messages.success(request, edit.done)
    brush, symmetry = edit.settings.brush, edit.settings.symmetry
    if request.htmx:
        # Edits come from the terrain view's map or hex form, where the palette is.
        return pages.render_editor(
            request, table, report=edit.report, keep_palette=True, settings=(brush, symmetry)
        )
    # Without JavaScript: back to the map, the painted hex still chosen (a piece is set down
    # once: its hex is not chosen again, or the page would offer to set it down again).
    chosen = {} if edit.done or edit.hex is None else {"hex": spot(edit.hex)}
    query = urlencode({"mode": "terrain", **chosen, **editing(brush, symmetry)})
    return redirect(f"{table.get_absolute_url()}?{query}")


@require_POST
def table_step(request: HtmxHttpRequest, pk: int, offset: int) -> HttpResponse:
    """Undo (offset -1) or redo (+1) the last change, as a new version of the table."""
    table = get_owned_or_404(request, Table, pk)
    sent = page_version(request.POST)
    if sent != table.version:
        return stale(request, table)
    try:
        moved = table.step(offset, expected=sent)
    except StaleVersion:
        return stale(request, table)
    except TableDocumentError as error:
        table.refresh_from_db()
        return refused(request, table, f"That revision cannot be restored: {error}.")
    if not moved:
        return refused(request, table, f"Nothing to {'undo' if offset < 0 else 'redo'}.")
    if request.htmx:
        return pages.render_editor(request, table)
    # Without JavaScript: back to the view the undo or redo was made from, with the editor's
    # settings.
    spec = table.to_spec()
    found = read_settings(request.GET, spec)
    settings = editing(found.brush, found.symmetry)
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
        return stale(request, table)
    name = normalize_name(request.POST.get("name", ""))
    if not name:
        return refused(request, table, "A table name has 1 to 120 characters.")
    try:
        table.rename(name, expected=sent)
    except TableDocumentError as error:
        table.refresh_from_db()
        return refused(request, table, f"The name {error.problem}.")
    except StaleVersion:
        return stale(request, table)
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
        return stale(request, table)
    if changes:
        messages.success(request, "Repaired: " + "; ".join(changes) + ".")
    else:
        messages.info(request, "This table reads as it is: nothing to repair.")
    return redirect(table)


@require_GET
def table_stored(request: HtmxHttpRequest, pk: int) -> HttpResponse:
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
        request.GET, table.to_spec(), table_rules(), table.get_share_url(), editable=False
    )
    return render_table(request, "tablegen/shared.html", context | {"table": table})


@require_POST
def table_copy(request: HtmxHttpRequest, code: str) -> HttpResponse:
    original = get_shared_or_404(Table, code)
    copy = Table()
    copy.set_spec(original.to_spec())
    copy = kept_once(request, copy)
    messages.success(request, f"{copy.name} copied to your tables.")
    return redirect(copy)


@require_GET
def table_json(
    request: HtmxHttpRequest, pk: int | None = None, code: str | None = None
) -> HttpResponse:
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
