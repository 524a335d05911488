"""config.sqlite: SQLite's writers take their turn (the threads of a process on a lock, the
processes on a file lock beside the database) before BEGIN IMMEDIATE, and let it go when
their transaction ends, however it ends (issue 34). SQLite's own lock still keeps the
writes apart: the turn only orders the waiters."""

from __future__ import annotations

import contextlib
import fcntl
import os
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection, connections, transaction

from config.sqlite import base as sqlite_base
from forcebuilder.models import Force
from tests.factories import make_force
from tests.threads import at_once, thread_database  # noqa: F401 (a fixture)

pytestmark = pytest.mark.skipif(
    connection.vendor != "sqlite", reason="the SQLite backend's own waiting"
)


def turn_is_free(path: str) -> bool:
    """Whether another writer could take the process's turn for ``path`` at once."""
    turn = sqlite_base.turn_of(path)
    if not turn.threads.acquire(blocking=False):
        return False
    turn.threads.release()
    return True


@contextlib.contextmanager
def as_database(database: dict, *, timeout: float | None = None) -> Iterator[Any]:
    """A connection of this thread to ``database`` (``timeout``: the wait for the turn and
    for SQLite's lock) in place of the test's, which is put back afterwards (the tests after
    this one use it)."""
    settings = dict(database)
    if timeout is not None:
        settings["OPTIONS"] = {**settings["OPTIONS"], "timeout": timeout}
    test_connection = connections["default"]
    connections["default"] = type(test_connection)(settings, "default")
    try:
        yield connections["default"]
    finally:
        connections["default"].close()
        connections["default"] = test_connection


def test_writers_in_threads_all_commit_one_at_a_time(thread_database):  # noqa: F811
    [force] = at_once(1, thread_database, lambda i: make_force())
    inside: list[int] = []

    def write(i: int) -> int:
        with transaction.atomic():
            assert connections["default"].holds_writers_turn
            inside.append(i)
            assert len(inside) == 1, "two writers inside at once"
            # Read, then write what was read plus one: a lost update if two were inside.
            current = Force.objects.get(pk=force.pk).points_limit
            Force.objects.filter(pk=force.pk).update(points_limit=current + 1)
            inside.remove(i)
        return i

    assert sorted(at_once(8, thread_database, write)) == list(range(8))
    with as_database(thread_database) as database:
        assert Force.objects.get(pk=force.pk).points_limit == force.points_limit + 8
        assert not database.holds_writers_turn
    assert turn_is_free(thread_database["NAME"])


def test_the_turn_is_let_go_on_rollback_and_on_close(thread_database):  # noqa: F811
    def fail(i: int) -> None:
        with transaction.atomic():
            Force.objects.filter(pk=0).update(points_limit=1)
            raise ValueError("rolled back")

    answers = at_once(3, thread_database, fail)
    assert all(isinstance(answer, ValueError) for answer in answers)
    assert turn_is_free(thread_database["NAME"])

    # A connection closed inside its transaction (a broken request) lets it go too.
    with as_database(thread_database) as database:
        try:
            transaction.atomic().__enter__()
            Force.objects.filter(pk=0).update(points_limit=1)
            assert database.holds_writers_turn and not turn_is_free(thread_database["NAME"])
            database.close()
            assert not database.holds_writers_turn
            assert turn_is_free(thread_database["NAME"])
        finally:
            database.in_atomic_block = False
            database.closed_in_transaction = False
            database.connection = None


def test_a_writer_waits_for_another_process_holding_the_files_turn(thread_database):  # noqa: F811
    [force] = at_once(1, thread_database, lambda i: make_force())
    # Another process's writer, as the lock file sees it: a descriptor of its own.
    other = os.open(f"{thread_database['NAME']}-writers.lock", os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(other, fcntl.LOCK_EX)
    committed: list[float] = []

    def write(i: int) -> None:
        with transaction.atomic():
            Force.objects.filter(pk=force.pk).update(points_limit=99)
        committed.append(time.monotonic())

    thread = threading.Thread(target=at_once, args=(1, thread_database, write))
    try:
        thread.start()
        thread.join(0.5)
        assert not committed, "wrote while another process had the turn"
    finally:
        let_go = time.monotonic()
        fcntl.flock(other, fcntl.LOCK_UN)
        os.close(other)
    thread.join()
    assert committed and committed[0] >= let_go
    assert turn_is_free(thread_database["NAME"])


def test_a_writer_that_never_gets_the_turn_asks_sqlite_all_the_same(thread_database):  # noqa: F811
    [force] = at_once(1, thread_database, lambda i: make_force())
    # A turn held for ever (a process stopped mid-write, say) costs the database's timeout,
    # then SQLite's own lock decides: here it is free, so the write goes through.
    other = os.open(f"{thread_database['NAME']}-writers.lock", os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(other, fcntl.LOCK_EX)
    try:
        with as_database(thread_database, timeout=0.2) as database:
            with transaction.atomic():
                Force.objects.filter(pk=force.pk).update(points_limit=42)
                assert database.holds_writers_turn  # the process's turn, not the file's
            assert Force.objects.get(pk=force.pk).points_limit == 42
    finally:
        fcntl.flock(other, fcntl.LOCK_UN)
        os.close(other)
    assert turn_is_free(thread_database["NAME"])


def test_a_forked_child_starts_with_turns_of_its_own(thread_database):  # noqa: F811
    path = thread_database["NAME"]
    turn = sqlite_base.turn_of(path)
    assert turn.take(time.monotonic() + 1) == (True, True)
    try:
        child = os.fork()
        if child == 0:  # the child: the parent's held turn is not its own
            got = sqlite_base.turn_of(path).take(time.monotonic() + 0.2)
            os._exit(0 if got[0] else 1)
        _, status = os.waitpid(child, 0)
        assert os.waitstatus_to_exitcode(status) == 0
    finally:
        turn.give_back(True, True)
    assert turn_is_free(path)


def test_an_in_memory_database_has_the_process_turn_alone():
    turn = sqlite_base.turn_of(None)
    assert turn.take(time.monotonic() + 1) == (True, False)
    turn.give_back(True, False)


def test_the_task_queues_exclusive_claim_takes_its_turn_too(thread_database):  # noqa: F811
    # django_tasks_db claims a job in an EXCLUSIVE transaction: without a turn it would wait
    # in SQLite's busy handler behind every writer that has one.
    with as_database(thread_database) as database:
        database.ensure_connection()
        database.transaction_mode = "EXCLUSIVE"
        with transaction.atomic():
            Force.objects.filter(pk=0).update(points_limit=1)
            assert database.holds_writers_turn
        assert not database.holds_writers_turn
    assert turn_is_free(thread_database["NAME"])


def test_a_turn_is_taken_and_given_back_while_the_connection_says_so(thread_database, monkeypatch):  # noqa: F811
    # The task worker's time limit (jobs.running.time_limit) waits while it says so.
    seen = []
    take, give_back = sqlite_base.WritersTurn.take, sqlite_base.WritersTurn.give_back

    def taking(turn, deadline):
        seen.append(("take", connections["default"].taking_turn))
        return take(turn, deadline)

    def giving_back(turn, threads, file):
        seen.append(("give back", connections["default"].taking_turn))
        give_back(turn, threads, file)

    monkeypatch.setattr(sqlite_base.WritersTurn, "take", taking)
    monkeypatch.setattr(sqlite_base.WritersTurn, "give_back", giving_back)
    with as_database(thread_database) as database:
        with transaction.atomic():
            Force.objects.filter(pk=0).update(points_limit=1)
            assert not database.taking_turn
        assert not database.taking_turn
    assert seen == [("take", True), ("give back", True)]


def test_a_turn_left_noted_is_given_back_before_the_next_is_taken(thread_database):  # noqa: F811
    with as_database(thread_database) as database:
        database.ensure_connection()
        turn = sqlite_base.turn_of(thread_database["NAME"])
        # As an interrupted commit would leave it: committed, its turn still noted.
        database._writers_turn = (turn, *turn.take(time.monotonic() + 1))
        with transaction.atomic():
            Force.objects.filter(pk=0).update(points_limit=1)
    assert turn_is_free(thread_database["NAME"])
