"""Requests at once, in threads of their own, each with its own connection to the test
database: for the bounds that must hold under concurrency (login guesses, jobs)."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, connections


@pytest.fixture
def thread_database(transactional_db, tmp_path) -> dict[str, Any]:
    """The database settings for other threads. SQLite's in-memory test database locks whole
    tables between connections and fails at once where the site's file database (WAL, a
    20 s busy timeout) waits its turn, so on SQLite the threads get a file copy of it."""
    if connection.vendor != "sqlite":
        return dict(connection.settings_dict)
    copy = tmp_path / "threads.sqlite3"
    connection.ensure_connection()
    with sqlite3.connect(copy) as target:
        connection.connection.backup(target)
        # In WAL mode before the threads connect: each connection's init_command asks for
        # it, and eight connections switching a fresh file's journal at once found it
        # locked ("database is locked" at connect, once in a fresh clone's make test).
        target.execute("PRAGMA journal_mode=WAL")
    target.close()
    return {**connection.settings_dict, "NAME": str(copy)}


def at_once(count: int, database: dict[str, Any], attempt: Callable[[int], Any]) -> list[Any]:
    """``attempt(i)`` in ``count`` threads released together; what each returned, or the
    exception it raised."""
    start = threading.Barrier(count)
    answers: list[Any] = []

    def run(i: int) -> None:
        connections["default"] = type(connections["default"])(database, "default")
        try:
            start.wait()
            try:
                answers.append(attempt(i))
            except Exception as refused:
                answers.append(refused)
        finally:
            connections["default"].close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(answers) == count
    return answers
