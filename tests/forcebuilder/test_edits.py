"""The editor's edits are pure functions; bad indices change nothing and say why."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from forcebuilder import edits
from forcebuilder.edits import EditError
from onefinity.rules import ForceSpec, current_ruleset, read_force_document
from tests.conftest import examples
from tests.forcebuilder.conftest import LEGAL_DOCUMENT
from tests.onefinity.test_properties import forces

RULESET = current_ruleset()


@pytest.fixture
def spec() -> ForceSpec:
    return read_force_document(LEGAL_DOCUMENT)


def test_a_new_unit_starts_at_its_types_minimum_size(spec):
    changed = edits.add_unit(spec, "medium-infantry", RULESET)
    assert len(changed.units) == 3 and len(changed.units[2].troopers) == 3
    assert spec.units == read_force_document(LEGAL_DOCUMENT).units  # the original is untouched


def test_unit_edits(spec):
    assert [u.type for u in edits.remove_unit(spec, 0).units] == ["tag"]
    assert [u.type for u in edits.duplicate_unit(spec, 1).units] == [
        "medium-infantry",
        "tag",
        "tag",
    ]
    assert edits.rename_unit(spec, 0, "  Bravo   team ").units[0].name == "Bravo team"
    assert edits.set_unit_skills(spec, 0, ["fireteam", "fireteam", ""]).units[0].skills == (
        "fireteam",
    )


def test_trooper_edits(spec):
    assert len(edits.add_trooper(spec, 0).units[0].troopers) == 4
    assert len(edits.remove_trooper(spec, 0, 1).units[0].troopers) == 2
    duplicated = edits.duplicate_trooper(spec, 0, 1).units[0].troopers
    assert len(duplicated) == 4 and duplicated[2].weapons == duplicated[1].weapons
    assert duplicated[2].id and duplicated[2].id != duplicated[1].id
    assert edits.rename_trooper(spec, 0, 0, "Doc").units[0].troopers[0].name == "Doc"
    assert (
        edits.set_trooper_class(spec, 0, 2, "medic", RULESET).units[0].troopers[2].trooper_class
        == "medic"
    )
    loadout = (
        edits.set_loadout(spec, 0, 2, ["pistol"], ["medkit"], ["cc-specialist"])
        .units[0]
        .troopers[2]
    )
    assert (loadout.weapons, loadout.equipment, loadout.abilities) == (
        ("pistol",),
        ("medkit",),
        ("cc-specialist",),
    )


def test_force_settings(spec):
    assert edits.rename_force(spec, "Night raid").name == "Night raid"
    assert edits.set_points_limit(spec, 150).points_limit == 150
    assert edits.set_faction(spec, "nomad-syndicate", RULESET).faction == "nomad-syndicate"


@pytest.mark.parametrize(
    ("edit", "words"),
    [
        (lambda s: edits.remove_unit(s, 5), "no longer in the list"),
        (lambda s: edits.remove_unit(s, -1), "no longer in the list"),
        (lambda s: edits.remove_trooper(s, 1, 3), "no longer in the unit"),
        (lambda s: edits.add_unit(s, "hover-tank", RULESET), "Choose a unit type"),
        (lambda s: edits.set_trooper_class(s, 0, 0, "pilot", RULESET), "Choose a trooper class"),
        (lambda s: edits.set_faction(s, "atlantis", RULESET), "Choose a faction"),
        (lambda s: edits.rename_force(s, "   "), "needs a name"),
        (lambda s: edits.rename_force(s, "\u200b\u200b"), "needs a name"),
        (lambda s: edits.rename_unit(s, 0, "x" * 121), "at most 120"),
        (lambda s: edits.set_points_limit(s, 0), "from 1 to 10,000"),
        (lambda s: edits.set_loadout(s, 0, 0, [f"w{i}" for i in range(11)], [], []), "At most 10"),
        (lambda s: edits.rename_unit(s, 0, "abc\x01def"), "must not contain control characters"),
        (lambda s: edits.rename_trooper(s, 0, 0, "a\x08"), "must not contain control characters"),
        (lambda s: edits.rename_force(s, "abc\x7f"), "must not contain control characters"),
    ],
)
def test_bad_edits_raise_a_clear_error(spec, edit, words):
    with pytest.raises(EditError, match=words):
        edit(spec)


def test_a_list_holds_at_most_eight_units(spec):
    for _ in range(6):
        spec = edits.add_unit(spec, "tag", RULESET)
    assert len(spec.units) == 8
    with pytest.raises(EditError, match="at most 8 units"):
        edits.add_unit(spec, "tag", RULESET)
    with pytest.raises(EditError, match="at most 8 units"):
        edits.duplicate_unit(spec, 0)


def test_a_list_holds_at_most_thirty_troopers(spec):
    troopers = sum(len(u.troopers) for u in spec.units)
    for _ in range(30 - troopers):
        spec = edits.add_trooper(spec, 0)
    with pytest.raises(EditError, match="at most 30 troopers"):
        edits.add_trooper(spec, 0)
    with pytest.raises(EditError, match="at most 30 troopers"):
        edits.duplicate_trooper(spec, 0, 0)


def test_white_space_in_names_is_tidied_but_ids_are_kept_exact(spec):
    assert edits.rename_unit(spec, 0, "  Alpha\t\nteam ").units[0].name == "Alpha team"
    changed = edits.set_loadout(spec, 0, 0, [" combi-rifle"], [], ["cc-specialist "])
    assert changed.units[0].troopers[0].weapons == (" combi-rifle",)
    assert changed.units[0].troopers[0].abilities == ("cc-specialist ",)


# --- Ids: each unit and trooper keeps its own through every edit -------------------------


EDITS = [
    lambda f, u, t: edits.add_unit(f, "light-infantry", RULESET),
    lambda f, u, t: edits.remove_unit(f, u),
    lambda f, u, t: edits.duplicate_unit(f, u),
    lambda f, u, t: edits.split_unit(f, u),
    lambda f, u, t: edits.rename_unit(f, u, "Bravo"),
    lambda f, u, t: edits.set_unit_skills(f, u, ["fireteam"]),
    lambda f, u, t: edits.add_trooper(f, u),
    lambda f, u, t: edits.remove_trooper(f, u, t),
    lambda f, u, t: edits.duplicate_trooper(f, u, t),
    lambda f, u, t: edits.rename_trooper(f, u, t, "Doc"),
    lambda f, u, t: edits.set_trooper_class(f, u, t, "medic", RULESET),
    lambda f, u, t: edits.set_loadout(f, u, t, ["pistol"], [], []),
]


def troopers_by_id(force):
    return {t.id: t for unit in force.units for t in unit.troopers}


def all_ids(force):
    ids = [u.id for u in force.units] + [t.id for u in force.units for t in u.troopers]
    return ids


@settings(max_examples=examples(300))
@given(forces.map(edits.with_keys), st.sampled_from(EDITS), st.integers(0, 7), st.integers(0, 9))
def test_any_edit_keeps_the_other_troopers_and_their_ids(force, edit, unit, trooper):
    try:
        changed = edit(force, unit, trooper)
    except edits.EditError:
        return
    before, after = troopers_by_id(force), troopers_by_id(changed)
    assert all(all_ids(changed)) and len(set(all_ids(changed))) == len(all_ids(changed))
    # Every trooper that is still there has the id it had; whatever is new has a new one.
    touched = set()
    if force.units and unit < len(force.units) and trooper < len(force.units[unit].troopers):
        touched.add(force.units[unit].troopers[trooper].id)
    for key, trooper_before in before.items():
        if key in after and key not in touched:
            assert after[key] == trooper_before
    for key in set(after) - set(before):
        assert key not in {u.id for u in force.units}


@settings(max_examples=examples(200))
@given(forces)
def test_with_keys_gives_ids_to_what_has_none_and_keeps_the_rest(force):
    keyed = edits.with_keys(force)
    assert all(all_ids(keyed)) and len(set(all_ids(keyed))) == len(all_ids(keyed))
    assert edits.with_keys(keyed) == keyed
    for old, new in zip(force.units, keyed.units, strict=True):
        assert replace(new, id="", troopers=()) == replace(old, id="", troopers=())
        for t_old, t_new in zip(old.troopers, new.troopers, strict=True):
            assert replace(t_new, id="") == replace(t_old, id="")


def test_a_copy_gets_new_ids_and_the_original_keeps_its_own(spec):
    spec = edits.with_keys(spec)
    copied = edits.duplicate_unit(spec, 0)
    original, copy = copied.units[0], copied.units[1]
    assert original == spec.units[0]
    assert copy.id != original.id
    assert not {t.id for t in copy.troopers} & {t.id for t in original.troopers}


def test_splitting_a_unit_moves_its_second_half_into_a_new_unit_of_the_same_type(spec):
    spec = edits.with_keys(spec)
    big = edits.add_trooper(
        edits.add_trooper(edits.add_trooper(edits.add_trooper(spec, 0), 0), 0), 0
    )
    assert len(big.units[0].troopers) == 7
    split = edits.split_unit(big, 0)
    assert [len(u.troopers) for u in split.units[:2]] == [4, 3]
    assert split.units[1].type == "medium-infantry" and split.units[1].name == "Alpha 2"
    moved = [t.id for t in big.units[0].troopers[4:]]
    assert [t.id for t in split.units[1].troopers] == moved  # the same troopers, same ids


def test_removing_an_item_takes_its_last_copy(spec):
    listed_twice = edits.set_loadout(spec, 0, 0, ["pistol"], [], [])
    listed_twice = replace(
        listed_twice,
        units=(
            replace(
                listed_twice.units[0],
                troopers=(
                    replace(
                        listed_twice.units[0].troopers[0], weapons=("pistol", "knife", "pistol")
                    ),
                    *listed_twice.units[0].troopers[1:],
                ),
            ),
            *listed_twice.units[1:],
        ),
    )
    assert edits.remove_item(listed_twice, 0, 0, "weapons", "pistol").units[0].troopers[
        0
    ].weapons == ("pistol", "knife")
    with pytest.raises(EditError, match="no longer there"):
        edits.remove_item(spec, 0, 0, "weapons", "pistol")
    with pytest.raises(EditError, match="not something a trooper carries"):
        edits.remove_item(spec, 0, 0, "class", "pistol")
