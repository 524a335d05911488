"""How many cards each side draws (combat seed 001), from the troopers, their situation and
the effects of what they carry, every value taken from the ruleset; what the engine
refuses, and why."""

from __future__ import annotations

from dataclasses import replace

import pytest

from onefinity.rules import current_ruleset
from onefinity.rules.combat import CLOSE_COMBAT, SHOOTING, Situation, plan_exchange
from onefinity.rules.effects import CombatError, Fighter, fighter
from onefinity.rules.ruleset import Effect
from tests.onefinity.forces import trooper, unit

RULESET = current_ruleset()


def side(unit_type: str, name: str = "", skills: tuple[str, ...] = (), **items) -> Fighter:  # type: ignore[no-untyped-def]
    weapon = items.pop("weapon", None)
    found = fighter(
        trooper(**items), unit(unit_type, skills=skills), RULESET, name or unit_type, weapon
    )
    assert found is not None
    return found


# Light Infantry with a Rifle, as in the seed's shooting example; a Medium Infantry target.
RIFLEMAN = side("light-infantry", "Rifleman")
MEDIUM = side("medium-infantry", "Medium")


def cards(plan, matchup: str = "shot") -> tuple[int, int]:  # type: ignore[no-untyped-def]
    attack, against = getattr(plan, matchup)
    return attack.cards, against.cards


def test_the_shooting_example_of_the_seed():
    # Rifle 1 + rear 1 against 1 + armor 1.
    attacker = RIFLEMAN.with_situation(("rear",))
    plan = plan_exchange(attacker, MEDIUM, Situation(SHOOTING, "short"), RULESET)
    assert cards(plan) == (2, 2)
    assert plan.reaction is None and plan.melee is None


def test_cover_and_higher_ground_add_to_the_target_when_shooting():
    target = MEDIUM.with_situation((), ("cover", "higher-ground"))
    plan = plan_exchange(RIFLEMAN, target, Situation(SHOOTING, "short"), RULESET)
    assert cards(plan)[1] == 1 + 1 + 1 + 1


def test_in_close_combat_both_sides_draw_one_plus_their_combat_modifier():
    plan = plan_exchange(RIFLEMAN, MEDIUM, Situation(CLOSE_COMBAT), RULESET)
    assert cards(plan, "melee") == (1, 1)
    specialist = side("medium-infantry", abilities=["cc-specialist"])
    assert cards(plan_exchange(specialist, MEDIUM, Situation(CLOSE_COMBAT), RULESET), "melee") == (
        2,
        1,
    )


def test_close_combat_counts_the_defenders_own_abilities_and_situation():
    # The issue: the defender's situation could not be entered. Now both sides claim theirs.
    defender = side("light-infantry", "Monk", abilities=["martial-arts"]).with_situation(
        ("higher-ground",)
    )
    attacker = RIFLEMAN.with_situation(("charging", "rear"))
    plan = plan_exchange(attacker, defender, Situation(CLOSE_COMBAT), RULESET)
    assert cards(plan, "melee") == (1 + 1 + 1, 1 + 1 + 1)  # charging, rear | martial arts, higher


def test_combat_modifiers_of_the_attacker_count_in_close_combat():
    attacker = RIFLEMAN.with_situation(("charging", "rear", "downed"))
    plan = plan_exchange(attacker, MEDIUM, Situation(CLOSE_COMBAT), RULESET)
    assert cards(plan, "melee") == (1 + 1 + 1 + 2, 1)
    assert plan.target_downed and plan.target_wounds == 0


@pytest.mark.parametrize("modifier", ["cover", "higher-ground"])
def test_close_combat_refuses_defense_modifiers_for_the_defender(modifier):
    # Armor, cover and higher ground as a defense modifier are for shooting only.
    with pytest.raises(CombatError, match="does not apply in close combat"):
        plan_exchange(
            RIFLEMAN, MEDIUM.with_situation((), (modifier,)), Situation(CLOSE_COMBAT), RULESET
        )


def test_charging_is_refused_when_shooting_and_for_the_defender():
    with pytest.raises(CombatError, match="Charging in close combat does not apply in shooting"):
        plan_exchange(RIFLEMAN.with_situation(("charging",)), MEDIUM, Situation(SHOOTING), RULESET)
    with pytest.raises(CombatError, match="the target cannot have it"):
        plan_exchange(
            RIFLEMAN, MEDIUM.with_situation(("charging",)), Situation(CLOSE_COMBAT), RULESET
        )


def test_a_modifier_counts_once_and_a_repeat_is_refused():
    with pytest.raises(CombatError, match="more than once"):
        plan_exchange(
            RIFLEMAN, MEDIUM.with_situation((), ("cover", "cover")), Situation(SHOOTING), RULESET
        )


def test_the_targets_combat_situation_counts_only_when_it_attacks():
    with pytest.raises(CombatError, match="only when the target attacks"):
        plan_exchange(
            RIFLEMAN, MEDIUM.with_situation(("higher-ground",)), Situation(SHOOTING), RULESET
        )
    with pytest.raises(CombatError, match="only when the target reacts"):
        plan_exchange(RIFLEMAN.with_situation((), ("cover",)), MEDIUM, Situation(SHOOTING), RULESET)


def test_which_exchanges_each_modifier_applies_to_comes_from_the_ruleset():
    combat = {m.id: (m.exchanges, m.sides) for m in RULESET.combat_modifiers.values()}
    defense = {m.id: m.exchanges for m in RULESET.defense_modifiers.values()}
    both = ("active", "reactive")
    assert combat == {
        "higher-ground": ((SHOOTING, CLOSE_COMBAT), both),
        "charging": ((CLOSE_COMBAT,), ("active",)),
        "rear": ((SHOOTING, CLOSE_COMBAT), both),
        "downed": ((SHOOTING, CLOSE_COMBAT), ("active",)),
    }
    assert defense == {"higher-ground": (SHOOTING,), "cover": (SHOOTING,)}


def test_an_unknown_kind_of_exchange_is_refused():
    with pytest.raises(CombatError, match="is not a kind of exchange"):
        plan_exchange(RIFLEMAN, MEDIUM, Situation("wrestling"), RULESET)


# --- Reactions ---------------------------------------------------------------------------


def test_a_reaction_is_limited_to_fire_power_one_and_both_sides_draw_to_defend():
    attacker = side("light-infantry", "AT", weapons=["combi-rifle"]).with_situation((), ("cover",))
    target = side("heavy-infantry", "RT", weapons=["heavy-machine-gun"]).with_situation(
        ("higher-ground",), ("cover",)
    )
    plan = plan_exchange(attacker, target, Situation(SHOOTING, "medium", True), RULESET)
    assert cards(plan) == (3, 1 + 2 + 1)
    # HMG fire power 3 at medium, limited to 1; higher ground +1 | 1 + cover.
    assert cards(plan, "reaction") == (1 + 1, 1 + 1)


def test_reactive_fire_plus_raises_the_limit_to_two():
    target = side(
        "heavy-infantry", "RT", weapons=["heavy-machine-gun"], abilities=["reactive-fire-plus"]
    )
    plan = plan_exchange(RIFLEMAN, target, Situation(SHOOTING, "medium", True), RULESET)
    assert cards(plan, "reaction")[0] == 2
    assert "limited to 2 in a reaction (Reactive Fire Plus)" in plan.reaction[0].lines[0].text  # type: ignore[index]


def test_an_attack_from_the_rear_arc_gets_no_reaction_unless_the_target_reacts_unseen():
    """Seed 001: "RT cannot react as it does not see AT". The rule's meaning is the rear
    modifier's data (`out_of_sight`); a Motion Sensor's `reacts_unseen = 3` lets its owner
    react within 3 hexes (the band's nearest), Sixth Sense cancels the rear arc itself."""
    from_behind = RIFLEMAN.with_situation(("rear",))
    with pytest.raises(CombatError, match="cannot react: it does not see the attacker"):
        plan_exchange(from_behind, MEDIUM, Situation(SHOOTING, "short", True), RULESET)
    # Without a reaction the rear arc is only its +1.
    plan_exchange(from_behind, MEDIUM, Situation(SHOOTING, "short", False), RULESET)
    sensor = side("medium-infantry", "RT", equipment=["motion-sensor"])
    reach = next(e.amount for e in RULESET.equipment["motion-sensor"].effects)
    bands = {band.id: band.min for band in RULESET.range_bands}
    within = max((b for b, nearest in bands.items() if nearest <= reach), key=bands.__getitem__)
    beyond = min((b for b, nearest in bands.items() if nearest > reach), key=bands.__getitem__)
    plan_exchange(from_behind, sensor, Situation(SHOOTING, within, True), RULESET)  # at its reach
    with pytest.raises(CombatError, match="does not see the attacker"):
        plan_exchange(from_behind, sensor, Situation(SHOOTING, beyond, True), RULESET)  # one past
    sixth = side("medium-infantry", "RT", abilities=["sixth-sense"])
    plan_exchange(from_behind, sixth, Situation(SHOOTING, "long", True), RULESET)


def test_a_downed_target_cannot_react():
    with pytest.raises(CombatError, match="A downed trooper cannot react"):
        plan_exchange(
            RIFLEMAN.with_situation(("downed",)),
            MEDIUM,
            Situation(SHOOTING, "short", True),
            RULESET,
        )


def test_a_target_whose_weapon_cannot_reach_cannot_react_with_fire():
    target = side("medium-infantry", "RT", weapons=["knife"])
    with pytest.raises(CombatError, match="cannot react with fire"):
        plan_exchange(RIFLEMAN, target, Situation(SHOOTING, "short", True), RULESET)


def test_a_berserk_may_not_react_to_a_charge_but_may_to_a_plain_attack():
    berserk = side("medium-infantry", "Berserk", abilities=["berserk"])
    charge = RIFLEMAN.with_situation(("charging",))
    with pytest.raises(CombatError, match="may not react: Berserk"):
        plan_exchange(charge, berserk, Situation(CLOSE_COMBAT, "short", True), RULESET)
    plan = plan_exchange(RIFLEMAN, berserk, Situation(CLOSE_COMBAT, "short", True), RULESET)
    assert cards(plan, "reaction") == (1, 1) and cards(plan, "melee") == (1, 1 + 2)


# --- Effects left out, with their reason ----------------------------------------------------


def _use(plan, entry_id: str):  # type: ignore[no-untyped-def]
    (use,) = [u for u in plan.effects if u.entry.id == entry_id]
    return use


def test_a_band_limited_effect_is_left_out_at_other_bands_with_the_reason():
    marksman = side("medium-infantry", "M", weapons=["sniper-rifle"], abilities=["marksman"])
    ghost = side("medium-infantry", "G", skills=("mimetism",))
    plan = plan_exchange(marksman, ghost, Situation(SHOOTING, "short"), RULESET)
    assert cards(plan) == (1, 2)
    assert not _use(plan, "marksman").applied
    assert _use(plan, "marksman").reason == "only at long or extreme range"
    assert _use(plan, "mimetism").reason == "only at long or extreme range"
    plan = plan_exchange(marksman, ghost, Situation(SHOOTING, "extreme"), RULESET)
    assert cards(plan) == (3 + 1 - 1, 2)
    assert _use(plan, "marksman").applied and _use(plan, "mimetism").applied


def test_an_effect_for_the_other_role_is_left_out():
    # Mimetism helps the trooper shot at; on the shooter it does nothing.
    ghost = side("medium-infantry", "G", weapons=["sniper-rifle"], skills=("mimetism",))
    plan = plan_exchange(ghost, MEDIUM, Situation(SHOOTING, "extreme"), RULESET)
    assert _use(plan, "mimetism").reason == "only when it is attacked: it is not here"
    veteran = side("medium-infantry", "V", abilities=["veteran"])
    plan = plan_exchange(RIFLEMAN, veteran, Situation(SHOOTING, "short"), RULESET)
    assert _use(plan, "veteran").reason == "only when it attacks: it does not here"
    # In close combat both sides attack and are attacked: the reason is the condition
    # that fails, not the role.
    plated = side("medium-infantry", "P", equipment=["light-armor-plate"])
    plan = plan_exchange(RIFLEMAN, plated, Situation(CLOSE_COMBAT), RULESET)
    assert _use(plan, "light-armor-plate").reason == "only against shooting"
    ghost = side("medium-infantry", "G", skills=("mimetism",))
    plan = plan_exchange(RIFLEMAN, ghost, Situation(CLOSE_COMBAT), RULESET)
    assert _use(plan, "mimetism").reason == "only in shooting"


def test_sixth_sense_cancels_the_rear_bonus_and_says_so():
    sixth = side("medium-infantry", "S", abilities=["sixth-sense"])
    plan = plan_exchange(RIFLEMAN.with_situation(("rear",)), sixth, Situation(SHOOTING), RULESET)
    assert cards(plan) == (1, 2)
    rear = [line for line in plan.shot[0].lines if line.source.startswith("Target attacked")]  # type: ignore[index]
    assert rear[0].text == "cancelled by Sixth Sense" and not rear[0].applied


def test_an_effect_may_cancel_another_catalogue_entry():
    # A visor that also sees through mimetism: data only, no code.
    visor = RULESET.equipment["multispectral-visor"]
    seeing = replace(
        visor,
        effects=(*visor.effects, Effect("cancels", cancels="mimetism", role="attacking")),
    )
    ruleset = replace(RULESET, equipment={**RULESET.equipment, "multispectral-visor": seeing})
    sniper = fighter(
        trooper(weapons=["sniper-rifle"], equipment=["multispectral-visor"]),
        unit("light-infantry"),
        ruleset,
        "Sniper",
    )
    ghost = fighter(trooper(), unit("medium-infantry", skills=("mimetism",)), ruleset, "Ghost")
    assert sniper is not None and ghost is not None
    plan = plan_exchange(sniper, ghost, Situation(SHOOTING, "extreme"), ruleset)
    assert cards(plan) == (3, 2)
    assert _use(plan, "mimetism").reason == "cancelled by Multispectral Visor"


def test_effects_outside_an_exchange_say_they_are_not_part_of_the_odds():
    scout = side(
        "light-infantry", "Scout", abilities=["fast", "infiltration"], equipment=["medkit"]
    )
    plan = plan_exchange(scout, MEDIUM, Situation(SHOOTING), RULESET)
    reasons = {u.entry.id: u.reason for u in plan.effects}
    assert reasons == {
        "fast": "not part of the odds (movement)",
        "infiltration": "not part of the odds (deployment)",
        "medkit": "not part of the odds (healing)",
    }
    assert cards(plan) == (1, 2)


def test_the_issues_sniper_example_is_two_cards_against_four():
    # A sniper rifle with a multispectral visor at extreme range against a mimetic trooper
    # in cover: 3 - 1 (mimetism) against 1 + armor 1 + 1 + 1, the cover cancelled.
    sniper = side(
        "light-infantry", "Sniper", weapons=["sniper-rifle"], equipment=["multispectral-visor"]
    )
    ghost = side(
        "medium-infantry",
        "Ghost",
        skills=("mimetism",),
        abilities=["agile"],
        equipment=["light-armor-plate"],
    ).with_situation((), ("cover",))
    assert cards(plan_exchange(sniper, ghost, Situation(SHOOTING, "extreme"), RULESET)) == (2, 4)


def test_armor_piercing_lowers_the_armor_never_below_nothing():
    launcher = side("heavy-infantry", "L", weapons=["missile-launcher"])
    light = side("light-infantry", "Light")
    plan = plan_exchange(launcher, light, Situation(SHOOTING, "long"), RULESET)
    assert cards(plan) == (2 + 1, 1)
    tag = side("tag", "Tag")
    assert cards(plan_exchange(launcher, tag, Situation(SHOOTING, "long"), RULESET)) == (3, 1 + 2)
