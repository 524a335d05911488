"""Terrain boxes: what an organizer owns, kept like tables (for this browser, or with the
account after signing in) with plain forms that work without JavaScript."""

from __future__ import annotations

import json

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from accounts.ownership import get_owned_or_404, owned, owner_fields
from onefinity.downloads import download
from onefinity.http import HtmxHttpRequest
from onefinity.once import made_once
from tablegen.engine.boxes import Box, box_document
from tablegen.engine.render import piece_svg
from tablegen.forms import BoxForm, BoxImportForm
from tablegen.models import TerrainBox


def _pictures(form: BoxForm) -> dict[str, str]:
    return {piece.id: piece_svg(piece) for piece in form.library.pieces.values()}


@require_GET
def box_list(request: HtmxHttpRequest) -> HttpResponse:
    """My terrain boxes (a visitor without an account is told they are kept for this browser
    and offered sign-up)."""
    boxes = list(owned(request, TerrainBox))
    return render(request, "tablegen/boxes.html", {"boxes": boxes, "import_form": BoxImportForm()})


@require_http_methods(["GET", "POST"])
def box_new(request: HtmxHttpRequest) -> HttpResponse:
    form = BoxForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        box = _box_once(request, form.box())
        messages.success(request, f"{box.name} saved: {form.box().total} pieces.")
        return redirect("tablegen:boxes")
    status = 400 if form.errors else 200
    context = {"form": form, "pictures": _pictures(form)}
    return render(request, "tablegen/box.html", context, status=status)


def _box_once(request: HtmxHttpRequest, spec: Box) -> TerrainBox:
    """The box saved as the requester's: once, however often its form was sent (a double
    tap, a resend), both answers leading to it (onefinity.once)."""

    def save() -> TerrainBox:
        box = TerrainBox(**owner_fields(request, TerrainBox))
        box.set_box(spec)
        box.save()
        return box

    return made_once(request, owned(request, TerrainBox), save)[0]


@require_http_methods(["GET", "POST"])
def box_edit(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    box = get_owned_or_404(request, TerrainBox, pk)
    if request.method == "POST":
        form = BoxForm(request.POST)
        if form.is_valid():
            box.set_box(form.box())
            box.save()
            messages.success(request, f"{box.name} saved: {form.box().total} pieces.")
            return redirect("tablegen:boxes")
    else:
        spec = box.to_box()
        initial = {"name": spec.name} | {f"count-{k}": v for k, v in spec.pieces.items()}
        form = BoxForm(initial=initial)
    context = {"form": form, "box": box, "pictures": _pictures(form)}
    return render(request, "tablegen/box.html", context, status=400 if form.errors else 200)


@require_http_methods(["POST"])
def box_import(request: HtmxHttpRequest) -> HttpResponse:
    form = BoxImportForm(request.POST, request.FILES)
    if not form.is_valid():
        boxes = list(owned(request, TerrainBox))
        context = {"boxes": boxes, "import_form": form}
        return render(request, "tablegen/boxes.html", context, status=400)
    box = _box_once(request, form.cleaned_data["box"])
    messages.success(request, f"{box.name} imported: {form.cleaned_data['box'].total} pieces.")
    return redirect(box)


@require_GET
def box_json(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    box = get_owned_or_404(request, TerrainBox, pk)
    text = json.dumps(box_document(box.to_box()), indent=2)
    return download(text, "application/json", box.name, "-box.json", "terrain-box")


@require_http_methods(["GET", "POST"])
def box_delete(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    box = get_owned_or_404(request, TerrainBox, pk)
    if request.method == "POST":
        box.delete()
        messages.success(request, f"{box.name} deleted.")
        return redirect("tablegen:boxes")
    return render(request, "tablegen/box_delete.html", {"box": box})
