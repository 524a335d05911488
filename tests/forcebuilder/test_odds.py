"""The editor's odds panel: whatever the query string, a clear answer or message, never a
server error; only the situations of the chosen kind of exchange are offered."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from django.http import QueryDict
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from forcebuilder.models import Force
from tests.conftest import examples

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
# The Wardens (tests/forcebuilder/conftest.py): unit 0 is Medium Infantry (a Hacker, a
# trooper with a Combi Rifle, a trooper), unit 1 a TAG with a Spitfire.
# Troopers are named by their ids: "cmb" is the trooper with the Combi Rifle.
COMBI = "cmb:combi-rifle"
# What the panel's answer holds (and an error message does not).
ANSWER = 'data-outcome="attacker"'


@pytest.fixture
def force(keyed_force) -> Force:
    return keyed_force


def panel(client, force, query: str, htmx: bool = True) -> str:  # type: ignore[no-untyped-def]
    response = client.get(
        f"/forces/{force.pk}/odds/", QUERY_STRING=query, headers=HTMX if htmx else {}
    )
    assert response.status_code == 200
    return response.content.decode()


def odds_region(page: str) -> str:
    return page[page.index('<div id="force-odds"') :]


@pytest.mark.parametrize("htmx", [True, False])
@pytest.mark.parametrize(
    ("query", "words"),
    [
        ("attacker=-1&target=x&band=x", "Choose an attacker"),
        ("attacker=&target=type:tag", "Choose an attacker"),
        ("attacker=cmb:knife&target=type:tag", "Choose an attacker"),
        ("attacker=0:1:combi-rifle&target=type:tag", "Choose an attacker"),
        ("attacker=0:99999999999999999999:rifle&target=type:tag", "Choose an attacker"),
        (f"attacker={COMBI}&target=x", "Choose a target"),
        (f"attacker={COMBI}&target=list:999999:tag1", "Choose a target"),
        (f"attacker={COMBI}&target=type:tag&mode=melee", "Choose shooting or close combat"),
        (f"attacker={COMBI}&target=type:tag&band=x", "Choose a range"),
        (f"attacker={COMBI}&target=type:tag&band=", "Choose a range"),
        (f"attacker={COMBI}&target=type:tag&band=short&combat=x", "not a combat modifier"),
        (f"attacker={COMBI}&target=type:tag&band=short&defense=%00", "not a defense modifier"),
        (
            f"attacker={COMBI}&target=type:tag&band=short&combat=rear&combat=rear",
            "more than once",
        ),
        (
            # Seed 001: "RT cannot react as it does not see AT".
            f"attacker={COMBI}&target=type:tag&band=short&combat=rear&reaction=1",
            "cannot react: it does not see the attacker",
        ),
    ],
)
def test_the_odds_panel_answers_a_malformed_query_string_with_a_clear_message(
    owner_client, force, query, words, htmx
):
    region = odds_region(panel(owner_client, force, query, htmx))
    assert 'role="alert"' in region and words in region
    assert ANSWER not in region


@pytest.mark.parametrize("attacker", ["-1:-1:spitfire", "-2:0:combi-rifle", "0:-2:combi-rifle"])
def test_the_odds_panel_never_picks_a_trooper_from_the_end_of_a_list(owner_client, force, attacker):
    # -1:-1 would be the TAG's Spitfire and 0:-2 the Combi Rifle, if read as Python indexes.
    query = urlencode({"attacker": attacker, "target": "type:tag", "band": "short"})
    region = odds_region(panel(owner_client, force, query))
    assert "Choose an attacker" in region and ANSWER not in region


@pytest.fixture
def other_lists(force, owner) -> tuple[Force, Force]:
    """Two more lists of the owner: one readable, one whose stored record is damaged."""
    readable = Force.create_from_spec(force.to_spec(), "2026.11", 75, owner=owner)
    damaged = Force.create_from_spec(force.to_spec(), "2026.11", 75, owner=owner)
    # A stored record the reader refuses (ForceDocumentError), as after a bad migration.
    Force.objects.filter(pk=damaged.pk).update(units=[{"type": "tag", "troopers": "many"}])
    return readable, damaged


def test_the_odds_panel_skips_a_damaged_list_of_mine_among_the_targets(
    owner_client, force, other_lists
):
    readable, damaged = other_lists
    query = urlencode({"attacker": COMBI, "target": f"list:{readable.pk}:tag1", "band": "short"})
    for htmx in (True, False):
        page = panel(owner_client, force, query, htmx)
        assert ANSWER in page
        assert f"list:{readable.pk}:tag1" in page or htmx
        assert f"list:{damaged.pk}:" not in page
    query = urlencode({"attacker": COMBI, "target": f"list:{damaged.pk}:tag1", "band": "short"})
    assert "Choose a target" in odds_region(panel(owner_client, force, query))


def test_in_close_combat_the_target_draws_one_plus_its_combat_modifier(owner_client, force):
    query = urlencode(
        {"attacker": COMBI, "target": "type:heavy-infantry", "mode": "close-combat"}
        | {"combat": "charging"},
    )
    region = odds_region(panel(owner_client, force, query))
    # Attacker: 1 + charging 1; Heavy Infantry: 1 (its armor 2 does not count).
    assert (
        '<strong class="attacker">2</strong> cards against <strong class="defender">1</strong>'
        in region
    )


def test_the_odds_panel_refuses_cover_in_close_combat_with_a_message(owner_client, force):
    query = urlencode(
        {"attacker": COMBI, "target": "type:tag", "mode": "close-combat", "defense": "cover"}
    )
    region = odds_region(panel(owner_client, force, query))
    assert "Cover does not apply in close combat" in region and ANSWER not in region


def _offered(page: str) -> set[str]:
    start = page.index("<legend>Attacker's situation</legend>")
    situation = page[start : page.index("</fieldset>", page.index("</fieldset>", start) + 1)]
    return {
        f"{name}={value}"
        for name in ("combat", "defense", "target_combat", "attacker_defense")
        for value in ("higher-ground", "charging", "rear", "downed", "cover")
        if f'name="{name}" value="{value}"' in situation
    }


def test_the_odds_panel_offers_only_the_modifiers_of_the_chosen_exchange(owner_client, force):
    shooting = _offered(owner_client.get(f"/forces/{force.pk}/?open=odds").content.decode())
    assert shooting == {
        "combat=higher-ground",
        "combat=rear",
        "combat=downed",
        "defense=higher-ground",
        "defense=cover",
    }
    query = urlencode({"mode": "close-combat", "attacker": COMBI, "target": "type:tag"})
    close = _offered(panel(owner_client, force, query, htmx=False))
    assert close == {
        "combat=higher-ground",
        "combat=charging",
        "combat=rear",
        "combat=downed",
        # The defender's own situation counts in close combat too (not charging: only the
        # active trooper charges; not downed: a downed trooper never attacks).
        "target_combat=higher-ground",
        "target_combat=rear",
    }
    # Switching the exchange in the page redraws the whole panel with its own situations.
    page = owner_client.get(
        f"/forces/{force.pk}/odds/", QUERY_STRING=query, headers=HTMX | {"HX-Target": "odds-panel"}
    ).content.decode()
    assert page.lstrip().startswith('<details id="odds"')
    assert _offered(page) == close


# --- Arbitrary query strings -----------------------------------------------------------

KEYS = st.sampled_from(["attacker", "target", "mode", "band", "combat", "defense"]) | st.text(
    max_size=8
)
VALUES = st.one_of(
    st.text(max_size=30),
    st.sampled_from(
        [
            "",
            "-1",
            COMBI,
            "-1:-1:spitfire",
            "1:0:spitfire",
            "0:0:rifle",
            "type:tag",
            "type:medium-infantry",
            "list:1:tag1",
            "hck:rifle",
            "tag1:spitfire",
            "shooting",
            "close-combat",
            "short",
            "medium",
            "extreme",
            "cover",
            "higher-ground",
            "charging",
            "rear",
            "downed",
        ]
    ),
    st.integers(-(2**70), 2**70).map(str),
    st.builds(
        lambda u, t, w: f"{u}:{t}:{w}",
        st.integers(-3, 3),
        st.integers(-3, 3),
        st.sampled_from(["combi-rifle", "spitfire", "rifle", "x"]),
    ),
)
QUERIES = st.one_of(
    st.lists(st.tuples(KEYS, VALUES), max_size=12).map(urlencode),
    # Raw query strings, percent signs, ampersands and all, as a WSGI server passes them
    # (bytes read as latin-1): UTF-8 text, and bytes that are not UTF-8.
    st.text(max_size=60).map(lambda text: text.encode().decode("latin-1")),
    st.binary(max_size=60).map(lambda raw: raw.decode("latin-1")),
)


@settings(
    max_examples=examples(200),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(query=QUERIES, htmx=st.booleans())
def test_the_odds_panel_answers_every_query_string_without_a_server_error(
    owner_client, force, other_lists, query, htmx
):
    response = owner_client.get(
        f"/forces/{force.pk}/odds/", QUERY_STRING=query, headers=HTMX if htmx else {}
    )
    assert response.status_code == 200
    region = odds_region(response.content.decode())
    if "attacker" in QueryDict(query.encode("latin-1")):
        # Asked: either the odds or a message saying what to change.
        assert (ANSWER in region) != ('role="alert"' in region)


# --- Entries outside the odds ------------------------------------------------------------

MEDIC = {
    "format": "onefinity-force",
    "version": 1,
    "name": "Field hospital",
    "faction": "exomorph-collective",
    "units": [
        {
            "id": "u1",
            "type": "medium-infantry",
            "skills": ["regeneration"],
            "troopers": [
                {"id": "m1", "class": "medic", "equipment": ["medkit"], "abilities": ["agile"]},
                {"id": "m2"},
                {"id": "m3"},
            ],
        }
    ],
}


def test_entries_outside_any_exchange_say_not_part_of_the_odds_on_cards_and_pickers(
    owner_client, owner
):
    from forcebuilder.sheets import force_sheet
    from onefinity.rules import current_ruleset, read_force_document, validate_force

    spec = read_force_document(MEDIC)
    force = Force.create_from_spec(spec, "2026.11", 75, owner=owner)
    sheet = force_sheet(spec, validate_force(spec, current_ruleset()))
    unit = sheet.units[0]
    names = [name for name, _ in sheet.card_notes(unit, unit.troopers[0]).notes]
    assert "Medkit (not part of the odds)" in names
    assert "Regeneration (unit) (not part of the odds)" in names
    assert "Agile" in names  # its effect is part of the odds
    picker = owner_client.get(f"/forces/{force.pk}/troopers/m1/").content.decode()
    medkit = picker[picker.index('for="pick-m1-medkit"') :]
    assert medkit.index("not part of the odds") < medkit.index("</th>")
    agile = picker[picker.index('for="pick-m1-agile"') :]
    assert "not part of the odds" not in agile[: agile.index("</th>")]
    options = owner_client.get(f"/forces/{force.pk}/units/u1/").content.decode()
    regeneration = options[options.index("Regeneration") :]
    assert regeneration.index("not part of the odds") < regeneration.index("</label>")


def test_the_panels_note_names_every_provisional_choice_the_exchange_leaned_on(owner, owner_client):
    """Armour piercing's reading and the minimum of one card are ours (docs/decisions.md):
    named when the exchange used them, not otherwise."""
    from onefinity.rules import read_force_document
    from tests.forcebuilder.conftest import KEYED_DOCUMENT

    document = KEYED_DOCUMENT | {
        "units": [
            {
                "id": "tagu",
                "type": "tag",
                "troopers": [{"id": "ml", "weapons": ["missile-launcher"]}],
            }
        ]
    }
    force = Force.create_from_spec(read_force_document(document), "2026.11", 75, owner=owner)
    note = odds_region(
        panel(
            owner_client,
            force,
            "attacker=ml:missile-launcher&target=type:heavy-infantry&band=medium",
        )
    )
    assert "armour piercing takes cards off the target" in note
    plain = odds_region(
        panel(
            owner_client,
            force,
            "attacker=ml:missile-launcher&target=type:light-infantry&band=medium",
        )
    )
    assert "armour piercing" not in plain  # Light Infantry has no armor to pierce
