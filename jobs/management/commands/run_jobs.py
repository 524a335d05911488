"""The task worker: `manage.py run_jobs` (what `make run` and `make serve` start beside the
web server, supervised: deploy/serve.py starts it again within seconds if it dies; start
more on other machines against the same database, each with an id of its own).

django-tasks-db's worker (`db_worker`), with a sweeper beside it. At its start the worker
takes up at once the jobs a worker of its id left running (jobs.running.recover: the
supervisor starts a dead worker again under the same id); every few seconds (half of
JOB_LOST_SECONDS, at most 15 s) the sweeper queues again the runs of any worker whose
heartbeat has been silent for JOB_LOST_SECONDS, forgets expired jobs, and prunes the
queue's records of runs finished more than TASK_RESULTS_KEEP_HOURS ago, whether or not
jobs arrive. Any number of workers can share the queue: each task is claimed by one of
them, in a transaction.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from typing import Any

from django.conf import settings
from django.db import close_old_connections, connection
from django_tasks_db.management.commands.db_worker import Command as DatabaseWorker

from jobs import queue_records
from jobs.running import recover, sweep
from onefinity.memory import tune_garbage_collector

logger = logging.getLogger(__name__)


def sweeping(every: float, stop: threading.Event) -> None:
    while not stop.wait(every):
        try:
            close_old_connections()
            sweep()
            queue_records.prune()
        except Exception:  # a database restarting: the next round tries again
            logger.exception("the sweep of lost and expired jobs failed")
        finally:
            connection.close()


class Command(DatabaseWorker):
    help = "Run the task worker: the jobs queued in the database, as they come."

    def add_arguments(self, parser: Any) -> None:
        super().add_arguments(parser)
        # Unique among live workers, and the same when a supervisor starts a dead worker
        # again, so that it takes its lost job up at once (deploy/serve.py gives
        # host:port:n). By hand: this machine and process, taken up by the sweep.
        parser.set_defaults(worker_id=f"{socket.gethostname()[:40]}:{os.getpid()}")

    def handle(self, *args: Any, **options: Any) -> None:
        # The web server's collector settings (onefinity/memory.py): the worker renders the
        # PDFs and packs, with the same garbage as a request's and more of it.
        tune_garbage_collector()
        taken = recover(options["worker_id"])
        if taken:
            logger.warning("took up %s job(s) this worker left running when it stopped", taken)
        sweep()
        stop = threading.Event()
        every = min(15.0, max(1.0, settings.JOB_LOST_SECONDS / 2))
        threading.Thread(target=sweeping, args=(every, stop), daemon=True).start()
        try:
            super().handle(*args, **options)
        finally:
            stop.set()
