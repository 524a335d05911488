"""The task worker: `manage.py run_jobs` (what `make run` and `make serve` start beside the
web server; start more on other machines against the same database).

django-tasks-db's worker (`db_worker`), with a sweeper beside it: jobs left running by a
worker that stopped mid-run are queued again once silent for JOB_LOST_SECONDS, and expired
jobs are forgotten (jobs.running.sweep), at the start and then every half of
JOB_LOST_SECONDS (at most a minute), whether or not jobs arrive. Any number of workers can
share the queue: each task is claimed by one of them, in a transaction.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from django.conf import settings
from django.db import close_old_connections, connection
from django_tasks_db.management.commands.db_worker import Command as DatabaseWorker

from jobs.running import sweep

logger = logging.getLogger(__name__)


def sweeping(every: float, stop: threading.Event) -> None:
    while not stop.wait(every):
        try:
            close_old_connections()
            sweep()
        except Exception:  # a database restarting: the next round tries again
            logger.exception("the sweep of lost and expired jobs failed")
        finally:
            connection.close()


class Command(DatabaseWorker):
    help = "Run the task worker: the jobs queued in the database, as they come."

    def handle(self, *args: Any, **options: Any) -> None:
        sweep()
        stop = threading.Event()
        every = min(60.0, max(1.0, settings.JOB_LOST_SECONDS / 2))
        threading.Thread(target=sweeping, args=(every, stop), daemon=True).start()
        try:
            super().handle(*args, **options)
        finally:
            stop.set()
