"""Personas shared by the site's tests: an owner and a stranger, each signed in."""

from __future__ import annotations

import os
from typing import Any

import pytest
from django.test import Client
from hypothesis import settings as hypothesis_settings

# Hypothesis profiles: how many examples each property test draws, as a share of the number
# it names (``examples(n)``): `ci` (the default, what `make test` and CI run), `again` (half:
# CI's second pass, on PostgreSQL, whose examples explore nothing the first pass's did not;
# it is there for what the database does differently, which every example meets), `dev` (a
# quarter, for a quick run: HYPOTHESIS_PROFILE=dev) and `soak` (ten times). No per-example
# deadline in any: hypothesis's default 200 ms turns a busy machine (CI's two cores running
# two test workers, a browser and a PDF renderer) into flaky failures that test nothing.
# Requests are bounded by the site's own limits, tested where they are set.
SHARES = {"dev": 0.25, "again": 0.5, "ci": 1.0, "soak": 10.0}
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")
if PROFILE not in SHARES:
    raise ValueError(f"HYPOTHESIS_PROFILE is one of {', '.join(SHARES)}, not {PROFILE!r}")
for _name, _share in SHARES.items():
    hypothesis_settings.register_profile(
        _name, deadline=None, max_examples=max(10, round(100 * _share))
    )
hypothesis_settings.load_profile(PROFILE)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Run the tests under the server's garbage-collector settings (onefinity/memory.py): what
    start-up and collection made (Django, the ruleset, a thousand tests' strategies) frozen,
    the youngest generation collected every 50,000 new objects. With Python's defaults the
    collector walked all of it again and again: a tenth of the property tests' time."""
    from onefinity.memory import tune_garbage_collector

    tune_garbage_collector()


def examples(count: int) -> int:
    """``count`` examples under the `ci` profile, scaled by the profile loaded."""
    return max(1, round(count * SHARES[PROFILE]))


OWNER_PASSWORD = "a-long-pass-phrase"

# Fixtures that reach the database (pytest-django's and the personas built on them).
DATABASE_FIXTURES = {
    "db",
    "transactional_db",
    "live_server",
    "django_user_model",
    "admin_user",
    "admin_client",
}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test that touches the database ``database``: CI's second pass, on
    PostgreSQL, runs only those (`-m "database and not browser"`); the engine's tests and
    the browser's, which a database does not change, run once, on SQLite."""
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        if item.get_closest_marker("django_db") or fixtures & DATABASE_FIXTURES:
            item.add_marker(pytest.mark.database)


@pytest.fixture
def owner(django_user_model):
    return django_user_model.objects.create_user("owner", "owner@example.com", OWNER_PASSWORD)


@pytest.fixture
def stranger(django_user_model):
    return django_user_model.objects.create_user("stranger", "s@example.com", "another-long-phrase")


@pytest.fixture
def owner_client(owner) -> Client:
    client = Client()
    client.force_login(owner)
    return client


def signed_in(user: Any) -> Client:
    """A test client signed in as ``user``."""
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def stranger_client(stranger) -> Client:
    return signed_in(stranger)


@pytest.fixture(autouse=True)
def jobs_run_in_the_request(settings):
    """Unit tests run each background job inside the request that queues it (the Tasks
    API's immediate backend); tests/jobs runs them through a real worker on the database."""
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}


@pytest.fixture(autouse=True)
def generation_outwaits_a_busy_machine(monkeypatch):
    """A table's search has a wall-clock budget (4 s in the worker): a box's search that ends
    by its bound on candidates in half a second runs out of time on a machine at load 20, and
    its page then says "made no valid table within 4 s" without its advice. A test that is
    not about the budget gets a minute, so what it sees is the search's outcome (the same
    whatever the budget), not the machine's speed; tests of the budget set their own."""
    from tablegen import jobs as table_jobs

    monkeypatch.setattr(table_jobs, "WORKER_SECONDS", 60.0)


@pytest.fixture
def jobs_wait(settings):
    """Background jobs are queued and wait (the Tasks API's dummy backend): a test sees the
    pages while the work is being done, and does the work itself (run_waiting_jobs, or the
    steps the job takes) when it chooses."""
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}


def run_waiting_jobs() -> int:
    """Run every queued job as the worker would; how many ran."""
    from jobs.models import Job
    from jobs.running import run

    waiting = list(Job.objects.filter(state=Job.State.QUEUED).values_list("pk", flat=True))
    for pk in waiting:
        run(pk)
    return len(waiting)


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    """Hash test passwords cheaply: PBKDF2's million rounds cost about a second per user
    created or logged in, which is most of many tests' time and tests nothing of ours."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def nothing_cached_from_another_test():
    """Printouts are cached per record and version (forcebuilder and tablegen views): a
    record of another test's database can have the same ones."""
    from django.core.cache import cache

    cache.clear()
