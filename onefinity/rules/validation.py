"""Force validation: every problem of a force list at once, in words a player understands.

Each :class:`Issue` carries a stable ``code``, a ``severity`` (an error makes the list
illegal, a warning does not), the ``path`` of what it concerns (``units[1].troopers[0]``),
the ``counts`` behind it, a ``message`` and a suggested ``fix``. The force limits are the
ruleset's constraints (what is counted over which scope, the bound, the problem's words),
judged by one loop; only what a count means, and the checks of ids, are code.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from onefinity.rules.force import (
    ForceDocumentError,
    ForceSpec,
    TrooperSpec,
    UnitSpec,
    read_force_document,
)
from onefinity.rules.points import ForceCost, UnitCost, force_cost
from onefinity.rules.ruleset import (
    COUNTS,
    FORCE,
    MAX,
    POINTS,
    SLOTS,
    SPECIALISTS,
    TAGS,
    TROOPER,
    TROOPERS,
    UNIT,
    UNIT_TYPE_SCOPE,
    UNITS,
    CatalogueEntry,
    Constraint,
    Faction,
    Ruleset,
    RulesetLibrary,
    UnitType,
)
from onefinity.rules.ruleset import ERROR as ERROR
from onefinity.rules.ruleset import WARNING as WARNING
from onefinity.rules.wording import fill, fill_each

# How many alternatives a fix names before it says "and N more".
_MAX_CHOICES = 8


@dataclass(frozen=True, slots=True)
class Issue:
    code: str
    severity: str
    path: str
    message: str
    fix: str
    counts: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))

    def as_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "severity": self.severity,
            "path": self.path,
            "message": self.message,
            "fix": self.fix,
            "counts": dict(self.counts),
        }


@dataclass(frozen=True, slots=True)
class Tally:
    """The force's counters against its limits, for live display before a rule breaks."""

    points: int
    points_limit: int
    units: int
    units_limit: int
    troopers: int
    troopers_limit: int
    tags: int
    tags_limit: int
    specialists: int
    specialists_limit: int


@dataclass(frozen=True, slots=True)
class Report:
    ruleset: str | None
    issues: tuple[Issue, ...]
    tally: Tally | None = None
    cost: ForceCost | None = None

    @property
    def legal(self) -> bool:
        return not any(issue.severity == ERROR for issue in self.issues)

    @property
    def points(self) -> int:
        return self.tally.points if self.tally else 0

    @property
    def errors(self) -> tuple[Issue, ...]:
        return tuple(i for i in self.issues if i.severity == ERROR)

    @property
    def warnings(self) -> tuple[Issue, ...]:
        return tuple(i for i in self.issues if i.severity == WARNING)

    def as_dict(self) -> dict[str, Any]:
        return {
            "legal": self.legal,
            "points": self.points,
            "points_limit": self.tally.points_limit if self.tally else None,
            "ruleset": self.ruleset,
            "issues": [issue.as_dict() for issue in self.issues],
        }


def _choices(entries: list[str]) -> str:
    if not entries:
        return "nothing"
    shown = ", ".join(entries[:_MAX_CHOICES])
    more = len(entries) - _MAX_CHOICES
    return f"{shown} and {more} more" if more > 0 else shown


class _Checker:
    """One pass over the force: each unit and trooper is checked and counted once; the
    constraints of each scope then judge the counts (one loop, whatever the ruleset holds).
    A part's constraint problems come before the problems found inside it."""

    def __init__(self, force: ForceSpec, ruleset: Ruleset) -> None:
        self.force = force
        self.ruleset = ruleset
        self.faction: Faction | None = ruleset.factions.get(force.faction)
        self.issues: list[Issue] = []
        self.points_limit = force.points_limit or ruleset.force_limits.points
        self.constraints = ruleset.constraints
        self._specialist_classes: str | None = None

    def error(self, code: str, path: str, message: str, fix: str) -> None:
        self.issues.append(Issue(code, ERROR, path, message, fix))

    def unknown(self, path: str, value: str, what: str, known: Mapping[str, Any]) -> None:
        names = [f"{getattr(entry, 'name', key)} ({key})" for key, entry in known.items()]
        self.error(
            "ref.unknown",
            path,
            f"{value!r} is not a {what} in ruleset {self.ruleset.version}.",
            f"Use one of: {_choices(names)}.",
        )

    # --- the constraints: one loop over the ruleset's data ------------------------------

    def constrain(
        self,
        scope: str,
        counted: Mapping[str, int],
        path: str,
        unit_type: UnitType | None,
        at: int,
    ) -> None:
        """Report, before the issue at index ``at``, each constraint of ``scope`` that
        ``counted`` (what the part of the force at ``path`` holds) breaks."""
        broken = []
        type_id = unit_type.id if unit_type is not None else ""
        points_limit = self.points_limit
        for constraint in self.constraints[scope]:
            number = counted[constraint.count]
            limit = constraint.limits.get(type_id, points_limit)
            if constraint.bound == MAX:
                if number <= limit:
                    continue
                bound, gap, past = "limit", "over", number - limit
            elif number >= limit:
                continue
            else:
                bound, gap, past = "minimum", "short", limit - number
            counts = {constraint.count: number, bound: limit}
            broken.append(self.problem(constraint, path, unit_type, counts, gap, past))
        if broken:
            self.issues[at:at] = broken

    def problem(
        self,
        constraint: Constraint,
        path: str,
        unit_type: UnitType | None,
        counts: dict[str, int],
        gap: str,
        past: int,
    ) -> Issue:
        """The issue of a broken constraint, its words filled in."""
        values: dict[str, int | str] = {**counts, gap: past}
        values["specialist_classes"] = self.specialist_classes
        if unit_type is not None:
            values["unit_type"] = unit_type.name
        message, fix = fill_each((constraint.message, constraint.fix), values)
        return Issue(
            constraint.code,
            constraint.severity,
            path if constraint.scope in (UNIT, TROOPER) else constraint.path,
            message,
            fix,
            MappingProxyType(counts),
        )

    @property
    def specialist_classes(self) -> str:
        """The names of the specialist classes, worked out at the first problem."""
        if self._specialist_classes is None:
            self._specialist_classes = ", ".join(
                c.name for c in self.ruleset.trooper_classes.values() if c.specialist
            )
        return self._specialist_classes

    # --- the whole force ---------------------------------------------------------------

    def run(self) -> Report:
        force, ruleset, limits = self.force, self.ruleset, self.ruleset.force_limits
        if self.faction is None:
            self.unknown("faction", force.faction, "faction", ruleset.factions)
        at = len(self.issues)
        cost = force_cost(force, ruleset)
        in_force = dict.fromkeys(COUNTS, 0)
        by_type: dict[str, dict[str, int]] = {}
        for index, unit in enumerate(force.units):
            unit_type = ruleset.unit_types.get(unit.type)
            counted = self.check_unit(index, unit, unit_type, cost.units[index])
            for name, number in counted.items():
                in_force[name] += number
            if unit_type is not None and ruleset.constraints[UNIT_TYPE_SCOPE]:
                in_type = by_type.setdefault(unit_type.id, dict.fromkeys(COUNTS, 0))
                for name, number in counted.items():
                    in_type[name] += number
        for type_id in reversed(by_type):
            of_type = ruleset.unit_types[type_id]
            self.constrain(UNIT_TYPE_SCOPE, by_type[type_id], "", of_type, at)
        self.constrain(FORCE, in_force, "", None, at)

        tally = Tally(
            points=in_force[POINTS],
            points_limit=self.points_limit,
            units=in_force[UNITS],
            units_limit=limits.units,
            troopers=in_force[TROOPERS],
            troopers_limit=limits.troopers,
            tags=in_force[TAGS],
            tags_limit=limits.tags,
            specialists=in_force[SPECIALISTS],
            specialists_limit=limits.specialists_max,
        )
        return Report(ruleset.version, tuple(self.issues), tally, cost)

    # --- one unit ----------------------------------------------------------------------

    def check_unit(
        self, index: int, unit: UnitSpec, unit_type: UnitType | None, cost: UnitCost
    ) -> dict[str, int]:
        """Check a unit and its troopers; return what it holds."""
        path = f"units[{index}]"
        if unit_type is None:
            self.unknown(f"{path}.type", unit.type, "unit type", self.ruleset.unit_types)
        at = len(self.issues)
        self.check_items(
            self.ruleset.unit_skills, "unit skill", unit.skills, path, "skills", unit_type
        )
        tag = 1 if unit_type is not None and unit_type.is_tag else 0
        specialists = slots = 0
        each_trooper = unit_type is not None and bool(self.ruleset.constraints[TROOPER])
        # What one trooper holds: the same for each but its points, class and abilities.
        counted = {POINTS: 0, UNITS: 0, TROOPERS: 1, TAGS: tag, SPECIALISTS: 0, SLOTS: 0}
        for trooper_index, trooper in enumerate(unit.troopers):
            trooper_path = f"{path}.troopers[{trooper_index}]"
            specialist, taken = self.check_trooper(trooper_path, trooper, unit_type)
            specialists += specialist
            slots += taken
            if each_trooper:
                counted[POINTS] = cost.troopers[trooper_index]
                counted[SPECIALISTS] = specialist
                counted[SLOTS] = taken
                self.constrain(TROOPER, counted, trooper_path, unit_type, len(self.issues))
        troopers = len(unit.troopers)
        counted = {
            POINTS: cost.total,
            UNITS: 1,
            TROOPERS: troopers,
            TAGS: troopers * tag,
            SPECIALISTS: specialists,
            SLOTS: slots,
        }
        if unit_type is not None:
            self.constrain(UNIT, counted, path, unit_type, at)
        return counted

    # --- one trooper -------------------------------------------------------------------

    def check_trooper(
        self, path: str, trooper: TrooperSpec, unit_type: UnitType | None
    ) -> tuple[int, int]:
        """Check a trooper; return whether it is a specialist (1 or 0) and the ability slots
        its known abilities take (each as often as listed)."""
        ruleset = self.ruleset
        trooper_class = ruleset.trooper_classes.get(trooper.trooper_class)
        if trooper_class is None:
            self.unknown(
                f"{path}.class", trooper.trooper_class, "trooper class", ruleset.trooper_classes
            )
        elif unit_type is not None and not trooper_class.allowed_for_unit_type(unit_type.id):
            self.error(
                "ref.not-allowed",
                f"{path}.class",
                f"A {unit_type.name} trooper cannot be a {trooper_class.name}.",
                "Make it a plain trooper, or give the class to a trooper of another unit type.",
            )
        elif self.faction is not None and not trooper_class.allowed_for_faction(self.faction.id):
            self.error(
                "ref.not-allowed",
                f"{path}.class",
                f"The {self.faction.name} have no {trooper_class.name}.",
                "Make it a plain trooper or another specialist.",
            )
        self.check_items(ruleset.weapons, "weapon", trooper.weapons, path, "weapons", unit_type)
        self.check_items(
            ruleset.equipment,
            "piece of equipment",
            trooper.equipment,
            path,
            "equipment",
            unit_type,
        )
        abilities = self.check_items(
            ruleset.abilities, "special ability", trooper.abilities, path, "abilities", unit_type
        )
        specialist = trooper_class is not None and trooper_class.specialist
        return int(specialist), sum(entry.slots for entry in abilities)

    def check_items(
        self,
        catalogue: Mapping[str, CatalogueEntry],
        what: str,
        ids: tuple[str, ...],
        path: str,
        key: str,
        unit_type: UnitType | None,
    ) -> list[CatalogueEntry]:
        """Report unknown, duplicated and not-allowed ids (at ``path``'s ``key``); return
        the known entries."""
        if not ids:  # most troopers leave most lists empty
            return []
        faction = self.faction
        entries: list[CatalogueEntry] = []
        seen: set[str] = set()
        for index, item_id in enumerate(ids):
            item_path = f"{path}.{key}[{index}]"
            entry = catalogue.get(item_id)
            if entry is None:
                self.unknown(item_path, item_id, what, self.allowed(catalogue, unit_type))
                continue
            entries.append(entry)
            if item_id in seen:
                self.error(
                    "ref.duplicate",
                    item_path,
                    f"{entry.name} is listed twice.",
                    f"Remove the second {entry.name}.",
                )
                continue
            seen.add(item_id)
            if unit_type is not None and not entry.allowed_for_unit_type(unit_type.id):
                self.error(
                    "ref.not-allowed",
                    item_path,
                    f"{entry.name} is not available to {unit_type.name}.",
                    f"Remove it. {unit_type.name} may take: "
                    f"{_choices([e.name for e in self.allowed(catalogue, unit_type).values()])}.",
                )
            elif faction is not None and not entry.allowed_for_faction(faction.id):
                self.error(
                    "ref.not-allowed",
                    item_path,
                    f"{entry.name} is not available to the {faction.name}.",
                    f"Remove it. The {faction.name} may take: "
                    f"{_choices([e.name for e in self.allowed(catalogue, unit_type).values()])}.",
                )
        return entries

    def allowed(
        self, catalogue: Mapping[str, CatalogueEntry], unit_type: UnitType | None
    ) -> dict[str, CatalogueEntry]:
        return allowed_entries(catalogue, unit_type.id if unit_type else None, self.faction)


def allowed_entries(
    catalogue: Mapping[str, CatalogueEntry], unit_type: str | None, faction: Faction | None
) -> dict[str, CatalogueEntry]:
    """What a trooper of this unit type and faction may take from a catalogue."""
    return {
        key: entry
        for key, entry in catalogue.items()
        if (unit_type is None or entry.allowed_for_unit_type(unit_type))
        and (faction is None or entry.allowed_for_faction(faction.id))
    }


def broken_rule(issue: Issue, ruleset: Ruleset) -> str:
    """The rule a constraint's issue says is broken, in the ruleset's sentence ("A list has
    at most 4 units."), for a choice the editor refuses; "" when it has none (the message
    says it then) or the issue is not a constraint's."""
    for constraints in ruleset.constraints.values():
        for constraint in constraints:
            if constraint.code == issue.code:
                return fill(constraint.rule, issue.counts) if constraint.rule else ""
    return ""


def validate_force(force: ForceSpec, ruleset: Ruleset) -> Report:
    """Every problem of ``force`` under ``ruleset``."""
    return _Checker(force, ruleset).run()


def check_force(force: ForceSpec, library: RulesetLibrary) -> Report:
    """Validate under the ruleset the force names (the current one when it names none)."""
    ruleset = library.get(force.ruleset)
    if ruleset is None:
        known = ", ".join(sorted(library.rulesets))
        return Report(
            None,
            (
                Issue(
                    "ref.unknown",
                    ERROR,
                    "ruleset",
                    f"Ruleset {force.ruleset!r} is not known to this site.",
                    f"Use one of: {known}, or leave the ruleset out to use the current one.",
                ),
            ),
        )
    return validate_force(force, ruleset)


def check_force_document(document: object, library: RulesetLibrary) -> Report:
    """Validate an untrusted parsed-JSON value; never raises on any JSON value."""
    try:
        force = read_force_document(document)
    except ForceDocumentError as error:
        return Report(
            None,
            (
                Issue(
                    "document.invalid",
                    ERROR,
                    error.path,
                    f"This is not a readable force document: {error}.",
                    "Export the list again from the builder, or correct the file at that key.",
                ),
            ),
        )
    return check_force(force, library)
