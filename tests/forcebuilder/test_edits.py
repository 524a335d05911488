"""The editor's edits are pure functions; bad indices change nothing and say why."""

from __future__ import annotations

import pytest

from forcebuilder import edits
from forcebuilder.edits import EditError
from onefinity.rules import ForceSpec, current_ruleset, read_force_document
from tests.forcebuilder.conftest import LEGAL_DOCUMENT

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
    assert duplicated[1] == duplicated[2] and len(duplicated) == 4
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
