"""The kinds of job, as the feature apps declare them in their ``jobs.py`` (register).

A kind is a function of the job's row (its ``params``) and a progress callback, returning
the file it made (or None when it keeps its result itself, as a pack does). It raises
``JobRefused`` when the job cannot be done at all (what it works on is gone, or no longer
reads): that is said to the owner at once, without retrying. Any other exception is a
crash, retried a few times (jobs.running).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest
from django.utils import timezone

from accounts.ownership import SESSION_KEY

if TYPE_CHECKING:
    from jobs.models import Job


class JobRefused(Exception):
    """The job cannot be done, for a reason its owner can read; not retried."""


class JobCancelled(Exception):
    """Its owner stopped the job while it ran (raised at the run's next step)."""


class JobSuperseded(Exception):
    """Another run holds the job now: this one was taken for lost (a worker frozen past
    JOB_LOST_SECONDS) and the job queued again. Raised at its next step; it stops and
    touches nothing, so the job is never made by two runs at once."""


def owners_request(job: Job) -> HttpRequest:
    """A request whose owner is the job's (its account, or its browser's token): what the
    account parts read from and save for, in a worker that serves no request."""
    request = HttpRequest()
    user = get_user_model().objects.filter(pk=job.owner_id).first() if job.owner_id else None
    request.user = user if user is not None else AnonymousUser()
    request.session = {SESSION_KEY: job.anonymous_owner} if job.anonymous_owner else {}  # type: ignore[assignment]
    return request


def this_run(job: Job) -> Any:
    """The job's row while this run holds it: running, under the task id it claimed."""
    return type(job).objects.filter(pk=job.pk, state="running", task_id=job.task_id)


def lost_hold(job: Job) -> Exception:
    """Why this run no longer holds the job: stopped by its owner, or taken up by another."""
    state = type(job).objects.filter(pk=job.pk).values_list("state", flat=True).first()
    return JobCancelled() if state in (None, "failed") else JobSuperseded()


@dataclass(frozen=True)
class JobOutput:
    """A file a job made, to keep for its owner to download: its bytes, or its pieces as
    they are made (a large export is written as it is read, never held whole)."""

    content: bytes | Iterable[bytes]
    file_name: str
    content_type: str


class Progress:
    """Tell the job's row how far the work is: ``progress(done, total)``. Written at most
    twice a second (the last step always), so a page polling it costs the worker little."""

    EVERY = 0.5

    def __init__(self, job: Job) -> None:
        self.job = job
        self.written = 0.0

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if now - self.written < self.EVERY and done < total:
            return
        self.written = now
        if not this_run(self.job).update(
            steps_done=min(done, total), steps_total=total, beat=timezone.now()
        ):
            raise lost_hold(self.job)
        self.job.steps_done, self.job.steps_total = min(done, total), total


@dataclass(frozen=True)
class JobKind:
    name: str
    run: Callable[[Job, Progress], JobOutput | None]
    # The most one run may take, in seconds; past it the run is stopped and the job fails.
    time_limit: int = 600
    # How long a finished job (and its file) is kept, in days.
    keep_days: int = 7
    # Its place in the queue against other kinds (higher first): under jobs.running's
    # PRIORITY_STEP, so a small job (one sheet, the export) goes before the large ones (a
    # pack) of the same turn, never before another owner's turn.
    priority: int = 0
    # Its file is made from what its owner stores, so the owner's storage quota bounds it:
    # never refused for its size (the account's export always fits).
    bounded_by_storage: bool = False


_KINDS: dict[str, JobKind] = {}


def register(kind: JobKind) -> JobKind:
    _KINDS[kind.name] = kind
    return kind


def job_kind(name: str) -> JobKind | None:
    return _KINDS.get(name)
