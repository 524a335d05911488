"""How many cards each side draws in an exchange (combat seed 001), from profiles and the
situation, with every modifier's value and reach taken from the ruleset."""

from __future__ import annotations

import pytest

from onefinity.rules import current_ruleset
from onefinity.rules.combat import (
    CLOSE_COMBAT,
    SHOOTING,
    CombatError,
    Situation,
    Target,
    exchange_draws,
)
from onefinity.rules.profile import trooper_profile
from tests.onefinity.forces import trooper, unit

RULESET = current_ruleset()
# Light Infantry with a Rifle, as in the seed's shooting example; a Medium Infantry target
# (armor 1) with no close-combat bonus.
RIFLEMAN = trooper_profile(trooper(), unit("light-infantry"), None, RULESET, points=0)
SPECIALIST = trooper_profile(
    trooper(abilities=["cc-specialist"]), unit("medium-infantry"), None, RULESET, points=0
)
MEDIUM = Target("Medium Infantry", defense_modifier=1, close_combat_modifier=0)


def draws(situation: Situation, attacker=RIFLEMAN, target=MEDIUM):  # type: ignore[no-untyped-def]
    assert attacker is not None
    return exchange_draws(attacker, "rifle", target, situation, RULESET)


def test_the_shooting_example_of_the_seed():
    # Rifle 1 + rear 1 against 1 + armor 1.
    result = draws(Situation(SHOOTING, "short", combat_modifiers=("rear",)))
    assert (result.attacker_cards, result.defender_cards) == (2, 2)


def test_cover_and_higher_ground_add_to_the_target_when_shooting():
    result = draws(Situation(SHOOTING, "short", defense_modifiers=("cover", "higher-ground")))
    assert result.defender_cards == 1 + 1 + 1 + 1


def test_in_close_combat_both_sides_draw_one_plus_their_combat_modifier():
    result = draws(Situation(CLOSE_COMBAT))
    assert (result.attacker_cards, result.defender_cards) == (1, 1)
    specialist = draws(Situation(CLOSE_COMBAT), attacker=SPECIALIST)
    assert specialist.attacker_cards == 1 + 1  # CC Specialist +1


def test_combat_modifiers_of_the_attacker_count_in_close_combat():
    result = draws(Situation(CLOSE_COMBAT, combat_modifiers=("charging", "rear", "downed")))
    assert (result.attacker_cards, result.defender_cards) == (1 + 1 + 1 + 2, 1)


@pytest.mark.parametrize("modifier", ["cover", "higher-ground"])
def test_close_combat_refuses_defense_modifiers_for_the_defender(modifier):
    # The seed: in close combat both draw 1 + their Trooper Combat Modifier; armor, cover
    # and higher ground are defense modifiers, for shooting only.
    with pytest.raises(CombatError, match="does not apply in close combat"):
        draws(Situation(CLOSE_COMBAT, defense_modifiers=(modifier,)))


def test_charging_is_refused_when_shooting():
    with pytest.raises(CombatError, match="Charging in close combat does not apply in shooting"):
        draws(Situation(SHOOTING, "short", combat_modifiers=("charging",)))


def test_a_modifier_counts_once_and_a_repeat_is_refused():
    with pytest.raises(CombatError, match="more than once"):
        draws(Situation(SHOOTING, "short", defense_modifiers=("cover", "cover")))


def test_which_exchanges_each_modifier_applies_to_comes_from_the_ruleset():
    combat = {m.id: m.exchanges for m in RULESET.combat_modifiers.values()}
    defense = {m.id: m.exchanges for m in RULESET.defense_modifiers.values()}
    assert combat == {
        "higher-ground": (SHOOTING, CLOSE_COMBAT),
        "charging": (CLOSE_COMBAT,),
        "rear": (SHOOTING, CLOSE_COMBAT),
        "downed": (SHOOTING, CLOSE_COMBAT),
    }
    assert defense == {"higher-ground": (SHOOTING,), "cover": (SHOOTING,)}


def test_an_unknown_kind_of_exchange_is_refused():
    with pytest.raises(CombatError, match="is not a kind of exchange"):
        draws(Situation("wrestling"))
