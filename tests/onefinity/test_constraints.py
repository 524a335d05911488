"""The force limits are data: each constraint of the ruleset at its boundary, whole (code,
severity, path, message, fix, counts, rule); a new constraint that needs no code; and the
ruleset file refusing a constraint it could not judge or say."""

from __future__ import annotations

import re
import tomllib
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from onefinity.rules import added_errors, current_ruleset, validate_force
from onefinity.rules.force import ForceSpec
from onefinity.rules.ruleset import RULESET_DIR, RulesetError
from onefinity.rules.ruleset_file import parse_ruleset
from onefinity.rules.validation import broken_rule
from onefinity.rules.wording import WordingError, check_template, fill, say
from tests.onefinity.forces import force, trooper, unit

RULESET = current_ruleset()
HACKER = trooper("hacker")
LIGHT = "Light Infantry"
TAG = "TAG (Tactical Armored Gear)"


def _document() -> dict[str, Any]:
    with (RULESET_DIR / "onefinity-2026.11.toml").open("rb") as handle:
        return tomllib.load(handle)


def _units(count: int) -> ForceSpec:
    return force(
        unit("light-infantry", HACKER, size=2), *[unit("light-infantry", size=2)] * (count - 1)
    )


# Each shipped constraint: a force at its bound (no such issue), one a step past it (the
# issue, whole: severity, path, message, fix, counts and the editor's rule).
BOUNDARIES: dict[str, tuple[ForceSpec, ForceSpec, dict[str, Any]]] = {
    "force.points.over-limit": (
        force(unit("medium-infantry", HACKER, size=3), points_limit=13),
        force(unit("medium-infantry", HACKER, size=3), points_limit=12),
        {
            "path": "",
            "message": "This force costs 13 points; the limit is 12.",
            "fix": "Remove 1 point: drop a trooper or choose cheaper loadouts.",
            "counts": {"points": 13, "limit": 12},
        },
    ),
    "force.units.none": (
        force(unit("medium-infantry", HACKER, size=3)),
        force(),
        {
            "path": "units",
            "message": "This force has no units; it needs at least 1.",
            "fix": "Add a unit.",
            "counts": {"units": 0, "minimum": 1},
        },
    ),
    "force.units.too-many": (
        _units(4),
        _units(5),
        {
            "path": "units",
            "message": "This force has 5 units; at most 4 are allowed.",
            "fix": "Remove 1 unit, or move its troopers into a unit of the same type.",
            "counts": {"units": 5, "limit": 4},
            "rule": "A list has at most 4 units.",
        },
    ),
    "force.troopers.too-many": (
        force(unit("light-infantry", HACKER, size=6), unit("light-infantry", size=6)),
        force(
            unit("light-infantry", HACKER, size=6),
            unit("light-infantry", size=5),
            unit("light-infantry", size=2),
        ),
        {
            "path": "units",
            "message": "This force has 13 troopers; at most 12 are allowed.",
            "fix": "Remove 1 trooper.",
            "counts": {"troopers": 13, "limit": 12},
            "rule": "A list has at most 12 troopers.",
        },
    ),
    "force.tags.too-many": (
        force(unit("tag", size=1), unit("light-infantry", HACKER, size=2)),
        force(unit("tag", size=1), unit("tag", size=1), unit("light-infantry", HACKER, size=2)),
        {
            "path": "units",
            "message": "This force has 2 TAGs; at most 1 is allowed.",
            "fix": "Remove 1 TAG.",
            "counts": {"tags": 2, "limit": 1},
            "rule": "A list has at most 1 TAG.",
        },
    ),
    "force.specialists.too-many": (
        force(
            unit("medium-infantry", trooper("medic"), trooper("engineer"), size=3),
            unit("medium-infantry", trooper("scout"), size=3),
        ),
        force(
            unit("medium-infantry", trooper("medic"), trooper("engineer"), size=3),
            unit("medium-infantry", trooper("scout"), trooper("saboteur"), size=3),
        ),
        {
            "path": "units",
            "message": "This force has 4 specialists; at most 3 are allowed.",
            "fix": "Make 1 specialist a plain trooper.",
            "counts": {"specialists": 4, "limit": 3},
            "rule": "A list has at most 3 specialists.",
        },
    ),
    "force.specialists.none": (
        force(unit("medium-infantry", HACKER, size=3)),
        force(unit("medium-infantry", size=3)),
        {
            "severity": "warning",
            "path": "units",
            "message": "This force has 0 specialists; it should have at least 1.",
            "fix": "Make a trooper a specialist (Engineer, Hacker, Medic, Saboteur, Scout).",
            "counts": {"specialists": 0, "minimum": 1},
        },
    ),
    "unit.points.over-limit": (
        force(unit("medium-infantry", HACKER, size=6)),
        force(unit("medium-infantry", HACKER, trooper(weapons=["knife"]), size=6)),
        {
            "path": "units[0]",
            "message": "This Medium Infantry unit costs 26 points; a unit may cost at most 25.",
            "fix": "Remove 1 point from it: drop a trooper or choose cheaper loadouts.",
            "counts": {"points": 26, "limit": 25},
        },
    ),
    "unit.troopers.too-few": (
        force(unit("medium-infantry", HACKER, size=3)),
        force(unit("medium-infantry", HACKER, size=2)),
        {
            "path": "units[0]",
            "message": "This Medium Infantry unit has 2 troopers; it needs at least 3.",
            "fix": "Add 1 trooper, or remove the unit.",
            "counts": {"troopers": 2, "minimum": 3},
        },
    ),
    "unit.troopers.too-many": (
        force(unit("light-infantry", HACKER, size=6)),
        force(unit("light-infantry", HACKER, size=7)),
        {
            "path": "units[0]",
            "message": f"This {LIGHT} unit has 7 troopers; it may have at most 6.",
            "fix": "Remove 1 trooper, or split the unit in two.",
            "counts": {"troopers": 7, "limit": 6},
            "rule": "This unit is full: at most 6 troopers.",
        },
    ),
    "unit.specialists.too-many": (
        force(unit("medium-infantry", trooper("medic"), trooper("scout"), size=3)),
        force(unit("medium-infantry", trooper("medic"), trooper("scout"), HACKER)),
        {
            "path": "units[0]",
            "message": "This Medium Infantry unit has 3 specialists; it may have at most 2.",
            "fix": "Make 1 specialist in it a plain trooper.",
            "counts": {"specialists": 3, "limit": 2},
            "rule": "This unit has its 2 specialists already.",
        },
    ),
    "trooper.abilities.too-many": (
        force(unit("light-infantry", trooper("hacker", abilities=["marksman"]), size=2)),
        force(unit("light-infantry", trooper("hacker", abilities=["marksman", "fast"]), size=2)),
        {
            "path": "units[0].troopers[0]",
            "message": f"This {LIGHT} trooper's abilities take 2 ability slots; it has 1.",
            "fix": "Remove abilities worth 1 slot.",
            "counts": {"slots": 2, "limit": 1},
            "rule": "Not enough ability slots: this trooper has 1.",
        },
    ),
}


def test_every_shipped_constraint_has_a_boundary_case():
    shipped = [c.code for scope in RULESET.constraints.values() for c in scope]
    assert sorted(shipped) == sorted(BOUNDARIES)


@pytest.mark.parametrize("code", sorted(BOUNDARIES))
def test_each_constraint_at_its_bound_and_one_past_it(code):
    at_bound, past, expected = BOUNDARIES[code]
    assert code not in [i.code for i in validate_force(at_bound, RULESET).issues]
    found = [i for i in validate_force(past, RULESET).issues if i.code == code]
    assert len(found) == 1
    issue = found[0]
    assert {
        "severity": issue.severity,
        "path": issue.path,
        "message": issue.message,
        "fix": issue.fix,
        "counts": dict(issue.counts),
        "rule": broken_rule(issue, RULESET),
    } == {"severity": "error", "rule": ""} | expected


def test_only_the_constraints_break_at_their_boundaries():
    # Each case past its bound breaks that constraint and nothing else (the empty force
    # also lacks a specialist, a warning).
    for code, (at_bound, past, _) in BOUNDARIES.items():
        assert validate_force(at_bound, RULESET).issues == (), code
        others = {i.code for i in validate_force(past, RULESET).issues} - {code}
        assert others <= {"force.specialists.none"}, code


# --- a new constraint: data, no code -------------------------------------------------------

NEW_CONSTRAINTS = {
    "force.unit-types.repeated": {
        "count": "units",
        "scope": "unit-type",
        "max": 2,
        "message": "This force has {units:unit} of {unit_type}; at most {limit} are allowed.",
        "fix": "Remove {over:unit} of {unit_type}.",
        "rule": "A list has at most {limit:unit} of one type.",
    },
    "trooper.points.over-limit": {
        "count": "points",
        "scope": "trooper",
        "max": "force_limits.tags",
        "message": "This {unit_type} trooper costs {points:point}; one may cost at most {limit}.",
        "fix": "Remove {over:point} from it.",
    },
}


def _with(code: str, **change: Any):
    document = _document()
    document["constraints"][code] = NEW_CONSTRAINTS[code] | change
    return parse_ruleset(document, "organizer.toml")


def test_a_new_constraint_needs_only_data():
    ruleset = _with("force.unit-types.repeated")
    assert validate_force(_units(2), ruleset).issues == ()
    three = validate_force(_units(3), ruleset)
    assert [(i.code, i.path, i.message, i.fix, dict(i.counts)) for i in three.issues] == [
        (
            "force.unit-types.repeated",
            "units",
            f"This force has 3 units of {LIGHT}; at most 2 are allowed.",
            f"Remove 1 unit of {LIGHT}.",
            {"units": 3, "limit": 2},
        )
    ]
    # The editor refuses the choice that breaks it, in the constraint's own words.
    (added,) = added_errors(validate_force(_units(2), ruleset), three)
    assert broken_rule(added, ruleset) == "A list has at most 2 units of one type."


def test_a_new_constraint_may_name_a_number_of_the_ruleset_and_warn():
    code = "trooper.points.over-limit"
    # force_limits.tags is 1: every trooper costs more than 1 point.
    spec = force(unit("tag", size=1), unit("light-infantry", HACKER, size=2))
    report = validate_force(spec, _with(code))
    assert [(i.path, i.message) for i in report.issues if i.code == code] == [
        ("units[0].troopers[0]", f"This {TAG} trooper costs 10 points; one may cost at most 1."),
        ("units[1].troopers[0]", f"This {LIGHT} trooper costs 3 points; one may cost at most 1."),
        ("units[1].troopers[1]", f"This {LIGHT} trooper costs 2 points; one may cost at most 1."),
    ]
    assert not report.legal
    assert validate_force(spec, _with(code, severity="warning")).legal


def test_the_words_follow_the_limit_is_for_one_tag_are_for_two():
    document = _document()
    document["force_limits"]["tags"] = 2
    ruleset = parse_ruleset(document, "organizer.toml")
    three = force(*[unit("tag", size=1)] * 3, unit("light-infantry", HACKER, size=2))
    (issue,) = validate_force(three, ruleset).issues
    assert issue.message == "This force has 3 TAGs; at most 2 are allowed."
    assert broken_rule(issue, ruleset) == "A list has at most 2 TAGs."


# --- the file refuses a constraint it could not judge or say ---------------------------------


def _error(code: str, change: dict[str, Any], drop: str = "") -> RulesetError:
    document = _document()
    entry = document["constraints"].setdefault(code, {})
    entry.update(change)
    entry.pop(drop, None)
    with pytest.raises(RulesetError) as caught:
        parse_ruleset(document, "rulesets/broken.toml")
    return caught.value


UNITS = "force.units.too-many"
IN_UNIT = "unit.troopers.too-many"


@pytest.mark.parametrize(
    ("code", "change", "drop", "key", "words"),
    [
        (UNITS, {"count": "wounds"}, "", "count", "expected one of points, units"),
        (UNITS, {"scope": "table"}, "", "scope", "expected one of force, unit-type"),
        (UNITS, {"min": 1}, "", "", "exactly one bound: max or min"),
        (UNITS, {}, "max", "", "exactly one bound: max or min"),
        (UNITS, {"max": -1}, "", "max", "must be at least 0"),
        (UNITS, {"max": "force_limits.wounds"}, "", "max", "or one of force.points_limit"),
        (UNITS, {"max": "unit_type.max_troopers"}, "", "max", "expected a whole number"),
        (UNITS, {"maximum": 4}, "", "maximum", "unknown key"),
        (UNITS, {"severity": "fatal"}, "", "severity", "expected one of error, warning"),
        (UNITS, {}, "message", "message", "missing"),
        (UNITS, {"message": "{troopers} troopers"}, "", "message", "{troopers} is not one"),
        (UNITS, {"message": "{unit_type}"}, "", "message", "{unit_type} is not one"),
        (UNITS, {"fix": "Remove {over!r}"}, "", "fix", "write a name"),
        (UNITS, {"fix": "Remove {over"}, "", "fix", "cannot be read"),
        (UNITS, {"message": "{specialist_classes:unit}"}, "", "message", "only a number is"),
        (UNITS, {"rule": "Remove {over:unit}"}, "", "rule", "{over} is not one of its names"),
        (IN_UNIT, {"rule": "{unit_type} is full"}, "", "rule", "{unit_type} is not one"),
        (UNITS, {"rule": "{limit:1 is|are}"}, "", "rule", "'=N words', like '=1 is'"),
        (IN_UNIT, {"path": "units"}, "", "path", "a unit's problem is at its own path"),
        ("Too Many", {}, "", "", "a code is ids joined by dots"),
    ],
)
def test_a_constraint_the_engine_could_not_use_is_refused(code, change, drop, key, words):
    error = _error(code, change, drop)
    assert error.key == ".".join(part for part in ("constraints", code, key) if part)
    assert words in error.problem


# --- how the words are said -----------------------------------------------------------------


@given(st.integers(min_value=0, max_value=10_000))
def test_a_noun_is_counted_in_the_singular_only_for_one(number):
    assert say(number, "ability slot") == (
        "1 ability slot" if number == 1 else f"{number} ability slots"
    )


@given(st.integers(min_value=0, max_value=10_000))
def test_a_form_of_exactly_n_is_said_only_of_n_and_the_last_of_every_other(number):
    form = "=0 no specialist|=2 a pair|at most #"
    expected = {0: "no specialist", 2: "a pair"}.get(number, f"at most {number}")
    assert say(number, form) == expected


def test_a_template_fills_in_numbers_and_words():
    template = (
        "This {unit_type} unit has {troopers:trooper}; it {limit:=0 may have none|may have #}."
    )
    check_template(template, ("troopers", "limit", "over"), ("unit_type",))
    assert fill(template, {"unit_type": "TAG", "troopers": 2, "limit": 0}) == (
        "This TAG unit has 2 troopers; it may have none."
    )
    with pytest.raises(WordingError, match=re.escape("its names: {troopers}, {unit_type}")):
        check_template("{wounds}", ("troopers",), ("unit_type",))
