"""Tournament packs: several tables made in bounded steps (Pack.advance) while the pack's
page is open, then one stored PDF and a zip of the tables."""

from __future__ import annotations

import secrets

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.ownership import DamagedRecord, owned, owner_fields
from onefinity.downloads import download
from onefinity.http import HtmxHttpRequest
from tablegen.box_views import box_choices
from tablegen.forms import PackForm
from tablegen.models import Pack


@require_http_methods(["GET", "POST"])
def pack_new(request: HtmxHttpRequest) -> HttpResponse:
    form = PackForm(request.POST or None, boxes=box_choices(request))
    if request.method == "POST" and form.is_valid():
        seed = form.cleaned_data["seed"]
        params = form.parameters(seed if seed is not None else secrets.randbelow(2**31))
        pack = Pack.start(
            form.cleaned_data["name"],
            form.cleaned_data["count"],
            params,
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
    messages.info(request, pack.progress())
    return redirect(pack)


@require_GET
def pack_detail(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The pack's progress; each view moves its making forward by a bounded step."""
    pack = _pack(request, pk)
    template = "tablegen/pack.html#progress" if request.htmx else "tablegen/pack.html"
    try:
        pack.advance()
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
    return download(pack.zip_of_tables(), "application/zip", pack.name, ".zip", "pack")
