"""Several tabs editing one table at once: every accepted edit is kept.

Each thread is a tab with its own hexes; it sends the version it last saw (some send none,
as a script might). An edit is accepted when answered 200 or 302; afterwards each hex must
hold exactly the kind of the last accepted edit to it, and the name the last accepted
rename gave. Runs on SQLite and on PostgreSQL (DATABASE_URL).

The SQLite test database lives in memory with a shared cache, where a second writer gets
"database table is locked" at once instead of waiting as the site's file database does: such
a request answers 500 and counts as refused (it saved nothing, which is what is checked)."""

from __future__ import annotations

import random
import re
import threading
import time

import pytest
from django.db import OperationalError, connection
from django.test import Client

from tablegen.models import Table

THREADS = 4
EDITS = 40
KINDS = ["", "cover", "elevated", "blocking"]
VERSION = re.compile(r'data-version="(\d+)"')


def current_version(pk: int) -> int:
    # Asked again for 30 s, not 100 times (1 s): on a busy machine the other tabs' threads
    # hold the table longer between two turns of this one.
    deadline = time.monotonic() + 30
    while True:
        try:
            return Table.objects.get(pk=pk).version
        except OperationalError:  # SQLite in memory: locked; try again
            assert time.monotonic() < deadline, "the table stayed locked"
            time.sleep(0.01)


@pytest.mark.django_db(transaction=True)
def test_concurrent_edits_and_renames_lose_no_accepted_edit(django_user_model):
    owner = django_user_model.objects.create_user("tabs", "t@example.com", "a-long-pass-phrase")
    setup = Client()
    setup.force_login(owner)
    setup.post("/tables/empty/", {"name": "Shared", "rows": 8, "columns": 8})
    table = Table.objects.get()
    hexes = list(table.to_spec().board.hexes)
    random.Random(0).shuffle(hexes)
    # Each tab owns its hexes: the last accepted edit to a hex is its final kind.
    expected: dict[tuple[int, int], str] = {}
    renamed: list[str] = []  # tab 2 renames too: its last accepted name is the table's
    accepted = [0] * THREADS
    # Accepted edits that changed something: an edit to the kind a hex has saves nothing.
    changed = [0] * THREADS
    refused = [0] * THREADS
    lock = threading.Lock()
    start = threading.Barrier(THREADS, timeout=60)
    failures: list[BaseException] = []
    clients = []
    for _ in range(THREADS):
        client = Client(raise_request_exception=False)
        client.force_login(owner)
        clients.append(client)

    def tab(number: int) -> None:
        try:
            edits(number)
        except BaseException as error:  # re-raised in the test's own thread
            failures.append(error)
            start.abort()
        finally:
            connection.close()

    def edits(number: int) -> None:
        client = clients[number]
        mine = hexes[number::THREADS][:6]
        rng = random.Random(number)
        version: int | None = 0
        start.wait()
        for edit in range(EDITS):
            sends_version = number % 2 == 0  # odd tabs send none: "treated as current"
            if number == 2 and edit % 5 == 0:  # an even tab: its renames send a version
                name = f"Tab {number} edit {edit}"
                data = {"name": name} | ({"version": version} if sends_version else {})
                response = client.post(f"/tables/{table.pk}/rename/", data)
                if response.status_code == 302:
                    renamed.append(name)
                    accepted[number] += 1
                    changed[number] += 1
                else:
                    assert response.status_code == 409 or connection.vendor == "sqlite"
                    refused[number] += 1
                version = current_version(table.pk)
                continue
            hex_ = rng.choice(mine)
            kind = rng.choice(KINDS)
            data = {"q": hex_[0], "r": hex_[1], "kind": kind}
            if sends_version:
                data["version"] = version
            response = client.post(
                f"/tables/{table.pk}/terrain/", data, headers={"HX-Request": "true"}
            )
            if response.status_code == 200:
                with lock:
                    # Each tab owns its hexes: what it last set is what they hold.
                    changed[number] += expected.get(hex_, "") != kind
                    expected[hex_] = kind
                accepted[number] += 1
            else:
                assert response.status_code == 409 or connection.vendor == "sqlite", (
                    response.status_code
                )
                refused[number] += 1
            found = VERSION.findall(response.content.decode())
            version = int(found[0]) if found else current_version(table.pk)

    threads = [threading.Thread(target=tab, args=(n,)) for n in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failures:
        raise failures[0]

    table.refresh_from_db()
    spec = table.to_spec()
    for hex_, kind in expected.items():
        assert (spec.kind_at(hex_) or "") == kind, hex_
    edited = set(expected)
    assert all(spec.kind_at(h) is None for h in hexes if h not in edited)
    assert table.name == (renamed[-1] if renamed else "Shared")
    # Each accepted write that changed something made exactly one version.
    assert table.version == sum(changed)
    assert sum(accepted) >= EDITS // 2  # the tabs did get edits through
    print(f"\naccepted {sum(accepted)}, refused {sum(refused)} on {connection.vendor}")
