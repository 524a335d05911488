"""config.sqlite: the writers of one process wait their turn on a lock of the process's own,
and SQLite's write lock still keeps their transactions apart (issue 34)."""

from __future__ import annotations

import pytest
from django.db import connection, connections, transaction

from accounts.storage import used
from config.sqlite import base as sqlite_base
from tests.factories import make_force
from tests.threads import at_once, thread_database  # noqa: F401 (a fixture)

pytestmark = pytest.mark.skipif(
    connection.vendor != "sqlite", reason="the SQLite backend's own waiting"
)


def test_writers_in_threads_all_commit_one_at_a_time(thread_database):  # noqa: F811
    # Made in the threads' database (a copy of the test database taken before).
    [force] = at_once(1, thread_database, lambda i: make_force())
    inside = []

    def write(i: int) -> int:
        with transaction.atomic():
            inside.append(i)
            assert connections["default"].holds_write_lock
            # Read, then write what was read plus one: a lost update if two were inside.
            current = type(force).objects.get(pk=force.pk).points_limit
            type(force).objects.filter(pk=force.pk).update(points_limit=current + 1)
        return i

    answers = at_once(8, thread_database, write)
    assert sorted(answers) == list(range(8))
    connections["default"] = type(connections["default"])(thread_database, "default")
    try:
        assert type(force).objects.get(pk=force.pk).points_limit == force.points_limit + 8
    finally:
        connections["default"].close()
    # Every thread let go of the process's lock: another can take it at once.
    assert sqlite_base._WRITING.acquire(blocking=False)
    sqlite_base._WRITING.release()


def test_the_lock_is_let_go_on_rollback(thread_database):  # noqa: F811
    def fail(i: int) -> None:
        with transaction.atomic():
            used(None, "nobody")
            raise ValueError("rolled back")

    answers = at_once(3, thread_database, fail)
    assert all(isinstance(answer, ValueError) for answer in answers)
    assert sqlite_base._WRITING.acquire(blocking=False)
    sqlite_base._WRITING.release()
