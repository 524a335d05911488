"""Who may do what: the owner, someone holding the share link, and a stranger."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

OWNER_GETS = [
    "",
    "roster/",
    "roster.pdf",
    "cards.pdf",
    "export.json",
    "roster.txt",
    "delete/",
    "odds/",
    "units/0/troopers/0/loadout/",
]
OWNER_POSTS = [
    ("edit/", {"action": "add-trooper", "unit": 0}),
    ("undo/", {}),
    ("redo/", {}),
    ("duplicate/", {}),
    ("delete/", {}),
    ("move-ruleset/", {}),
]
SHARE_GETS = ["", "roster/", "roster.pdf", "cards.pdf", "export.json", "roster.txt"]


@pytest.mark.parametrize("suffix", OWNER_GETS)
def test_the_owner_can_open_every_page_of_the_list(owner_client, force, suffix):
    assert owner_client.get(f"/forces/{force.pk}/{suffix}").status_code == 200


@pytest.mark.parametrize("suffix", OWNER_GETS)
def test_a_stranger_gets_not_found_for_every_page(stranger_client, force, suffix):
    assert stranger_client.get(f"/forces/{force.pk}/{suffix}").status_code == 404


@pytest.mark.parametrize("suffix", OWNER_GETS)
def test_an_anonymous_visitor_gets_not_found_too(client, force, suffix):
    assert client.get(f"/forces/{force.pk}/{suffix}").status_code == 404


@pytest.mark.parametrize(("suffix", "data"), OWNER_POSTS)
def test_a_stranger_cannot_change_the_list_even_through_htmx(stranger_client, force, suffix, data):
    before = (force.units, force.revision)
    response = stranger_client.post(
        f"/forces/{force.pk}/{suffix}", data, headers={"HX-Request": "true"}
    )
    assert response.status_code == 404
    force.refresh_from_db()
    assert (force.units, force.revision) == before


@pytest.mark.parametrize("suffix", SHARE_GETS)
def test_the_share_link_gives_read_only_pages_to_anyone(client, force, suffix):
    assert client.get(f"/s/{force.share_code}/{suffix}").status_code == 200


def test_the_share_link_does_not_open_the_editor(client, force):
    page = client.get(f"/s/{force.share_code}/").content.decode()
    assert f"/forces/{force.pk}/edit/" not in page
    assert "Copy to my lists" in page


def test_a_wrong_share_code_is_not_found(client, force):
    assert client.get("/s/not-a-real-code/").status_code == 404
    assert client.get("/s/" + "x" * 40 + "/").status_code == 404


def test_share_codes_are_long_and_random(force, owner):
    from forcebuilder.models import new_share_code

    codes = {new_share_code() for _ in range(200)}
    assert len(codes) == 200 and min(map(len, codes)) >= 22  # 16 random bytes


def test_copying_a_shared_list_makes_an_independent_list(stranger_client, force, stranger):
    response = stranger_client.post(f"/s/{force.share_code}/copy/")
    assert response.status_code == 302
    copy = stranger.forces.get()
    assert copy.pk != force.pk and copy.units == force.units and copy.share_code != force.share_code


def test_every_form_needs_csrf(owner, force):
    client = Client(enforce_csrf_checks=True)
    client.force_login(owner)
    assert (
        client.post(f"/forces/{force.pk}/edit/", {"action": "add-trooper", "unit": 0}).status_code
        == 403
    )
    assert (
        client.post(
            "/forces/new/", {"name": "x", "faction": "solar-concord", "points_limit": 75}
        ).status_code
        == 403
    )


def test_the_list_page_shows_only_my_lists(owner_client, stranger_client, force):
    assert force.name in owner_client.get("/forces/").content.decode()
    assert force.name not in stranger_client.get("/forces/").content.decode()


def test_get_only_pages_refuse_other_methods(owner_client, force):
    assert owner_client.post(f"/forces/{force.pk}/").status_code == 405
    assert owner_client.get(f"/forces/{force.pk}/edit/").status_code == 405
    assert owner_client.get(f"/forces/{force.pk}/undo/").status_code == 405
