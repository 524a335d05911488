"""What the editor saves, the reader reads back; a list that no longer reads is shown as
damaged with a repair, never as a server error."""

from __future__ import annotations

import json

import pytest

from forcebuilder.models import Force
from onefinity.rules import read_force_document
from tests.forcebuilder.conftest import LEGAL_DOCUMENT

pytestmark = pytest.mark.django_db

OWNER_PAGES = [
    "/forces/",
    "/forces/{pk}/",
    "/forces/{pk}/roster/",
    "/forces/{pk}/roster.pdf",
    "/forces/{pk}/cards.pdf",
    "/forces/{pk}/export.json",
    "/forces/{pk}/roster.txt",
    "/account/",
    "/account/everything.json",
]


def edit(client, force, **data):
    data = {"version": Force.objects.get(pk=force.pk).version} | data
    return client.post(f"/forces/{force.pk}/edit/", data, headers={"HX-Request": "true"})


def assert_every_page_answers(client, force):
    for url in OWNER_PAGES:
        response = client.get(url.format(pk=force.pk))
        assert response.status_code < 500, url
    force.refresh_from_db()
    force.to_spec()


@pytest.mark.parametrize("character", ["\x01", "\x08", "\x00", "\x7f", "\x9b"])
@pytest.mark.parametrize(
    "change",
    [
        {"action": "settings", "points_limit": 75, "faction": "solar-concord"},
        {"action": "rename-unit", "unit": 0},
        {"action": "rename-trooper", "unit": 0, "trooper": 0},
    ],
)
def test_a_name_with_a_control_character_is_refused_and_every_page_still_answers(
    owner_client, force, change, character
):
    before = (force.name, force.units, force.version)
    response = edit(owner_client, force, name=f"abc{character}def", **change)
    assert response.status_code == 400
    assert "must not contain control characters" in response.content.decode()
    force.refresh_from_db()
    assert (force.name, force.units, force.version) == before
    assert_every_page_answers(owner_client, force)


@pytest.mark.parametrize(
    "change",
    [
        {"action": "unit-skills", "unit": 0, "skills": "x" * 81},
        {"action": "loadout", "unit": 0, "trooper": 0, "weapons": "x" * 81},
        {"action": "loadout", "unit": 0, "trooper": 0, "abilities": "a\x01b"},
    ],
)
def test_an_id_the_reader_would_refuse_is_not_saved(owner_client, force, change):
    before = (force.units, force.version)
    response = edit(owner_client, force, **change)
    assert response.status_code == 400
    assert "cannot be saved" in response.content.decode()
    force.refresh_from_db()
    assert (force.units, force.version) == before
    assert_every_page_answers(owner_client, force)


def test_an_id_the_ruleset_does_not_have_is_refused_with_the_reason_and_not_trimmed(
    owner_client, force
):
    before = (force.units, force.version)
    response = edit(owner_client, force, action="loadout", unit=0, trooper=0, weapons=" pistol")
    assert response.status_code == 400
    assert "Not added: &#x27; pistol&#x27; is not a weapon in ruleset 2026.11." in (
        response.content.decode()
    )
    force.refresh_from_db()
    assert (force.units, force.version) == before


def test_an_unknown_id_already_in_a_list_stays_and_is_reported_until_taken_off(owner_client, owner):
    document = LEGAL_DOCUMENT | {"units": [LEGAL_DOCUMENT["units"][0] | {"skills": ["x"]}]}
    force = Force.create_from_spec(read_force_document(document), "2026.11", 75, owner=owner)
    page = owner_client.get(f"/forces/{force.pk}/").content.decode()
    assert "&#x27;x&#x27; is not a unit skill in ruleset 2026.11." in page
    # Adding a trooper does not add a problem: the old one is not the new one's fault.
    assert edit(owner_client, force, action="add-trooper", unit=0).status_code == 200
    key = force.to_spec().units[0].id
    edit(owner_client, force, action="remove-item", unit_id=key, kind="skills", item="x")
    force.refresh_from_db()
    assert force.units[0].get("skills") is None


def test_a_new_list_with_a_control_character_in_its_name_is_refused(owner_client):
    response = owner_client.post(
        "/forces/new/", {"name": "Night\x01raid", "faction": "solar-concord", "points_limit": 75}
    )
    assert response.status_code == 400
    assert "must not contain control characters" in response.content.decode()
    assert not Force.objects.exists()


@pytest.fixture
def damaged(force) -> Force:
    """A list saved before the reader's rules were tightened: nine units, a control
    character in a name (written past the model, as an old release would have)."""
    units = force.units * 5
    units[0] = units[0] | {"name": "Alpha\x01"}
    Force.objects.filter(pk=force.pk).update(units=units)
    force.refresh_from_db()
    return force


def test_a_damaged_list_does_not_hide_the_others(owner_client, owner, damaged):
    other = Force.create_from_spec(
        read_force_document(LEGAL_DOCUMENT | {"name": "Second list"}), "2026.11", 75, owner=owner
    )
    page = owner_client.get("/forces/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "Damaged" in text and other.name in text
    assert damaged.get_repair_url() in text


@pytest.mark.parametrize(
    "url",
    ["/forces/{pk}/", "/forces/{pk}/roster/", "/forces/{pk}/roster.pdf", "/forces/{pk}/cards.pdf"],
)
def test_a_damaged_list_shows_its_owner_the_problem_and_a_repair(owner_client, damaged, url):
    response = owner_client.get(url.format(pk=damaged.pk))
    assert response.status_code == 409
    text = response.content.decode()
    assert "cannot be shown" in text and "at most 8" in text
    assert damaged.get_repair_url() in text and damaged.get_delete_url() in text


def test_a_damaged_list_shared_by_link_offers_a_stranger_nothing(client, damaged):
    response = client.get(f"/s/{damaged.share_code}/")
    assert response.status_code == 409
    assert damaged.get_repair_url() not in response.content.decode()


def test_the_account_export_keeps_a_damaged_list_as_stored(owner_client, damaged):
    response = owner_client.get("/account/everything.json")
    assert response.status_code == 200
    document = json.loads(response.getvalue())
    assert document["forces"] == []
    [kept] = document["damaged"]
    assert kept["kind"] == "list" and len(kept["document"]["units"]) == 10
    assert "at most 8" in kept["problem"]


def test_repair_keeps_what_can_be_kept_and_undo_takes_it_back(owner_client, damaged):
    response = owner_client.post(
        damaged.get_repair_url(), {"version": damaged.version}, follow=True
    )
    assert response.status_code == 200
    text = response.content.decode()
    assert "Repaired:" in text and "kept the first 8 of 10" in text
    damaged.refresh_from_db()
    spec = damaged.to_spec()
    assert len(spec.units) == 8 and spec.units[0].name == "Alpha"
    assert_every_page_answers(owner_client, damaged)


def test_a_stranger_cannot_repair(stranger_client, damaged):
    assert stranger_client.post(damaged.get_repair_url()).status_code == 404


def test_my_lists_are_paginated_and_a_bad_page_number_is_no_error(owner_client, owner):
    from onefinity.rules import read_force_document as read

    spec = read(LEGAL_DOCUMENT)
    for _ in range(27):
        Force.create_from_spec(spec, "2026.11", 75, owner=owner)
    first = owner_client.get("/forces/").content.decode()
    assert "Page 1 of 2 (27 in all)" in first and 'rel="next"' in first
    assert first.count("Duplicate Wardens") == 25
    second = owner_client.get("/forces/?page=2").content.decode()
    assert second.count("Duplicate Wardens") == 2
    for page in ("0", "-1", "x", "999", "9" * 40):
        assert owner_client.get("/forces/", {"page": page}).status_code == 200
