"""Generate a table: from parameters in the address (the address is the permalink), within
the request's second or by the worker; save it, or its best draft; or start from an empty
board."""

from __future__ import annotations

import secrets
from dataclasses import replace
from typing import Any

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.views.decorators.http import require_GET, require_POST

from accounts.ownership import QuotaExceeded
from jobs.running import JobsBusy, busy_page
from onefinity.http import HtmxHttpRequest
from onefinity.rules.hexgrid import Board, rows_by_columns
from tablegen import jobs as table_jobs
from tablegen.engine.boxfit import Advice
from tablegen.engine.generate import (
    GenerationError,
    GenerationTimeout,
    Parameters,
    draft_table,
    generate_table,
)
from tablegen.engine.metrics import TableReport, checked_table
from tablegen.engine.tables import MAX_NAME_LENGTH, TableSpec, read_table_document
from tablegen.forms import EmptyBoardForm, GenerateForm, box_choices
from tablegen.jobs import generation_job, generation_result
from tablegen.maps import map_context
from tablegen.models import Table
from tablegen.pages import board, render_table, table_library, table_rules
from tablegen.saving import kept_once


def _new_seed(request: HtmxHttpRequest) -> HttpResponse | None:
    """The form's Generate button sends "generate": a new seed each press, unless the seed is
    kept ("pin"); a permalink (no "generate") keeps its seed. The redirect to the address of
    the table to make, or None when the address is one already."""
    pressed = "generate" in request.GET
    pinned = pressed and request.GET.get("pin") and request.GET.get("seed")
    params = request.GET.copy()
    if (
        "regenerate" in request.GET
        or (pressed and not pinned)
        or ("coverage" in request.GET and not request.GET.get("seed"))
    ):
        params["seed"] = str(secrets.randbelow(2**31))
        for key in ("regenerate", "generate", "pin"):
            params.pop(key, None)
    elif pressed:  # a kept seed: the address is the permalink, without the button
        params.pop("generate", None)
    else:
        return None
    return redirect(f"{reverse('tablegen:new')}?{params.urlencode()}")


@require_GET
def table_new(request: HtmxHttpRequest) -> HttpResponse:
    """Generate from parameters in the URL: the URL itself is the permalink."""
    moved = _new_seed(request)
    if moved is not None:
        return moved
    form = GenerateForm(request.GET if "seed" in request.GET else None, boxes=box_choices(request))
    context: dict[str, Any] = {"form": form, "empty_form": EmptyBoardForm()}
    if form.is_bound and not form.is_valid():
        return render(request, "tablegen/new.html", context, status=400)
    if not form.is_bound:
        return render_table(request, "tablegen/new.html", context)
    params = form.parameters()
    context["params"] = params
    try:
        generated = _generated(request, params)
        if generated is None:  # the worker is making it: its progress, then the page again
            context["job"] = _generation_job(request, params)
            return render_table(request, "tablegen/new.html", context)
    except (JobsBusy, QuotaExceeded) as busy:
        return busy_page(request, busy)
    except GenerationError as error:
        context |= _failure(error)
        if error.draft is None:
            return render_table(request, "tablegen/new.html", context)
        # The best table it made, not valid, its problems marked on the map: the organizer
        # may keep it as a draft and finish it by hand.
        generated = error.draft
    context |= _result(request, params, *generated)
    return render_table(request, "tablegen/new.html", context)


def _failure(error: GenerationError) -> dict[str, Any]:
    """What the page says when no valid table came out: why, the advice and its pieces."""
    context: dict[str, Any] = {"error": str(error), "advice": error.advice}
    if error.advice is not None:
        pieces = table_library().pieces
        context["advice_pieces"] = [(pieces[p].name, n) for p, n in error.advice.add.items()]
    if error.draft is not None:
        context["draft"] = error.draft_attempt
    return context


def _result(
    request: HtmxHttpRequest, params: Parameters, table: TableSpec, report: TableReport
) -> dict[str, Any]:
    """The table made (or its draft) on the map, with its permalink: the generation
    parameters alone make it again."""
    base = f"{reverse('tablegen:new')}?{urlencode({'seed': params.seed, **params.as_dict()})}"
    again = {k: v for k, v in params.query().items() if k != "seed"} | {"regenerate": 1}
    return map_context(request.GET, table, table_rules(), base, editable=False, report=report) | {
        "permalink": request.build_absolute_uri(base),
        "regenerate": f"{reverse('tablegen:new')}?{urlencode(again)}",
        "hidden": params.query(),
    }


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
            return generate_table(table_rules(), params, board(), budget_seconds=budget)
        except GenerationTimeout:
            if _generation_job(request, params).active:
                return None
            kept = generation_result(request, params)  # made at once (the immediate backend)
            if kept is None:
                raise
    if "table" in kept:
        spec = read_table_document(kept["table"], table_rules())
        return spec, checked_table(spec, table_rules())
    attempt, advice = kept["draft"], kept["advice"]
    raise GenerationError(
        kept["error"],
        draft=None if attempt is None else draft_table(table_rules(), params, board(), attempt),
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
            spec, report = draft_table(table_rules(), form.parameters(), board(), int(attempt))
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
    table = Table()
    table.set_spec(spec, report)
    table = kept_once(request, table)
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
    rules = table_rules()
    rows, columns = form.cleaned_data["rows"], form.cleaned_data["columns"]
    standard = (rows, columns) == (rules.rows, rules.columns)
    board = Board.of(rows_by_columns(rows, columns), standard=standard)
    table = Table()
    table.set_spec(TableSpec(board, {}, form.cleaned_data["name"]))
    table = kept_once(request, table)
    messages.success(request, f"An empty {rows} x {columns} board: click hexes to place terrain.")
    return redirect(table)
