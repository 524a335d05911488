"""Everything a person owns, in one file: the account page, the export's file, and
deleting the account.

The file holds the same documents as the single exports (force and table documents), so
each part can also be imported on its own. Importing it again is accounts.account_import
(and jobs.imports, which runs a large one in the task worker). What each part holds comes
from the feature apps (accounts.part_registry).
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
    Damaged,
    account_parts,
)
from onefinity.fastjson import dumps_indented


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
