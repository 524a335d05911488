"""The editor as a player's tool: choices the rules forbid are refused with the reason, the
problems say where they are and offer their fix, undo says what it undoes, troopers are
named by id, and a new list opens neutral."""

from __future__ import annotations

import re

import pytest

from forcebuilder.models import Force
from onefinity.rules import read_force_document
from tests.forcebuilder.conftest import KEYED_DOCUMENT, LEGAL_DOCUMENT

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def edit(client, force, **data):
    force.refresh_from_db()
    data.setdefault("version", force.version)
    return client.post(f"/forces/{force.pk}/edit/", data, headers=HTMX)


def make(owner, document) -> Force:
    return Force.create_from_spec(read_force_document(document), "2026.11", 75, owner=owner)


def unit_document(kind: str, count: int, **trooper) -> dict:
    return {"type": kind, "troopers": [dict(trooper) for _ in range(count)]}


# --- A new list ------------------------------------------------------------------------------


def test_a_new_list_opens_neutral_with_add_your_first_unit_and_the_message_once(owner_client):
    response = owner_client.post(
        "/forces/new/",
        {"name": "Raid", "faction": "solar-concord", "points_limit": 75},
        follow=True,
    )
    page = response.content.decode()
    assert "Add your first unit" in page and "Not legal" not in page
    assert "<strong>Empty</strong>" in page
    assert page.count("Raid created.") == 1
    # The rule is not hidden: its code is there for whoever looks.
    assert "force.units.none" in page


# --- Choices the rules forbid ----------------------------------------------------------------


@pytest.fixture
def full(owner) -> Force:
    """4 units, 12 troopers, a TAG, 3 specialists: every limit but points reached, legal."""
    return make(
        owner,
        LEGAL_DOCUMENT
        | {
            "units": [
                {"type": "medium-infantry", "troopers": [{"class": "hacker"}, {}, {}]},
                {"type": "medium-infantry", "troopers": [{"class": "medic"}, {}, {}]},
                {"type": "light-infantry", "troopers": [{"class": "scout"}, {}, {}, {}, {}]},
                {"type": "tag", "troopers": [{}]},
            ]
        },
    )


def test_adding_past_a_limit_is_offered_disabled_with_the_rule_it_would_break(owner_client, full):
    page = owner_client.get(f"/forces/{full.pk}/").content.decode()
    for kind in ("light-infantry", "medium-infantry", "heavy-infantry", "tag"):
        assert f'id="add-{kind}" class="type-button" aria-disabled="true"' in page
    assert page.count("A list has at most 4 units.") == 4
    assert "A list has at most 12 troopers." in page
    assert "aria-disabled" in page.split('id="add-trooper-')[1].split(">")[0]


def test_the_server_refuses_such_a_choice_with_the_same_reason_and_saves_nothing(
    owner_client, full
):
    before = (full.units, full.version)
    response = edit(owner_client, full, action="add-unit", unit_type="light-infantry")
    assert response.status_code == 400
    assert "Not added: A list has at most 4 units." in response.content.decode()
    response = edit(owner_client, full, action="add-trooper", unit=0)
    assert "Not added: A list has at most 12 troopers." in response.content.decode()
    full.refresh_from_db()
    assert (full.units, full.version) == before


def test_a_tag_is_offered_no_specialist_class_and_says_why(owner_client, keyed_force):
    page = owner_client.get(
        f"/forces/{keyed_force.pk}/troopers/tag1/", headers=HTMX
    ).content.decode()
    options = re.findall(r"<option value=\"(\w+)\"( selected)?( disabled)?>([^<]*)</option>", page)
    offered = {value: (bool(disabled), text) for value, _, disabled, text in options}
    assert offered["trooper"][0] is False
    for specialist in ("engineer", "hacker", "medic", "saboteur", "scout"):
        disabled, text = offered[specialist]
        assert disabled and text.endswith("This unit type takes no specialist.")
    assert "No specialist here: This unit type takes no specialist." in page
    response = edit(
        owner_client, keyed_force, action="set-class", trooper_id="tag1", **{"class": "medic"}
    )
    assert response.status_code == 400
    assert "Not added: This unit type takes no specialist." in response.content.decode()


def test_a_full_unit_offers_no_plus_and_no_add_trooper(owner_client, owner):
    force = make(owner, LEGAL_DOCUMENT | {"units": [unit_document("medium-infantry", 6)]})
    page = owner_client.get(f"/forces/{force.pk}/").content.decode()
    assert page.count("This unit is full: at most 6 troopers.") == 2  # + and Add a trooper


def test_taking_away_is_never_refused_even_below_a_minimum(owner_client, keyed_force):
    response = edit(owner_client, keyed_force, action="remove-trooper", trooper_id="trp")
    assert response.status_code == 200
    assert "it needs at least 3" in response.content.decode()


# --- Troopers named by id ---------------------------------------------------------------------


def test_a_trooper_named_by_id_is_the_same_trooper_after_others_are_removed(
    owner_client, keyed_force
):
    edit(owner_client, keyed_force, action="remove-trooper", trooper_id="hck")
    edit(owner_client, keyed_force, action="rename-trooper", trooper_id="trp", name="Last")
    keyed_force.refresh_from_db()
    troopers = keyed_force.units[0]["troopers"]
    assert [(t["id"], t.get("name", "")) for t in troopers] == [("cmb", ""), ("trp", "Last")]
    response = edit(owner_client, keyed_force, action="rename-trooper", trooper_id="hck", name="x")
    assert response.status_code == 400
    assert "That trooper is no longer in the list" in response.content.decode()


def test_a_list_saved_before_ids_is_edited_by_position_and_gets_ids_on_its_first_save(
    owner_client, force
):
    Force.objects.filter(pk=force.pk).update(units=LEGAL_DOCUMENT["units"])
    page = owner_client.get(f"/forces/{force.pk}/").content.decode()
    assert 'name="trooper_id" value="t.0.2"' in page
    edit(owner_client, force, action="rename-trooper", trooper_id="t.0.2", name="Third")
    force.refresh_from_db()
    assert force.units[0]["troopers"][2]["name"] == "Third"
    assert all(t["id"] for u in force.units for t in u["troopers"])


# --- A trooper's loadout, one tap from its row ------------------------------------------------


def test_each_row_links_to_its_troopers_loadout_and_troopers_alike_share_one(owner_client, owner):
    force = make(
        owner,
        KEYED_DOCUMENT
        | {
            "units": [{"id": "u", "type": "light-infantry", "troopers": [{"id": "a"}, {"id": "b"}]}]
        },
    )
    page = owner_client.get(f"/forces/{force.pk}/").content.decode()
    # One row for the two alike, a link to the first one's loadout; no panel open.
    assert page.count('class="row"') == 1
    assert (
        f'<a class="row" id="row-a" href="/forces/{force.pk}/troopers/a/" data-loadout="a">' in page
    )
    assert 'id="loadout"' not in page
    # The editor draws the panel of the trooper the page has open, the second one too.
    page = owner_client.get(f"/forces/{force.pk}/", {"open": "b"}).content.decode()
    assert '<section id="loadout" class="loadout" role="dialog"' in page
    assert 'data-key="b" data-row="row-a"' in page
    assert "One of 2 alike" in page
    assert 'class="row-item group is-open" id="trooper-a"' in page
    # The script fetches the panel alone; its forms are the editor's own (htmx).
    panel = owner_client.get(f"/forces/{force.pk}/troopers/a/", headers=HTMX).content.decode()
    assert "<html" not in panel
    assert 'id="loadout"' in panel and 'data-row="row-a"' in panel and "data-hx-post" in panel
    assert f'href="/forces/{force.pk}/#row-a" data-close-loadout' in panel


def test_a_change_made_in_the_loadout_redraws_it_open(owner_client, keyed_force):
    response = edit(
        owner_client,
        keyed_force,
        action="loadout",
        trooper_id="trp",
        weapons=["pistol"],
        open="trp",
    )
    page = response.content.decode()
    assert 'data-key="trp" data-row="row-trp"' in page
    assert 'value="pistol" checked' in page


# --- Undo says what it undoes -----------------------------------------------------------------


def test_the_undo_button_says_what_it_undoes_and_the_message_what_was_undone(
    owner_client, keyed_force
):
    page = edit(owner_client, keyed_force, action="add-trooper", unit_id="alpha").content.decode()
    assert 'Undo<span class="what">: add a trooper to Alpha</span>' in page
    page = edit(
        owner_client, keyed_force, action="set-class", trooper_id="trp", **{"class": "medic"}
    ).content.decode()
    assert 'Undo<span class="what">: make Trooper in Alpha a Medic</span>' in page
    keyed_force.refresh_from_db()
    page = owner_client.post(
        f"/forces/{keyed_force.pk}/undo/", {"version": keyed_force.version}, headers=HTMX
    ).content.decode()
    assert "Undone: make Trooper in Alpha a Medic." in page
    assert 'Undo<span class="what">: add a trooper to Alpha</span>' in page
    assert 'Redo<span class="what">: make Trooper in Alpha a Medic</span>' in page


def test_a_change_that_changes_nothing_makes_no_undo_step(owner_client, keyed_force):
    revision = keyed_force.revision
    edit(owner_client, keyed_force, action="set-class", trooper_id="hck", **{"class": "hacker"})
    edit(owner_client, keyed_force, action="rename-unit", unit_id="alpha", name="Alpha")
    keyed_force.refresh_from_db()
    assert keyed_force.revision == revision


def test_each_revision_keeps_the_description_of_its_edit(owner_client, keyed_force):
    edit(owner_client, keyed_force, action="loadout", trooper_id="trp", weapons=["pistol"])
    edit(owner_client, keyed_force, action="duplicate-unit", unit_id="alpha")
    described = list(keyed_force.revisions.values_list("description", flat=True))
    assert described == ["", "give Trooper in Alpha Pistol", "duplicate Alpha"]


# --- Problems: where, and the fix -------------------------------------------------------------


@pytest.fixture
def broken(owner) -> Force:
    """Two TAGs, 7 troopers in a Medium unit with 3 specialists, an item the faction may not
    take: several problems, each with one obvious fix."""
    return make(
        owner,
        {
            "format": "onefinity-force",
            "version": 1,
            "name": "Broken",
            "faction": "solar-concord",
            "units": [
                {
                    "id": "big",
                    "type": "medium-infantry",
                    "troopers": [
                        {"id": "h1", "class": "hacker"},
                        {"id": "h2", "class": "medic"},
                        {"id": "h3", "class": "engineer", "weapons": ["spore-projector"]},
                        {"id": "p1"},
                        {"id": "p2"},
                        {"id": "p3"},
                        {"id": "p4"},
                    ],
                },
                {"id": "tag-a", "type": "tag", "troopers": [{"id": "ta"}]},
                {"id": "tag-b", "type": "tag", "name": "Second", "troopers": [{"id": "tb"}]},
            ],
        },
    )


def problem_items(page: str) -> list[str]:
    panel = page[page.index('<section class="problems"') :]
    panel = panel[: panel.index("</section>")]
    return re.findall(r'<li class="issue (\w+)" data-code="([\w.-]+)">', panel)


def test_problems_come_errors_first_each_linked_to_what_it_concerns(owner_client, broken):
    page = owner_client.get(f"/forces/{broken.pk}/").content.decode()
    found = problem_items(page)
    severities = [severity for severity, _ in found]
    assert severities == sorted(severities, key=lambda s: s != "error")
    assert ("error", "force.tags.too-many") in found
    # The force-wide problem names the units behind it, linked.
    tags = page[page.index('data-code="force.tags.too-many"') :].split("</li>")[0]
    assert 'href="#unit-tag-a"' in tags and 'href="#unit-tag-b"' in tags
    item = page[page.index('data-code="ref.not-allowed"') :].split("</li>")[0]
    # A trooper's problem opens its loadout (its own page without JavaScript).
    assert f'href="/forces/{broken.pk}/troopers/h3/" data-loadout="h3"' in item
    assert "Engineer in Medium Infantry" in item
    assert "<code>force.tags.too-many</code>" in page  # behind the codes toggle


@pytest.mark.parametrize(
    ("code", "fix", "check"),
    [
        (
            "force.tags.too-many",
            "Remove Second",
            lambda f: [u["id"] for u in f.units] == ["big", "tag-a"],
        ),
        (
            "unit.specialists.too-many",
            "Make Engineer a plain trooper",
            lambda f: f.units[0]["troopers"][2]["class"] == "trooper",
        ),
        (
            "ref.not-allowed",
            "Remove Spore Projector",
            lambda f: "weapons" not in f.units[0]["troopers"][2],
        ),
        (
            "unit.troopers.too-many",
            "Split Medium Infantry in two",
            lambda f: [len(u["troopers"]) for u in f.units] == [4, 3, 1, 1],
        ),
    ],
)
def test_a_problem_with_one_obvious_fix_is_fixed_in_one_click_and_undone_in_another(
    owner_client, broken, code, fix, check
):
    page = owner_client.get(f"/forces/{broken.pk}/").content.decode()
    item = page[page.index(f'data-code="{code}"') :].split("</li>")[0]
    assert f">{fix}</button>" in item
    fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', item))
    response = owner_client.post(f"/forces/{broken.pk}/edit/", fields)  # no JavaScript
    assert response.status_code == 302
    broken.refresh_from_db()
    assert check(broken)
    owner_client.post(f"/forces/{broken.pk}/undo/", {"version": broken.version})
    broken.refresh_from_db()
    assert len(broken.units[0]["troopers"]) == 7 and len(broken.units) == 3


def test_an_imported_item_the_trooper_may_not_take_stays_ticked_flagged_and_removable(
    owner_client, broken
):
    page = owner_client.get(f"/forces/{broken.pk}/troopers/h3/", headers=HTMX).content.decode()
    row = page[page.index('name="weapons" value="spore-projector"') :].split("</tr>")[0]
    assert "checked" in row.split(">")[0]
    assert "Spore Projector is not available to the Solar Concord. Untick to remove it." in row
    # A loadout change that keeps it is not refused: the problem is the old one.
    response = edit(
        owner_client,
        broken,
        action="loadout",
        trooper_id="h3",
        weapons=["spore-projector", "pistol"],
    )
    assert response.status_code == 200
    response = edit(owner_client, broken, action="loadout", trooper_id="h3", weapons=["pistol"])
    broken.refresh_from_db()
    assert broken.units[0]["troopers"][2]["weapons"] == ["pistol"]


# --- Odds: by id, labelled, in the region --------------------------------------------------------


def test_the_odds_panel_is_redrawn_with_the_editor_and_names_troopers_by_unit(
    owner_client, keyed_force
):
    # Closed, the panel is not drawn at all (its targets cost a read of other lists).
    page = owner_client.get(f"/forces/{keyed_force.pk}/").content.decode()
    assert "odds-attacker" not in page and "Work out the card odds" in page
    page = edit(
        owner_client, keyed_force, action="add-unit", unit_type="light-infantry", open="odds"
    )
    page = page.content.decode()
    assert '<details id="odds"' in page
    assert '<optgroup label="Alpha (Medium Infantry)">' in page
    assert '<option value="cmb:combi-rifle">Trooper: Combi Rifle</option>' in page
    assert '<optgroup label="Light Infantry">' in page  # the new unit, at once
    assert re.search(
        r'<option value="\w+:rifle">Trooper \N{MULTIPLICATION SIGN}2: Rifle</option>', page
    )


def test_an_edit_keeps_the_odds_question_and_answers_it_again(owner_client, keyed_force):
    page = edit(
        owner_client,
        keyed_force,
        action="rename-unit",
        unit_id="alpha",
        name="Bravo",
        attacker="cmb:combi-rifle",
        target="type:tag",
        mode="shooting",
        band="short",
    ).content.decode()
    assert 'value="cmb:combi-rifle" selected' in page
    assert "Trooper (Bravo)</strong> with Combi Rifle against <strong>Any TAG" in page
    assert 'data-outcome="attacker"' in page


# --- Pages around the editor ------------------------------------------------------------------


def test_an_example_opens_read_only_and_copies_to_my_lists(owner_client, owner):
    home = owner_client.get("/").content.decode()
    assert 'href="/forces/new/">Build a list</a>' in home
    assert 'href="/examples/solar-concord-line/"' in home
    page = owner_client.get("/examples/solar-concord-line/").content.decode()
    assert "Solar Concord Line" in page and "Copy to my lists" in page and "og:title" in page
    response = owner_client.post("/examples/solar-concord-line/copy/")
    force = owner.forces.get()
    assert response["Location"] == f"/forces/{force.pk}/"
    assert force.name == "Solar Concord Line"
    assert owner_client.get("/examples/nothing-here/").status_code == 404
    assert owner_client.get("/examples/solar-concord-line/copy/").status_code == 405


def test_the_share_page_has_a_link_preview_and_copy_and_share_buttons(client, force):
    page = client.get(f"/s/{force.share_code}/").content.decode()
    assert '<meta property="og:title" content="Wardens">' in page
    assert (
        '<meta property="og:description" content="Solar Concord · 28/75 points · 2 units, '
        '4 troopers · legal under ruleset 2026.11">' in page
    )
    assert f'<meta property="og:url" content="http://testserver/s/{force.share_code}/">' in page
    assert "data-copy=" in page and "data-share=" in page and "Copy as text for chat" in page


def test_the_unit_catalogue_shows_each_type_and_what_one_faction_may_take(client):
    page = client.get("/rules/units/").content.decode()
    for name in (
        "Light Infantry",
        "Medium Infantry",
        "Heavy Infantry",
        "TAG (Tactical Armored Gear)",
    ):
        assert name in page
    assert "Spore Projector" in page and "provisional" in page
    concord = client.get("/rules/units/", {"faction": "solar-concord"}).content.decode()
    assert "Spore Projector" not in concord and "Multi Rifle" in concord
    assert client.get("/rules/units/", {"faction": "atlantis"}).status_code == 200


def test_the_roster_has_a_heading_and_a_glossary_of_the_rules_its_list_uses(client, force):
    page = client.get(f"/s/{force.share_code}/roster/").content.decode()
    assert '<h1 class="roster-title">Wardens</h1>' in page
    glossary = page[page.index('<section class="glossary">') :]
    assert "Hacker" in glossary and "Hack (2 AP): TAG within 3 hexes" in glossary
    assert "Combi Rifle" in glossary and "Fire power 3 at short and medium range" in glossary
    assert "Sniper Rifle" not in glossary  # only what the list uses


def test_a_units_options_work_without_javascript_on_a_page_of_their_own(owner_client, keyed_force):
    page = owner_client.get(f"/forces/{keyed_force.pk}/units/alpha/").content.decode()
    assert "<h1>Alpha" in page and "Unit skills" in page and "Fireteam" in page
    assert "data-hx-post" not in page.split("<main")[1]
    response = owner_client.post(
        f"/forces/{keyed_force.pk}/edit/",
        {
            "action": "unit-skills",
            "unit_id": "alpha",
            "skills": ["fireteam"],
            "next": "unit",
            "version": keyed_force.version,
        },
    )
    assert response["Location"] == f"/forces/{keyed_force.pk}/units/alpha/"
    keyed_force.refresh_from_db()
    assert keyed_force.units[0]["skills"] == ["fireteam"]
    assert owner_client.get(f"/forces/{keyed_force.pk}/units/nothing/").status_code == 404
    assert owner_client.get(f"/forces/{keyed_force.pk}/troopers/nothing/").status_code == 404


def test_costs_and_sizes_of_one_read_in_the_singular(owner_client, keyed_force, client):
    import re

    # A unit skill of 1 point is "1 pt", of 2 "2 pts"; a TAG is 1 trooper, not 1-1 troopers.
    page = owner_client.get(f"/forces/{keyed_force.pk}/units/alpha/").content.decode()
    assert re.search(r"Fireteam <span class=\"cost\">1 pt</span>", page)
    assert re.search(r"Hardened <span class=\"cost\">2 pts</span>", page)
    editor = owner_client.get(f"/forces/{keyed_force.pk}/").content.decode()
    assert "10 pts a trooper · 1 trooper ·" in editor and "1\N{EN DASH}1 troopers" not in editor
    assert "2\N{EN DASH}6 troopers" in editor
    for catalogue in ("/rules/units/", "/rules/"):
        assert "1\N{EN DASH}1<" not in client.get(catalogue).content.decode(), catalogue
