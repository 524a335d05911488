"""Everything a person owns, in one file: export, import, and deleting the account.

The file holds the same documents as the single exports (force and table documents), so
each part can also be imported on its own. Import checks the whole file before saving
anything, and saves it in one transaction: a bad file changes nothing.
"""

from __future__ import annotations

import time
from typing import Any

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from forcebuilder.models import Force
from onefinity import attempts
from onefinity.downloads import attachment
from onefinity.ownership import DamagedRecord, owned, owner_fields
from onefinity.rules import ForceDocumentError, current_ruleset, library, read_force_document
from onefinity.rules.jsontext import JsonTextError, parse_json
from tablegen.engine.tables import TableDocumentError, read_table_document, table_document
from tablegen.models import Table

ACCOUNT_FORMAT = "onefinity-account"
MAX_ACCOUNT_BYTES = 5_000_000
MAX_ITEMS = 500
# Checking a 40 x 40 table takes about a second: an import checks its tables for about this
# long and leaves the rest to the list of tables, which checks them a few at a time.
IMPORT_CHECK_SECONDS = 1.0


@require_GET
def export_everything(request: HttpRequest) -> JsonResponse:
    forces, tables, damaged = [], [], []
    for force in owned(request, Force):
        try:
            force.to_spec()
            forces.append(force.document())
        except DamagedRecord as error:
            damaged.append(_damaged("list", force.name, error.problem, force.document()))
    for table in owned(request, Table):
        try:
            tables.append(table_document(table.to_spec()))
        except DamagedRecord as error:
            damaged.append(_damaged("table", table.name, error.problem, table.document))
    document: dict[str, Any] = {
        "format": ACCOUNT_FORMAT,
        "version": 1,
        "forces": forces,
        "tables": tables,
    }
    if damaged:
        # Kept as stored, so nothing is lost; import skips them (repair them on the site).
        document["damaged"] = damaged
    response = JsonResponse(document, json_dumps_params={"indent": 2, "ensure_ascii": False})
    return attachment(response, "onefinity-everything", ".json", "everything")


def _damaged(kind: str, name: str, problem: str, stored: Any) -> dict[str, Any]:
    return {"kind": kind, "name": name, "problem": problem, "document": stored}


class AccountFileError(ValueError):
    pass


def _read(text: str) -> tuple[list[Any], list[Any]]:
    try:
        document = parse_json(text)
    except JsonTextError as error:
        raise AccountFileError(f"This file cannot be read: {error}.") from None
    if (
        not isinstance(document, dict)
        or document.get("format") != ACCOUNT_FORMAT
        or document.get("version") != 1
    ):
        raise AccountFileError(
            "This is not an export of everything from this site (format onefinity-account, version 1)."
        )
    forces, tables = document.get("forces", []), document.get("tables", [])
    if not isinstance(forces, list) or not isinstance(tables, list):
        raise AccountFileError("forces and tables must be lists.")
    if len(forces) + len(tables) > MAX_ITEMS:
        raise AccountFileError(f"At most {MAX_ITEMS} lists and tables in one file.")
    specs = []
    for i, item in enumerate(forces):
        try:
            spec = read_force_document(item)
        except ForceDocumentError as error:
            raise AccountFileError(f"forces[{i}]: {error}") from None
        if library().get(spec.ruleset) is None:
            raise AccountFileError(
                f"forces[{i}]: ruleset {spec.ruleset} is not known to this site."
            )
        specs.append(spec)
    rules = current_ruleset().table
    table_specs = []
    for i, item in enumerate(tables):
        try:
            table_specs.append(read_table_document(item, rules))
        except TableDocumentError as error:
            raise AccountFileError(f"tables[{i}]: {error}") from None
    return specs, table_specs


@require_http_methods(["GET", "POST"])
def import_everything(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        upload = request.FILES.get("file")
        try:
            if upload is None:
                raise AccountFileError("Choose the file you downloaded.")
            if upload.size > MAX_ACCOUNT_BYTES:
                raise AccountFileError(
                    f"That file is {upload.size:,} bytes; at most {MAX_ACCOUNT_BYTES:,}."
                )
            try:
                text = upload.read().decode("utf-8")
            except UnicodeDecodeError:
                raise AccountFileError("That file is not UTF-8 text.") from None
            forces, tables = _read(text)
        except AccountFileError as error:
            return render(request, "account/import.html", {"error": str(error)}, status=400)
        owner = owner_fields(request, Force, adding=len(forces))
        owner_fields(request, Table, adding=len(tables))
        current = library().current
        check_until = time.perf_counter() + IMPORT_CHECK_SECONDS
        with transaction.atomic():
            for spec in forces:
                ruleset = library().get(spec.ruleset) or current
                Force.create_from_spec(
                    spec, ruleset.version, spec.points_limit or ruleset.force_limits.points, **owner
                )
            for table_spec in tables:
                table = Table(**owner)
                table.set_spec(table_spec, check=time.perf_counter() < check_until)
                table.save()
        messages.success(request, f"Imported {len(forces)} list(s) and {len(tables)} table(s).")
        return redirect("account")
    return render(request, "account/import.html", {})


@require_GET
def account(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "account/account.html",
        {"forces": owned(request, Force).count(), "tables": owned(request, Table).count()},
    )


@login_required
@require_http_methods(["GET", "POST"])
def delete_account(request: HttpRequest) -> HttpResponse:
    """Delete the account and everything it owns (lists, tables, packs cascade)."""
    if request.method == "POST":
        name = request.user.get_username()
        guess = attempts.guess_password(request, name)
        if guess.refusal is not None:
            page = render(request, "account/delete.html", {"error": guess.refusal.message})
            return attempts.refused(page, guess.refusal)
        if not request.user.check_password(request.POST.get("password", "")):
            guess.failed()
            return render(
                request, "account/delete.html", {"error": "That is not your password."}, status=400
            )
        user = request.user
        logout(request)
        user.delete()
        attempts.forget_account(name)
        messages.success(request, "Your account and everything in it are deleted.")
        return redirect("onefinity:home")
    return render(request, "account/delete.html", {})
