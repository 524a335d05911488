"""The odds panel, entry by entry: for every effect of every catalogue entry, a list carrying
it against another of the owner's lists, in the situation its data names. The panel's
cards must be the ones worked out by hand from the data, its exact chances those of an
independent card-by-card enumeration (tests/onefinity/exchange_reference.py) on a small
deck, and the entry listed as counted or left out as its data says.

The deck is made small (nine cards) by giving the panel a ruleset whose cards differ: the
enumeration of a reaction on 54 cards would take hours. Everything else is the shipped
ruleset.
"""

from __future__ import annotations

import re
from dataclasses import replace
from fractions import Fraction
from html import unescape
from urllib.parse import urlencode

import pytest
from django.utils.html import escape

from forcebuilder.models import Force
from onefinity.rules import current_ruleset
from onefinity.rules.force import ForceSpec
from onefinity.rules.ruleset import CardRules, RulesetLibrary, frozen
from tests.onefinity import exchange_reference as reference
from tests.onefinity.catalogue_scenarios import Scenario, Side, scenarios

pytestmark = pytest.mark.django_db

RULESET = current_ruleset()
SMALL = replace(
    RULESET,
    cards=CardRules(
        values=4, suits=("spades", "hearts"), jokers=1, ties_fail=False, special_action_success=3
    ),
)
SCENARIOS = scenarios(RULESET)
NAMES = {
    "The attacker's shot": "shot",
    "Each of the attacker's shots": "shot",
    "The target's reaction": "reaction",
    "Close combat": "melee",
}


@pytest.fixture
def small_deck(monkeypatch):
    shipped = RulesetLibrary(frozen({SMALL.version: SMALL}))
    monkeypatch.setattr("forcebuilder.sheets.library", lambda: shipped)
    monkeypatch.setattr("forcebuilder.odds.library", lambda: shipped)


def _list(owner, side: Side, key: str, name: str) -> Force:
    trooper = replace(side.trooper, id=key)
    unit = replace(side.unit, id="u", troopers=(trooper,))
    spec = ForceSpec(name=name, faction="nomad-syndicate", units=(unit,))
    return Force.create_from_spec(spec, RULESET.version, 75, owner=owner)


def _weapon(side: Side) -> str:
    return side.weapon or RULESET.unit_types[side.unit.type].default_weapon


def _query(scenario: Scenario, target: Force) -> str:
    target_value = f"list:{target.pk}:t1"
    if scenario.reaction and scenario.target.weapon:
        target_value += f":{scenario.target.weapon}"
    fields = [
        ("attacker", f"a1:{_weapon(scenario.attacker)}"),
        ("target", target_value),
        ("mode", scenario.mode),
        ("band", scenario.band),
    ]
    if scenario.reaction:
        fields.append(("reaction", "1"))
    fields += [("combat", m) for m in scenario.attacker.combat]
    fields += [("attacker_defense", m) for m in scenario.attacker.defense]
    fields += [("target_combat", m) for m in scenario.target.combat]
    fields += [("defense", m) for m in scenario.target.defense]
    return urlencode(fields)


def _figures(page: str) -> dict[str, Fraction]:
    figures = {}
    for value, kind, css in re.findall(
        r'<data value="([^"]+)" data-(outcome|target|attacker)="(\w+)"', page
    ):
        if kind == "outcome":
            key = {
                "attacker": "attacker_hits",
                "defender": "target_hits",
                "both": "both_hit",
                "neither": "neither_hits",
            }[css]
        else:
            key = f"{kind}_{css}"
        figures[key] = Fraction(value)
    return {k: v for k, v in figures.items() if v}


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.name)
def test_the_panel_shows_each_entrys_cards_and_exact_odds_as_an_enumeration_finds_them(
    owner_client, owner, small_deck, scenario
):
    attacker = _list(owner, scenario.attacker, "a1", "Attackers")
    target = _list(owner, scenario.target, "t1", "Targets")
    response = owner_client.get(
        f"/forces/{attacker.pk}/odds/",
        QUERY_STRING=_query(scenario, target),
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    page = response.content.decode()
    entry = scenario.entry.name
    if scenario.refused:
        assert 'role="alert"' in page and f"may not react: {escape(entry)}" in page
        return
    assert 'role="alert"' not in page, page
    shown = {
        NAMES[unescape(name)]: (int(attack), int(against))
        for name, attack, against in re.findall(
            r'<h3>([^<:]+): <strong class="attacker">(\d+)</strong> cards? against <strong class="defender">(\d+)</strong>',
            page,
        )
        if unescape(name) in NAMES
    }
    assert {k: v for k, v in shown.items() if k in scenario.cards} == scenario.cards, shown
    if scenario.index is not None:
        counted = (
            page[page.index("<h4>Effects counted</h4>") :]
            if "<h4>Effects counted</h4>" in page
            else ""
        )
        counted = counted.split("<h4>Left out</h4>")[0]
        left_out = page[page.index("<h4>Left out</h4>") :] if "<h4>Left out</h4>" in page else ""
        listed = counted if scenario.applied else left_out
        assert f'<span class="what">{escape(entry)}</span>' in listed
        if not scenario.applied:
            assert "not part of the odds" in left_out
    cards = scenario.cards
    exchange = reference.Exchange(
        scenario.mode,
        RULESET.unit_types[scenario.attacker.unit.type].wounds,
        scenario.target_wounds,
        shot=cards.get("shot", (0, 0)),
        burst=scenario.burst,
        reaction=cards.get("reaction"),
        melee=cards.get("melee", (0, 0)),
    )
    played = reference.summary(reference.play(exchange, SMALL.cards, False, SMALL.exchange))
    expected = {k: v for k, v in played.items() if v}
    figures = _figures(page)
    if "attacker_unhurt" not in figures:  # the attacker's fate is shown when it can be hurt
        fates = {f"attacker_{fate}" for fate in ("unhurt", "wounded", "downed", "killed")}
        expected = {k: v for k, v in expected.items() if k not in fates}
    assert figures == expected
