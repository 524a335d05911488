"""Which of the editor's choices the rules allow, and why not when they do not.

A choice that adds something (a unit, a trooper, a specialist, an item) is tried on a copy
of the list and the engine validates the copy (onefinity.rules.choices): the choice is
offered disabled, with the reason, when it would add an error. Taking things away is
always allowed, so no list can get stuck, and so are points: a list is trimmed to size
by swapping loadouts, and going over shows as a problem at once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from forcebuilder.edits import EditError
from onefinity.rules import ForceSpec, Issue, Report, added_errors, validate_force
from onefinity.rules.ruleset import Ruleset
from onefinity.rules.validation import broken_rule

# The limits a choice may pass (the problem shows at once, with its counts).
SOFT_CODES = frozenset({"force.points.over-limit", "unit.points.over-limit"})


def rule_reason(issue: Issue, ruleset: Ruleset) -> str:
    """Why a choice is not offered: the rule it would break, as the ruleset words it."""
    return broken_rule(issue, ruleset) or issue.message


class Judge:
    """Tries choices on copies of one list; each answer is '' (allowed) or the reason."""

    def __init__(self, spec: ForceSpec, report: Report, ruleset: Ruleset) -> None:
        self.spec = spec
        self.report = report
        self.ruleset = ruleset
        self.tried = 0
        self._units: dict[int, Judge] = {}

    def for_unit(self, index: int) -> Judge:
        """A judge of the list cut down to one unit (at index 0), for choices that change
        only that unit's items: an item's rules (who may take it, twice, ability slots)
        are the unit's own, and the force-wide rules they touch are points, which choices
        may pass. A picker tries some 35 items; on one unit each try costs a quarter. The
        edit view still judges the whole list before it saves."""
        if index not in self._units:
            alone = replace(self.spec, units=(self.spec.units[index],))
            self._units[index] = Judge(alone, validate_force(alone, self.ruleset), self.ruleset)
        return self._units[index]

    @property
    def tried_in_all(self) -> int:
        return self.tried + sum(judge.tried for judge in self._units.values())

    def reason(self, change: Callable[[ForceSpec], ForceSpec]) -> str:
        try:
            changed = change(self.spec)
        except EditError as error:
            return str(error)
        self.tried += 1
        return added_reason(self.report, validate_force(changed, self.ruleset), self.ruleset)


def added_reason(before: Report, after: Report, ruleset: Ruleset) -> str:
    """Why a change that adds is refused: the nearest rule ``after`` breaks that ``before``
    did not ("" when none; points may be passed, going over shows as a problem at once)."""
    broken = [i for i in added_errors(before, after) if i.code not in SOFT_CODES]
    if not broken:
        return ""
    # The nearest rule says it best: "a TAG takes no specialist" before "a list has at most
    # 3 specialists" (a trooper's path is deeper than its unit's, the force's).
    return rule_reason(max(broken, key=lambda issue: issue.path.count("[")), ruleset)
