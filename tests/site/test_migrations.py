"""Moving the login limits' table from the rules app to accounts keeps its rows."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from accounts.models import Attempt


@pytest.mark.django_db(transaction=True)
def test_the_attempts_recorded_before_the_move_are_still_counted_after_it():
    executor = MigrationExecutor(connection)
    before = [("accounts", None), ("onefinity", "0002_attempts")]
    executor.migrate(before)
    state = executor.loader.project_state([("onefinity", "0002_attempts")])
    old = state.apps.get_model("onefinity", "Attempt")
    old.objects.create(kind="password", account="a" * 64, address="b" * 64)
    old.objects.create(kind="reset", account="c" * 64, address="d" * 64)

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    assert Attempt._meta.db_table == "accounts_attempt"
    assert sorted(Attempt.objects.values_list("kind", "account")) == [
        ("password", "a" * 64),
        ("reset", "c" * 64),
    ]
    assert "onefinity_attempt" not in connection.introspection.table_names()
