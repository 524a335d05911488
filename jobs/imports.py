"""Importing an account file ("download everything"), of any size the site exports.

A small file is imported inside the request, at once (accounts.account_import.read_small):
its owner sees the result on the account page, or what is wrong with the file. A larger
one (over IMPORT_REQUEST_BYTES, or over MAX_ITEMS records) is kept for the task worker as
the job's upload (JobUpload) and imported by the worker with progress on the job's page:
every record checked first, the owner's room for them checked, then saved a few at a time,
each step told to the job so that a run taken up again after its worker died saves nothing
twice. The upload is deleted when the job ends, however it ends.

The form carries a one-time token (onefinity.once): the same form sent twice with the same
file (a double tap, a phone sending again on bad Wi-Fi) imports it once: a small file's
submission is claimed in the transaction that saves it, a large one finds the job the first
one started.
"""

from __future__ import annotations

import hashlib
import secrets
from collections import Counter
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.core.files.uploadedfile import UploadedFile
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from accounts import account_import
from accounts.account_file import Readable
from accounts.ownership import QuotaExceeded, move_into_account
from accounts.part_registry import AccountFileError
from accounts.storage import StorageFull, in_megabytes
from jobs.kinds import (
    JobKind,
    JobOutput,
    JobRefused,
    Progress,
    lost_hold,
    owners_request,
    register,
    this_run,
)
from jobs.models import Job, JobFile, JobUpload
from jobs.running import JobsBusy, busy_page, start_job
from onefinity import once

_PAGE = "account/import.html"
FILE_GONE = "The file you sent is no longer kept; send it again to import it."


class _OwnerMoved(Exception):
    """The browser that asked for the import signed in meanwhile: the job (and what it
    saved so far) moved into the account, and the import goes on for the account."""


def make_import(job: Job, progress: Progress) -> JobOutput | None:
    if not JobUpload.objects.filter(job=job, index=0).exists():
        raise JobRefused(FILE_GONE)
    request = owners_request(job)
    browser = job.anonymous_owner if job.owner_id is None else ""
    saved: dict[str, int] = dict(job.params.get("saved", {}))
    parts = max(1, -(-int(job.params.get("bytes", 0)) // JobFile.CHUNK))
    _phase(job, "checking")
    try:
        # First every record is read and checked (the steps: the upload's parts read).
        counts = account_import.count(JobUpload.reader(job), lambda read: progress(read, parts))
        account_import.check_room(request, counts, saved)
    except (AccountFileError, QuotaExceeded) as refusal:
        raise JobRefused(_refused(refusal, saved)) from None
    total = sum(counts.values())
    _phase(job, "saving")
    progress(sum(saved.values()), total)

    def told(after: dict[str, int]) -> None:
        """Inside each step's transaction: the step counts only for the job's owner now."""
        owner = Job.objects.filter(pk=job.pk).values_list("owner_id", flat=True).first()
        if owner != request.user.pk:
            raise _OwnerMoved
        params = job.params | {"saved": after}
        if not this_run(job).update(params=params, outcome=_saved_so_far(after)):
            raise lost_hold(job)
        job.params = params
        progress(sum(after.values()), total)

    while True:
        try:
            account_import.save_steps(request, JobUpload.reader(job), saved, told)
            break
        except _OwnerMoved:
            request = owners_request(Job.objects.get(pk=job.pk))
        except AccountFileError:  # the upload ended early: its job ended meanwhile
            raise lost_hold(job) from None
        except (QuotaExceeded, StorageFull) as refusal:  # the room was taken meanwhile
            raise JobRefused(_refused(refusal, saved)) from None
    if browser and request.user.is_authenticated:
        # Saved for the browser while it was signing in, after its things moved.
        move_into_account(request.user, browser)
    if not this_run(job).update(outcome=account_import.imported_in_words(Counter(saved))):
        raise lost_hold(job)
    return None


def _phase(job: Job, phase: str) -> None:
    """Say what the steps counted are (jobs/progress.html): the file's megabytes checked,
    then the records saved."""
    params = job.params | {"phase": phase}
    if not this_run(job).update(params=params, steps_done=0, steps_total=0):
        raise lost_hold(job)
    job.params = params


def _refused(refusal: Exception, saved: dict[str, int]) -> str:
    """Why the import stopped; what it saved before is the job's outcome (_saved_so_far)."""
    return f"{refusal}" if any(saved.values()) else f"{refusal} Nothing was imported."


def _saved_so_far(saved: dict[str, int]) -> str:
    """What a job that stops now leaves saved, for its page: sent again, the file's records
    are imported again, these too."""
    done = account_import.imported_in_words(Counter(saved)).removeprefix("Imported ")
    return f"Saved before it stopped: {done} Sending the file again imports these again."


register(
    JobKind(
        "import",
        make_import,
        # Checking and saving an account at its bound takes about a minute on a busy worker.
        time_limit=20 * 60,
        keep_days=3,
        priority=5,
    )
)


@require_http_methods(["GET", "POST"])
def import_everything(request: HttpRequest) -> HttpResponse:
    """The form, and a file sent with it: imported at once when small, else by the worker."""
    if request.method != "POST":
        return _form(request)
    upload = request.FILES.get("file")
    try:
        if upload is None:
            raise AccountFileError("Choose the file you downloaded.")
        if (upload.size or 0) > settings.ACCOUNT_IMPORT_BYTES:
            raise AccountFileError(
                f"That file is {upload.size:,} bytes; at most {settings.ACCOUNT_IMPORT_BYTES:,}."
            )
        found = _read_small(upload)
    except AccountFileError as error:
        return _form(request, str(error), status=400)
    if found is not None:
        try:
            said = account_import.save_at_once(
                request, found, first=lambda: once.claim(request, "account-import")
            )
        except once.SentAlready:  # a double tap: the first one imported the file
            messages.info(
                request,
                "That file was imported a moment ago (the form was sent twice): "
                "what your account holds now is below.",
            )
            return redirect("account")
        messages.success(request, said)
        return redirect("account")
    return _to_the_worker(request, upload)


def _read_small(upload: UploadedFile) -> dict[str, list[Any]] | None:
    """What a small file holds, read; None for a file for the worker."""
    if (upload.size or 0) > settings.IMPORT_REQUEST_BYTES:
        return None
    stream: Readable = upload
    found = account_import.read_small(stream)
    upload.seek(0)
    return found


def _to_the_worker(request: HttpRequest, upload: UploadedFile) -> HttpResponse:
    token = once.token(request) or secrets.token_hex(16)
    # The same form sent twice with the same file finds the first job; the same form sent
    # again with another file (after Back) is another import.
    digest = hashlib.sha256()
    for chunk in upload.chunks(JobFile.CHUNK):
        digest.update(chunk)
    try:
        job = start_job(
            request,
            "import",
            key=f"import:{token}:{digest.hexdigest()[:32]}",
            label=f"Import of {_file_name(upload)}",
            # A failed import is sent again from the form: its upload is gone with it.
            params={"bytes": upload.size or 0, "ask_again": reverse("account-import")},
            back=reverse("account"),
            upload=upload.chunks(JobFile.CHUNK),
        )
    except (JobsBusy, QuotaExceeded) as busy:
        return busy_page(request, busy)
    return redirect(job)


def _file_name(upload: UploadedFile) -> str:
    name = "".join(ch for ch in (upload.name or "") if ch.isprintable())[:80]
    return name or "your file"


def _form(request: HttpRequest, error: str = "", status: int = 200) -> HttpResponse:
    context = {
        "error": error,
        "in_request": in_megabytes(settings.IMPORT_REQUEST_BYTES),
        "max_items": account_import.MAX_ITEMS,
        "limit": in_megabytes(settings.ACCOUNT_IMPORT_BYTES),
    }
    return render(request, _PAGE, context, status=status)
