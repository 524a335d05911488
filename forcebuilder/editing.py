"""The list editor's use case: one change to a stored list, from the request's fields to the
saved revision and the verdict the page draws.

An edit reads the stored list once, reads the changed list once (the reader that reads it
back: what it would refuse is refused before any rule is weighed), and validates the changed
list once; the page is drawn from that list and that verdict. The list as it was is
validated only when the change adds something and the changed list has errors, to tell the
errors the change added from the ones the list already had.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.http import QueryDict

from accounts.ownership import StaleVersion
from forcebuilder.actions import apply_action
from forcebuilder.choices import SOFT_CODES, added_reason
from forcebuilder.edits import EditError
from forcebuilder.models import Force
from onefinity.rules import ForceSpec, Report, validate_force
from onefinity.rules.ruleset import Ruleset

# Actions that add to the list: refused, with the reason, when they would break a rule
# (the editor shows them disabled; this is the same judge, for a page without JavaScript
# or a request sent anyway). Taking away and settings are never refused.
ADDING = frozenset(
    {
        "add-unit",
        "add-trooper",
        "duplicate-unit",
        "duplicate-trooper",
        "split-unit",
        "set-class",
        "loadout",
        "unit-skills",
    }
)


@dataclass(frozen=True)
class Edited:
    """The list after the change (saved when it changed anything), its verdict, and what
    the change concerns ("unit-<key>", "trooper-<key>" or "")."""

    spec: ForceSpec
    report: Report
    concerns: str

    @property
    def focus(self) -> str:
        """The row to focus when the control that made the change is gone (a removed
        trooper)."""
        kind, _, key = self.concerns.partition("-")
        if not key:
            return ""
        return {"unit": f"sum-{key}", "trooper": f"row-{key}"}.get(kind, "")


def edit_list(force: Force, data: QueryDict, expected: int) -> Edited:
    """Make the change ``data`` asks for (its ``action`` and fields) on ``force`` as the page
    at version ``expected`` showed it.

    EditError (nothing saved) when the change is refused, with the reason;
    ForceDocumentError when the changed list would not read back; StaleVersion when the
    list moved on since the page was drawn; DamagedRecord when the stored list no longer
    reads."""
    if expected != force.version:
        raise StaleVersion(force.version, expected)
    ruleset = force.ruleset()
    before = force.to_spec()
    change = apply_action(before, data, ruleset)
    after = force.read_back(change.spec)
    report = validate_force(after, ruleset)
    if data.get("action") in ADDING:
        reason = _added_reason(before, report, ruleset)
        if reason:
            raise EditError(f"Not added: {reason}")
    if after != before:  # a change that changes nothing makes no undo step
        force.record_read(after, expected=expected, description=change.description)
    return Edited(after, report, change.concerns)


def _added_reason(before: ForceSpec, after: Report, ruleset: Ruleset) -> str:
    """``choices.added_reason``, validating the list as it was only when the changed list has
    an error a change may not add (most changes break nothing: one validation, not two)."""
    if all(issue.code in SOFT_CODES for issue in after.errors):
        return ""
    return added_reason(validate_force(before, ruleset), after, ruleset)
