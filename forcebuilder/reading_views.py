"""Lists read, printed, shared and brought in: the pages that change no list of the owner's
(a share link's pages, the roster and its downloads, the examples, the import)."""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.ownership import (
    QuotaExceeded,
    get_owned_or_404,
    get_shared_or_404,
    is_owner,
    owned,
    owner_fields,
)
from forcebuilder.forms import ImportForm
from forcebuilder.jobs import list_print_job, printout, worker_prints
from forcebuilder.models import Force
from forcebuilder.printing import roster_of, roster_text, share_url_of
from forcebuilder.sheets import force_sheet, sheet_of
from jobs.running import JobsBusy, busy_page, refuse_fresh_work
from jobs.views import download_job_file
from onefinity.downloads import attachment, download, printed_once
from onefinity.examples import ExampleForce, example_forces
from onefinity.http import HtmxHttpRequest
from onefinity.once import made_once
from onefinity.rules import force_document, library, validate_force

# --- Reading a list: by its owner, or by anyone with the share link --------------------------


def _readable(request: HtmxHttpRequest, pk: int | None, code: str | None) -> Force:
    if code is not None:
        return get_shared_or_404(Force, code)
    if pk is None:
        raise Http404("No such list")
    return get_owned_or_404(request, Force, pk)


def _roster_page(request: HtmxHttpRequest, force: Force, heading: bool) -> dict[str, Any]:
    """A page of the list's roster: the roster drawn (or kept) and the share link."""
    share_url = share_url_of(request, force)
    return {"force": force, "share_url": share_url, "roster": roster_of(force, share_url, heading)}


def _printout(request: HtmxHttpRequest, force: Force, which: str) -> HttpResponse:
    """The list's roster or cards as a PDF, once per version of it (and per share link,
    which its QR code carries): inside the request for a list of ordinary size (a fresh one
    counted against the visitor's limit), by the worker for a larger one (forcebuilder.jobs)."""
    share_url = share_url_of(request, force)
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
    context = _roster_page(request, force, heading=False)
    context["is_owner"] = is_owner(request, force)
    return render(request, "forcebuilder/shared.html", context)


@require_POST
def shared_copy(request: HtmxHttpRequest, code: str) -> HttpResponse:
    original = get_shared_or_404(Force, code)
    spec = original.to_spec()
    # A double tap (or a resend) makes one copy: both answers lead to it.
    copy, _ = made_once(
        request,
        owned(request, Force),
        lambda: Force.create_from_spec(
            spec, original.ruleset_version, original.points_limit, **owner_fields(request, Force)
        ),
    )
    messages.success(request, f"{copy.name} copied to your lists.")
    return redirect(copy)


@require_GET
def roster(
    request: HtmxHttpRequest, pk: int | None = None, code: str | None = None
) -> HttpResponse:
    force = _readable(request, pk, code)
    return render(request, "forcebuilder/roster.html", _roster_page(request, force, heading=True))


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
) -> HttpResponse:
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
    text = roster_text(sheet_of(force), share_url_of(request, force))
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
    force, _ = made_once(
        request,
        owned(request, Force),
        lambda: Force.create_from_spec(
            found.force,
            found.force.ruleset or current.version,
            found.force.points_limit or current.force_limits.points,
            **owner_fields(request, Force),
        ),
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
            force, _ = made_once(
                request,
                owned(request, Force),
                lambda: Force.create_from_spec(
                    spec, ruleset.version, points_limit, **owner_fields(request, Force)
                ),
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
