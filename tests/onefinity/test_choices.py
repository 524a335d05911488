"""A change is judged by the engine itself: the errors the changed force has that the force
did not."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings

from onefinity.rules import added_errors, current_ruleset, read_force_document, validate_force
from tests.conftest import examples
from tests.onefinity.test_force_document import DOCUMENT
from tests.onefinity.test_properties import forces

RULESET = current_ruleset()


def test_a_change_that_breaks_a_rule_adds_its_error():
    force = read_force_document(DOCUMENT)
    before = validate_force(force, RULESET)
    unit = force.units[0]
    # A third specialist in a Medium Infantry unit (it may have 2).
    troopers = tuple(replace(t, trooper_class="hacker") for t in unit.troopers)
    changed = replace(force, units=(replace(unit, troopers=troopers),))
    added = added_errors(before, validate_force(changed, RULESET))
    assert [issue.code for issue in added] == ["unit.specialists.too-many"]


def test_a_limit_broken_further_is_an_added_error_and_the_same_problem_is_not():
    force = read_force_document(DOCUMENT)
    unit = force.units[0]
    plain = unit.troopers[1]
    seven = replace(force, units=(replace(unit, troopers=unit.troopers + (plain,) * 4),))
    eight = replace(force, units=(replace(unit, troopers=unit.troopers + (plain,) * 5),))
    before, after = validate_force(seven, RULESET), validate_force(eight, RULESET)
    # 8 troopers instead of 7, and (their points too) 30 points instead of 27.
    added = sorted(i.code for i in added_errors(before, after))
    assert added == ["unit.points.over-limit", "unit.troopers.too-many"]
    assert added_errors(before, validate_force(seven, RULESET)) == ()


@settings(max_examples=examples(200))
@given(forces)
def test_a_force_adds_no_error_to_itself_and_every_added_error_is_one_of_the_new_ones(force):
    report = validate_force(force, RULESET)
    assert added_errors(report, report) == ()
    empty = validate_force(replace(force, units=()), RULESET)
    added = added_errors(empty, report)
    assert all(issue in report.errors for issue in added)
