from __future__ import annotations

import json
from collections.abc import Collection
from typing import Any

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse, JsonResponse, QueryDict
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
from forcebuilder.actions import find_trooper, find_unit, trooper_key, unit_key
from forcebuilder.editing import edit_list
from forcebuilder.edits import EditError
from forcebuilder.forms import ImportForm, NewForceForm
from forcebuilder.jobs import list_print_job, printout, worker_prints
from forcebuilder.models import Force
from forcebuilder.odds import OddsPanel
from forcebuilder.printing import qr_svg, roster_text
from forcebuilder.problems import problems
from forcebuilder.sheets import ForceSheet, force_sheet
from jobs.running import JobsBusy, busy_page, refuse_fresh_work
from jobs.views import download_job_file
from onefinity.downloads import attachment, download, printed_once
from onefinity.examples import ExampleForce, example_forces
from onefinity.http import HtmxHttpRequest, page_version, stale_words
from onefinity.rules import (
    ForceDocumentError,
    ForceSpec,
    force_document,
    library,
    validate_force,
)
from onefinity.rules.ruleset import Ruleset, version_key
from onefinity.rules.upgrade import move_force
from onefinity.rules.validation import Report
from onefinity.wording import problem_in_words


def _ruleset_of(force: Force) -> Ruleset:
    return force.ruleset()


def _sheet(
    force: Force,
    with_options: bool = False,
    loadout_for: str | None = None,
    open_keys: Collection[str] = (),
    checked: tuple[ForceSpec, Report] | None = None,
) -> ForceSheet:
    """The list's sheet, from the list and verdict an edit made (``checked``) or as stored."""
    spec, report = checked or force.checked()
    return force_sheet(
        spec, report, with_options=with_options, loadout_for=loadout_for, open_keys=open_keys
    )


# At most this many trooper rows are drawn open (each with its class menu and picker).
MAX_OPEN = 12


def _data(request: HtmxHttpRequest) -> QueryDict:
    return request.POST if request.method == "POST" else request.GET


def _open_keys(request: HtmxHttpRequest) -> list[str]:
    """The troopers whose rows the page had open (htmx sends them with every change)."""
    return [key for key in _data(request).getlist("open")[:MAX_OPEN] if len(key) <= 40]


def _editor_context(
    request: HtmxHttpRequest,
    force: Force,
    focus: str = "",
    odds_open: bool = False,
    checked: tuple[ForceSpec, Report] | None = None,
) -> dict[str, Any]:
    open_keys = _open_keys(request)
    sheet = _sheet(force, with_options=True, open_keys=open_keys, checked=checked)
    odds = OddsPanel.from_request(request, force, sheet, _data(request))
    current = library().current
    move = None
    if version_key(current.version) > version_key(force.ruleset_version):
        move = move_force(sheet.spec, _ruleset_of(force), current)
    return {
        "force": force,
        "edit_url": reverse("forcebuilder:edit", args=[force.pk]),
        # The addresses of each trooper's and unit's own page, less the key (one reverse()
        # each, not one per row).
        "trooper_base": reverse("forcebuilder:trooper", args=[force.pk, "-"])[:-2],
        "unit_base": reverse("forcebuilder:unit", args=[force.pk, "-"])[:-2],
        "sheet": sheet,
        "problems": problems(sheet),
        "ruleset_move": move,
        "history": force.history(),
        # The odds panel keeps its question across changes (htmx sends it along). Closed,
        # it is not drawn: its targets are the owner's other lists, read and checked.
        "odds": odds,
        "odds_open": odds_open or odds.asked or "odds" in open_keys,
        "factions": list(sheet.ruleset.factions.values()),
        "focus": focus,
        # The trooper whose loadout is open beside the list (the page sends its key along).
        "panel": sheet.open_trooper(),
    }


def _render_editor(
    request: HtmxHttpRequest,
    force: Force,
    status: int = 200,
    focus: str = "",
    odds_open: bool = False,
    checked: tuple[ForceSpec, Report] | None = None,
) -> HttpResponse:
    context = _editor_context(request, force, focus, odds_open, checked)
    if request.htmx:
        return render(request, "forcebuilder/editor.html#editor", context, status=status)
    # The share panel (with its QR code) is outside the region htmx swaps.
    context |= _share_context(request, force)
    return render(request, "forcebuilder/editor.html", context, status=status)


# --- My lists -------------------------------------------------------------------------------


LISTS_PER_PAGE = 25


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
        messages.success(request, f"{force.name} created.")
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


def _stale(request: HtmxHttpRequest, force: Force, error: StaleVersion) -> HttpResponse:
    """Refuse the second tab's change, say why, and offer the latest version."""
    force.refresh_from_db()
    messages.error(request, stale_words("This list"))
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
    try:
        edited = edit_list(force, request.POST, page_version(request.POST))
    except EditError as error:
        return _refused(request, force, str(error))
    except ForceDocumentError as error:
        # The same reader that reads the list back refused the edit: it is not saved.
        return _refused(request, force, f"That change cannot be saved: {problem_in_words(error)}.")
    except StaleVersion as error:
        return _stale(request, force, error)
    if request.htmx:
        checked = (edited.spec, edited.report)
        return _render_editor(request, force, focus=edited.focus, checked=checked)
    kind, _, key = edited.concerns.partition("-")
    if request.POST.get("next") == "trooper" and kind == "trooper":
        return redirect("forcebuilder:trooper", force.pk, key)
    if request.POST.get("next") == "unit" and kind == "unit":
        return redirect("forcebuilder:unit", force.pk, key)
    query = f"?open={key}" if kind == "trooper" and request.POST.get("next") else ""
    return redirect(force.get_absolute_url() + query + (f"#{edited.concerns}" if kind else ""))


def _step(request: HtmxHttpRequest, pk: int, offset: int) -> HttpResponse:
    force = get_owned_or_404(request, Force, pk)
    sent = page_version(request.POST)
    if sent != force.version:
        return _stale(request, force, StaleVersion(force.version, sent))
    try:
        stepped = force.step(offset, expected=sent)
    except StaleVersion as error:
        return _stale(request, force, error)
    if stepped is None:
        messages.info(request, "Nothing to undo." if offset < 0 else "Nothing to redo.")
    else:
        messages.success(request, f"{'Undone' if offset < 0 else 'Redone'}: {stepped}.")
    if request.htmx:
        return _render_editor(request, force)
    return redirect(force)


def _trooper_page(request: HtmxHttpRequest, force: Force, key: str) -> HttpResponse:
    """One trooper's loadout: class, name, stat line and loadout picker. The editor fetches
    it into its panel when the trooper's row is tapped; without JavaScript it is a page of
    its own."""
    spec = force.to_spec()
    try:
        u, t = find_trooper(spec, key)  # its id, or its position key (t.0.1)
    except EditError:
        raise Http404("No such trooper") from None
    sheet = _sheet(force, open_keys=[trooper_key(spec, u, t)])
    problems(sheet)
    unit, trooper = sheet.units[u], sheet.units[u].troopers[t]
    context = {
        "force": force,
        "sheet": sheet,
        "unit": unit,
        "trooper": trooper,
        "edit_url": reverse("forcebuilder:edit", args=[force.pk]),
        "inline": bool(request.htmx),
    }
    if request.htmx:
        return render(request, "forcebuilder/loadout_panel.html", context)
    return render(request, "forcebuilder/loadout.html", context)


@require_GET
def trooper(request: HtmxHttpRequest, pk: int, key: str) -> HttpResponse:
    return _trooper_page(request, get_owned_or_404(request, Force, pk), key)


def _unit_page(request: HtmxHttpRequest, force: Force, key: str) -> HttpResponse:
    """One unit's options (name, unit skills, duplicate, remove): fetched into the editor
    when its menu opens; without JavaScript a page of its own."""
    spec = force.to_spec()
    try:
        index = find_unit(spec, key)  # its id, or its position key (u.0)
    except EditError:
        raise Http404("No such unit") from None
    sheet = _sheet(force, open_keys=[unit_key(spec, index)])
    problems(sheet)
    unit = sheet.units[index]
    context = {
        "force": force,
        "sheet": sheet,
        "unit": unit,
        "edit_url": reverse("forcebuilder:edit", args=[force.pk]),
        "inline": bool(request.htmx),
    }
    template = "forcebuilder/unit_options.html" if request.htmx else "forcebuilder/unit.html"
    return render(request, template, context)


@require_GET
def unit(request: HtmxHttpRequest, pk: int, key: str) -> HttpResponse:
    return _unit_page(request, get_owned_or_404(request, Force, pk), key)


@require_GET
def loadout(request: HtmxHttpRequest, pk: int, unit: int, trooper: int) -> HttpResponse:
    """The trooper page by position (the address before troopers had ids)."""
    force = get_owned_or_404(request, Force, pk)
    spec = force.to_spec()
    if not (0 <= unit < len(spec.units) and 0 <= trooper < len(spec.units[unit].troopers)):
        raise Http404("No such trooper")
    return _trooper_page(request, force, trooper_key(spec, unit, trooper))


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
        force.record(move.moved, page_version(request.POST))
    except StaleVersion as error:
        return _stale(request, force, error)
    except ForceDocumentError as error:
        return _refused(
            request,
            force,
            f"The list cannot move to ruleset {current.version}: {problem_in_words(error)}.",
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
        changes = force.repair(page_version(request.POST))
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
            {"force": force, "odds": panel, "sheet": sheet, "odds_open": True},
        )
    return _render_editor(request, force, odds_open=True)


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


def _printout(request: HtmxHttpRequest, force: Force, which: str) -> HttpResponse:
    """The list's roster or cards as a PDF, once per version of it (and per share link,
    which its QR code carries): inside the request for a list of ordinary size (a fresh one
    counted against the visitor's limit), by the worker for a larger one (forcebuilder.jobs)."""
    share_url = request.build_absolute_uri(force.get_share_url()) if force.sharing else ""
    try:
        if worker_prints(force.to_spec()):
            job = list_print_job(request, force, which, share_url)
            return download_job_file(job) if job.has_file else redirect(job)
        pdf = printed_once(
            f"pdf:{which}:{force.pk}:{force.version}:{share_url}",
            lambda: printout(force, which, share_url),
            on_miss=lambda: refuse_fresh_work(request),
        )
    except (JobsBusy, QuotaExceeded) as busy:
        return busy_page(request, busy)
    return download(pdf, "application/pdf", force.name, f"-{which}.pdf", "force")


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
    return _printout(request, _readable(request, pk, code), "roster")


@require_GET
def cards_pdf(
    request: HtmxHttpRequest, pk: int | None = None, code: str | None = None
) -> HttpResponse:
    return _printout(request, _readable(request, pk, code), "cards")


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


# --- The example lists of the home page ----------------------------------------------------


def _example_or_404(slug: str) -> ExampleForce:
    found = next((e for e in example_forces() if e.slug == slug), None)
    if found is None:
        raise Http404("No such example")
    return found


@require_GET
def example(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """An example list, read-only, with a button to copy it to my lists."""
    found = _example_or_404(slug)
    ruleset = library().get_or_current(found.force.ruleset)
    sheet = force_sheet(found.force, validate_force(found.force, ruleset))
    return render(
        request,
        "forcebuilder/example.html",
        {"example": found, "sheet": sheet, "share_url": "", "qr": "", "force": None},
    )


@require_POST
def example_copy(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    found = _example_or_404(slug)
    current = library().current
    force = Force.create_from_spec(
        found.force,
        found.force.ruleset or current.version,
        found.force.points_limit or current.force_limits.points,
        **owner_fields(request, Force),
    )
    messages.success(request, f"{force.name} copied to your lists: change anything you like.")
    return redirect(force)


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
