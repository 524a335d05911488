"""The default ruleset holds the reference's facts exactly, and broken files say where."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from onefinity.rules import RulesetError, current_ruleset, library
from onefinity.rules.ruleset import RULESET_DIR
from onefinity.rules.ruleset_file import load_library, load_ruleset_file, parse_ruleset

DEFAULT_FILE = RULESET_DIR / "onefinity-2026.11.toml"


@pytest.fixture
def ruleset():
    return current_ruleset()


@pytest.mark.parametrize(
    (
        "unit_type",
        "movement",
        "armor",
        "wounds",
        "slots",
        "cost",
        "min_size",
        "max_size",
        "specialists",
    ),
    [
        ("light-infantry", 2, 0, 1, 1, 2, 2, 6, 1),
        ("medium-infantry", 2, 1, 1, 1, 4, 3, 6, 2),
        ("heavy-infantry", 1, 2, 1, 2, 6, 2, 4, 1),
        ("tag", 1, 3, 2, 3, 10, 1, 1, 0),
    ],
)
def test_unit_types_match_the_force_creation_reference(
    ruleset, unit_type, movement, armor, wounds, slots, cost, min_size, max_size, specialists
):
    entry = ruleset.unit_types[unit_type]
    assert (entry.movement, entry.armor, entry.wounds, entry.ability_slots, entry.cost) == (
        movement,
        armor,
        wounds,
        slots,
        cost,
    )
    assert (entry.min_troopers, entry.max_troopers, entry.max_specialists) == (
        min_size,
        max_size,
        specialists,
    )


def test_only_the_tag_counts_as_a_tag(ruleset):
    assert [t.id for t in ruleset.unit_types.values() if t.is_tag] == ["tag"]


def test_force_limits_match_the_reference(ruleset):
    limits = ruleset.force_limits
    assert (limits.points, limits.unit_points, limits.units, limits.troopers, limits.tags) == (
        75,
        25,
        4,
        12,
        1,
    )
    assert (limits.specialists_max, limits.specialists_min) == (3, 1)


def test_card_rules_match_the_reference(ruleset):
    cards = ruleset.cards
    assert cards.deck_size == 54
    assert (cards.values, cards.jokers) == (13, 2)
    assert cards.suits == ("spades", "hearts", "diamonds", "clubs")
    assert cards.ties_fail is False
    assert cards.special_action_success == 8


def test_stable_ids_exist(ruleset):
    assert set(ruleset.unit_types) == {"light-infantry", "medium-infantry", "heavy-infantry", "tag"}
    assert set(ruleset.trooper_classes) == {
        "trooper",
        "engineer",
        "hacker",
        "medic",
        "saboteur",
        "scout",
    }
    assert "exomorph-collective" in ruleset.factions


def test_specialists_are_the_five_classes_with_their_actions(ruleset):
    specialists = {c.id: c.actions for c in ruleset.trooper_classes.values() if c.specialist}
    assert specialists == {
        "engineer": ("repair",),
        "hacker": ("hack",),
        "medic": ("heal",),
        "saboteur": ("plant-plasma-charge",),
        "scout": ("deploy",),
    }
    assert ruleset.special_actions["deploy"].ap == 2


def test_exomorph_collective_gets_two_points_off_every_tag_and_is_official(ruleset):
    faction = ruleset.factions["exomorph-collective"]
    assert faction.discount_for("tag") == 2
    assert faction.discount_for("medium-infantry") == 0
    assert not faction.provisional


def test_starter_catalogue_is_large_enough_and_marked_provisional(ruleset):
    assert len(ruleset.factions) >= 4
    assert len(ruleset.weapons) >= 12
    assert len(ruleset.abilities) >= 10
    assert ruleset.equipment and ruleset.unit_skills
    invented = [ruleset.weapons, ruleset.abilities, ruleset.equipment, ruleset.unit_skills]
    assert all(entry.provisional for catalogue in invented for entry in catalogue.values())
    assert all(f.provisional for f in ruleset.factions.values() if f.id != "exomorph-collective")


def test_weapons_from_the_combat_seed(ruleset):
    rifle, combi = ruleset.weapons["rifle"], ruleset.weapons["combi-rifle"]
    assert set(rifle.fire_power.values()) == {1}
    three_hexes = ruleset.band_for_distance(3)
    assert three_hexes is not None
    assert combi.fire_power[three_hexes.id] == 3


def test_cc_specialist_gives_plus_one_in_close_combat(ruleset):
    (effect,) = ruleset.abilities["cc-specialist"].effects
    assert (effect.change, effect.amount, effect.exchanges) == ("attack", 1, ("close-combat",))


def test_the_combi_rifle_shoots_twice_and_reactions_are_limited_to_fire_power_one(ruleset):
    # The combat seed: the Combi Rifle "has a second shot"; "Reaction is always limited
    # to 1 Fire Power"; the plasma charge attacks with Fire Power 1, B 1, AP 1.
    assert ruleset.weapons["combi-rifle"].burst == 2
    assert ruleset.exchange.reaction_fire_power == 1
    charge = ruleset.special_actions["plant-plasma-charge"].attack
    assert charge is not None
    assert (charge.fire_power, charge.burst, charge.armor_piercing) == (1, 1, 1)


def test_modifiers_from_the_combat_seed(ruleset):
    combat = {m.id: m.bonus for m in ruleset.combat_modifiers.values()}
    defense = {m.id: m.bonus for m in ruleset.defense_modifiers.values()}
    assert combat == {"higher-ground": 1, "charging": 1, "rear": 1, "downed": 2}
    assert defense == {"higher-ground": 1, "cover": 1}


def test_every_entry_says_who_may_take_it_and_what_it_costs(ruleset):
    for catalogue in (ruleset.weapons, ruleset.abilities, ruleset.equipment, ruleset.unit_skills):
        for entry in catalogue.values():
            assert entry.unit_types and entry.factions and entry.cost >= 0


def test_every_unit_type_default_weapon_is_free_and_allowed(ruleset):
    for unit_type in ruleset.unit_types.values():
        weapon = ruleset.weapons[unit_type.default_weapon]
        assert weapon.allowed_for_unit_type(unit_type.id)


def test_the_library_is_loaded_once_per_process():
    assert library() is library()
    assert library().current is current_ruleset()


def test_the_ruleset_objects_are_immutable(ruleset):
    with pytest.raises((AttributeError, TypeError)):
        ruleset.force_limits.points = 100  # type: ignore[misc]
    with pytest.raises(TypeError):
        ruleset.unit_types["tag"] = None  # type: ignore[index]


# --- Broken files ------------------------------------------------------------------------


def _default_document() -> dict:
    with DEFAULT_FILE.open("rb") as handle:
        return tomllib.load(handle)


def _error_for(mutate) -> RulesetError:
    document = _default_document()
    mutate(document)
    with pytest.raises(RulesetError) as caught:
        parse_ruleset(document, "rulesets/broken.toml")
    return caught.value


def test_a_missing_value_names_the_file_and_the_key():
    error = _error_for(lambda d: d["unit_types"]["tag"].pop("armor"))
    assert (error.source, error.key) == ("rulesets/broken.toml", "unit_types.tag.armor")
    assert "missing" in str(error)


def test_a_mistyped_value_names_the_key_and_the_value():
    error = _error_for(lambda d: d["force_limits"].update(points="lots"))
    assert error.key == "force_limits.points"
    assert "'lots'" in str(error)


def test_a_modifier_must_say_which_exchanges_it_applies_to():
    error = _error_for(lambda d: d["modifiers"]["defense"]["cover"].pop("exchanges"))
    assert error.key == "modifiers.defense.cover.exchanges" and "missing" in str(error)


@pytest.mark.parametrize(
    ("exchanges", "words"),
    [
        ([], "at least one"),
        (["melee"], "'melee' is not a kind of exchange"),
        (["shooting", "shooting"], "more than once"),
        ("shooting", "expected a list of text"),
    ],
)
def test_a_modifier_names_only_known_exchanges_once_each(exchanges, words):
    error = _error_for(lambda d: d["modifiers"]["combat"]["rear"].update(exchanges=exchanges))
    assert error.key == "modifiers.combat.rear.exchanges"
    assert words in str(error)


def test_a_misspelt_key_is_refused_not_ignored():
    error = _error_for(lambda d: d["unit_types"]["tag"].update(armour=3))
    assert error.key == "unit_types.tag.armour"
    assert "unknown key" in str(error)


def test_a_dangling_reference_is_refused():
    error = _error_for(lambda d: d["weapons"]["rifle"].update(factions=["atlantis"]))
    assert error.key == "weapons.rifle.factions[0]"
    assert "'atlantis' is not a known faction" in str(error)


def test_a_default_weapon_must_exist():
    error = _error_for(lambda d: d["unit_types"]["tag"].update(default_weapon="laser"))
    assert error.key == "unit_types.tag.default_weapon"


def test_a_weapon_needs_fire_power_for_every_band():
    error = _error_for(lambda d: d["weapons"]["rifle"]["fire_power"].pop("extreme"))
    assert error.key == "weapons.rifle.fire_power.extreme"


def test_a_negative_cost_is_refused():
    error = _error_for(lambda d: d["abilities"]["veteran"].update(cost=-1))
    assert error.key == "abilities.veteran.cost"


def test_a_bad_id_is_refused():
    error = _error_for(lambda d: d["factions"].update({"Bad Id": {"name": "x"}}))
    assert error.key == "factions.Bad Id"


def test_overlapping_range_bands_are_refused():
    error = _error_for(lambda d: d["range_bands"]["medium"].update(min=2))
    assert "overlaps" in str(error)


def test_invalid_toml_names_the_file(tmp_path: Path):
    path = tmp_path / "bad.toml"
    path.write_text("version = \n", encoding="utf-8")
    with pytest.raises(RulesetError) as caught:
        load_ruleset_file(path)
    assert "bad.toml" in str(caught.value) and "not valid TOML" in str(caught.value)


def test_two_files_with_one_version_are_refused(tmp_path: Path):
    for name in ("a.toml", "b.toml"):
        (tmp_path / name).write_bytes(DEFAULT_FILE.read_bytes())
    with pytest.raises(RulesetError) as caught:
        load_library(tmp_path)
    assert "also the version" in str(caught.value)


def test_the_newest_version_is_current(tmp_path: Path):
    (tmp_path / "old.toml").write_bytes(DEFAULT_FILE.read_bytes())
    newer = DEFAULT_FILE.read_text(encoding="utf-8").replace(
        'version = "2026.11"', 'version = "2026.12"'
    )
    (tmp_path / "new.toml").write_text(newer, encoding="utf-8")
    shipped = load_library(tmp_path)
    assert shipped.current.version == "2026.12"
    assert shipped.get("2026.11") is not None and shipped.get("1999.1") is None


# --- Effects, the exchange and provisional marks ----------------------------------------------


@pytest.mark.parametrize(
    ("effect", "key", "words"),
    [
        ({"attack": 1, "defense": 1}, "effects[0]", "exactly one change"),
        ({}, "effects[0]", "exactly one change"),
        ({"attack": 0}, "effects[0].attack", "changes nothing"),
        ({"attack": 1, "bands": ["point-blank"]}, "effects[0].bands[0]", "not a known range band"),
        ({"attack": 1, "exchanges": ["melee"]}, "effects[0].exchanges", "not a kind of exchange"),
        (
            {"defense": 1, "exchanges": ["close-combat"]},
            "effects[0].exchanges",
            "only against shooting",
        ),
        ({"cancels": "cover"}, "effects[0].role", "missing"),
        ({"cancels": "smoke", "role": "attacking"}, "effects[0].cancels", "neither"),
        ({"outside": "healing", "bands": ["short"]}, "effects[0].outside", "no conditions"),
        ({"attack": 1, "situation": ["sunny"]}, "effects[0].situation[0]", "not a known modifier"),
        ({"attack": 1, "when": "always"}, "effects[0].when", "unknown key"),
        (
            {"reaction_fire_power": 2, "reacting": False},
            "effects[0].reacting",
            "only in a reaction",
        ),
    ],
)
def test_an_effect_is_read_strictly(effect, key, words):
    error = _error_for(lambda d: d["abilities"]["veteran"].update(effects=[effect]))
    assert error.key == f"abilities.veteran.{key}"
    assert words in str(error)


def test_effects_must_be_a_list_of_tables():
    error = _error_for(lambda d: d["abilities"]["veteran"].update(effects={"attack": 1}))
    assert error.key == "abilities.veteran.effects" and "list of tables" in str(error)


@pytest.mark.parametrize(
    ("key", "value"),
    [("reaction_ties", "coin-toss"), ("follow_up", "forever"), ("armor_piercing", "soul")],
)
def test_the_exchanges_open_questions_take_only_known_answers(key, value):
    error = _error_for(lambda d: d["exchange"].update({key: value}))
    assert error.key == f"exchange.{key}" and "expected one of" in str(error)


def test_a_provisional_mark_must_name_keys_of_its_table():
    error = _error_for(lambda d: d["weapons"]["rifle"].update(provisional=["range"]))
    assert error.key == "weapons.rifle.provisional" and "'range' is not a key" in str(error)
    error = _error_for(lambda d: d["cards"].update(provisional="yes"))
    assert error.key == "cards.provisional"


def test_provisional_marks_reach_the_values_they_name(ruleset):
    assert ruleset.is_provisional("range_bands.short.max")
    assert ruleset.is_provisional("weapons.combi-rifle.fire_power.long")
    assert not ruleset.is_provisional("weapons.combi-rifle.fire_power.medium")
    assert ruleset.unit_types["tag"].default_weapon_provisional
    assert not ruleset.unit_types["tag"].provisional
    assert all(band.provisional for band in ruleset.range_bands)


@pytest.mark.parametrize(("vp", "refused"), [(1, False), (99, False), (0, True), (100, True)])
def test_a_round_games_vp_target_is_one_to_ninety_nine(vp, refused):
    """The scenario's VP a game from an event round is played to ([game] vp_target): the
    contract's 1 to 99, at each bound and one past it."""
    document = _default_document()
    document["game"]["vp_target"] = vp
    if not refused:
        assert parse_ruleset(document, "rulesets/ok.toml").game.vp_target == vp  # type: ignore[union-attr]
        return
    with pytest.raises(RulesetError) as caught:
        parse_ruleset(document, "rulesets/broken.toml")
    assert caught.value.key == "game.vp_target"
