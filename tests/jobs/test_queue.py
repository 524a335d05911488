"""The queue under the jobs: fair between owners, bounded under requests at once, every run
recorded by the task library as it ended, old records pruned, a lost run taken up, a job
stopped by its owner, and an export that always fits. On SQLite and PostgreSQL (the suite's
second pass), with the database backend where the queue's own records are what is tested."""

from __future__ import annotations

import gc
import json
import tracemalloc
from datetime import timedelta
from unittest import mock

import pytest
from django.contrib.sessions.backends.signed_cookies import SessionStore
from django.test import RequestFactory
from django.utils import timezone
from django_tasks_db.management.commands.db_worker import Worker
from django_tasks_db.models import DBTaskResult

from jobs import kinds, queue_records, running
from jobs.models import Job, JobFile
from tests.conftest import run_waiting_jobs
from tests.factories import make_table
from tests.threads import at_once
from tests.threads import thread_database as thread_database  # a fixture

pytestmark = pytest.mark.django_db

DATABASE_QUEUE = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}


@pytest.fixture
def database_queue(settings):
    """The queue of `make serve`: rows of the database, run here by the library's own
    worker loop (in this process, until the queue is empty)."""
    settings.TASKS = DATABASE_QUEUE


def work_off_the_queue() -> None:
    # The worker's loop closes connections it finds inside a transaction, as a test's is.
    with mock.patch(f"{Worker.__module__}.close_old_connections"):
        _worker().run()


def _worker() -> Worker:
    return Worker(
        queue_names=["default"],
        interval=0,
        batch=True,
        backend_name="default",
        startup_delay=False,
        max_tasks=None,
        worker_id="test-worker",
        excluded_queue_names=[],
    )


def request_of(user, address: str = "192.0.2.10"):
    request = RequestFactory().get("/", REMOTE_ADDR=address)
    request.user = user
    request.session = SessionStore()
    return request


def ask(user, key: str, kind: str = "export", address: str = "192.0.2.10") -> Job:
    return running.start_job(request_of(user, address), kind, key=key, label=key)


def queue_order() -> list[tuple[str, str]]:
    """(owner, key) of the waiting jobs, in the order the worker takes their tasks."""
    jobs = {str(job.pk): job for job in Job.objects.select_related("owner")}
    order = []
    for result in DBTaskResult.objects.ready():
        job = jobs[str(result.args_kwargs["args"][0])]
        order.append((job.owner.username, job.key))
    return order


def test_a_newcomers_job_waits_for_at_most_one_job_of_someone_who_asked_for_many(
    owner, stranger, django_user_model, database_queue
):
    for n in range(4):
        ask(owner, f"pack {n}", kind="pack")
    ask(stranger, "pack", kind="pack", address="203.0.113.5")
    # Owners in turn: the stranger's pack goes right after the owner's first.
    assert queue_order()[:2] == [("owner", "pack 0"), ("stranger", "pack")]
    # Among jobs at the same turn, a small one (an export) goes before the large ones.
    third = django_user_model.objects.create_user("third", "t@example.com", "pw-long-enough")
    ask(third, "export", address="203.0.113.9")
    assert queue_order()[0] == ("third", "export")


def test_many_accounts_on_one_address_do_not_make_another_address_wait(
    django_user_model, stranger, database_queue, settings
):
    settings.JOBS_ACTIVE_PER_ADDRESS = 20
    sybils = [
        django_user_model.objects.create_user(f"s{n}", f"s{n}@x.org", "pw-long-enough")
        for n in range(3)
    ]
    for sybil in sybils:
        for n in range(4):
            ask(sybil, f"pack {n}", kind="pack", address="198.51.100.7")
    ask(stranger, "pack", kind="pack", address="203.0.113.5")
    assert queue_order()[1] == ("stranger", "pack")


@pytest.mark.django_db(transaction=True)
def test_the_bounds_hold_for_sixteen_requests_at_once(owner, settings, thread_database):
    settings.JOBS_ACTIVE_PER_OWNER = 4
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}
    database = thread_database

    def queued() -> list[int]:
        (pks,) = at_once(
            1,
            database,
            lambda _: list(Job.objects.filter(state="queued").values_list("pk", flat=True)),
        )
        return pks  # type: ignore[no-any-return]

    answers = at_once(16, database, lambda n: ask(owner, f"sheet {n}"))
    made = [a for a in answers if isinstance(a, Job)]
    assert len(made) == 4 and len(queued()) == 4
    assert all(isinstance(a, running.JobsBusy) for a in answers if not isinstance(a, Job))
    # The same thing asked sixteen times at once is one job.
    at_once(1, database, lambda _: Job.objects.all().delete())
    answers = at_once(16, database, lambda n: ask(owner, "one sheet"))
    assert {a.pk for a in answers if isinstance(a, Job)} == set(queued()) and len(queued()) == 1
    # Restarts count too: twelve failed jobs started again at once, at most four run.
    at_once(1, database, lambda _: Job.objects.all().delete())
    (failed,) = at_once(
        1,
        database,
        lambda _: [
            Job.objects.create(owner=owner, kind="export", key=f"f{n}", label="x", state="failed")
            for n in range(12)
        ],
    )
    at_once(12, database, lambda n: running.restart(request_of(owner), failed[n]))  # type: ignore[index]
    assert len(queued()) == 4


def test_a_restart_past_the_bound_is_refused(owner, owner_client, jobs_wait, settings):
    settings.JOBS_ACTIVE_PER_OWNER = 1
    failed = Job.objects.create(owner=owner, kind="export", key="f", label="Old", state="failed")
    ask(owner, "busy")
    refused = owner_client.post(f"/jobs/{failed.pk}/restart/")
    assert refused.status_code == 429
    assert Job.objects.get(pk=failed.pk).state == "failed"


def test_a_run_that_crashes_is_recorded_as_failed_by_the_task_library(
    owner, database_queue, monkeypatch
):
    def crash(job, progress):
        raise RuntimeError("broken")

    monkeypatch.setattr(kinds, "_KINDS", {"export": kinds.JobKind("export", crash)})
    job = ask(owner, "crashes")
    work_off_the_queue()
    job.refresh_from_db()
    assert job.state == "failed" and job.attempts == running.ATTEMPTS
    records = DBTaskResult.objects.order_by("enqueued_at")
    assert [r.status for r in records] == ["FAILED"] * running.ATTEMPTS
    assert "RuntimeError: broken" in records[0].traceback
    assert str(records.last().id) == job.task_id


def test_a_run_that_is_refused_or_succeeds_is_recorded_as_such(owner, database_queue, monkeypatch):
    def refuse(job, progress):
        raise kinds.JobRefused("The list is gone.")

    monkeypatch.setattr(
        kinds,
        "_KINDS",
        {
            "export": kinds.JobKind("export", refuse),
            "pack": kinds.JobKind("pack", lambda j, p: None),
        },
    )
    refused, made = ask(owner, "refused"), ask(owner, "made", kind="pack")
    work_off_the_queue()
    assert DBTaskResult.objects.get(id=Job.objects.get(pk=refused.pk).task_id).status == "FAILED"
    assert DBTaskResult.objects.get(id=Job.objects.get(pk=made.pk).task_id).status == "SUCCESSFUL"


def test_the_queues_records_of_finished_runs_are_pruned(owner, database_queue, settings):
    ask(owner, "old")
    work_off_the_queue()
    ask(owner, "new")
    waiting = DBTaskResult.objects.get(status="READY")
    assert DBTaskResult.objects.count() == 2
    DBTaskResult.objects.exclude(pk=waiting.pk).update(
        finished_at=timezone.now() - timedelta(hours=settings.TASK_RESULTS_KEEP_HOURS, seconds=1)
    )
    assert queue_records.prune() == 1
    assert list(DBTaskResult.objects.values_list("pk", flat=True)) == [waiting.pk]


def test_a_worker_started_again_under_its_id_takes_up_its_lost_job_at_once(owner, database_queue):
    job = ask(owner, "lost")
    # The worker claims it, then is killed: its row and its task's record say running.
    Job.objects.filter(pk=job.pk).update(
        state="running", worker="host:8000:1", beat=timezone.now(), attempts=1
    )
    DBTaskResult.objects.filter(id=job.task_id).update(status="RUNNING")
    lost_record = job.task_id
    assert running.recover("host:8000:2") == 0  # another worker's job: still its
    assert running.recover("host:8000:1") == 1  # long before JOB_LOST_SECONDS
    job.refresh_from_db()
    assert job.state == "queued" and job.task_id != lost_record
    assert DBTaskResult.objects.get(id=lost_record).status == "FAILED"
    work_off_the_queue()
    job.refresh_from_db()
    assert job.state == "done" and job.attempts == 2


def test_a_page_says_a_silent_run_has_stopped_instead_of_a_time_left(
    owner, owner_client, jobs_wait
):
    job = ask(owner, "silent")
    Job.objects.filter(pk=job.pk).update(
        state="running",
        started=timezone.now() - timedelta(seconds=60),
        beat=timezone.now() - timedelta(seconds=20),
        steps_done=2,
        steps_total=6,
    )
    status = owner_client.get(f"/jobs/{job.pk}/status.json").json()
    assert status["stalled"] is True and status["seconds_left"] is None
    assert "stopped answering" in owner_client.get(f"/jobs/{job.pk}/").content.decode()


def test_the_owner_stops_a_waiting_job_and_starts_it_again(owner, owner_client, jobs_wait):
    job = ask(owner, "stop me")
    assert "Stop it" in owner_client.get(f"/jobs/{job.pk}/").content.decode()
    assert owner_client.post(f"/jobs/{job.pk}/cancel/").status_code == 302
    job.refresh_from_db()
    assert (job.state, job.error, job.slot) == ("failed", "You stopped it.", None)
    assert run_waiting_jobs() == 0
    assert owner_client.post(f"/jobs/{job.pk}/restart/").status_code == 302
    assert Job.objects.get(pk=job.pk).state == "queued"


def test_a_running_job_stopped_by_its_owner_ends_at_its_next_step_keeping_nothing(
    owner, jobs_wait, monkeypatch
):
    job = ask(owner, "long")

    def long_run(job, progress):
        progress(1, 3)
        running.cancel(job)  # the owner, meanwhile
        progress(2, 3)
        raise AssertionError("the run went on after it was stopped")

    monkeypatch.setattr(kinds, "_KINDS", {"export": kinds.JobKind("export", long_run)})
    kinds.Progress.EVERY = 0
    try:
        failure = running.run(job.pk)
    finally:
        kinds.Progress.EVERY = 0.5
    job.refresh_from_db()
    assert isinstance(failure, running.RunFailed)
    assert (job.state, job.error, JobFile.objects.count()) == ("failed", "You stopped it.", 0)


def test_a_stranger_cannot_stop_a_job(owner, stranger_client, jobs_wait):
    job = ask(owner, "mine")
    assert stranger_client.post(f"/jobs/{job.pk}/cancel/").status_code == 404
    assert Job.objects.get(pk=job.pk).state == "queued"


def test_an_export_larger_than_the_files_kept_is_made_in_parts_and_downloaded_whole(
    owner, owner_client, settings, monkeypatch
):
    settings.JOB_FILES_BYTES_PER_OWNER = 10_000  # far below this account's export
    monkeypatch.setattr(JobFile, "CHUNK", 4096)
    for n in range(6):
        make_table(owner, name=f"Table {n}")
    answer = owner_client.get("/account/everything.json")
    assert answer.status_code == 200 and answer.streaming
    content = answer.getvalue()
    document = json.loads(content)
    assert len(document["tables"]) == 6
    job = Job.objects.get(kind="export")
    assert job.file_bytes == len(content) > settings.JOB_FILES_BYTES_PER_OWNER
    assert JobFile.objects.filter(job=job).count() == -(-len(content) // 4096)


def test_an_export_is_written_in_bounded_memory(owner, jobs_wait, monkeypatch):
    """The worker never holds the export whole: its peak memory while writing the file does
    not grow with the file (the records are read 20 at a time, the file kept a part at a
    time). Measured on one account at 200 and then at 800 tables: a file four times as
    large, and a peak within half again of the first (about 1 to 2 MB either way, most of
    it the 20 records in hand and the tables' readings a process keeps, a bounded cache)."""
    table = make_table(owner, name="Copied")
    monkeypatch.setattr(JobFile, "CHUNK", 64 * 1024)

    def copies(count: int) -> None:  # of one table's row: many documents, made cheaply
        for _ in range(count):
            table.pk = None
            table.share_code = table._meta.get_field("share_code").get_default()
            table.save()

    def export_peak(key: str) -> tuple[int, int]:
        job = ask(owner, key)
        gc.collect()
        tracemalloc.start()
        try:
            run_waiting_jobs()
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        job.refresh_from_db()
        assert job.state == "done", job.error
        return peak, job.file_bytes

    ask(owner, "warm")  # untraced: what a process imports and caches once is not the file's
    run_waiting_jobs()
    copies(200)
    small_peak, small_file = export_peak("small")
    copies(600)
    large_peak, large_file = export_peak("large")
    assert large_file > 3.5 * small_file
    assert large_peak < 1.5 * small_peak + 256 * 1024, (small_peak, large_peak)
    assert large_peak < large_file / 2, (large_peak, large_file)


def test_a_run_taken_for_lost_stops_at_its_next_step_and_leaves_the_job_to_the_run_that_has_it(
    owner, jobs_wait, monkeypatch
):
    """A worker frozen past JOB_LOST_SECONDS is taken for lost and its job queued again; when
    it wakes, its next step finds another run holding the job and stops, touching nothing:
    no job is made by two runs at once."""
    job = ask(owner, "frozen")

    def frozen_run(job, progress):
        progress(1, 3)
        # Meanwhile the sweep took the job up and queued it again (a run of its own).
        Job.objects.filter(pk=job.pk).update(state="queued")
        running.queue(Job.objects.get(pk=job.pk))
        progress(2, 3)
        raise AssertionError("the run went on beside the one that holds the job")

    monkeypatch.setattr(kinds, "_KINDS", {"export": kinds.JobKind("export", frozen_run)})
    kinds.Progress.EVERY = 0
    try:
        failure = running.run(job.pk)
    finally:
        kinds.Progress.EVERY = 0.5
    assert isinstance(failure, running.RunFailed) and "another run" in str(failure)
    job.refresh_from_db()
    assert job.state == "queued" and job.error == ""
