"""Force validation: every problem of a force list at once, in words a player understands.

Each :class:`Issue` carries a stable ``code``, a ``severity`` (an error makes the list
illegal, a warning does not), the ``path`` of what it concerns (``units[1].troopers[0]``),
the ``counts`` behind it, a ``message`` and a suggested ``fix``. The limits come from the
ruleset; only the meaning of each rule is code.
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
from onefinity.rules.points import ForceCost, force_cost
from onefinity.rules.ruleset import CatalogueEntry, Faction, Ruleset, RulesetLibrary, UnitType

ERROR = "error"
WARNING = "warning"
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


def _plural(count: int, word: str, plural: str | None = None) -> str:
    return f"{count} {word if count == 1 else plural or word + 's'}"


def _choices(entries: list[str]) -> str:
    if not entries:
        return "nothing"
    shown = ", ".join(entries[:_MAX_CHOICES])
    more = len(entries) - _MAX_CHOICES
    return f"{shown} and {more} more" if more > 0 else shown


def _counts(**values: int) -> Mapping[str, int]:
    return MappingProxyType(values)


class _Checker:
    def __init__(self, force: ForceSpec, ruleset: Ruleset) -> None:
        self.force = force
        self.ruleset = ruleset
        self.faction: Faction | None = ruleset.factions.get(force.faction)
        self.issues: list[Issue] = []

    def error(self, code: str, path: str, message: str, fix: str, **counts: int) -> None:
        self.issues.append(Issue(code, ERROR, path, message, fix, _counts(**counts)))

    def warning(self, code: str, path: str, message: str, fix: str, **counts: int) -> None:
        self.issues.append(Issue(code, WARNING, path, message, fix, _counts(**counts)))

    def unknown(self, path: str, value: str, what: str, known: Mapping[str, Any]) -> None:
        names = [f"{getattr(entry, 'name', key)} ({key})" for key, entry in known.items()]
        self.error(
            "ref.unknown",
            path,
            f"{value!r} is not a {what} in ruleset {self.ruleset.version}.",
            f"Use one of: {_choices(names)}.",
        )

    # --- the whole force ---------------------------------------------------------------

    def run(self) -> Report:
        force, ruleset, limits = self.force, self.ruleset, self.ruleset.force_limits
        if self.faction is None:
            self.unknown("faction", force.faction, "faction", ruleset.factions)
        cost = force_cost(force, ruleset)
        points_limit = force.points_limit or limits.points
        unit_types = [ruleset.unit_types.get(unit.type) for unit in force.units]
        troopers = sum(len(unit.troopers) for unit in force.units)
        tags = sum(
            len(unit.troopers)
            for unit, unit_type in zip(force.units, unit_types, strict=True)
            if unit_type is not None and unit_type.is_tag
        )
        specialists = sum(self.is_specialist(t) for unit in force.units for t in unit.troopers)

        if cost.total > points_limit:
            over = cost.total - points_limit
            self.error(
                "force.points.over-limit",
                "",
                f"This force costs {cost.total} points; the limit is {points_limit}.",
                f"Remove {_plural(over, 'point')}: drop a trooper or choose cheaper loadouts.",
                points=cost.total,
                limit=points_limit,
            )
        if not force.units:
            self.error(
                "force.units.none",
                "units",
                "This force has no units; it needs at least 1.",
                "Add a unit.",
                units=0,
                minimum=1,
            )
        if len(force.units) > limits.units:
            over = len(force.units) - limits.units
            self.error(
                "force.units.too-many",
                "units",
                f"This force has {_plural(len(force.units), 'unit')}; at most {limits.units} are allowed.",
                f"Remove {_plural(over, 'unit')}, or move its troopers into a unit of the same type.",
                units=len(force.units),
                limit=limits.units,
            )
        if troopers > limits.troopers:
            over = troopers - limits.troopers
            self.error(
                "force.troopers.too-many",
                "units",
                f"This force has {_plural(troopers, 'trooper')}; at most {limits.troopers} are allowed.",
                f"Remove {_plural(over, 'trooper')}.",
                troopers=troopers,
                limit=limits.troopers,
            )
        if tags > limits.tags:
            over = tags - limits.tags
            self.error(
                "force.tags.too-many",
                "units",
                f"This force has {_plural(tags, 'TAG')}; at most {limits.tags} is allowed."
                if limits.tags == 1
                else f"This force has {_plural(tags, 'TAG')}; at most {limits.tags} are allowed.",
                f"Remove {_plural(over, 'TAG')}.",
                tags=tags,
                limit=limits.tags,
            )
        specialist_names = ", ".join(
            c.name for c in ruleset.trooper_classes.values() if c.specialist
        )
        if specialists > limits.specialists_max:
            over = specialists - limits.specialists_max
            self.error(
                "force.specialists.too-many",
                "units",
                f"This force has {_plural(specialists, 'specialist')}; "
                f"at most {limits.specialists_max} are allowed.",
                f"Make {_plural(over, 'specialist')} a plain trooper.",
                specialists=specialists,
                limit=limits.specialists_max,
            )
        if specialists < limits.specialists_min:
            self.warning(
                "force.specialists.none",
                "units",
                f"This force has {_plural(specialists, 'specialist')}; "
                f"it should have at least {limits.specialists_min}.",
                f"Make a trooper a specialist ({specialist_names}).",
                specialists=specialists,
                minimum=limits.specialists_min,
            )

        for index, (unit, unit_type) in enumerate(zip(force.units, unit_types, strict=True)):
            self.check_unit(index, unit, unit_type, cost.units[index].total)

        tally = Tally(
            points=cost.total,
            points_limit=points_limit,
            units=len(force.units),
            units_limit=limits.units,
            troopers=troopers,
            troopers_limit=limits.troopers,
            tags=tags,
            tags_limit=limits.tags,
            specialists=specialists,
            specialists_limit=limits.specialists_max,
        )
        return Report(ruleset.version, tuple(self.issues), tally, cost)

    def is_specialist(self, trooper: TrooperSpec) -> bool:
        trooper_class = self.ruleset.trooper_classes.get(trooper.trooper_class)
        return trooper_class is not None and trooper_class.specialist

    # --- one unit ----------------------------------------------------------------------

    def check_unit(
        self, index: int, unit: UnitSpec, unit_type: UnitType | None, points: int
    ) -> None:
        path = f"units[{index}]"
        limits = self.ruleset.force_limits
        if unit_type is None:
            self.unknown(f"{path}.type", unit.type, "unit type", self.ruleset.unit_types)
        else:
            label = f"This {unit_type.name} unit"
            if points > limits.unit_points:
                over = points - limits.unit_points
                self.error(
                    "unit.points.over-limit",
                    path,
                    f"{label} costs {points} points; a unit may cost at most {limits.unit_points}.",
                    f"Remove {_plural(over, 'point')} from it: drop a trooper or choose cheaper loadouts.",
                    points=points,
                    limit=limits.unit_points,
                )
            size = len(unit.troopers)
            if size < unit_type.min_troopers:
                short = unit_type.min_troopers - size
                self.error(
                    "unit.troopers.too-few",
                    path,
                    f"{label} has {_plural(size, 'trooper')}; it needs at least {unit_type.min_troopers}.",
                    f"Add {_plural(short, 'trooper')}, or remove the unit.",
                    troopers=size,
                    minimum=unit_type.min_troopers,
                )
            if size > unit_type.max_troopers:
                over = size - unit_type.max_troopers
                self.error(
                    "unit.troopers.too-many",
                    path,
                    f"{label} has {_plural(size, 'trooper')}; it may have at most {unit_type.max_troopers}.",
                    f"Remove {_plural(over, 'trooper')}, or split the unit in two.",
                    troopers=size,
                    limit=unit_type.max_troopers,
                )
            specialists = sum(self.is_specialist(t) for t in unit.troopers)
            if specialists > unit_type.max_specialists:
                over = specialists - unit_type.max_specialists
                allowed = (
                    "may have no specialist"
                    if unit_type.max_specialists == 0
                    else f"may have at most {unit_type.max_specialists}"
                )
                self.error(
                    "unit.specialists.too-many",
                    path,
                    f"{label} has {_plural(specialists, 'specialist')}; it {allowed}.",
                    f"Make {_plural(over, 'specialist')} in it a plain trooper.",
                    specialists=specialists,
                    limit=unit_type.max_specialists,
                )
        self.check_items(
            self.ruleset.unit_skills, "unit skill", unit.skills, f"{path}.skills", unit_type
        )
        for trooper_index, trooper in enumerate(unit.troopers):
            self.check_trooper(f"{path}.troopers[{trooper_index}]", trooper, unit_type)

    # --- one trooper -------------------------------------------------------------------

    def check_trooper(self, path: str, trooper: TrooperSpec, unit_type: UnitType | None) -> None:
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
        self.check_items(ruleset.weapons, "weapon", trooper.weapons, f"{path}.weapons", unit_type)
        self.check_items(
            ruleset.equipment,
            "piece of equipment",
            trooper.equipment,
            f"{path}.equipment",
            unit_type,
        )
        abilities = self.check_items(
            ruleset.abilities, "special ability", trooper.abilities, f"{path}.abilities", unit_type
        )
        if unit_type is not None:
            used = sum(entry.slots for entry in abilities)
            if used > unit_type.ability_slots:
                over = used - unit_type.ability_slots
                self.error(
                    "trooper.abilities.too-many",
                    path,
                    f"This {unit_type.name} trooper's abilities take {_plural(used, 'ability slot')}; "
                    f"it has {unit_type.ability_slots}.",
                    f"Remove abilities worth {_plural(over, 'slot')}.",
                    slots=used,
                    limit=unit_type.ability_slots,
                )

    def check_items(
        self,
        catalogue: Mapping[str, CatalogueEntry],
        what: str,
        ids: tuple[str, ...],
        path: str,
        unit_type: UnitType | None,
    ) -> list[CatalogueEntry]:
        """Report unknown, duplicated and not-allowed ids; return the known entries."""
        faction = self.faction
        entries: list[CatalogueEntry] = []
        seen: set[str] = set()
        for index, item_id in enumerate(ids):
            item_path = f"{path}[{index}]"
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
