"""Django's SQLite backend, with the writers of one server process queued on a lock.

Every write transaction starts with BEGIN IMMEDIATE (config.settings), which takes SQLite's
one write lock or waits for it in SQLite's busy handler. That handler sleeps between tries,
longer each time (1, 2, 5, 10 ... up to 100 ms), so under load a writer that has waited a
while sleeps through the moments the lock is free while newer writers take it: most of an
editor change's time under the mixed load was spent there, and its p95 with it
(docs/performance.md, issue 34).

Here the threads of one process that want to write wait for each other on a threading
lock, which wakes the next one the moment the last commits or rolls back, and only one
thread per process asks SQLite, polling BEGIN IMMEDIATE every 0.5 to 4 ms. SQLite's lock is
still what keeps writes apart: the process's lock only orders the waiters, and a thread
that cannot have it within the database's timeout asks SQLite all the same.
"""

from __future__ import annotations

import contextlib
import threading
import time
from typing import Any

from django.db import utils
from django.db.backends.sqlite3 import base

# One per process: shared by the connections of all its threads (re-entrant: a thread
# that holds it for one connection is never kept waiting by itself).
_WRITING = threading.RLock()


# Typed as Any: the stubs leave out the private methods overridden here.
_SQLite: Any = base.DatabaseWrapper


class DatabaseWrapper(_SQLite):
    holds_write_lock = False

    def _start_transaction_under_autocommit(self) -> None:
        if self.transaction_mode != "IMMEDIATE":
            super()._start_transaction_under_autocommit()
            return
        timeout = float(self.settings_dict["OPTIONS"].get("timeout", 5))
        deadline = time.monotonic() + timeout
        self.holds_write_lock = _WRITING.acquire(timeout=timeout)
        try:
            self._begin_immediate(deadline)
        except BaseException:
            self._release_write_lock()
            raise

    def _begin_immediate(self, deadline: float) -> None:
        """BEGIN IMMEDIATE, asked again every few milliseconds until SQLite gives the lock
        or the deadline passes ("database is locked", as SQLite's own timeout says)."""
        connection: Any = self.connection
        pause = 0.0005
        connection.execute("PRAGMA busy_timeout = 0")
        try:
            while True:
                try:
                    self.cursor().execute("BEGIN IMMEDIATE")
                    return
                except (self.Database.OperationalError, utils.OperationalError) as error:
                    if "locked" not in str(error) or time.monotonic() >= deadline:
                        raise
                time.sleep(pause)
                pause = min(pause * 2, 0.004)
        finally:
            # Statements outside a transaction (autocommit) wait in SQLite as before.
            milliseconds = int(float(self.settings_dict["OPTIONS"].get("timeout", 5)) * 1000)
            connection.execute(f"PRAGMA busy_timeout = {milliseconds}")

    def _release_write_lock(self) -> None:
        if self.holds_write_lock:
            self.holds_write_lock = False
            with contextlib.suppress(RuntimeError):  # closed from another thread
                _WRITING.release()

    def _commit(self) -> None:
        try:
            super()._commit()
        finally:
            self._release_write_lock()

    def _rollback(self) -> None:
        try:
            super()._rollback()
        finally:
            self._release_write_lock()

    def _close(self) -> None:
        try:
            super()._close()
        finally:
            self._release_write_lock()
