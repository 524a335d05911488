"""The list's problems as the editor shows them: errors before warnings, each linked to the
unit or trooper it concerns (a force-wide problem names the troopers or units behind it),
with a one-click fix when there is one obvious fix.

A fix is an ordinary editor action (the fields of a POST to the edit view, with the list's
version added by the form), so it is undoable and works without JavaScript. The engine's
messages are already in the player's words; the codes stay on each problem for organizers
and the JSON.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from forcebuilder import edits
from forcebuilder.choices import Judge
from forcebuilder.sheets import ForceSheet, TrooperSheet, UnitSheet
from onefinity.rules import Issue

_PATH = re.compile(
    r"^units\[(\d+)\](?:\.troopers\[(\d+)\])?(?:\.(weapons|equipment|abilities|skills)\[(\d+)\]|\.(class))?$"
)


@dataclass(frozen=True)
class Fix:
    label: str
    fields: dict[str, str]


@dataclass(frozen=True)
class Link:
    label: str
    anchor: str
    # A trooper's key: the link opens its loadout rather than scrolling to an anchor.
    trooper: str = ""


@dataclass
class Problem:
    issue: Issue
    # Where the problem is: the unit or trooper (a link), '' for the whole list.
    where: Link | None = None
    # A force-wide problem's troopers or units.
    concerns: list[Link] = field(default_factory=list)
    fix: Fix | None = None

    @property
    def severity(self) -> str:
        return self.issue.severity


def _trooper_link(unit: UnitSheet, trooper: TrooperSheet) -> Link:
    return Link(f"{trooper.label} in {unit.short_label}", trooper.element_id, trooper.key)


def _unit_link(unit: UnitSheet) -> Link:
    return Link(unit.short_label, unit.element_id)


def problems(sheet: ForceSheet) -> list[Problem]:
    """Every issue of the report, errors first, each placed and (when obvious) fixable;
    each unit's and trooper's own problems are also put on its sheet."""
    judge = Judge(sheet.spec, sheet.report, sheet.ruleset)
    found = [_problem(sheet, judge, issue) for issue in sheet.report.errors]
    found += [_problem(sheet, judge, issue) for issue in sheet.report.warnings]
    by_anchor: dict[str, list[Problem]] = {}
    for problem in found:
        if problem.where is not None:
            by_anchor.setdefault(problem.where.anchor, []).append(problem)
    for unit in sheet.units:
        unit.problems = by_anchor.get(unit.element_id, [])
        for trooper in unit.troopers:
            trooper.problems = by_anchor.get(trooper.element_id, [])
    return found


def _problem(sheet: ForceSheet, judge: Judge, issue: Issue) -> Problem:
    match = _PATH.match(issue.path)
    if match is None:
        return _force_problem(sheet, judge, issue)
    u, t, kind, item_index, is_class = match.groups()
    unit = sheet.units[int(u)]
    if t is None:
        problem = Problem(issue, _unit_link(unit))
        if kind == "skills":
            item = sheet.spec.units[unit.index].skills[int(item_index)]
            problem.fix = _remove_item(sheet, issue, {"unit_id": unit.key}, "skills", item)
        else:
            problem.fix = _unit_fix(sheet, judge, unit, issue)
        return problem
    trooper = unit.troopers[int(t)]
    problem = Problem(issue, _trooper_link(unit, trooper))
    if kind is not None:
        item = getattr(trooper.spec, kind)[int(item_index)]
        problem.fix = _remove_item(sheet, issue, {"trooper_id": trooper.key}, kind, item)
    elif is_class and trooper.class_id != "trooper":
        problem.fix = Fix(
            f"Make {trooper.label} a plain trooper",
            {"action": "set-class", "trooper_id": trooper.key, "class": "trooper"},
        )
    return problem


def _remove_item(
    sheet: ForceSheet, issue: Issue, owner: dict[str, str], kind: str, item: str
) -> Fix:
    catalogue = getattr(sheet.ruleset, "unit_skills" if kind == "skills" else kind)
    name = catalogue[item].name if item in catalogue else f"'{item}'"
    label = f"Remove the second {name}" if issue.code == "ref.duplicate" else f"Remove {name}"
    return Fix(label, {"action": "remove-item", "kind": kind, "item": item, **owner})


def _unit_fix(sheet: ForceSheet, judge: Judge, unit: UnitSheet, issue: Issue) -> Fix | None:
    if issue.code == "unit.specialists.too-many":
        specialist = next(t for t in reversed(unit.troopers) if t.is_specialist)
        return Fix(
            f"Make {specialist.label} a plain trooper",
            {"action": "set-class", "trooper_id": specialist.key, "class": "trooper"},
        )
    if issue.code == "unit.troopers.too-many":
        if not judge.reason(lambda f: edits.split_unit(f, unit.index)):
            return Fix(
                f"Split {unit.short_label} in two", {"action": "split-unit", "unit_id": unit.key}
            )
        if issue.counts.get("troopers", 0) - issue.counts.get("limit", 0) == 1:
            last = unit.troopers[-1]
            return Fix(f"Remove {last.label}", {"action": "remove-trooper", "trooper_id": last.key})
    if issue.code == "unit.troopers.too-few" and not judge.reason(
        lambda f: edits.add_trooper(f, unit.index)
    ):
        return Fix("Add a trooper", {"action": "add-trooper", "unit_id": unit.key})
    return None


def _force_problem(sheet: ForceSheet, judge: Judge, issue: Issue) -> Problem:
    problem = Problem(issue)
    code = issue.code
    if code.startswith("force.specialists."):
        specialists = [(u, t) for u, t in sheet.troopers if t.is_specialist]
        problem.concerns = [_trooper_link(u, t) for u, t in specialists]
        if code == "force.specialists.too-many" and specialists:
            unit, last = specialists[-1]
            problem.fix = Fix(
                f"Make {last.label} in {unit.short_label} a plain trooper",
                {"action": "set-class", "trooper_id": last.key, "class": "trooper"},
            )
    elif code == "force.tags.too-many":
        tags = [u for u in sheet.units if u.unit_type is not None and u.unit_type.is_tag]
        problem.concerns = [_unit_link(u) for u in tags]
        if tags:
            problem.fix = Fix(
                f"Remove {tags[-1].short_label}",
                {"action": "remove-unit", "unit_id": tags[-1].key},
            )
    elif code in ("force.units.too-many", "force.troopers.too-many"):
        problem.concerns = [
            Link(f"{u.short_label} ({len(u.troopers)})", u.element_id) for u in sheet.units
        ]
    elif code == "force.points.over-limit":
        by_cost = sorted(sheet.units, key=lambda u: -u.points)
        problem.concerns = [
            Link(f"{u.short_label} ({u.points} pts)", u.element_id) for u in by_cost
        ]
    return problem
