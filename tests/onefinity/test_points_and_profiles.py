"""Points follow the ruleset (faction discounts included); profiles show what a roster shows."""

from __future__ import annotations

from onefinity.rules import (
    current_ruleset,
    force_cost,
    trooper_cost,
    trooper_profile,
    validate_force,
)
from tests.onefinity.forces import force, trooper, unit

RULESET = current_ruleset()
EXOMORPH = RULESET.factions["exomorph-collective"]
CONCORD = RULESET.factions["solar-concord"]


def cost(unit_spec, trooper_spec, faction=CONCORD):
    return trooper_cost(trooper_spec, unit_spec, faction, RULESET)


def test_a_plain_trooper_costs_its_unit_type():
    for unit_type, points in (
        ("light-infantry", 2),
        ("medium-infantry", 4),
        ("heavy-infantry", 6),
        ("tag", 10),
    ):
        assert cost(unit(unit_type), trooper()) == points


def test_exomorph_collective_pays_two_points_less_for_every_tag():
    assert cost(unit("tag"), trooper(), EXOMORPH) == 8
    assert cost(unit("heavy-infantry"), trooper(), EXOMORPH) == 6
    two_tags = force(unit("tag", size=1), unit("tag", size=1), faction="exomorph-collective")
    assert force_cost(two_tags, RULESET).total == 16


def test_the_default_weapon_is_free_and_other_weapons_cost_their_price():
    assert cost(unit("medium-infantry"), trooper()) == 4
    assert cost(unit("medium-infantry"), trooper(weapons=["combi-rifle"])) == 6
    assert cost(unit("medium-infantry"), trooper(weapons=["combi-rifle", "pistol"])) == 7


def test_class_equipment_abilities_and_unit_skills_add_up():
    medium = unit("medium-infantry", skills=("fireteam",))
    spec = trooper(
        "hacker", weapons=["combi-rifle"], equipment=["deployable-repeater"], abilities=["marksman"]
    )
    # 4 base + 1 hacker + 2 combi + 1 repeater + 1 marksman + 1 fireteam
    assert cost(medium, spec) == 10


def test_unit_skills_are_paid_per_trooper():
    spec = force(unit("medium-infantry", trooper("hacker"), size=3, skills=("fireteam",)))
    assert force_cost(spec, RULESET).total == 3 * 4 + 1 + 3


def test_unknown_ids_cost_nothing_and_are_reported_by_validation():
    spec = force(unit("medium-infantry", trooper("hacker", weapons=["laser"]), size=3))
    assert force_cost(spec, RULESET).total == 13
    assert not validate_force(spec, RULESET).legal


def test_report_points_equal_the_sum_of_trooper_costs():
    spec = force(
        unit("medium-infantry", trooper("hacker", weapons=["combi-rifle"]), size=3),
        unit("tag", size=1),
    )
    report = validate_force(spec, RULESET)
    assert report.cost is not None
    assert report.points == sum(sum(u.troopers) for u in report.cost.units) == 25


def profile(unit_spec, trooper_spec, faction=CONCORD):
    return trooper_profile(trooper_spec, unit_spec, faction, RULESET, points=0)


def test_profile_stat_line_comes_from_the_unit_type():
    line = profile(unit("heavy-infantry"), trooper())
    assert (line.movement, line.armor, line.wounds, line.ability_slots) == (1, 2, 1, 2)


def test_profile_shows_the_default_weapon_with_fire_power_per_band():
    line = profile(unit("light-infantry"), trooper())
    assert [w.id for w in line.weapons] == ["rifle"] and line.weapons[0].default
    assert [(b.band, b.fire_power, b.combat_modifier) for b in line.weapons[0].bands] == [
        ("short", 1, 1),
        ("medium", 1, 1),
        ("long", 1, 1),
        ("extreme", 1, 1),
    ]


def test_a_combi_rifle_draws_three_cards_at_three_hexes():
    band = RULESET.band_for_distance(3)
    line = profile(unit("light-infantry"), trooper(weapons=["combi-rifle"]))
    at_three = next(b for b in line.weapons[0].bands if b.band == band.id)
    assert at_three.combat_modifier == 3


def test_a_weapon_that_cannot_reach_a_band_has_no_combat_modifier_there():
    line = profile(unit("light-infantry"), trooper(weapons=["light-flamethrower"]))
    assert [b.combat_modifier for b in line.weapons[0].bands] == [
        3,
        None,
        None,
        None,
    ]  # 2 + bonus 1


def test_band_limited_abilities_only_help_in_their_bands():
    line = profile(
        unit("light-infantry"), trooper(weapons=["sniper-rifle"], abilities=["marksman"])
    )
    assert [b.combat_modifier for b in line.weapons[0].bands] == [1, 1, 3, 4]


def test_base_defense_is_armor_plus_defense_effects():
    assert profile(unit("medium-infantry"), trooper()).defense_modifier == 1
    line = profile(
        unit("medium-infantry"), trooper(equipment=["light-armor-plate"], abilities=["agile"])
    )
    assert line.defense_modifier == 3


def test_cc_specialist_adds_one_to_close_combat():
    assert profile(unit("medium-infantry"), trooper()).close_combat_modifier == 0
    assert (
        profile(unit("medium-infantry"), trooper(abilities=["cc-specialist"])).close_combat_modifier
        == 1
    )
    with_knife = profile(
        unit("medium-infantry"), trooper(weapons=["knife"], abilities=["cc-specialist"])
    )
    assert with_knife.close_combat_modifier == 2


def test_movement_and_wounds_effects():
    assert profile(unit("light-infantry"), trooper(abilities=["fast"])).movement == 3
    assert profile(unit("tag"), trooper(abilities=["tough"])).wounds == 3


def test_slots_used_and_specialist_flag():
    line = profile(
        unit("heavy-infantry"), trooper("medic", abilities=["cc-specialist", "marksman"])
    )
    assert line.slots_used == 2 and line.specialist


def test_an_unknown_unit_type_has_no_profile():
    assert profile(unit("hover-tank"), trooper()) is None
