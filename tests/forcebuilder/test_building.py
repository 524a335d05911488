"""Building a list in the editor: live validation, counters, undo and redo, anonymous lists."""

from __future__ import annotations

from dataclasses import replace

import pytest
from django.test import Client

from forcebuilder.models import Force

pytestmark = pytest.mark.django_db


def shown(force: Force) -> dict[str, int]:
    """The version field the list's page sends: the list as it is stored now."""
    return {"version": Force.objects.get(pk=force.pk).version}


def edit(client: Client, force: Force, **data):
    data = shown(force) | data
    return client.post(f"/forces/{force.pk}/edit/", data, headers={"HX-Request": "true"})


def test_fresh_database_pages_answer(client):
    assert client.get("/forces/").status_code == 200
    assert client.get("/forces/new/").status_code == 200


def test_creating_a_list_opens_the_editor(owner_client, owner):
    response = owner_client.post(
        "/forces/new/", {"name": "Raid", "faction": "nomad-syndicate", "points_limit": 150}
    )
    force = owner.forces.get()
    assert response["Location"] == f"/forces/{force.pk}/"
    assert (force.name, force.faction, force.points_limit, force.ruleset_version) == (
        "Raid",
        "nomad-syndicate",
        150,
        "2026.11",
    )


def test_a_bad_new_list_form_saves_nothing(owner_client, owner):
    response = owner_client.post(
        "/forces/new/", {"name": "", "faction": "atlantis", "points_limit": 0}
    )
    assert response.status_code == 400
    assert not owner.forces.exists()
    page = response.content.decode()
    assert "Select a valid choice" in page and "This field is required" in page


def test_an_edit_returns_only_the_editor_region_with_fresh_counters(owner_client, force):
    response = edit(owner_client, force, action="add-trooper", unit=0)
    page = response.content.decode()
    assert response.status_code == 200
    assert page.lstrip().startswith('<div id="editor"')
    assert "<html" not in page
    force.refresh_from_db()
    assert len(force.units[0]["troopers"]) == 4
    assert '<strong>5/12</strong> <span class="label long">Troopers</span>' in page


def test_an_error_appears_next_to_its_unit_and_disappears_when_fixed(owner_client, force):
    page = edit(owner_client, force, action="remove-trooper", unit=0, trooper=2).content.decode()
    unit = force.to_spec().units[0].id
    region = page[page.index(f'id="unit-{unit}"') :]
    assert "This Medium Infantry unit has 2 troopers; it needs at least 3." in region
    assert "Not legal" in page
    page = edit(owner_client, force, action="add-trooper", unit=0).content.decode()
    assert "needs at least 3" not in page and "Legal" in page


def test_every_action_works_without_javascript(owner_client, force):
    response = owner_client.post(
        f"/forces/{force.pk}/edit/",
        {"action": "add-unit", "unit_type": "light-infantry"} | shown(force),
    )
    force.refresh_from_db()
    assert [u["type"] for u in force.units] == ["medium-infantry", "tag", "light-infantry"]
    # Back to the editor, at the new unit.
    assert response.status_code == 302
    assert response["Location"] == f"/forces/{force.pk}/#unit-{force.units[2]['id']}"


def test_a_bad_edit_changes_nothing_and_says_why(owner_client, force):
    before = (force.units, force.revision)
    response = edit(owner_client, force, action="remove-unit", unit=9)
    assert response.status_code == 400
    assert "no longer in the list" in response.content.decode()
    response = edit(owner_client, force, action="launch-missiles")
    assert "not something the editor can do" in response.content.decode()
    force.refresh_from_db()
    assert (force.units, force.revision) == before


def test_the_picker_offers_what_the_unit_type_and_faction_may_take_and_says_why_not(
    owner_client, force
):
    page = owner_client.get(
        f"/forces/{force.pk}/units/1/troopers/0/loadout/", headers={"HX-Request": "true"}
    ).content.decode()
    offered, unavailable = page.split("Not available to this trooper", 1)
    assert 'value="spitfire" checked' in offered  # the TAG's own weapon, ticked
    assert 'value="rifle"' not in offered  # a TAG takes no rifle...
    assert "Rifle</strong> (0 pts): Rifle is not available to TAG" in unavailable  # ...and says so
    assert "Spore Projector</strong> (2 pts): Spore Projector is not available" in page
    # Every item shows its whole profile: cards per range band, close combat, cost, rule text.
    row = offered[offered.index('value="missile-launcher"') :].split("</tr>")[0]
    cells = [cell.split(">")[-1] for cell in row.split("</td>")[1:6]]
    assert cells == ["2", "3", "3", "3", "\N{EN DASH}"]
    assert "Reactive fire with fire power 2 instead of 1." in page


def test_the_picker_works_without_javascript(owner_client, force):
    page = owner_client.get(f"/forces/{force.pk}/units/0/troopers/1/loadout/").content.decode()
    form = page[page.index('<form class="picker"') :]
    form = form[: form.index("</form>")]
    assert "<html" in page and "Save loadout" in form and "data-hx-post" not in form
    key = force.to_spec().units[0].troopers[1].id
    response = owner_client.post(
        f"/forces/{force.pk}/edit/",
        {"action": "loadout", "trooper_id": key, "weapons": ["sniper-rifle"], "next": "trooper"}
        | shown(force),
    )
    assert (
        response.status_code == 302
        and response["Location"] == f"/forces/{force.pk}/troopers/{key}/"
    )
    force.refresh_from_db()
    assert force.units[0]["troopers"][1]["weapons"] == ["sniper-rifle"]


def test_each_trooper_is_one_line_and_opens_on_its_stat_line_and_weapon_cards(owner_client, force):
    page = owner_client.get(f"/forces/{force.pk}/").content.decode()
    assert '<span class="gear">Combi Rifle</span>' in page
    assert '<span class="gear">Spitfire</span>' in page
    assert "<dt><abbr" not in page  # stat lines only in an open row
    tag = force.to_spec().units[1].troopers[0].id
    page = owner_client.get(f"/forces/{force.pk}/", {"open": tag}).content.decode()
    assert '<dt><abbr title="Armor">ARM</abbr></dt><dd>3</dd>' in page  # the TAG's armor


def test_undo_and_redo_walk_the_saved_revisions(owner_client, force):
    edit(owner_client, force, action="add-trooper", unit=0)
    edit(owner_client, force, action="rename-unit", unit=0, name="Bravo")
    owner_client.post(f"/forces/{force.pk}/undo/", shown(force), headers={"HX-Request": "true"})
    force.refresh_from_db()
    assert force.units[0]["name"] == "Alpha" and len(force.units[0]["troopers"]) == 4
    owner_client.post(f"/forces/{force.pk}/undo/", shown(force), headers={"HX-Request": "true"})
    force.refresh_from_db()
    assert len(force.units[0]["troopers"]) == 3 and force.revision == 0
    page = owner_client.post(
        f"/forces/{force.pk}/undo/", shown(force), headers={"HX-Request": "true"}
    ).content.decode()
    assert "Nothing to undo" in page
    owner_client.post(f"/forces/{force.pk}/redo/", shown(force), headers={"HX-Request": "true"})
    force.refresh_from_db()
    assert len(force.units[0]["troopers"]) == 4


def test_a_new_edit_after_undo_drops_the_redo_branch(owner_client, force):
    edit(owner_client, force, action="add-trooper", unit=0)
    owner_client.post(f"/forces/{force.pk}/undo/", shown(force))
    edit(owner_client, force, action="rename-unit", unit=0, name="Charlie")
    force.refresh_from_db()
    assert force.history().redo is None
    assert list(force.revisions.values_list("number", flat=True)) == [0, 1]


def test_an_editor_change_runs_a_bounded_number_of_queries(
    owner_client, force, django_assert_max_num_queries
):
    for _ in range(8):
        edit(owner_client, force, action="add-trooper", unit=0)
    with django_assert_max_num_queries(10):
        edit(owner_client, force, action="add-trooper", unit=0)
    with django_assert_max_num_queries(6):
        owner_client.get(f"/forces/{force.pk}/", headers={"HX-Request": "true"})


def test_duplicate_and_delete(owner_client, owner, force):
    owner_client.post(f"/forces/{force.pk}/duplicate/")
    assert sorted(owner.forces.values_list("name", flat=True)) == ["Wardens", "Wardens (copy)"]
    owner_client.post(f"/forces/{force.pk}/delete/")
    assert list(owner.forces.values_list("name", flat=True)) == ["Wardens (copy)"]


def test_the_list_page_shows_points_legality_and_last_change(owner_client, force):
    page = owner_client.get("/forces/").content.decode()
    assert "Wardens" in page and "Solar Concord" in page and "28/75" in page and "Legal" in page


# --- Lists without an account ---------------------------------------------------------------


def test_a_browser_can_build_without_an_account_and_keep_its_lists(client):
    client.post(
        "/forces/new/", {"name": "Guest list", "faction": "solar-concord", "points_limit": 75}
    )
    force = Force.objects.get()
    assert force.owner is None and force.anonymous_owner
    assert client.get(f"/forces/{force.pk}/").status_code == 200
    assert "Guest list" in client.get("/forces/").content.decode()
    assert Client().get(f"/forces/{force.pk}/").status_code == 404  # another browser


def test_logging_in_moves_the_browsers_lists_into_the_account(client, owner):
    client.post(
        "/forces/new/", {"name": "Guest list", "faction": "solar-concord", "points_limit": 75}
    )
    response = client.post(
        "/accounts/login/", {"username": "owner", "password": "a-long-pass-phrase"}
    )
    assert response.status_code == 302
    force = Force.objects.get()
    assert force.owner == owner and force.anonymous_owner == ""


def test_signing_up_moves_the_browsers_lists_into_the_new_account(client, django_user_model):
    client.post(
        "/forces/new/", {"name": "Guest list", "faction": "solar-concord", "points_limit": 75}
    )
    response = client.post(
        "/accounts/signup/",
        {
            "username": "newcomer",
            "email": "n@example.com",
            "password1": "a-fine-long-phrase",
            "password2": "a-fine-long-phrase",
        },
    )
    assert response.status_code == 302
    user = django_user_model.objects.get(username="newcomer")
    assert list(user.forces.values_list("name", flat=True)) == ["Guest list"]


def test_password_reset_sends_a_link_by_e_mail(client, owner, mailoutbox):
    response = client.post("/accounts/password_reset/", {"email": "owner@example.com"})
    assert response.status_code == 302
    assert len(mailoutbox) == 1 and "/accounts/reset/" in mailoutbox[0].body


def test_logout_is_a_post(owner_client):
    assert owner_client.get("/accounts/logout/").status_code == 405
    assert owner_client.post("/accounts/logout/").status_code == 302


# --- Two tabs ---------------------------------------------------------------------------------


def test_a_second_tab_with_an_old_version_is_refused_and_changes_nothing(owner_client, force):
    edit(owner_client, force, action="add-trooper", unit=0, version=0)  # tab 1: version 0 -> 1
    force.refresh_from_db()
    before = (force.units, force.revision, force.version)
    response = edit(
        owner_client, force, action="remove-unit", unit=1, version=0
    )  # tab 2, still at 0
    assert response.status_code == 409
    page = response.content.decode()
    assert "changed in another tab or window" in page and "not saved" in page
    assert 'name="version" value="1"' in page  # the region is redrawn at the latest version
    force.refresh_from_db()
    assert (force.units, force.revision, force.version) == before


def test_undo_from_a_stale_tab_is_refused_too(owner_client, force):
    edit(owner_client, force, action="add-trooper", unit=0, version=0)
    response = owner_client.post(
        f"/forces/{force.pk}/undo/", {"version": 0}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 409
    force.refresh_from_db()
    assert force.revision == 1


def test_a_tab_that_missed_an_undo_and_an_edit_cannot_overwrite_them(owner_client, force):
    """Undo then edit brings the revision number back where a stale tab saw it: the stale
    check must use a version that only grows, or that tab's edit lands on content it never
    saw (here: it would delete a unit it never saw)."""
    edit(owner_client, force, action="add-trooper", unit=0, version=0)  # both tabs see v1
    owner_client.post(f"/forces/{force.pk}/undo/", {"version": 1})  # tab 1: revision 0, v2
    edit(owner_client, force, action="add-unit", unit_type="light-infantry", version=2)  # rev 1, v3
    force.refresh_from_db()
    assert (force.revision, force.version, len(force.units)) == (1, 3, 3)
    response = edit(owner_client, force, action="remove-unit", unit=2, version=1)  # tab 2
    assert response.status_code == 409
    force.refresh_from_db()
    assert (force.revision, force.version, len(force.units)) == (1, 3, 3)


def test_every_write_moves_the_version_on_undo_and_redo_included(owner_client, force):
    versions = [force.version]
    edit(owner_client, force, action="add-trooper", unit=0, version=0)
    for url in ("undo", "redo", "undo"):
        force.refresh_from_db()
        owner_client.post(f"/forces/{force.pk}/{url}/", {"version": force.version})
        force.refresh_from_db()
        versions.append(force.version)
    assert versions == [0, 2, 3, 4]


def test_the_save_itself_is_a_compare_and_swap(force):
    from accounts.ownership import StaleVersion
    from forcebuilder.models import Force

    other_tab = Force.objects.get(pk=force.pk)
    force.record(force.to_spec(), expected=0)
    with pytest.raises(StaleVersion):
        other_tab.record(other_tab.to_spec(), expected=0)
    force.refresh_from_db()
    assert force.revision == 1 and list(force.revisions.values_list("number", flat=True)) == [0, 1]


def test_after_an_edit_undo_and_redo_are_what_the_database_says(force):
    def fresh() -> object:
        return Force.objects.get(pk=force.pk).history()

    for number, description in enumerate(["rename it", "", "x" * 300]):
        force.record(replace(force.to_spec(), name=f"Name {number}"), description=description)
        assert force.history() == fresh()
    assert force.history().undo == "x" * 200
    force.step(-1)
    assert force.history() == fresh() and fresh().redo == "x" * 200
    force.record(replace(force.to_spec(), name="Again"), description="rename again")
    assert force.history() == fresh() and fresh().redo is None
