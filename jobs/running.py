"""Starting jobs from a request, and running them in the worker.

A request calls ``start_job``: it finds the job already asked for (the same ``key``: the
same thing, made from the same versions) or makes a row and queues it through Django's Tasks
API (``run_job.enqueue``), within the owner's and the address's bounds. The worker's
``run_job`` claims the row, runs its kind under a time limit, and keeps the file it made.

- A run that raises is a crash: tried again up to ``ATTEMPTS`` runs, then failed with the
  reason; its owner can start it again.
- A worker stopped mid-run (a restart, a machine lost) leaves its row running, silent: any
  worker finds it once it has been silent for JOB_LOST_SECONDS (``sweep``, at its start
  and before each job) and queues it again. A run in a live worker is never silent: its
  ``heartbeat`` beats from a thread of its own, however long a step takes.
- The queue is the database's (django-tasks-db), so a job queued before a restart runs
  after it, and any number of workers share one queue (each task is claimed once).
"""

from __future__ import annotations

import contextlib
import logging
import signal
import threading
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import F, Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django_tasks import task

from accounts import attempts
from accounts.ownership import owned, owner_fields
from jobs.kinds import JobOutput, JobRefused, Progress, job_kind
from jobs.models import Job, JobFile

logger = logging.getLogger(__name__)

# Runs of one job before it is failed: the first and two more after a crash.
ATTEMPTS = 3


class JobsBusy(Exception):
    """Too many jobs waiting or running for this owner or address: wait for one."""


class JobTimeLimit(Exception):
    """A run went past its kind's time limit (raised inside the run by a timer)."""


def start_job(
    request: HttpRequest,
    kind: str,
    key: str,
    label: str,
    params: dict[str, Any] | None = None,
    back: str = "",
) -> Job:
    """The job that makes ``key`` for whoever asks: the one already asked for (waiting,
    running or done, its file kept), else a new one, queued. JobsBusy (past the bounds on
    jobs at once, or on fresh work: accounts.attempts.fresh_work) or QuotaExceeded, and
    nothing queued."""
    if job_kind(kind) is None:
        raise ValueError(f"no job kind {kind!r}")
    mine = owned(request, Job)
    found = (
        mine.filter(kind=kind, key=key)
        .exclude(state=Job.State.FAILED)
        .exclude(expires__lte=timezone.now())
        .first()
    )
    if found is not None:
        return found
    address = attempts.client_digest(request)
    busy = mine.filter(state__in=Job.ACTIVE).count()
    if busy >= settings.JOBS_ACTIVE_PER_OWNER:
        raise JobsBusy(
            f"You have {busy} printouts or downloads being made; wait for one of them to "
            "finish (see My jobs), then ask again."
        )
    if (
        Job.objects.filter(address=address, state__in=Job.ACTIVE).count()
        >= settings.JOBS_ACTIVE_PER_ADDRESS
    ):
        raise JobsBusy(
            "Many printouts or downloads are being made for your network; wait a minute "
            "and ask again."
        )
    refusal = attempts.fresh_work(request)
    if refusal is not None:
        raise JobsBusy(refusal.message)
    forget_expired(mine)
    job = Job.objects.create(
        kind=kind,
        key=key,
        label=label[:200],
        params=params or {},
        back=back[:300],
        address=address,
        **owner_fields(request, Job),
    )
    queue(job)
    job.refresh_from_db()
    return job


def refuse_fresh_work(request: HttpRequest) -> None:
    """Count a printout about to be made inside the request (accounts.attempts.fresh_work):
    JobsBusy past the limit."""
    refusal = attempts.fresh_work(request)
    if refusal is not None:
        raise JobsBusy(refusal.message)


def busy_page(request: HttpRequest, busy: Exception) -> HttpResponse:
    """429, and why: too much heavy work asked for at once; what is made downloads at once."""
    return render(request, "jobs/busy.html", {"why": str(busy)}, status=429)


def queue(job: Job) -> None:
    run_job.enqueue(job.pk)


def restart(job: Job) -> bool:
    """Queue a failed job again, its runs counted from nought; False if it is not failed."""
    changed = Job.objects.filter(pk=job.pk, state=Job.State.FAILED).update(
        state=Job.State.QUEUED, attempts=0, error="", steps_done=0, finished=None
    )
    if changed:
        queue(job)
    job.refresh_from_db()
    return bool(changed)


@task()
def run_job(job_id: int) -> None:
    """The worker's side: run one queued job (see the module's docstring)."""
    sweep()
    run(job_id)


def run(job_id: int) -> None:
    now = timezone.now()
    claimed = Job.objects.filter(pk=job_id, state=Job.State.QUEUED).update(
        state=Job.State.RUNNING, started=now, beat=now, attempts=F("attempts") + 1, steps_done=0
    )
    if not claimed:
        return  # done, failed, deleted, or another worker took it
    job = Job.objects.get(pk=job_id)
    kind = job_kind(job.kind)
    if kind is None:
        _fail(job, "This kind of job is no longer made here.")
        return
    try:
        with time_limit(kind.time_limit), heartbeat(job.pk):
            output = kind.run(job, Progress(job))
    except JobRefused as refusal:
        _fail(job, str(refusal))
    except JobTimeLimit:
        _fail(
            job,
            f"It took longer than {attempts.in_words(kind.time_limit)}, the most one job may "
            "take, and was stopped.",
        )
    except (KeyboardInterrupt, SystemExit):
        # The worker is being stopped: this run does not count, and the job waits for the
        # next worker.
        Job.objects.filter(pk=job.pk).update(
            state=Job.State.QUEUED, attempts=F("attempts") - 1, started=None
        )
        queue(job)
        raise
    except Exception as crash:
        logger.exception("job %s (%s) crashed", job.pk, job.kind)
        reason = f"The worker ran into an error ({type(crash).__name__})."
        if job.attempts < ATTEMPTS:
            Job.objects.filter(pk=job.pk).update(state=Job.State.QUEUED, error=reason)
            queue(job)
        else:
            _fail(job, f"{reason} It was tried {job.attempts} times.")
    else:
        _finish(job, output, kind.keep_days)


def _fail(job: Job, reason: str) -> None:
    Job.objects.filter(pk=job.pk).update(
        state=Job.State.FAILED, error=reason, finished=timezone.now()
    )


def _finish(job: Job, output: JobOutput | None, keep_days: int) -> None:
    job.keep_until(keep_days)
    if output is None:
        Job.objects.filter(pk=job.pk).update(
            state=Job.State.DONE, finished=timezone.now(), expires=job.expires, error=""
        )
        return
    size = len(output.content)
    limit = settings.JOB_FILES_BYTES_PER_OWNER
    if size > limit:
        _fail(job, f"What it made is {size:,} bytes, more than the {limit:,} kept for you.")
        return
    with transaction.atomic():
        _make_room(job, size)
        JobFile.objects.update_or_create(job=job, defaults={"content": output.content})
        Job.objects.filter(pk=job.pk).update(
            state=Job.State.DONE,
            finished=timezone.now(),
            expires=job.expires,
            error="",
            file_name=output.file_name[:120],
            content_type=output.content_type[:80],
            file_bytes=size,
        )


def _make_room(job: Job, size: int) -> None:
    """The owner's files are kept within JOB_FILES_BYTES_PER_OWNER: the oldest go first (they
    can be made again)."""
    mine = Job.objects.filter(owner=job.owner, anonymous_owner=job.anonymous_owner).exclude(
        pk=job.pk
    )
    kept = mine.filter(file_bytes__gt=0).order_by("-finished", "-pk")
    total = size
    for other in kept.values("pk", "file_bytes"):
        total += other["file_bytes"]
        if total > settings.JOB_FILES_BYTES_PER_OWNER:
            JobFile.objects.filter(job_id=other["pk"]).delete()
            Job.objects.filter(pk=other["pk"]).update(file_bytes=0, expires=timezone.now())


def files_bytes(request: HttpRequest) -> int:
    """How many bytes of files the owner's jobs keep."""
    return int(owned(request, Job).aggregate(total=Sum("file_bytes"))["total"] or 0)


def sweep() -> None:
    """Queue again the jobs whose worker stopped mid-run, and forget expired ones; a few at
    a time (every worker does it before each job, and at its start)."""
    lost = timezone.now() - timedelta(seconds=settings.JOB_LOST_SECONDS)
    for job in Job.objects.filter(state=Job.State.RUNNING, beat__lt=lost)[:20]:
        if job.attempts < ATTEMPTS:
            if Job.objects.filter(pk=job.pk, state=Job.State.RUNNING).update(
                state=Job.State.QUEUED,
                error="Its worker stopped while making it; it is being made again.",
            ):
                queue(job)
        else:
            _fail(job, f"Its worker stopped while making it, {job.attempts} times.")
    forget_expired(Job.objects.all())


def forget_expired(jobs: Any) -> None:
    """Delete finished jobs past their time (with their files), at most 100 at a time."""
    expired = list(jobs.filter(expires__lte=timezone.now()).values_list("pk", flat=True)[:100])
    if expired:
        Job.objects.filter(pk__in=expired).delete()


@contextlib.contextmanager
def heartbeat(job_id: int) -> Iterator[None]:
    """While a run lasts, a thread of its own writes the row's ``beat`` every third of
    JOB_LOST_SECONDS: a step longer than that (a large PDF on a busy machine) is not taken
    for a lost worker and queued again beside the run still making it (the steps' progress
    beats too, but only between steps)."""
    stop = threading.Event()
    every = max(0.5, settings.JOB_LOST_SECONDS / 3)

    def beating() -> None:
        try:
            while not stop.wait(every):
                Job.objects.filter(pk=job_id, state=Job.State.RUNNING).update(beat=timezone.now())
        except Exception:  # the run goes on; at worst the sweep finds it silent
            logger.exception("the heartbeat of job %s failed", job_id)
        finally:
            connection.close()

    thread = threading.Thread(target=beating, name=f"job-{job_id}-heartbeat", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(timeout=5)


@contextlib.contextmanager
def time_limit(seconds: int) -> Iterator[None]:
    """Raise JobTimeLimit in the run after ``seconds``. A timer signal reaches only the
    main thread, where the worker runs its tasks; elsewhere (a test's or a server's thread
    with the immediate backend) the run is not timed."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def over(signum: int, frame: object) -> None:
        raise JobTimeLimit

    previous = signal.signal(signal.SIGALRM, over)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
