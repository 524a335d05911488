"""Every force-building rule at its boundary: at the limit legal, one past it the error."""

from __future__ import annotations

import pytest

from onefinity.rules import check_force, current_ruleset, library, validate_force
from onefinity.rules.force import ForceSpec
from tests.onefinity.forces import codes, force, trooper, unit

RULESET = current_ruleset()


def validate(spec: ForceSpec):
    return validate_force(spec, RULESET)


def issue(report, code):
    found = [i for i in report.issues if i.code == code]
    assert len(found) == 1, f"expected one {code}, got {codes(report)}"
    return found[0]


HACKER = trooper("hacker")


def test_a_simple_force_is_legal_with_no_issue():
    report = validate(force(unit("medium-infantry", HACKER, size=3)))
    assert report.legal and report.issues == ()
    assert report.points == 13


# --- force.points.over-limit --------------------------------------------------------------


def _seventy_five_points(extra_knife: bool):
    medium = [trooper("hacker", weapons=["submachine-gun"]), trooper(), trooper()]
    if extra_knife:
        medium[1] = trooper(weapons=["knife"])
    return force(
        unit("tag", trooper(weapons=["heavy-machine-gun"])),
        unit("heavy-infantry", size=4),
        unit("heavy-infantry", size=4),
        unit("medium-infantry", *medium),
    )


def test_seventy_five_points_is_legal():
    report = validate(_seventy_five_points(extra_knife=False))
    assert report.points == 75 and report.legal and report.issues == ()


def test_seventy_six_points_is_over_the_limit():
    report = validate(_seventy_five_points(extra_knife=True))
    assert codes(report) == ["force.points.over-limit"]
    found = issue(report, "force.points.over-limit")
    assert dict(found.counts) == {"points": 76, "limit": 75}
    assert found.message == "This force costs 76 points; the limit is 75."
    assert "Remove 1 point" in found.fix
    assert found.path == ""


def test_the_points_limit_can_be_set_per_game():
    spec = force(unit("medium-infantry", HACKER, size=3), points_limit=13)
    assert validate(spec).legal
    spec = force(unit("medium-infantry", HACKER, size=3), points_limit=12)
    assert codes(validate(spec)) == ["force.points.over-limit"]


# --- force.units --------------------------------------------------------------------------


def test_four_units_are_legal_five_are_too_many():
    four = force(unit("light-infantry", HACKER, size=2), *[unit("light-infantry", size=2)] * 3)
    assert validate(four).legal
    five = force(unit("light-infantry", HACKER, size=2), *[unit("light-infantry", size=2)] * 4)
    found = issue(validate(five), "force.units.too-many")
    assert codes(validate(five)) == ["force.units.too-many"]
    assert dict(found.counts) == {"units": 5, "limit": 4}
    assert found.message == "This force has 5 units; at most 4 are allowed."


def test_a_force_without_units_is_not_legal():
    report = validate(force())
    assert "force.units.none" in codes(report) and not report.legal


# --- force.troopers.too-many ----------------------------------------------------------------


def test_twelve_troopers_are_legal_thirteen_are_too_many():
    twelve = force(unit("light-infantry", HACKER, size=6), unit("light-infantry", size=6))
    assert validate(twelve).legal and validate(twelve).tally.troopers == 12
    thirteen = force(
        unit("light-infantry", HACKER, size=6),
        unit("light-infantry", size=5),
        unit("light-infantry", size=2),
    )
    report = validate(thirteen)
    assert codes(report) == ["force.troopers.too-many"]
    assert issue(report, "force.troopers.too-many").message == (
        "This force has 13 troopers; at most 12 are allowed."
    )


# --- force.tags.too-many --------------------------------------------------------------------


def test_one_tag_is_legal_two_are_too_many():
    one = force(unit("tag", size=1), unit("light-infantry", HACKER, size=2))
    assert validate(one).legal
    two = force(unit("tag", size=1), unit("tag", size=1), unit("light-infantry", HACKER, size=2))
    report = validate(two)
    assert codes(report) == ["force.tags.too-many"]
    assert dict(issue(report, "force.tags.too-many").counts) == {"tags": 2, "limit": 1}


# --- force.specialists ------------------------------------------------------------------------


def test_three_specialists_are_legal_four_are_too_many():
    three = force(
        unit("medium-infantry", trooper("medic"), trooper("engineer"), size=3),
        unit("medium-infantry", trooper("scout"), size=3),
    )
    assert validate(three).legal
    four = force(
        unit("medium-infantry", trooper("medic"), trooper("engineer"), size=3),
        unit("medium-infantry", trooper("scout"), trooper("saboteur"), size=3),
    )
    report = validate(four)
    assert codes(report) == ["force.specialists.too-many"]
    assert dict(issue(report, "force.specialists.too-many").counts) == {
        "specialists": 4,
        "limit": 3,
    }


def test_no_specialist_is_a_warning_that_keeps_the_list_legal():
    report = validate(force(unit("medium-infantry", size=3)))
    assert codes(report) == ["force.specialists.none"]
    found = issue(report, "force.specialists.none")
    assert found.severity == "warning"
    assert report.legal
    assert "Engineer, Hacker, Medic, Saboteur, Scout" in found.fix


def test_one_specialist_silences_the_warning():
    assert validate(force(unit("medium-infantry", HACKER, size=3))).issues == ()


# --- unit.points.over-limit -------------------------------------------------------------------


def test_a_unit_of_twenty_five_points_is_legal_twenty_six_is_over():
    at_limit = unit("medium-infantry", trooper("hacker"), size=6)  # 6 x 4 + 1
    assert validate(force(at_limit)).legal
    over = unit("medium-infantry", trooper("hacker"), trooper(weapons=["knife"]), size=6)
    report = validate(force(over))
    assert codes(report) == ["unit.points.over-limit"]
    found = issue(report, "unit.points.over-limit")
    assert found.path == "units[0]"
    assert dict(found.counts) == {"points": 26, "limit": 25}
    assert found.message == "This Medium Infantry unit costs 26 points; a unit may cost at most 25."


# --- unit.troopers ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("unit_type", "minimum", "name"),
    [
        ("light-infantry", 2, "Light Infantry"),
        ("medium-infantry", 3, "Medium Infantry"),
        ("heavy-infantry", 2, "Heavy Infantry"),
        ("tag", 1, "TAG (Tactical Armored Gear)"),
    ],
)
def test_each_unit_type_needs_its_minimum_of_troopers(unit_type, minimum, name):
    support = unit("light-infantry", HACKER, size=2)
    assert "unit.troopers.too-few" not in codes(
        validate(force(unit(unit_type, size=minimum), support))
    )
    report = validate(force(unit(unit_type, size=minimum - 1), support))
    found = issue(report, "unit.troopers.too-few")
    assert found.path == "units[0]"
    assert dict(found.counts) == {"troopers": minimum - 1, "minimum": minimum}
    noun = "trooper" if minimum - 1 == 1 else "troopers"
    assert (
        found.message == f"This {name} unit has {minimum - 1} {noun}; it needs at least {minimum}."
    )


@pytest.mark.parametrize(
    ("unit_type", "maximum"),
    [("light-infantry", 6), ("medium-infantry", 6), ("heavy-infantry", 4), ("tag", 1)],
)
def test_each_unit_type_allows_its_maximum_of_troopers(unit_type, maximum):
    assert "unit.troopers.too-many" not in codes(validate(force(unit(unit_type, size=maximum))))
    report = validate(force(unit(unit_type, size=maximum + 1)))
    found = issue(report, "unit.troopers.too-many")
    assert dict(found.counts) == {"troopers": maximum + 1, "limit": maximum}


def test_the_medium_infantry_message_reads_as_the_issue_says():
    report = validate(force(unit("medium-infantry", HACKER, size=2)))
    assert issue(report, "unit.troopers.too-few").message == (
        "This Medium Infantry unit has 2 troopers; it needs at least 3."
    )


# --- unit.specialists.too-many ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("unit_type", "size", "maximum"),
    [("light-infantry", 2, 1), ("medium-infantry", 3, 2), ("heavy-infantry", 2, 1), ("tag", 1, 0)],
)
def test_each_unit_type_allows_its_maximum_of_specialists(unit_type, size, maximum):
    classes = ["medic", "engineer", "scout"]
    at_limit = unit(unit_type, *[trooper(c) for c in classes[:maximum]], size=size)
    assert "unit.specialists.too-many" not in codes(validate(force(at_limit)))
    over = unit(
        unit_type, *[trooper(c) for c in classes[: maximum + 1]], size=max(size, maximum + 1)
    )
    found = issue(validate(force(over)), "unit.specialists.too-many")
    assert dict(found.counts) == {"specialists": maximum + 1, "limit": maximum}


def test_a_tag_specialist_message_says_none_are_allowed():
    report = validate(force(unit("tag", trooper("engineer"))))
    assert issue(report, "unit.specialists.too-many").message == (
        "This TAG (Tactical Armored Gear) unit has 1 specialist; it may have no specialist."
    )


# --- trooper.abilities.too-many ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("unit_type", "size", "abilities"),
    [
        ("light-infantry", 2, ["cc-specialist", "marksman"]),
        ("heavy-infantry", 2, ["cc-specialist", "marksman", "sixth-sense"]),
        ("tag", 1, ["cc-specialist", "veteran", "sixth-sense", "tough"]),
    ],
)
def test_ability_slots_per_trooper(unit_type, size, abilities):
    slots = RULESET.unit_types[unit_type].ability_slots
    assert len(abilities) == slots + 1
    at_limit = force(unit(unit_type, trooper(abilities=abilities[:slots]), size=size))
    assert "trooper.abilities.too-many" not in codes(validate(at_limit))
    over = force(unit(unit_type, trooper(abilities=abilities), size=size))
    found = issue(validate(over), "trooper.abilities.too-many")
    assert found.path == "units[0].troopers[0]"
    assert dict(found.counts) == {"slots": slots + 1, "limit": slots}


# --- references -------------------------------------------------------------------------------


def test_an_unknown_weapon_is_named_with_its_path():
    report = validate(
        force(unit("medium-infantry", HACKER, trooper(weapons=["plasma-gun"]), size=3))
    )
    found = issue(report, "ref.unknown")
    assert found.path == "units[0].troopers[1].weapons[0]"
    assert "'plasma-gun' is not a weapon" in found.message
    assert "Combi Rifle" in found.fix


def test_unknown_faction_unit_type_and_class_are_reported_together():
    spec = ForceSpec(
        name="x",
        faction="atlantis",
        units=(unit("hover-tank", size=1), unit("medium-infantry", trooper("pilot"), size=3)),
    )
    report = validate(spec)
    paths = {i.path for i in report.issues if i.code == "ref.unknown"}
    assert paths == {"faction", "units[0].type", "units[1].troopers[0].class"}


def test_an_unknown_ruleset_is_reported_not_raised():
    spec = ForceSpec(name="x", faction="solar-concord", ruleset="1999.1", units=())
    report = check_force(spec, library())
    assert codes(report) == ["ref.unknown"] and report.issues[0].path == "ruleset"


def test_an_item_not_allowed_for_the_unit_type():
    report = validate(force(unit("light-infantry", HACKER, trooper(weapons=["heavy-machine-gun"]))))
    found = issue(report, "ref.not-allowed")
    assert found.message == "Heavy Machine Gun is not available to Light Infantry."
    assert found.path == "units[0].troopers[1].weapons[0]"


def test_an_item_not_allowed_for_the_faction():
    report = validate(
        force(unit("medium-infantry", HACKER, trooper(weapons=["spore-projector"]), size=3))
    )
    found = issue(report, "ref.not-allowed")
    assert found.message == "Spore Projector is not available to the Solar Concord."
    exomorph = force(
        unit("medium-infantry", HACKER, trooper(weapons=["spore-projector"]), size=3),
        faction="exomorph-collective",
    )
    assert validate(exomorph).legal


def test_unit_skills_are_checked_for_unit_type_and_faction():
    spec = force(unit("heavy-infantry", HACKER, size=2, skills=("fireteam", "hardened")))
    report = validate(spec)
    assert [(i.code, i.path) for i in report.issues] == [
        ("ref.not-allowed", "units[0].skills[0]"),
        ("ref.not-allowed", "units[0].skills[1]"),
    ]


def test_the_same_item_twice_is_refused():
    report = validate(
        force(unit("medium-infantry", trooper("hacker", weapons=["pistol", "pistol"]), size=3))
    )
    found = issue(report, "ref.duplicate")
    assert found.path == "units[0].troopers[0].weapons[1]"


def test_every_problem_is_reported_at_once():
    spec = ForceSpec(
        name="x",
        faction="solar-concord",
        units=(
            unit("tag", trooper("engineer"), trooper()),
            unit("tag", size=1),
            unit("medium-infantry", trooper(weapons=["laser"]), size=2),
            unit("light-infantry", trooper(abilities=["fast", "marksman"]), size=2),
            unit("light-infantry", size=2),
        ),
    )
    assert set(codes(validate(spec))) == {
        "force.units.too-many",
        "force.tags.too-many",
        "unit.troopers.too-many",
        "unit.specialists.too-many",
        "unit.troopers.too-few",
        "ref.unknown",
        "trooper.abilities.too-many",
    }


def test_report_paths_let_a_page_show_issues_next_to_units():
    spec = force(unit("medium-infantry", HACKER, size=3), unit("medium-infantry", size=2))
    report = validate(spec)
    by_path = {issue.path: issue.code for issue in report.issues}
    assert by_path == {"units[1]": "unit.troopers.too-few"}


def test_a_trooper_class_restricted_by_the_ruleset_is_not_allowed():
    import tomllib

    from onefinity.rules.ruleset import RULESET_DIR
    from onefinity.rules.ruleset_file import parse_ruleset

    with (RULESET_DIR / "onefinity-2026.11.toml").open("rb") as handle:
        document = tomllib.load(handle)
    document["trooper_classes"]["medic"]["unit_types"] = ["light-infantry"]
    document["trooper_classes"]["scout"]["factions"] = ["nomad-syndicate"]
    ruleset = parse_ruleset(document, "organizer.toml")
    spec = force(unit("medium-infantry", trooper("medic"), trooper("scout"), size=3))
    report = validate_force(spec, ruleset)
    assert [(i.code, i.path) for i in report.issues] == [
        ("ref.not-allowed", "units[0].troopers[0].class"),
        ("ref.not-allowed", "units[0].troopers[1].class"),
    ]
    assert report.issues[0].message == "A Medium Infantry trooper cannot be a Medic."
    assert report.issues[1].message == "The Solar Concord have no Scout."
