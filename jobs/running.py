"""Starting jobs from a request, and running them in the worker.

A request calls ``start_job``: it finds the job already asked for (the same ``key``: the
same thing, made from the same versions) or makes a row and queues it through Django's Tasks
API (``run_job.enqueue``), within the owner's and the address's bounds. The worker's
``run_job`` claims the row, runs its kind under a time limit, and keeps the file it made.

- A run that raises is a crash: tried again up to ``ATTEMPTS`` runs, then failed with the
  reason; its owner can start it again.
- A worker stopped mid-run (killed, a machine lost) leaves its row running. Started again
  under the same worker id (deploy/serve.py's supervisor does that within seconds), it
  takes its own lost jobs up at once (``recover``); any worker finds a run silent for
  JOB_LOST_SECONDS (``sweep``, every few seconds) and queues it again. A run in a live
  worker is never silent: its ``heartbeat`` beats every few seconds from a thread of its
  own, however long a step takes. A job is claimed by one run at a time, so none is done
  twice.
- Every run is recorded by the task library as it ended: a run that failed (refused, past
  its time, crashed, stopped by its owner) raises, so the library records it as failed with
  its traceback; a lost run's record is marked failed by whoever takes the job up
  (jobs.queue_records).
- The queue is fair: each run is queued with a priority that falls with the jobs its owner
  and its address already have waiting or running (and rises for the small kinds), so a
  newcomer's job runs before the fifth pack of someone who asked for ten: nobody waits
  more than about one job per other asker.
- The queue is the database's (django-tasks-db), so a job queued before a restart runs
  after it, and any number of workers share one queue (each task is claimed once).
"""

from __future__ import annotations

import contextlib
import logging
import signal
import threading
from collections.abc import Iterable, Iterator
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, connection, reset_queries, transaction
from django.db.models import F, QuerySet, Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django_tasks import TaskContext, task

from accounts import attempts
from accounts.ownership import owned, owner_fields
from jobs import queue_records
from jobs.kinds import (
    JobCancelled,
    JobKind,
    JobOutput,
    JobRefused,
    JobSuperseded,
    Progress,
    job_kind,
    lost_hold,
    this_run,
)
from jobs.models import Job, JobFile, JobUpload, beat_every

logger = logging.getLogger(__name__)

# Runs of one job before it is failed: the first and two more after a crash.
ATTEMPTS = 3


class JobsBusy(Exception):
    """Too many jobs waiting or running for this owner or address: wait for one."""


class JobTimeLimit(Exception):
    """A run went past its kind's time limit (raised inside the run by a timer)."""


class RunFailed(Exception):
    """A run that did not make its job (the reason, in the owner's words): raised to the
    task library so that it records the run as failed."""


class _Identical(Exception):
    """The same thing is already being made for the same owner: this job."""

    def __init__(self, job: Job) -> None:
        super().__init__(job.pk)
        self.job = job


# Priorities of the queue (django-tasks: -100 to 100, higher first): a kind's own, less
# this much for each job its owner or address already has waiting or running.
PRIORITY_STEP = 10


def start_job(
    request: HttpRequest,
    kind: str,
    key: str,
    label: str,
    params: dict[str, Any] | None = None,
    back: str = "",
    upload: Iterable[bytes] | None = None,
) -> Job:
    """The job that makes ``key`` for whoever asks: the one already asked for (waiting,
    running or done, its file kept), else a new one, queued. JobsBusy (past the bounds on
    jobs at once, or on fresh work: accounts.attempts.fresh_work) or QuotaExceeded, and
    nothing queued. The bounds hold for requests at once (see jobs.models). ``upload`` (a
    file's chunks) is kept for the new job to work from before it is queued (JobUpload)."""
    if job_kind(kind) is None:
        raise ValueError(f"no job kind {kind!r}")
    mine = owned(request, Job)
    found = _asked_already(mine, kind, key)
    if found is not None:
        return found
    job = Job(
        kind=kind,
        key=key,
        label=label[:200],
        params=params or {},
        back=back[:300],
        address=attempts.client_digest(request),
        **owner_fields(request, Job),
    )
    _within_bounds(request, job)
    forget_expired(mine)

    def insert(slot: int, address_slot: int) -> None:
        job.slot, job.address_slot = slot, address_slot
        job.save(force_insert=True)

    try:
        _hold_places(job, insert)
    except _Identical as identical:
        return identical.job
    if upload is not None:
        try:
            kept = JobUpload.keep(job, upload)
        except BaseException:
            job.delete()  # and what was kept of the upload with it
            raise
        if not kept:  # stopped by its owner while it was being received
            _ended(job)
            job.refresh_from_db()
            return job
    queue(job)
    job.refresh_from_db()
    return job


def _asked_already(mine: QuerySet[Job], kind: str, key: str) -> Job | None:
    return (
        mine.filter(kind=kind, key=key)
        .exclude(state=Job.State.FAILED)
        .exclude(expires__lte=timezone.now())
        .first()
    )


def _owners_jobs(job: Job) -> QuerySet[Job]:
    if job.owner_id is not None:
        return Job.objects.filter(owner_id=job.owner_id)
    return Job.objects.filter(owner=None, anonymous_owner=job.anonymous_owner)


def _free_places(job: Job) -> tuple[int, int]:
    """A free place among the owner's and among the address's jobs at once; JobsBusy when
    either has none."""
    held = set(_owners_jobs(job).filter(slot__isnull=False).values_list("slot", flat=True))
    slot = next((n for n in range(1, settings.JOBS_ACTIVE_PER_OWNER + 1) if n not in held), 0)
    if not slot:
        raise JobsBusy(
            f"You have {len(held)} printouts or downloads being made; wait for one of them to "
            "finish (see My jobs), or stop one, then ask again."
        )
    taken = Job.objects.filter(address=job.address, address_slot__isnull=False)
    used = set(taken.values_list("address_slot", flat=True))
    limit = settings.JOBS_ACTIVE_PER_ADDRESS
    address_slot = next((n for n in range(1, limit + 1) if n not in used), 0)
    if not address_slot:
        raise JobsBusy(
            "Many printouts or downloads are being made for your network; wait a minute "
            "and ask again."
        )
    return slot, address_slot


def _within_bounds(request: HttpRequest, job: Job) -> None:
    """JobsBusy when the job would pass its owner's or address's places (looked at first:
    a refused job costs no fresh work) or the visitor's fresh work; else it counts as fresh
    work. The places are taken for good by _hold_places."""
    _free_places(job)
    refuse_fresh_work(request)


def _hold_places(job: Job, write: Any) -> None:
    """``write(slot, address_slot)`` with free places, in a transaction of its own; a place
    taken meanwhile by another request (the constraint refuses the write) is looked for
    again. _Identical when the same thing is being made for the owner already."""
    for _ in range(settings.JOBS_ACTIVE_PER_OWNER + settings.JOBS_ACTIVE_PER_ADDRESS + 2):
        slot, address_slot = _free_places(job)
        try:
            with transaction.atomic():
                write(slot, address_slot)
            return
        except IntegrityError:
            identical = (
                _owners_jobs(job)
                .filter(kind=job.kind, key=job.key, slot__isnull=False)
                .exclude(pk=job.pk)
                .first()
            )
            if identical is not None:
                raise _Identical(identical) from None
    raise JobsBusy("Too many printouts or downloads were asked for at once; ask again.")


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
    """Queue a run of the job: fairly (see the module's docstring), and named on the job."""
    kind = job_kind(job.kind)
    task_ = run_job
    if task_.get_backend().supports_priority:
        task_ = task_.using(priority=_priority(job, kind.priority if kind else 0))
    result = task_.enqueue(job.pk)
    Job.objects.filter(pk=job.pk).update(task_id=str(result.id))


def _priority(job: Job, base: int) -> int:
    active = Job.objects.filter(state__in=Job.ACTIVE).exclude(pk=job.pk)
    ahead = max(
        _owners_jobs(job).filter(state__in=Job.ACTIVE).exclude(pk=job.pk).count(),
        active.filter(address=job.address).count() if job.address else 0,
    )
    return max(-100, min(100, base - PRIORITY_STEP * ahead))


def restart(request: HttpRequest, job: Job) -> bool:
    """Queue a failed (or stopped) job again, its runs counted from nought, within the same
    bounds as a new one (JobsBusy past them); False if it is not failed, or the same thing
    is being made already, or it cannot be started again (Job.ask_again)."""
    if job.state != Job.State.FAILED or job.ask_again:
        return False

    def requeue(slot: int, address_slot: int) -> None:
        if not Job.objects.filter(pk=job.pk, state=Job.State.FAILED).update(
            state=Job.State.QUEUED,
            attempts=0,
            error="",
            steps_done=0,
            finished=None,
            slot=slot,
            address_slot=address_slot,
        ):
            raise _Identical(job)  # started again meanwhile by another request

    _within_bounds(request, job)
    try:
        _hold_places(job, requeue)
    except _Identical:
        job.refresh_from_db()
        return False
    queue(job)
    job.refresh_from_db()
    return True


def cancel(job: Job) -> bool:
    """Stop a waiting or running job (a run in progress stops at its next step); False if
    it had ended already."""
    stopped = Job.objects.filter(pk=job.pk, state__in=Job.ACTIVE).update(
        state=Job.State.FAILED,
        error="You stopped it.",
        finished=timezone.now(),
        **_PLACES_FREED,
    )
    _ended(job)
    job.refresh_from_db()
    return bool(stopped)


def _ended(job: Job) -> None:
    """What a job that ended (made, failed or stopped) keeps no longer: its upload."""
    JobUpload.objects.filter(job_id=job.pk).delete()


# What a job that ends gives back: its places among its owner's and its address's.
_PLACES_FREED: dict[str, Any] = {"slot": None, "address_slot": None}


@task(takes_context=True)
def run_job(context: TaskContext, job_id: int) -> None:
    """The worker's side: run one queued job (see the module's docstring). A run that did not
    make the job raises, so that the task library records it as failed."""
    sweep()
    result = context.task_result
    failure = run(job_id, worker=(result.worker_ids or [""])[-1], task_id=str(result.id))
    if failure is not None:
        raise failure


def run(job_id: int, worker: str = "", task_id: str = "") -> RunFailed | None:
    """Claim the job and run it; why it did not make the job (None when it did, or when it
    was not this run's to make)."""
    now = timezone.now()
    claimed = Job.objects.filter(pk=job_id, state=Job.State.QUEUED).update(
        state=Job.State.RUNNING,
        started=now,
        beat=now,
        attempts=F("attempts") + 1,
        steps_done=0,
        worker=worker[:64],
        **({"task_id": task_id[:64]} if task_id else {}),
    )
    if not claimed:
        return None  # done, failed, stopped, deleted, or another worker took it
    job = Job.objects.get(pk=job_id)
    kind = job_kind(job.kind)
    if kind is None:
        return _fail(job, "This kind of job is no longer made here.")
    try:
        with time_limit(kind.time_limit), heartbeat(job):
            output = kind.run(job, Progress(job))
            return _finish(job, output, kind)
    except JobRefused as refusal:
        return _fail(job, str(refusal))
    except JobCancelled:
        JobFile.objects.filter(job=job).delete()
        return RunFailed("Stopped by its owner.")
    except JobSuperseded:
        return RunFailed("Taken for lost and queued again; another run makes it.")
    except JobTimeLimit:
        JobFile.objects.filter(job=job).delete()
        return _fail(
            job,
            f"It took longer than {attempts.in_words(kind.time_limit)}, the most one job may "
            "take, and was stopped.",
        )
    except (KeyboardInterrupt, SystemExit):
        # The worker is being stopped: this run does not count, and the job waits for the
        # next worker.
        Job.objects.filter(pk=job.pk, state=Job.State.RUNNING).update(
            state=Job.State.QUEUED, attempts=F("attempts") - 1, started=None
        )
        queue(job)
        raise
    except Exception as crash:
        logger.exception("job %s (%s) crashed", job.pk, job.kind)
        reason = f"The worker ran into an error ({type(crash).__name__})."
        if job.attempts < ATTEMPTS:
            if Job.objects.filter(pk=job.pk, state=Job.State.RUNNING).update(
                state=Job.State.QUEUED, error=reason
            ):
                queue(job)
            failure = RunFailed(f"{reason} It will be tried again.")
        else:
            failure = _fail(job, f"{reason} It was tried {job.attempts} times.")
        failure.__cause__ = crash
        return failure


def _fail(job: Job, reason: str) -> RunFailed:
    Job.objects.filter(pk=job.pk, state__in=Job.ACTIVE).update(
        state=Job.State.FAILED, error=reason, finished=timezone.now(), **_PLACES_FREED
    )
    _ended(job)
    return RunFailed(reason)


def _finish(job: Job, output: JobOutput | None, kind: JobKind) -> RunFailed | None:
    """Keep what the run made and mark the job done (unless its owner stopped it meanwhile).
    The file is written a part at a time, each part in a short transaction of its own (a
    large export holds no lock for long), while the job still runs: nobody sees it before
    the job is done."""
    job.keep_until(kind.keep_days)
    done = {"state": Job.State.DONE, "finished": timezone.now(), "expires": job.expires}
    running = this_run(job)
    if output is None:
        if running.update(error="", **done, **_PLACES_FREED):
            _ended(job)
        return None
    limit = settings.JOB_FILES_BYTES_PER_OWNER
    if not running.update(beat=timezone.now()):
        raise lost_hold(job)
    JobFile.objects.filter(job=job).delete()  # what an earlier, lost run wrote
    size = 0
    for index, part in enumerate(_parts(output.content)):
        size += len(part)
        if size > limit and not kind.bounded_by_storage:
            JobFile.objects.filter(job=job).delete()
            return _fail(
                job, f"What it made is over {limit:,} bytes, more than the {limit:,} kept for you."
            )
        JobFile.objects.create(job=job, index=index, content=part)
        if not running.update(beat=timezone.now()):
            raise lost_hold(job)
        # With DEBUG on (`make run`), Django keeps each query's SQL, a part's megabyte too,
        # until a request starts; a worker serves none.
        reset_queries()
    with transaction.atomic():
        _make_room(job, size)
        finished = running.update(
            error="",
            file_name=output.file_name[:120],
            content_type=output.content_type[:80],
            file_bytes=size,
            **done,
            **_PLACES_FREED,
        )
        if not finished:  # stopped or taken up meanwhile: the room made is not taken
            raise lost_hold(job)
    _ended(job)
    return None


def _parts(content: bytes | Iterable[bytes]) -> Iterator[bytes]:
    """The file in parts of JobFile.CHUNK bytes (the last one shorter)."""
    if isinstance(content, bytes | bytearray | memoryview):
        content = [bytes(content)]
    pending = bytearray()
    for piece in content:
        pending += piece
        while len(pending) >= JobFile.CHUNK:
            yield bytes(pending[: JobFile.CHUNK])
            del pending[: JobFile.CHUNK]
    if pending:
        yield bytes(pending)


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
    """Queue again the jobs whose worker stopped mid-run (silent for JOB_LOST_SECONDS), and
    forget expired ones; a few at a time (every worker does it before each job, at its
    start and every few seconds)."""
    lost = timezone.now() - timedelta(seconds=settings.JOB_LOST_SECONDS)
    _take_up(Job.objects.filter(state=Job.State.RUNNING, beat__lt=lost)[:20])
    _never_queued()
    # Uploads of jobs that ended, should any have outlived their job's end (what ends a
    # job deletes them: _ended).
    JobUpload.objects.exclude(job__state__in=Job.ACTIVE).delete()
    forget_expired(Job.objects.all())


# A job waiting this long without a task was never queued: the process asking for it
# stopped between keeping its row (and its upload) and queuing it.
NEVER_QUEUED = timedelta(minutes=10)


def _never_queued() -> None:
    unqueued = Job.objects.filter(
        state=Job.State.QUEUED, task_id="", created__lt=timezone.now() - NEVER_QUEUED
    )
    for job in unqueued[:20]:
        _fail(job, "The server stopped while it was being asked for; ask for it again.")


def recover(worker: str) -> int:
    """The jobs a worker of this id was running when it stopped, taken up again at once: a
    worker that starts under an id runs nothing yet, so whatever runs under it is lost
    (ids are unique among live workers: deploy/serve.py gives each of its own one). How
    many."""
    if not worker:
        return 0
    return _take_up(Job.objects.filter(state=Job.State.RUNNING, worker=worker[:64]))


def _take_up(lost: Any) -> int:
    taken = 0
    for job in list(lost):
        queue_records.lost(job.task_id)
        if job.attempts < ATTEMPTS:
            if Job.objects.filter(pk=job.pk, state=Job.State.RUNNING, beat=job.beat).update(
                state=Job.State.QUEUED,
                error="Its worker stopped while making it; it is being made again.",
            ):
                queue(job)
                taken += 1
        else:
            _fail(job, f"Its worker stopped while making it, {job.attempts} times.")
    return taken


def forget_expired(jobs: Any) -> None:
    """Delete finished jobs past their time (with their files), at most 100 at a time."""
    expired = list(jobs.filter(expires__lte=timezone.now()).values_list("pk", flat=True)[:100])
    if expired:
        Job.objects.filter(pk__in=expired).delete()


@contextlib.contextmanager
def heartbeat(job: Job) -> Iterator[None]:
    """While a run lasts, a thread of its own writes the row's ``beat`` every sixth of
    JOB_LOST_SECONDS (5 s by default): a step longer than that (a large PDF on a busy
    machine) is not taken for a lost worker and queued again beside the run still making
    it, and a worker that died is found out within JOB_LOST_SECONDS."""
    stop = threading.Event()
    every = beat_every()

    def beating() -> None:
        try:
            while not stop.wait(every):
                this_run(job).update(beat=timezone.now())
        except Exception:  # the run goes on; at worst the sweep finds it silent
            logger.exception("the heartbeat of job %s failed", job.pk)
        finally:
            connection.close()

    thread = threading.Thread(target=beating, name=f"job-{job.pk}-heartbeat", daemon=True)
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
        # Not while the run's database connection is taking or giving back a writer's turn
        # (config.sqlite): raised there, the turn would stay held and every writer of every
        # process would wait out its timeout. Asked again every 10 ms until it is done (at
        # most the database's timeout, while the turn is waited for).
        if getattr(connection, "taking_turn", False):
            signal.setitimer(signal.ITIMER_REAL, 0.01)
            return
        raise JobTimeLimit

    previous = signal.signal(signal.SIGALRM, over)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
