from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.core.cache import cache
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.ownership import (
    DamagedRecord,
    StaleVersion,
    get_owned_or_404,
    get_shared_or_404,
    owned,
    owner_fields,
)
from forcebuilder.actions import apply_action
from forcebuilder.edits import EditError
from forcebuilder.forms import ImportForm, NewForceForm
from forcebuilder.models import Force
from forcebuilder.odds import OddsPanel
from forcebuilder.printing import qr_svg, render_pdf, roster_text
from forcebuilder.sheets import ForceSheet, force_sheet
from onefinity.downloads import attachment, download
from onefinity.http import HtmxHttpRequest
from onefinity.rules import ForceDocumentError, ForceSpec, force_document, library, validate_force
from onefinity.rules.ruleset import Ruleset, version_key
from onefinity.rules.upgrade import move_force


def _ruleset_of(force: Force) -> Ruleset:
    return library().get_or_current(force.ruleset_version)


def _sheet(force: Force, with_options: bool = False, loadout_for: str | None = None) -> ForceSheet:
    spec = force.to_spec()
    report = validate_force(spec, _ruleset_of(force))
    return force_sheet(spec, report, with_options=with_options, loadout_for=loadout_for)


def _editor_context(request: HtmxHttpRequest, force: Force) -> dict[str, Any]:
    open_path = request.POST.get("open", "")
    sheet = _sheet(force, with_options=True, loadout_for=open_path)
    current = library().current
    move = None
    if version_key(current.version) > version_key(force.ruleset_version):
        move = move_force(sheet.spec, _ruleset_of(force), current)
    return {
        "force": force,
        "edit_url": reverse("forcebuilder:edit", args=[force.pk]),
        "sheet": sheet,
        "ruleset_move": move,
        "can_undo": force.revision > 0,
        "can_redo": force.can_redo(),
        "odds": OddsPanel.from_request(request, force, sheet),
        "unit_types": list(sheet.ruleset.unit_types.values()),
        "factions": list(sheet.ruleset.factions.values()),
        # The picker the player just saved stays open after the swap.
        "open_path": open_path,
    }


def _render_editor(request: HtmxHttpRequest, force: Force, status: int = 200) -> HttpResponse:
    context = _editor_context(request, force)
    if request.htmx:
        return render(request, "forcebuilder/editor.html#editor", context, status=status)
    # The share panel (with its QR code) is outside the region htmx swaps.
    context |= _share_context(request, force)
    return render(request, "forcebuilder/editor.html", context, status=status)


# --- My lists -------------------------------------------------------------------------------


LISTS_PER_PAGE = 25
# How long a printed PDF is kept for the next download of the same version.
PRINTED_SECONDS = 60 * 60


@require_GET
def force_list(request: HtmxHttpRequest) -> HttpResponse:
    page = Paginator(owned(request, Force), LISTS_PER_PAGE).get_page(request.GET.get("page"))
    rows = []
    for force in page:
        faction = _ruleset_of(force).factions.get(force.faction)
        row: dict[str, Any] = {
            "force": force,
            "faction": faction.name if faction else force.faction,
        }
        try:
            row["report"] = validate_force(force.to_spec(), _ruleset_of(force))
        except DamagedRecord as damaged:
            # One unreadable list must not hide the others: it is listed with a repair.
            row["damaged"] = damaged.problem
        rows.append(row)
    return render(request, "forcebuilder/force_list.html", {"rows": rows, "page": page})


@require_http_methods(["GET", "POST"])
def force_new(request: HtmxHttpRequest) -> HttpResponse:
    form = NewForceForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        current = library().current
        spec = ForceSpec(
            name=form.cleaned_data["name"].strip(),
            faction=form.cleaned_data["faction"],
            ruleset=current.version,
            points_limit=form.cleaned_data["points_limit"],
        )
        force = Force.create_from_spec(
            spec,
            current.version,
            form.cleaned_data["points_limit"],
            **owner_fields(request, Force),
        )
        messages.success(request, f"{force.name} created. Add a unit to start.")
        return redirect(force)
    return render(
        request, "forcebuilder/force_new.html", {"form": form}, status=400 if form.errors else 200
    )


@require_POST
def force_duplicate(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    original = get_owned_or_404(request, Force, pk)
    copy = original.duplicate(**owner_fields(request, Force))
    messages.success(request, f"Copied as {copy.name}.")
    return redirect(copy)


@require_http_methods(["GET", "POST"])
def force_delete(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    force = get_owned_or_404(request, Force, pk)
    if request.method == "POST":
        name = force.name
        force.delete()
        messages.success(request, f"{name} deleted.")
        return redirect("forcebuilder:list")
    return render(request, "forcebuilder/force_delete.html", {"force": force})


# --- The editor -----------------------------------------------------------------------------


@require_GET
def editor(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    return _render_editor(request, get_owned_or_404(request, Force, pk))


def _sent_version(request: HtmxHttpRequest, force: Force) -> int:
    """The version of the list the editing page showed (the current one when the form sent
    none, as a script might)."""
    try:
        return int(request.POST.get("version", force.version))
    except ValueError:
        return -1


def _stale(request: HtmxHttpRequest, force: Force, error: StaleVersion) -> HttpResponse:
    """Refuse the second tab's change, say why, and offer the latest version."""
    force.refresh_from_db()
    messages.error(
        request,
        "This list was changed in another tab or window since your page was drawn. "
        "Your change was not saved: check the list below and make it again.",
    )
    if request.htmx:
        return _render_editor(request, force, status=409)
    return redirect(force)


def _refused(request: HtmxHttpRequest, force: Force, message: str) -> HttpResponse:
    """Bad input: say why; nothing changed."""
    messages.error(request, message)
    if request.htmx:
        return _render_editor(request, force, status=400)
    return redirect(force)


@require_POST
def edit(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    force = get_owned_or_404(request, Force, pk)
    sent = _sent_version(request, force)
    if sent != force.version:
        return _stale(request, force, StaleVersion(force.version, sent))
    try:
        spec = apply_action(force.to_spec(), request.POST, _ruleset_of(force))
        force.record(spec, expected=sent)
    except EditError as error:
        return _refused(request, force, str(error))
    except ForceDocumentError as error:
        # The same reader that reads the list back refused the edit: it is not saved.
        return _refused(request, force, f"That change cannot be saved: {error}.")
    except StaleVersion as error:
        return _stale(request, force, error)
    if request.htmx:
        return _render_editor(request, force)
    anchor = f"#unit-{request.POST['unit']}" if request.POST.get("unit", "").isdigit() else ""
    return redirect(force.get_absolute_url() + anchor)


def _step(request: HtmxHttpRequest, pk: int, offset: int) -> HttpResponse:
    force = get_owned_or_404(request, Force, pk)
    sent = _sent_version(request, force)
    if sent != force.version:
        return _stale(request, force, StaleVersion(force.version, sent))
    try:
        moved = force.step(offset, expected=sent)
    except StaleVersion as error:
        return _stale(request, force, error)
    if not moved:
        messages.info(request, "Nothing to undo." if offset < 0 else "Nothing to redo.")
    if request.htmx:
        return _render_editor(request, force)
    return redirect(force)


@require_GET
def loadout(request: HtmxHttpRequest, pk: int, unit: int, trooper: int) -> HttpResponse:
    """One trooper's loadout picker: fetched into the editor by htmx, or a page of its own."""
    force = get_owned_or_404(request, Force, pk)
    path = f"units[{unit}].troopers[{trooper}]"
    sheet = _sheet(force, loadout_for=path)
    try:
        unit_sheet = sheet.units[unit]
        trooper_sheet = unit_sheet.troopers[trooper]
    except IndexError:
        raise Http404("No such trooper") from None
    context = {
        "force": force,
        "sheet": sheet,
        "unit": unit_sheet,
        "trooper": trooper_sheet,
        "edit_url": reverse("forcebuilder:edit", args=[force.pk]),
        "inline": bool(request.htmx),
    }
    template = "forcebuilder/loadout.html#picker" if request.htmx else "forcebuilder/loadout.html"
    return render(request, template, context)


@require_POST
def undo(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    return _step(request, pk, -1)


@require_POST
def redo(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    return _step(request, pk, +1)


@require_POST
def move_ruleset(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    force = get_owned_or_404(request, Force, pk)
    current = library().current
    if version_key(current.version) <= version_key(force.ruleset_version):
        messages.info(request, f"This list already uses ruleset {force.ruleset_version}.")
        return redirect(force)
    move = move_force(force.to_spec(), _ruleset_of(force), current)
    try:
        force.record(move.moved, _sent_version(request, force))
    except StaleVersion as error:
        return _stale(request, force, error)
    except ForceDocumentError as error:
        return _refused(
            request, force, f"The list cannot move to ruleset {current.version}: {error}."
        )
    messages.success(request, f"Moved to ruleset {current.version}.")
    return redirect(force)


@require_POST
def sharing(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Turn the share link off or on, or replace it (every printed copy stops working)."""
    force = get_owned_or_404(request, Force, pk)
    try:
        messages.success(request, force.set_sharing(request.POST.get("change", "")))
    except ValueError as error:
        messages.error(request, str(error))
        return redirect(force)
    return redirect(force.get_absolute_url() + "#share")


@require_POST
def repair(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Mend a list saved in a form the reader no longer takes (see onefinity.rules.repair)."""
    force = get_owned_or_404(request, Force, pk)
    try:
        changes = force.repair(_sent_version(request, force))
    except StaleVersion as error:
        return _stale(request, force, error)
    if changes:
        messages.success(request, "Repaired: " + "; ".join(changes) + ". Undo takes it back.")
    else:
        messages.info(request, "This list reads as it is: nothing to repair.")
    return redirect(force)


@require_GET
def odds(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    force = get_owned_or_404(request, Force, pk)
    if request.htmx:
        sheet = _sheet(force)
        panel = OddsPanel.from_request(request, force, sheet)
        # Changing the exchange redraws the whole panel (its situations differ); a submit
        # redraws only the result, keeping the form and its focus.
        region = "odds-panel" if request.htmx.target == "odds-panel" else "odds"
        return render(
            request,
            f"forcebuilder/editor.html#{region}",
            {"force": force, "odds": panel, "sheet": sheet},
        )
    return _render_editor(request, force)


# --- Reading a list: by its owner, or by anyone with the share link --------------------------


def _readable(request: HtmxHttpRequest, pk: int | None, code: str | None) -> Force:
    if code is not None:
        return get_shared_or_404(Force, code)
    if pk is None:
        raise Http404("No such list")
    return get_owned_or_404(request, Force, pk)


def _share_context(request: HtmxHttpRequest, force: Force) -> dict[str, str]:
    """The share link and its QR code, while the list is shared (a printout of a list whose
    sharing is off carries no dead link)."""
    if not force.sharing:
        return {"share_url": "", "qr": ""}
    share_url = request.build_absolute_uri(force.get_share_url())
    return {"share_url": share_url, "qr": qr_svg(share_url)}


def _roster_context(request: HtmxHttpRequest, force: Force) -> dict[str, Any]:
    return {"force": force, "sheet": _sheet(force)} | _share_context(request, force)


def _printed(request: HtmxHttpRequest, force: Force, template: str) -> bytes:
    """A PDF of the list, rendered once per version of it (and per share link, which its
    QR code carries): a sheet of thirty trooper cards takes seconds to lay out."""
    share_url = request.build_absolute_uri(force.get_share_url()) if force.sharing else ""
    key = f"pdf:{template}:{force.pk}:{force.version}:{share_url}"
    pdf: bytes | None = cache.get(key)
    if pdf is None:
        pdf = render_pdf(template, _roster_context(request, force) | {"pdf": True}, request)
        cache.set(key, pdf, PRINTED_SECONDS)
    return pdf


@require_GET
def shared(request: HtmxHttpRequest, code: str) -> HttpResponse:
    force = get_shared_or_404(Force, code)
    context = _roster_context(request, force)
    context["is_owner"] = owned(request, Force).filter(pk=force.pk).exists()
    return render(request, "forcebuilder/shared.html", context)


@require_POST
def shared_copy(request: HtmxHttpRequest, code: str) -> HttpResponse:
    original = get_shared_or_404(Force, code)
    copy = Force.create_from_spec(
        original.to_spec(),
        original.ruleset_version,
        original.points_limit,
        **owner_fields(request, Force),
    )
    messages.success(request, f"{copy.name} copied to your lists.")
    return redirect(copy)


@require_GET
def roster(
    request: HtmxHttpRequest, pk: int | None = None, code: str | None = None
) -> HttpResponse:
    force = _readable(request, pk, code)
    return render(request, "forcebuilder/roster.html", _roster_context(request, force))


@require_GET
def roster_pdf(
    request: HtmxHttpRequest, pk: int | None = None, code: str | None = None
) -> HttpResponse:
    force = _readable(request, pk, code)
    pdf = _printed(request, force, "forcebuilder/roster.html")
    return download(pdf, "application/pdf", force.name, "-roster.pdf", "force")


@require_GET
def cards_pdf(
    request: HtmxHttpRequest, pk: int | None = None, code: str | None = None
) -> HttpResponse:
    force = _readable(request, pk, code)
    pdf = _printed(request, force, "forcebuilder/cards.html")
    return download(pdf, "application/pdf", force.name, "-cards.pdf", "force")


@require_GET
def export_json(
    request: HtmxHttpRequest, pk: int | None = None, code: str | None = None
) -> JsonResponse:
    force = _readable(request, pk, code)
    response = JsonResponse(
        force.document(), json_dumps_params={"indent": 2, "ensure_ascii": False}
    )
    return attachment(response, force.name, ".json", "force")


@require_GET
def export_text(
    request: HtmxHttpRequest, pk: int | None = None, code: str | None = None
) -> HttpResponse:
    force = _readable(request, pk, code)
    text = roster_text(_sheet(force), _share_context(request, force)["share_url"])
    return HttpResponse(text, content_type="text/plain; charset=utf-8")


# --- Import ---------------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def force_import(request: HtmxHttpRequest) -> HttpResponse:
    """Paste or upload a document; it is validated and shown, and saved only on confirm."""
    form = ImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        spec = form.spec
        ruleset = library().get_or_current(spec.ruleset)
        if request.POST.get("confirm") == "save":
            points_limit = spec.points_limit or ruleset.force_limits.points
            force = Force.create_from_spec(
                spec, ruleset.version, points_limit, **owner_fields(request, Force)
            )
            messages.success(request, f"{force.name} imported.")
            return redirect(force)
        preview = force_sheet(spec, validate_force(spec, ruleset))
        canonical = json.dumps(force_document(spec), ensure_ascii=False)
        return render(
            request,
            "forcebuilder/import.html",
            {"form": form, "preview": preview, "canonical": canonical},
        )
    status = 400 if form.errors else 200
    return render(request, "forcebuilder/import.html", {"form": form}, status=status)
