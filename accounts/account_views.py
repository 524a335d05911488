"""Everything a person owns, in one file: the account page, export, import, and deleting the
account.

The file holds the same documents as the single exports (force and table documents), so
each part can also be imported on its own. Import checks the whole file before saving
anything, and saves it in one transaction: a bad file changes nothing. What each part
holds comes from the feature apps (accounts.part_registry).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from accounts import attempts
from accounts.ownership import log_out
from accounts.part_registry import (
    ACCOUNT_FORMAT,
    ACCOUNT_VERSION,
    AccountFileError,
    AccountPart,
    Damaged,
    account_parts,
)
from onefinity.fastjson import dumps_indented
from onefinity.rules.jsontext import JsonTextError, parse_json

MAX_ACCOUNT_BYTES = 5_000_000
# Records of every kind together in one file.
MAX_ITEMS = 500


@require_GET
def account(request: HttpRequest) -> HttpResponse:
    counts = [(part.label, part.count(request)) for part in account_parts()]
    return render(request, "account/account.html", {"counts": counts})


def everything_document(
    request: HttpRequest, progress: Callable[[int, int], None] | None = None
) -> Iterator[bytes]:
    """Everything the person asking owns, as the export file (JSON, indented), written a
    record at a time as it is read: the task worker (jobs.exports) keeps it a part at a
    time, so no process holds a large account's export whole. ``progress(done, total)`` is
    told after each part of the account."""
    yield b'{\n  "format": ' + dumps_indented(ACCOUNT_FORMAT)
    yield b',\n  "version": ' + dumps_indented(ACCOUNT_VERSION)
    damaged: list[Damaged] = []
    parts = account_parts()
    for done, part in enumerate(parts):
        records, unreadable = part.export(request)
        yield b",\n  " + dumps_indented(part.key) + b": "
        if isinstance(records, list | dict):
            yield _indented(dumps_indented(records), 2)
        else:
            yield from _list(records)
        # Filled while the records were read.
        damaged += unreadable
        if progress is not None:
            progress(done + 1, len(parts))
    if damaged:
        # Kept as stored, so nothing is lost; import skips them (repair them on the site).
        yield b',\n  "damaged": ' + _indented(
            dumps_indented([record.as_dict() for record in damaged]), 2
        )
    yield b"\n}"


def _list(records: Iterable[Any]) -> Iterator[bytes]:
    """A JSON list written a record at a time, as json.dumps(indent=2) writes it at the
    second level."""
    empty = True
    for record in records:
        yield (b"[" if empty else b",") + b"\n    " + _indented(dumps_indented(record), 4)
        empty = False
    yield b"[]" if empty else b"\n  ]"


def _indented(text: bytes, spaces: int) -> bytes:
    # Inside JSON text a line break is always the layout's (strings escape theirs).
    return text.replace(b"\n", b"\n" + b" " * spaces)


def _importable() -> list[AccountPart]:
    return [part for part in account_parts() if part.read is not None]


def _read(text: str) -> list[tuple[AccountPart, list[Any]]]:
    """Every importable part of the file, read; AccountFileError at the first problem."""
    try:
        document = parse_json(text)
    except JsonTextError as error:
        raise AccountFileError(f"This file cannot be read: {error}.") from None
    if (
        not isinstance(document, dict)
        or document.get("format") != ACCOUNT_FORMAT
        or document.get("version") != ACCOUNT_VERSION
    ):
        raise AccountFileError(
            "This is not an export of everything from this site (format onefinity-account, version 1)."
        )
    parts = _importable()
    items = {part.key: document.get(part.key, []) for part in parts}
    if not all(isinstance(value, list) for value in items.values()):
        raise AccountFileError(f"{' and '.join(items)} must be lists.")
    if sum(len(value) for value in items.values()) > MAX_ITEMS:
        raise AccountFileError(f"At most {MAX_ITEMS} records in one file.")
    return [(part, part.read(items[part.key])) for part in parts if part.read is not None]


@require_http_methods(["GET", "POST"])
def import_everything(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        upload = request.FILES.get("file")
        try:
            if upload is None:
                raise AccountFileError("Choose the file you downloaded.")
            if (upload.size or 0) > MAX_ACCOUNT_BYTES:
                raise AccountFileError(
                    f"That file is {upload.size:,} bytes; at most {MAX_ACCOUNT_BYTES:,}."
                )
            try:
                text = upload.read().decode("utf-8")
            except UnicodeDecodeError:
                raise AccountFileError("That file is not UTF-8 text.") from None
            parts = _read(text)
        except AccountFileError as error:
            return render(request, "account/import.html", {"error": str(error)}, status=400)
        # One transaction: a quota passed by a later part undoes the earlier ones too.
        with transaction.atomic():
            for part, records in parts:
                if part.save is not None:
                    part.save(request, records)
        imported = ", ".join(f"{len(records)} {part.label}" for part, records in parts)
        messages.success(request, f"Imported {imported}.")
        return redirect("account")
    return render(request, "account/import.html", {})


@login_required
@require_http_methods(["GET", "POST"])
def delete_account(request: HttpRequest) -> HttpResponse:
    """Delete the account and everything it owns, after saying what that deletes."""
    user = request.user
    consequences = [
        line for part in account_parts() if part.deletion for line in part.deletion(user)
    ]
    if request.method == "POST":
        name = user.get_username()
        guess = attempts.guess_password(request, name)
        context = {"consequences": consequences}
        if guess.refusal is not None:
            page = render(
                request, "account/delete.html", context | {"error": guess.refusal.message}
            )
            return attempts.refused(page, guess.refusal)
        if not user.check_password(request.POST.get("password", "")):
            guess.failed()
            return render(
                request,
                "account/delete.html",
                context | {"error": "That is not your password."},
                status=400,
            )
        with transaction.atomic():
            for part in account_parts():
                if part.delete is not None:
                    part.delete(user)
            log_out(request)  # the browser's own things, if any, stay the browser's
            user.delete()
        attempts.forget_account(name)
        messages.success(request, "Your account and everything in it are deleted.")
        return redirect("onefinity:home")
    return render(request, "account/delete.html", {"consequences": consequences})
