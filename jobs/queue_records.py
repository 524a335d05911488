"""What the task queue's own records need from us: a lost run's record marked failed, and
finished records pruned. Only the database backend (django-tasks-db) keeps records here;
with any other backend these do nothing (its own tools keep its records).

Django's Tasks API has no call to fail a run from outside or to forget old results, so
these are the one place that knows the database backend's model.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.utils import timezone
from django_tasks import DEFAULT_TASK_BACKEND_ALIAS, task_backends

# Finished records deleted in one go, at most (the sweep runs every few seconds).
PRUNE_BATCH = 500


def _database_backend() -> bool:
    from django_tasks_db.backend import DatabaseBackend

    return isinstance(task_backends[DEFAULT_TASK_BACKEND_ALIAS], DatabaseBackend)


def lost(task_id: str) -> None:
    """The run ``task_id`` lost its worker: its record says failed, not running for ever."""
    if not task_id or not _database_backend():
        return
    from django_tasks_db.models import DBTaskResult

    DBTaskResult.objects.filter(id=task_id, status="RUNNING").update(
        status="FAILED",
        finished_at=timezone.now(),
        exception_class_path="jobs.running.WorkerLost",
        traceback="The worker running it stopped (killed, or its machine lost); the job "
        "was queued again.",
    )


def prune() -> int:
    """Delete the records of runs finished more than TASK_RESULTS_KEEP_HOURS ago (a batch at
    a time); how many."""
    if not _database_backend():
        return 0
    from django_tasks_db.models import DBTaskResult

    before = timezone.now() - timedelta(hours=settings.TASK_RESULTS_KEEP_HOURS)
    old = DBTaskResult.objects.finished().filter(finished_at__lt=before)
    batch = list(old.values_list("pk", flat=True)[:PRUNE_BATCH])
    if batch:
        DBTaskResult.objects.filter(pk__in=batch).delete()
    return len(batch)
