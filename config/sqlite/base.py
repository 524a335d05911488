"""Django's SQLite backend, with the writers of every server process served in turn.

Every write transaction starts with BEGIN IMMEDIATE (config.settings), which takes SQLite's
one write lock or waits for it in SQLite's busy handler. That handler sleeps between tries,
longer each time (1, 2, 5, 10, ... up to 100 ms): a writer that has waited a while sleeps
through the moments the lock is free while newer writers take it. Under the mixed load at
200 requests/s the write lock was held 5 ms a transaction (1.6 ms of it CPU), about a third
of the time, yet a writer waited 32 ms for it on average and 134 ms at p95 (docs/
performance.md, "Writers in turn"): most of the editor's p95.

Here a writer takes its turn before BEGIN IMMEDIATE: first among the threads of its process
(a threading lock, which wakes the next the moment it is let go), then among the processes
that write to the file (an ``flock`` on a file beside the database, asked every 0.25 to 1 ms
by the one thread of each process whose turn it is). The turn is let go when the
transaction ends: committed, rolled back or its connection closed. SQLite's own lock is
still what keeps writes apart; the turn only orders the waiters, so a writer that has not
had its turn within the database's timeout asks SQLite all the same (and may wait its
timeout there too: twice the timeout at worst, where it was once), and a statement outside
a transaction (autocommit) waits in SQLite's busy handler as before. An in-memory
database (the tests') has no file to lock and only the process's turn.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import threading
import time
from typing import Any

from django.db.backends.sqlite3 import base

# The longest pause between two asks for the file's lock (seconds).
LONGEST_PAUSE = 0.001


class WritersTurn:
    """The turn of one database file's writers, in this process."""

    def __init__(self, path: str | None) -> None:
        self.threads = threading.Lock()
        self.path = path
        self.descriptor: int | None = None

    def take(self, deadline: float) -> tuple[bool, bool]:
        """Wait for the turn until ``deadline`` (time.monotonic): whether this thread got
        the process's turn, and whether it got the file's."""
        if not self.threads.acquire(timeout=max(0.0, deadline - time.monotonic())):
            return False, False
        try:
            return True, self._take_file(deadline)
        except BaseException:
            self.threads.release()
            raise

    def give_back(self, threads: bool, file: bool) -> None:
        if file and self.descriptor is not None:
            with contextlib.suppress(OSError):
                fcntl.flock(self.descriptor, fcntl.LOCK_UN)
        if threads:
            self.threads.release()

    def _take_file(self, deadline: float) -> bool:
        descriptor = self._descriptor()
        if descriptor is None:
            return False
        pause = LONGEST_PAUSE / 4
        while True:
            try:
                fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return True
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    return False
            except OSError:
                return False
            time.sleep(pause)
            pause = min(pause * 2, LONGEST_PAUSE)

    def _descriptor(self) -> int | None:
        """The lock file, opened once a process (only the thread whose turn it is asks)."""
        if self.descriptor is None and self.path is not None:
            try:
                self.descriptor = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
            except OSError:
                self.path = None  # a folder we may not write: the process's turn alone
        return self.descriptor


_TURNS: dict[str | None, WritersTurn] = {}
_TURNS_LOCK = threading.Lock()


def turn_of(path: str | None) -> WritersTurn:
    """This process's turn for the database file ``path`` (None: in memory)."""
    with _TURNS_LOCK:
        turn = _TURNS.get(path)
        if turn is None:
            turn = _TURNS[path] = WritersTurn(None if path is None else f"{path}-writers.lock")
        return turn


def _forget_turns() -> None:
    """A forked child starts with no turns: a parent's thread may have held one, and the
    lock file's descriptor must be the child's own (``flock`` locks an open file, which a
    fork shares)."""
    global _TURNS_LOCK
    _TURNS_LOCK = threading.Lock()
    for turn in _TURNS.values():
        if turn.descriptor is not None:
            with contextlib.suppress(OSError):
                os.close(turn.descriptor)
    _TURNS.clear()


os.register_at_fork(after_in_child=_forget_turns)


# Typed as Any: the stubs leave out the private methods overridden here.
_SQLite: Any = base.DatabaseWrapper


class DatabaseWrapper(_SQLite):
    # While a write transaction of this connection is open: its turn and what it holds.
    _writers_turn: tuple[WritersTurn, bool, bool] | None = None
    # True while a turn is being waited for, taken and noted, or given back and forgotten:
    # an exception raised by a signal's handler there (the task worker's time limit) could
    # leave the turn held for good, so such a handler waits while this is set (jobs.running;
    # at most the database's timeout, the longest a turn is waited for).
    taking_turn = False

    def _start_transaction_under_autocommit(self) -> None:
        # IMMEDIATE: every atomic block of the site; EXCLUSIVE: the task queue's claim of a
        # job (django_tasks_db), which would otherwise wait in the busy handler behind them.
        if self.transaction_mode in ("IMMEDIATE", "EXCLUSIVE"):
            timeout = float(self.settings_dict["OPTIONS"].get("timeout", 5))
            path = None if self.is_in_memory_db() else str(self.settings_dict["NAME"])
            turn = turn_of(path)
            self.taking_turn = True
            try:
                self._end_turn()  # one left noted by an interrupted commit: given back first
                self._writers_turn = (turn, *turn.take(time.monotonic() + timeout))
            finally:
                self.taking_turn = False
        try:
            super()._start_transaction_under_autocommit()
        except BaseException:
            self._end_turn()
            raise

    @property
    def holds_writers_turn(self) -> bool:
        return self._writers_turn is not None and self._writers_turn[1]

    def _end_turn(self) -> None:
        if self._writers_turn is not None:
            taking = self.taking_turn
            self.taking_turn = True
            try:
                turn, threads, file = self._writers_turn
                self._writers_turn = None
                turn.give_back(threads, file)
            finally:
                self.taking_turn = taking

    def _commit(self) -> None:
        try:
            super()._commit()
        finally:
            self._end_turn()

    def _rollback(self) -> None:
        try:
            super()._rollback()
        finally:
            self._end_turn()

    def _close(self) -> None:
        try:
            super()._close()
        finally:
            self._end_turn()
