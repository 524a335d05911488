"""The account export ("download everything") as a job: the worker writes the file, the
owner downloads it when it is ready, and it expires with the job. Inside a request a large
account's export took 10-15 s and 313 MB of one answer; built whole in the worker, an
account at its quota took 1.1 GB and was then refused as larger than the files kept for an
owner. Now it is written a record at a time and kept a part at a time (bounded memory), and
never refused for its size: it is made from what the account stores, which the storage
quota bounds (JobKind.bounded_by_storage).

The export reads the owner's things through the account parts (accounts.part_registry), which ask
a request whose owner they are; the worker has none, so the job carries the owner (the
account, or the browser's token) and the export reads through a request that names it
(jobs.kinds.owners_request).
"""

from __future__ import annotations

import hashlib

from django.contrib.messages import info
from django.db.models import Max
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.shortcuts import redirect
from django.views.decorators.http import require_GET

from accounts.account_views import everything_document
from accounts.ownership import QuotaExceeded, anonymous_owner, owned, owned_models
from jobs.kinds import JobKind, JobOutput, Progress, owners_request, register
from jobs.models import Job
from jobs.running import JobsBusy, busy_page, start_job
from jobs.views import stream_job_file


def make_export(job: Job, progress: Progress) -> JobOutput:
    """The file, written as it is read (jobs.running keeps it a part at a time)."""
    progress(0, 1)
    return JobOutput(
        everything_document(owners_request(job), progress),
        "onefinity-everything.json",
        "application/json",
    )


register(
    JobKind(
        "export",
        make_export,
        time_limit=10 * 60,
        keep_days=3,
        priority=5,
        bounded_by_storage=True,
    )
)


def _fingerprint(request: HttpRequest) -> str:
    """A digest of what the owner keeps (how many of each thing, the newest, the last
    change): an export asked for again before anything changed is the same file."""
    parts = []
    for model in owned_models():
        if model is Job:
            continue
        fields = {field.name for field in model._meta.get_fields()}
        changed = "updated" if "updated" in fields else "version" if "version" in fields else "pk"
        seen = owned(request, model).aggregate(last=Max("pk"), changed=Max(changed))
        parts.append((model.__name__, owned(request, model).count(), seen["last"], seen["changed"]))
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:32]


@require_GET
def export_everything(request: HttpRequest) -> HttpResponseBase:
    """The file of everything the visitor owns, once the worker has written it; until then
    its job's page (an unchanged account's export is the file already written)."""
    if not request.user.is_authenticated and not anonymous_owner(request):
        info(request, "This browser keeps nothing yet: there is nothing to download.")
        return redirect("account")
    try:
        job = start_job(
            request,
            "export",
            key=f"export:{_fingerprint(request)}",
            label="Everything you own (one JSON file)",
            back="/account/",
        )
    except (JobsBusy, QuotaExceeded) as busy:
        return busy_page(request, busy)
    if job.has_file:
        return stream_job_file(job)
    return redirect(job)
