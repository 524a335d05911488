from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.ownership import (
    DamagedRecord,
    StaleVersion,
    get_owned_or_404,
    owned,
    owner_fields,
)
from forcebuilder.actions import find_trooper, find_unit, trooper_key, unit_key
from forcebuilder.destinations import destinations
from forcebuilder.editing import edit_list
from forcebuilder.edits import EditError
from forcebuilder.forms import NewForceForm
from forcebuilder.models import Force
from forcebuilder.odds import OddsPanel
from forcebuilder.printing import share_context
from forcebuilder.problems import problems
from forcebuilder.sheets import sheet_of
from onefinity.http import HtmxHttpRequest, page_version, stale_words
from onefinity.once import made_once
from onefinity.rules import (
    ForceDocumentError,
    ForceSpec,
    library,
    validate_force,
)
from onefinity.rules.ruleset import Ruleset, version_key
from onefinity.rules.upgrade import move_force
from onefinity.rules.validation import Report
from onefinity.wording import problem_in_words


def _ruleset_of(force: Force) -> Ruleset:
    return force.ruleset()


# At most this many trooper rows are drawn open (each with its class menu and picker).
MAX_OPEN = 12


def _sent(request: HtmxHttpRequest) -> QueryDict:
    return request.POST if request.method == "POST" else request.GET


def _open_keys(request: HtmxHttpRequest) -> list[str]:
    """The troopers whose rows the page had open (htmx sends them with every change)."""
    return [key for key in _sent(request).getlist("open")[:MAX_OPEN] if len(key) <= 40]


def _editor_context(
    request: HtmxHttpRequest,
    force: Force,
    focus: str = "",
    odds_open: bool = False,
    checked: tuple[ForceSpec, Report] | None = None,
) -> dict[str, Any]:
    open_keys = _open_keys(request)
    sheet = sheet_of(force, with_options=True, open_keys=open_keys, checked=checked)
    odds = OddsPanel.from_request(request, force, sheet, _sent(request))
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
    # The share panel (with its QR code) is outside the region htmx swaps, and so is the
    # way back to the events whose entry takes this list (read once, not on every change).
    context |= share_context(request, force)
    context["destinations"] = destinations(request, force)
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
        # A double tap (or a resend) of this form makes one list: both answers lead to it.
        force, _ = made_once(
            request,
            owned(request, Force),
            lambda: Force.create_from_spec(
                spec,
                current.version,
                form.cleaned_data["points_limit"],
                **owner_fields(request, Force),
            ),
        )
        messages.success(request, f"{force.name} created.")
        return redirect(force)
    return render(
        request, "forcebuilder/force_new.html", {"form": form}, status=400 if form.errors else 200
    )


@require_POST
def force_duplicate(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    original = get_owned_or_404(request, Force, pk)
    # A double tap (or a resend) makes one copy: both answers lead to it.
    copy, _ = made_once(
        request, owned(request, Force), lambda: original.duplicate(**owner_fields(request, Force))
    )
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
    sheet = sheet_of(force, open_keys=[trooper_key(spec, u, t)])
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
    sheet = sheet_of(force, open_keys=[unit_key(spec, index)])
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
        sheet = sheet_of(force)
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
