"""A list's drawn roster is kept by what it is drawn from (forcebuilder.printing.roster_of):
its pages never show an earlier state of the list or an old share link, and what a process
keeps stays within its bytes."""

from __future__ import annotations

import re

import cachetools
import pytest

from forcebuilder import printing
from forcebuilder.models import Force
from tests.factories import make_force

pytestmark = pytest.mark.django_db


def points(page: bytes) -> str:
    found = re.search(r"(\d+)/75 points", page.decode())
    assert found, "the roster names no points"
    return found.group(1)


def add_trooper(client, force: Force) -> None:
    force.refresh_from_db()
    response = client.post(
        f"/forces/{force.pk}/edit/",
        {"action": "add-trooper", "unit": 0, "version": force.version},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200


def test_the_shared_page_and_the_print_view_follow_every_change(client, owner_client, force):
    shared, printed = f"/s/{force.share_code}/", f"/forces/{force.pk}/roster/"
    before = points(client.get(shared).content)
    assert points(owner_client.get(printed).content) == before
    add_trooper(owner_client, force)
    after = points(client.get(shared).content)
    assert int(after) > int(before)
    assert points(owner_client.get(printed).content) == after
    # Undone, the list is as it was (a new version of it): so is its roster.
    force.refresh_from_db()
    owner_client.post(f"/forces/{force.pk}/undo/", {"version": force.version})
    assert points(client.get(shared).content) == before
    assert points(owner_client.get(printed).content) == before


def test_a_new_share_link_is_on_the_roster_and_the_old_one_nowhere(owner_client, force):
    old = force.share_code
    printed = f"/forces/{force.pk}/roster/"
    assert old in owner_client.get(printed).content.decode()
    owner_client.post(f"/forces/{force.pk}/sharing/", {"change": "off"})
    page = owner_client.get(printed).content.decode()
    assert old not in page and "Share code" not in page
    owner_client.post(f"/forces/{force.pk}/sharing/", {"change": "new"})
    force.refresh_from_db()
    assert force.share_code and force.share_code != old
    assert old not in owner_client.get(f"/s/{force.share_code}/").content.decode()
    page = owner_client.get(printed).content.decode()
    assert force.share_code in page and old not in page


def test_kept_rosters_stay_within_their_bytes(client, owner, monkeypatch):
    kept = cachetools.LRUCache(
        maxsize=60_000, getsizeof=lambda roster: len(roster.body) + len(roster.preview)
    )
    monkeypatch.setattr(printing, "_ROSTERS", kept)
    forces = [make_force(owner, name=f"List {n}") for n in range(12)]
    for force in forces:
        page = client.get(f"/s/{force.share_code}/").content.decode()
        assert force.name in page and force.share_code in page
        assert 0 < kept.currsize <= kept.maxsize
    # Fewer than all twelve are kept, the latest drawn among them.
    assert len(kept) < len(forces)
    assert printing.roster_key(forces[-1], _shared(forces[-1]), False) in kept


def _shared(force: Force) -> str:
    return f"http://testserver/s/{force.share_code}/"


def test_a_version_is_drawn_once_and_a_new_one_again(client, owner_client, force, monkeypatch):
    drawn = []
    real = printing.sheet_of
    monkeypatch.setattr(printing, "sheet_of", lambda f: drawn.append(f.version) or real(f))
    shared = f"/s/{force.share_code}/"
    for _ in range(3):
        assert client.get(shared).status_code == 200
    assert len(drawn) == 1
    add_trooper(owner_client, force)
    client.get(shared)
    client.get(shared)
    force.refresh_from_db()
    assert drawn == [force.version - 1, force.version]
