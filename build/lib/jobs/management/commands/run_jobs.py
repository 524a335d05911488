"""The task worker: `manage.py run_jobs` (what `make run` and `make serve` start beside the
web server; start more on other machines against the same database).

django-tasks-db's worker (`db_worker`) with two things first: jobs left running by a worker
that stopped mid-run are queued again, and expired jobs are forgotten (jobs.running.sweep,
which every job also does before it runs). Any number of workers can share the queue: each
task is claimed by one of them, in a transaction.
"""

from __future__ import annotations

from typing import Any

from django_tasks_db.management.commands.db_worker import Command as DatabaseWorker

from jobs.running import sweep


class Command(DatabaseWorker):
    help = "Run the task worker: the jobs queued in the database, as they come."

    def handle(self, *args: Any, **options: Any) -> None:
        sweep()
        super().handle(*args, **options)
