"""A job: one piece of heavy work its owner asked for, done by the task worker.

The row is the owner's view of the work, across its runs: its state, how far it is (n of m
steps), why it failed, and when its file expires. Each run is a task of Django's Tasks API
(``jobs.running``), whose own result (django-tasks-db's row: its status, when it started and
ended, its error and traceback, the worker that ran it) is the record of that run; the job
names its latest (``task_id``). What the queue's records do not hold is kept here: the
progress, the file, the heartbeat of the run, and the owner's bounds.

The bounds hold under concurrency by constraints, not by a count then an insert: a job
waiting or running holds one of its owner's JOBS_ACTIVE_PER_OWNER ``slot`` numbers and one
of its address's JOBS_ACTIVE_PER_ADDRESS ``address_slot`` numbers, each unique among the
active jobs, and the same thing (``kind`` and ``key``) is active once per owner.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import timedelta
from typing import Any, ClassVar

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone

from accounts.ownership import Owned, OwnedQuerySet, Quota


def beat_every() -> float:
    """Seconds between two beats of a live run (jobs.running.heartbeat): a sixth of
    JOB_LOST_SECONDS, 5 s by default."""
    return max(0.5, settings.JOB_LOST_SECONDS / 6)


# The constraints' conditions: a place held (the job waits or runs), by an account or a browser.
_HELD = models.Q(slot__isnull=False)
_SIGNED_IN, _BROWSER = models.Q(owner__isnull=False), models.Q(owner__isnull=True)


class Job(Owned):
    class State(models.TextChoices):
        QUEUED = "queued", "waiting for the worker"
        RUNNING = "running", "being made"
        DONE = "done", "ready"
        FAILED = "failed", "failed"

    ACTIVE = (State.QUEUED, State.RUNNING)

    # Finished jobs are kept until their file expires, so an owner keeps at most this many.
    quota = Quota("jobs", browser=40, account=200)

    # The kind of work (a key of jobs.kinds), and what it works on, as the kind reads it.
    kind = models.CharField(max_length=40)
    params = models.JSONField(default=dict)
    # What it makes, with the version of everything it is made from: a second request for
    # the same thing finds this job instead of queuing another.
    key = models.CharField(max_length=200, db_index=True)
    label = models.CharField(max_length=200)
    # Where the owner started it (the pack's page, the event's dashboard): its link back.
    back = models.CharField(max_length=300, blank=True)
    state = models.CharField(max_length=8, choices=State, default=State.QUEUED)
    steps_done = models.PositiveIntegerField(default=0)
    steps_total = models.PositiveIntegerField(default=0)
    # Runs so far (a run that crashed is tried again, up to jobs.running.ATTEMPTS).
    attempts = models.PositiveSmallIntegerField(default=0)
    # Why it failed, in the owner's words (or why the last run did, while it is retried).
    error = models.TextField(blank=True)
    # What a job that makes no file did, in the owner's words ("Imported 12 force lists, ...").
    outcome = models.TextField(blank=True)
    # The client address that asked for it (a keyed digest): the per-address bound.
    address = models.CharField(max_length=64, blank=True)
    created = models.DateTimeField(default=timezone.now)
    started = models.DateTimeField(null=True, blank=True)
    # The last sign of life of the run (its heartbeat thread writes it every few seconds): a
    # run silent for JOB_LOST_SECONDS lost its worker (jobs.running.sweep).
    beat = models.DateTimeField(null=True, blank=True)
    # The worker running it (its worker id): a worker started again under the same id (the
    # supervisor of deploy/serve.py does that) takes it up at once (jobs.running.recover).
    worker = models.CharField(max_length=64, blank=True)
    # The task result of its latest run (django-tasks' id).
    task_id = models.CharField(max_length=64, blank=True)
    # While it waits or runs: which of its owner's and its address's places it holds (see
    # the module's docstring); None once it is done or failed.
    slot = models.PositiveSmallIntegerField(null=True, blank=True)
    address_slot = models.PositiveSmallIntegerField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)
    # Its file (if it makes one): name, type and size; the bytes are in JobFile.
    file_name = models.CharField(max_length=120, blank=True)
    content_type = models.CharField(max_length=80, blank=True)
    file_bytes = models.PositiveBigIntegerField(default=0)
    expires = models.DateTimeField(null=True, blank=True)

    objects = OwnedQuerySet["Job"].as_manager()
    # Moved into an account at login, a waiting job gives up its place among the browser's
    # jobs (the account's places may all be held: the moved job runs all the same).
    moved_fields: ClassVar[dict[str, Any]] = {"slot": None}
    # Its file counts in what its owner stores (accounts.storage), and gives way first: a
    # file can be made again, a list or a table cannot.
    storage_field = "file_bytes"

    class Meta:
        ordering = ["-created", "-pk"]
        indexes = [
            models.Index(fields=["state", "beat"], name="job_by_state"),
            models.Index(fields=["address", "state"], name="job_by_address"),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["owner", "slot"], condition=_HELD & _SIGNED_IN, name="job_owner_slot"
            ),
            models.UniqueConstraint(
                fields=["anonymous_owner", "slot"],
                condition=_HELD & _BROWSER,
                name="job_browser_slot",
            ),
            models.UniqueConstraint(
                fields=["address", "address_slot"],
                condition=models.Q(address_slot__isnull=False),
                name="job_address_slot",
            ),
            models.UniqueConstraint(
                fields=["owner", "kind", "key"], condition=_HELD & _SIGNED_IN, name="job_owner_once"
            ),
            models.UniqueConstraint(
                fields=["anonymous_owner", "kind", "key"],
                condition=_HELD & _BROWSER,
                name="job_browser_once",
            ),
        ]

    def __str__(self) -> str:
        return self.label

    def get_absolute_url(self) -> str:
        return reverse("jobs:job", args=[self.pk])

    def get_download_url(self) -> str:
        return reverse("jobs:download", args=[self.pk])

    @property
    def active(self) -> bool:
        return self.state in self.ACTIVE

    @property
    def ready(self) -> bool:
        """Done, with its file still kept (or none to keep)."""
        return self.state == self.State.DONE and not self.expired

    @property
    def ask_again(self) -> str:
        """Where a failed job is asked for again, when it cannot simply be started again (an
        import's upload is gone with the run that failed): that page, not "Start it again";
        "" when it can. Given by whoever asks for the job (its params)."""
        return str(self.params.get("ask_again", "")) if isinstance(self.params, dict) else ""

    @property
    def expired(self) -> bool:
        return self.expires is not None and self.expires <= timezone.now()

    @property
    def has_file(self) -> bool:
        return self.file_bytes > 0 and not self.expired

    @property
    def percent(self) -> int:
        if self.state == self.State.DONE:
            return 100
        return int(100 * self.steps_done / self.steps_total) if self.steps_total else 0

    @property
    def stalled(self) -> bool:
        """Running, but its heartbeat has missed three beats: its worker has most likely
        stopped (the run is taken up again once JOB_LOST_SECONDS have passed, or at once
        by the worker started again in its place). Said so, instead of a time left that no
        longer moves."""
        if self.state != self.State.RUNNING or self.beat is None:
            return False
        silent = (timezone.now() - self.beat).total_seconds()
        return silent > 3 * beat_every()

    def seconds_left(self) -> int | None:
        """A guess at the time left, once enough is done to guess from: the time each step
        has taken so far, times the steps left."""
        if self.state != self.State.RUNNING or self.started is None or self.stalled:
            return None
        if not self.steps_total or self.steps_done < 1 or self.steps_done >= self.steps_total:
            return None
        spent = (timezone.now() - self.started).total_seconds()
        if spent < 1:
            return None
        per_step = spent / self.steps_done
        return max(1, round(per_step * (self.steps_total - self.steps_done)))

    def status(self) -> dict[str, Any]:
        """What a page polling the job needs to know (jobs.views.status)."""
        return {
            "id": self.pk,
            "label": self.label,
            "state": self.state,
            "done": self.steps_done,
            "total": self.steps_total,
            "percent": self.percent,
            "seconds_left": self.seconds_left(),
            "stalled": self.stalled,
            "error": self.error if self.state == self.State.FAILED else "",
            "download": self.get_download_url() if self.has_file else None,
            "expires": self.expires.isoformat() if self.expires else None,
        }

    @classmethod
    def give_way(cls, owner: Any, anonymous_owner: str, needed: int) -> int:
        """Forget the owner's job files, oldest first, until ``needed`` bytes are freed or
        none is left (accounts.storage.check_room, inside the write's transaction: a write
        refused anyway keeps them); the bytes freed."""
        mine = cls.objects.filter(owner=owner, file_bytes__gt=0)
        if owner is None:
            mine = mine.filter(anonymous_owner=anonymous_owner)
        freed = 0
        for pk, size in mine.order_by("finished", "pk").values_list("pk", "file_bytes"):
            if freed >= needed:
                break
            JobFile.objects.filter(job_id=pk).delete()
            cls.objects.filter(pk=pk).update(file_bytes=0, expires=timezone.now())
            freed += size
        return freed

    def keep_until(self, days: int) -> None:
        self.expires = timezone.now() + timedelta(days=days)


class JobFile(models.Model):
    """The file a job made (a PDF, a zip, the account export), apart from the job's row so
    that listing and polling jobs never loads it, in parts of at most CHUNK bytes: a file is
    written and sent a part at a time, so neither the worker nor a web server holds a large
    export whole. In the database, so that any web server can send a file any worker made."""

    CHUNK = 1 << 20

    job = models.ForeignKey(Job, on_delete=models.CASCADE, related_name="parts")
    index = models.PositiveIntegerField(default=0)
    content = models.BinaryField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["job", "index"], name="job_file_part_once"),
        ]

    def __str__(self) -> str:
        return f"part {self.index} of the file of job {self.job_id}"

    @classmethod
    def parts_of(cls, job: Job) -> Iterator[bytes]:
        """The job's file, a part at a time (one query each: bounded memory)."""
        for pk in cls.objects.filter(job=job).order_by("index").values_list("pk", flat=True):
            found = cls.objects.filter(pk=pk).values_list("content", flat=True).first()
            if found is not None:
                yield bytes(found)

    @classmethod
    def read(cls, job: Job) -> bytes | None:
        """The whole file of a job whose file is small (a generated table's JSON); None if
        it has none."""
        if not cls.objects.filter(job=job).exists():
            return None
        return b"".join(cls.parts_of(job))


class JobUpload(models.Model):
    """A file sent for a job to work from (an account file to import), in parts of
    JobFile.CHUNK bytes, kept only while its job waits or runs: it is deleted when the job
    ends, however it ends (jobs.running), so what uploads keep is bounded by the jobs an
    owner and an address may have at once. Not counted in the owner's storage: an account
    near its bound could not import its own export otherwise."""

    job = models.ForeignKey(Job, on_delete=models.CASCADE, related_name="upload_parts")
    index = models.PositiveIntegerField(default=0)
    content = models.BinaryField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["job", "index"], name="job_upload_part_once"),
        ]

    def __str__(self) -> str:
        return f"part {self.index} of the upload of job {self.job_id}"

    @classmethod
    def keep(cls, job: Job, chunks: Iterable[bytes]) -> bool:
        """Keep the file for the job, a part at a time (each its own short write), while
        it waits to be queued; False, and nothing kept, if it was stopped meanwhile (its
        owner may stop it as soon as it is listed)."""
        pending = bytearray()
        index = 0
        for chunk in chunks:
            pending += chunk
            while len(pending) >= JobFile.CHUNK:
                if not cls._waiting(job):
                    return False
                cls.objects.create(job=job, index=index, content=bytes(pending[: JobFile.CHUNK]))
                del pending[: JobFile.CHUNK]
                index += 1
        if pending:
            if not cls._waiting(job):
                return False
            cls.objects.create(job=job, index=index, content=bytes(pending))
        return cls._waiting(job)

    @classmethod
    def _waiting(cls, job: Job) -> bool:
        """Whether the job still waits; if not, what was kept of its upload is deleted."""
        if Job.objects.filter(pk=job.pk, state=Job.State.QUEUED).exists():
            return True
        cls.objects.filter(job=job).delete()
        return False

    @classmethod
    def reader(cls, job: Job) -> UploadReader:
        return UploadReader(job)


class UploadReader:
    """A job's upload as a stream, one part per ``read`` (one query each: bounded memory);
    b"" at its end, or when the upload is gone (its job ended meanwhile)."""

    def __init__(self, job: Job) -> None:
        self.job = job
        self.index = 0

    def read(self, size: int = -1, /) -> bytes:
        found = (
            JobUpload.objects.filter(job=self.job, index=self.index)
            .values_list("content", flat=True)
            .first()
        )
        if found is None:
            return b""
        self.index += 1
        return bytes(found)
