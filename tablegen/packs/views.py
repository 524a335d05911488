"""Tournament packs: several tables made in bounded steps (Pack.advance) while the pack's
page is open, then one stored PDF and a zip of the tables. The pack's page shows each table
(a thumbnail and its key metrics) and the pack's tolerance verdict; a table opens large, and
is edited as the owner's copy, which may take its place again if it still fits the pack."""

from __future__ import annotations

import secrets
from dataclasses import replace
from typing import Any

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.ownership import (
    DamagedRecord,
    QuotaExceeded,
    StaleVersion,
    get_owned_or_404,
    get_shared_or_404,
    owned,
    owner_fields,
)
from jobs.running import JobsBusy
from onefinity.downloads import download
from onefinity.http import HtmxHttpRequest, page_version, record_id
from onefinity.once import made_once
from onefinity.rules import current_ruleset
from onefinity.rules.text import whole_number
from tablegen.engine.generate import encode_counts
from tablegen.engine.metrics import check_table
from tablegen.engine.tables import table_document
from tablegen.forms import PackForm, box_choices
from tablegen.jobs import pack_job
from tablegen.maps import map_context
from tablegen.models import Pack, Table
from tablegen.packs.comparison import (
    TABLES_PER_PAGE,
    Neighbour,
    document_key,
    edited_name,
    fit_problems,
    pack_balance,
    terrain_to_bring,
    thumbnail,
)
from tablegen.packs.steps import summary_of
from tablegen.saving import kept_once


@require_http_methods(["GET", "POST"])
def pack_new(request: HtmxHttpRequest) -> HttpResponse:
    form = PackForm(request.POST or None, boxes=box_choices(request), initial=_again(request))
    if request.method == "POST" and form.is_valid():
        seed = form.cleaned_data["seed"]
        params = form.parameters(seed if seed is not None else secrets.randbelow(2**31))
        # A double tap (or a resend) of the form starts one pack, and its one job: both
        # answers lead to it.
        pack, made = made_once(
            request,
            owned(request, Pack),
            lambda: Pack.start(
                form.cleaned_data["name"],
                form.cleaned_data["count"],
                params,
                **owner_fields(request, Pack),
            ),
        )
        try:
            if made:
                pack_job(request, pack)
        except (JobsBusy, QuotaExceeded) as busy:
            messages.warning(request, f"{busy} The pack is made once one of them is done.")
        return redirect(pack)
    return render(
        request, "tablegen/pack_new.html", {"form": form}, status=400 if form.errors else 200
    )


def _again(request: HtmxHttpRequest) -> dict[str, Any]:
    """The settings of the owner's pack named by ?again= (a stopped one, started again), for
    the form to start with; a new seed is drawn, as for any pack without one."""
    again = request.GET.get("again", "")
    if request.method != "GET" or not (again.isascii() and again.isdigit() and len(again) < 12):
        return {}
    pack = owned(request, Pack).defer("pdf", "tables", "state").filter(pk=int(again)).first()
    if pack is None:
        return {}
    params = pack.params
    box = params.get("box")
    return {
        "name": pack.name,
        "count": pack.count,
        "coverage": params.get("coverage"),
        "symmetry": params.get("symmetry"),
        "mix": params.get("mix"),
        "box": encode_counts(box) if isinstance(box, dict) else "",
    }


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
    messages.info(request, pack.progress())
    return redirect(pack)


def _page_url(pack: Pack, page: int) -> str:
    return pack.get_absolute_url() + (f"?page={page}" if page > 1 else "")


def _tables_context(request: HtmxHttpRequest, pack: Pack, shared: bool = False) -> dict[str, Any]:
    """A page of the pack's tables (each a thumbnail, its key metrics, and its copy for
    editing, if the owner keeps one) and the pack's tolerance verdict, from the summaries the
    pack keeps: no table is checked here. ``shared``: as anyone with its link sees it."""
    pages = Paginator(range(1, pack.made + 1), TABLES_PER_PAGE)
    page = pages.get_page(request.GET.get("page"))
    copies = (
        {}
        if shared
        else {
            pk: name
            for pk, name in owned(request, Table)
            .filter(pk__in=[pack.copy_of(number) for number in page.object_list])
            .values_list("pk", "name")
        }
    )
    summaries = pack.summaries
    measured = pack.measured
    cards = []
    for number in page.object_list:
        spec = pack.table_spec(number)  # DamagedRecord: the page says so, with the repair
        copy = pack.copy_of(number)
        cards.append(
            {
                "number": number,
                "name": spec.name,
                "thumbnail": thumbnail(spec),
                "summary": summaries[number - 1] if number <= measured else None,
                "copy": (copy, copies[copy]) if copy in copies else None,
                "url": f"{reverse('tablegen:pack-table', args=[pack.pk])}?table={number}",
            }
        )
    balance = pack_balance(summaries[: pack.made]) if pack.made and measured == pack.made else []
    bring, bring_per_table = terrain_to_bring(pack.tables[: pack.made], pack.params.get("box"))
    return {
        "cards": cards,
        "page": page,
        "balance": balance,
        "balanced": all(row.within for row in balance),
        "bring": bring,
        "bring_per_table": bring_per_table,
    }


@require_GET
def pack_detail(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The pack's progress and tables. The task worker makes the pack (tablegen.jobs): the
    page only reads how far it is, so closing it stops nothing. Polled by htmx, it answers
    with the progress, and the tables too when more are made or measured."""
    pack = _pack(request, pk)
    template = "tablegen/pack.html#progress" if request.htmx else "tablegen/pack.html"
    context: dict[str, Any] = {"pack": pack}
    try:
        pack.check_name()
        if not isinstance(pack.tables, list):
            raise DamagedRecord(pack, "its tables are not a list")
        context["job"] = job = _making(request, pack)
        if job is not None and not job.active:
            pack = _pack(request, pk)  # the job ran meanwhile (the immediate backend)
            context["pack"] = pack
        # What the page polling shows ("made.measured.stopped"): its tables are sent again
        # only when that changed.
        shown = f"{pack.made}.{pack.measured}.{int(pack.stage == 'stopped')}"
        context["tables_changed"] = request.GET.get("seen", "") != shown
        if context["tables_changed"] or not request.htmx:
            context |= _tables_context(request, pack)
    except DamagedRecord as damaged:
        return render(request, template, {"pack": pack, "damaged": damaged.problem}, status=409)
    page = whole_number(request.GET.get("page", "1"), 1, 10_000) or 1
    context["poll_url"] = f"{_page_url(pack, page)}{'&' if page > 1 else '?'}seen={shown}"
    return render(request, template, context)


def _making(request: HtmxHttpRequest, pack: Pack) -> Any:
    """The job making the pack while it is not finished (queued again if none is: a pack
    from before the worker, or one whose job expired); None when there is nothing to do
    or the owner has too many jobs at once (the page says so)."""
    if pack.measured >= pack.made and (pack.pdf_ready or pack.error):
        return None
    try:
        return pack_job(request, pack)
    except (JobsBusy, QuotaExceeded) as busy:
        messages.warning(request, str(busy))
        return None


def _table_number(pack: Pack, value: object) -> int | None:
    """A table number from a form or query: None unless the pack has that table."""
    return whole_number(value, 1, pack.made)


def _no_such_table(request: HtmxHttpRequest, pack: Pack) -> HttpResponse:
    """Bad input: say so on the pack's page; nothing changed."""
    messages.error(
        request,
        f"This pack has no such table: its tables are numbered 1 to {pack.made}."
        if pack.made
        else "This pack has no tables yet: they are made while its page is open.",
    )
    return redirect(pack)


@require_GET
def pack_shared(request: HtmxHttpRequest, code: str) -> HttpResponse:
    """The pack as anyone with its share link sees it, read-only: its tables with their
    metrics, the tolerance verdict, the terrain to bring and its PDF, once it is made."""
    pack = get_shared_or_404(Pack.objects.defer("pdf"), code)
    context: dict[str, Any] = {"pack": pack, "shared": True}
    try:
        context |= _tables_context(request, pack, shared=True)
    except DamagedRecord:
        raise Http404("Not found") from None  # its owner sees it damaged, with the repair
    return render(request, "tablegen/pack.html", context)


@require_GET
def pack_shared_pdf(request: HtmxHttpRequest, code: str) -> HttpResponse:
    pack = get_shared_or_404(Pack.objects.all(), code)
    if not pack.pdf_ready or pack.pdf is None:
        messages.info(request, "The pack's PDF is not made yet: it is here once it is.")
        return redirect(pack.get_share_url())
    return download(bytes(pack.pdf), "application/pdf", pack.name, ".pdf", "pack")


@require_POST
def pack_sharing(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Turn the pack's share link on or off, or replace it."""
    pack = _pack(request, pk)
    try:
        messages.success(request, pack.set_sharing(request.POST.get("change", "")))
    except ValueError as error:
        messages.error(request, str(error))
    return redirect(pack.get_absolute_url() + "#share")


@require_GET
def pack_table(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """One table of the pack, large and read-only: its map (with the line-of-fire views of
    a shared table), its metrics, and its copy for editing, if the owner keeps one, with
    whether that copy may take its place."""
    pack = _pack(request, pk)
    number = _table_number(pack, request.GET.get("table"))
    if number is None:
        return _no_such_table(request, pack)
    rules = current_ruleset().table
    spec = pack.table_spec(number)  # DamagedRecord: the page says so, with the repair
    base = f"{reverse('tablegen:pack-table', args=[pack.pk])}?table={number}"
    context = map_context(request.GET, spec, rules, base, editable=False)
    context |= {"pack": pack, "number": number, "pack_url": _page_url(pack, _page_of(number))}
    if request.htmx:  # a view of the map: the rest of the page stays
        return render(request, "tablegen/pack_table.html#table-view", context)
    copy_pk = pack.copy_of(number)
    copy = owned(request, Table).filter(pk=copy_pk).first() if copy_pk is not None else None
    if copy is not None:
        context["copy"] = _copy_verdict(pack, number, copy)
    context |= {
        "previous": f"{reverse('tablegen:pack-table', args=[pack.pk])}?table={number - 1}"
        if number > 1
        else "",
        "next": f"{reverse('tablegen:pack-table', args=[pack.pk])}?table={number + 1}"
        if number < pack.made
        else "",
        "key": document_key(pack.tables[number - 1]),
    }
    return render(request, "tablegen/pack_table.html", context)


def _page_of(number: int) -> int:
    return (number - 1) // TABLES_PER_PAGE + 1


def _copy_verdict(pack: Pack, number: int, copy: Table) -> dict[str, Any]:
    """The owner's copy of table `number`, and why it may not take that table's place
    (nothing when it may)."""
    verdict: dict[str, Any] = {"table": copy}
    try:
        spec = copy.to_spec()
    except DamagedRecord as damaged:
        verdict["problems"] = [f"it no longer reads: {damaged.problem}"]
        return verdict
    if pack.stage in ("generating", "measuring"):
        verdict["problems"] = ["the pack is still being made: wait until all its tables are"]
        return verdict
    if table_document(spec)["terrain"] == pack.tables[number - 1].get("terrain"):
        verdict["unchanged"] = True
        return verdict
    report = check_table(spec, current_ruleset().table)
    verdict |= {"spec": spec, "report": report}
    verdict["problems"] = fit_problems(spec, report, _neighbours(pack, number))
    return verdict


def _neighbours(pack: Pack, number: int) -> list[Neighbour]:
    summaries = pack.summaries
    return [
        Neighbour(other, summaries[other - 1], pack.tables[other - 1])
        for other in range(1, pack.made + 1)
        if other != number
    ]


@require_POST
def pack_table_copy(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Copy a table of the pack into the owner's tables and open it in the editor. The pack
    keeps its own table: the copy may be put back in its place from the pack's pages."""
    pack = _pack(request, pk)
    number = _table_number(pack, request.POST.get("table"))
    if number is None:
        return _no_such_table(request, pack)
    copy = Table()
    copy.set_spec(pack.table_spec(number))
    made = kept_once(request, copy)
    if made is copy:  # a double tap (or a resend) leads to the copy the first made
        pack.remember_copy(number, copy)
    copy = made
    messages.success(
        request,
        f"Table {number} of {pack.name} is copied to your tables, and open here to edit. "
        f"The pack keeps its own table {number}: to put this copy in its place, open that "
        "table from the pack's page when you are done.",
    )
    return redirect(copy)


# A replacement lost to a step of the pack made at the same moment is tried again this often.
REPLACE_TRIES = 3


@require_POST
def pack_table_replace(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Put the owner's edited copy of a table in that table's place: only the table and the
    copy the page showed (their key and version), only when the copy is valid and within the
    pack's tolerance of every other table, and as a compare-and-swap on the pack's version.
    The pack's PDF is made again."""
    pack = _pack(request, pk)
    number = _table_number(pack, request.POST.get("table"))
    if number is None:
        return _no_such_table(request, pack)
    copy = get_owned_or_404(request, Table, _whole(request.POST.get("copy")))
    here = f"{reverse('tablegen:pack-table', args=[pack.pk])}?table={number}"
    if page_version(request.POST) != copy.version:
        messages.error(
            request,
            "Your copy was changed since this page was drawn: nothing was replaced. "
            "Look at it again below.",
        )
        return redirect(here)
    replaced, said = _replace_with_copy(request, pack, number, copy)
    if not replaced:
        messages.error(request, said)
        return redirect(here)
    messages.success(request, said)
    return redirect(pack)


def _replace_with_copy(
    request: HtmxHttpRequest, pack: Pack, number: int, copy: Table
) -> tuple[bool, str]:
    """Put ``copy`` in the place of table ``number`` if it is still the table the page showed
    (its key) and the copy may take its place, as a compare-and-swap on the pack's version,
    tried again while other changes of the pack come first: whether it was, and what to say."""
    for _ in range(REPLACE_TRIES):
        pack.table_spec(number)  # DamagedRecord: the page says so, with the repair
        if document_key(pack.tables[number - 1]) != request.POST.get("key"):
            return False, (
                f"Table {number} of the pack was changed since this page was drawn: nothing "
                "was replaced. Look at it again below."
            )
        verdict = _copy_verdict(pack, number, copy)
        if verdict.get("unchanged") or verdict.get("problems"):
            reasons = "; ".join(verdict.get("problems") or ["it is the same as the pack's"])
            return False, f"Table {number} keeps its place: your copy cannot take it: {reasons}."
        spec, report = verdict["spec"], verdict["report"]
        try:
            pack.replace_table(
                number, replace(spec, name=edited_name(pack.name, number)), summary_of(report)
            )
        except StaleVersion:
            pack = _pack(request, pack.pk)
            continue
        return True, (
            f"Your copy is now table {number} of {pack.name}. The pack's PDF is made again, below."
        )
    return False, "The pack kept moving while this was tried: nothing was replaced. Try again."


def _whole(value: object) -> int:
    """A record's id from a form: 0 (which no record has) when it is not a number."""
    return record_id(value) or 0


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
    pack.table_specs()  # a pack that no longer reads: its page, with the repair (409)
    return download(bytes(pack.pdf), "application/pdf", pack.name, ".pdf", "pack")


@require_GET
def pack_zip(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The pack's tables as stored, one JSON file each (also when they no longer read)."""
    pack = _pack(request, pk)
    if pack.made < pack.count or not isinstance(pack.tables, list):
        return _not_ready(request, pack)
    return download(pack.zip_of_tables(), "application/zip", pack.name, ".zip", "pack")
