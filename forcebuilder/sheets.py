"""What the editor, the roster and the trooper cards show for a force, built once per request.

Everything here comes from the rules engine: the report (issues, tally, points) and the
trooper profiles. This module only arranges it next to the units and troopers it concerns,
and lists what each trooper may take.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from onefinity.rules import (
    ForceSpec,
    Issue,
    Report,
    TrooperProfile,
    allowed_entries,
    library,
    trooper_profile,
)
from onefinity.rules.ruleset import CatalogueEntry, Faction, Ruleset, TrooperClass, UnitType


@dataclass
class Option:
    entry: CatalogueEntry
    selected: bool


@dataclass
class TrooperSheet:
    index: int
    path: str
    name: str
    trooper_class: TrooperClass | None
    class_id: str
    profile: TrooperProfile | None
    points: int
    issues: list[Issue]
    weapons: list[CatalogueEntry | None]
    equipment: list[CatalogueEntry | None]
    abilities: list[CatalogueEntry | None]
    weapon_options: list[Option] = field(default_factory=list)
    equipment_options: list[Option] = field(default_factory=list)
    ability_options: list[Option] = field(default_factory=list)
    class_options: list[TrooperClass] = field(default_factory=list)

    @property
    def label(self) -> str:
        return self.name or (self.trooper_class.name if self.trooper_class else self.class_id)

    @property
    def has_loadout_options(self) -> bool:
        return bool(self.weapon_options)

    @property
    def wound_boxes(self) -> range:
        """One box to tick per wound on a trooper card."""
        return range(self.profile.wounds if self.profile else 1)


@dataclass
class UnitSheet:
    index: int
    path: str
    name: str
    type_id: str
    unit_type: UnitType | None
    points: int
    issues: list[Issue]
    troopers: list[TrooperSheet]
    skills: list[CatalogueEntry | None]
    skill_options: list[Option] = field(default_factory=list)

    @property
    def label(self) -> str:
        type_name = self.unit_type.name if self.unit_type else self.type_id
        return f"{self.name} ({type_name})" if self.name else type_name

    @property
    def specialists(self) -> int:
        return sum(1 for t in self.troopers if t.trooper_class and t.trooper_class.specialist)


# Poker-sized cards (63 x 88 mm), three by three on an A4 page.
CARDS_PER_PAGE = 9


@dataclass
class ForceSheet:
    spec: ForceSpec
    ruleset: Ruleset
    faction: Faction | None
    report: Report
    units: list[UnitSheet]
    force_issues: list[Issue]

    @property
    def faction_name(self) -> str:
        return self.faction.name if self.faction else self.spec.faction

    def card_pages(self, per_page: int = CARDS_PER_PAGE) -> list[list[tuple[int, Any, Any]]]:
        """The trooper cards, a page at a time: (slot on the page, unit, trooper), with the
        list's own card (unit and trooper None) first. Each page is laid out on its own:
        WeasyPrint paginating one long run of cards took seconds per page."""
        cards: list[tuple[Any, Any]] = [(None, None)]
        cards += [(unit, trooper) for unit in self.units for trooper in unit.troopers]
        return [
            [(slot, *card) for slot, card in enumerate(cards[start : start + per_page])]
            for start in range(0, len(cards), per_page)
        ]

    def tally_rows(self) -> list[dict[str, Any]]:
        """The live counters, each with how close it is to its limit."""
        tally = self.report.tally
        if tally is None:
            return []
        rows = [
            ("Points", tally.points, tally.points_limit),
            ("Units", tally.units, tally.units_limit),
            ("Troopers", tally.troopers, tally.troopers_limit),
            ("TAG", tally.tags, tally.tags_limit),
            ("Specialists", tally.specialists, tally.specialists_limit),
        ]
        return [
            {
                "label": label,
                "value": value,
                "limit": limit,
                "state": "over" if value > limit else "full" if value == limit else "ok",
            }
            for label, value, limit in rows
        ]


def _lookup(catalogue: Any, ids: tuple[str, ...]) -> list[CatalogueEntry | None]:
    return [catalogue.get(i) for i in ids]


def _options(allowed: dict[str, CatalogueEntry], chosen: tuple[str, ...]) -> list[Option]:
    return [Option(entry, entry.id in chosen) for entry in allowed.values()]


def force_sheet(
    spec: ForceSpec, report: Report, with_options: bool = False, loadout_for: str | None = None
) -> ForceSheet:
    """Arrange the engine's report and profiles by unit and trooper.

    ``with_options`` adds the class and unit-skill choices (for the editor);
    ``loadout_for`` the path of the one trooper whose loadout picker is open.
    """
    ruleset = library().get_or_current(spec.ruleset)
    faction = ruleset.factions.get(spec.faction)
    by_path: dict[str, list[Issue]] = {}
    for issue in report.issues:
        owner = issue.path
        # Item issues (units[0].troopers[1].weapons[0]) belong to their trooper or unit.
        for suffix in (".weapons[", ".equipment[", ".abilities[", ".skills[", ".class", ".type"):
            if suffix in owner:
                owner = owner[: owner.index(suffix)]
        by_path.setdefault(owner, []).append(issue)
    allowed_cache: dict[tuple[str, str], dict[str, CatalogueEntry]] = {}

    def allowed(kind: str, unit_type: str) -> dict[str, CatalogueEntry]:
        key = (kind, unit_type)
        if key not in allowed_cache:
            allowed_cache[key] = allowed_entries(getattr(ruleset, kind), unit_type, faction)
        return allowed_cache[key]

    class_options = list(ruleset.trooper_classes.values())
    units = []
    costs = report.cost.units if report.cost else ()
    for u_index, unit in enumerate(spec.units):
        unit_path = f"units[{u_index}]"
        unit_type = ruleset.unit_types.get(unit.type)
        troopers = []
        for t_index, trooper in enumerate(unit.troopers):
            path = f"{unit_path}.troopers[{t_index}]"
            points = costs[u_index].troopers[t_index] if costs else 0
            sheet = TrooperSheet(
                index=t_index,
                path=path,
                name=trooper.name,
                trooper_class=ruleset.trooper_classes.get(trooper.trooper_class),
                class_id=trooper.trooper_class,
                profile=trooper_profile(trooper, unit, faction, ruleset, points),
                points=points,
                issues=by_path.get(path, []),
                weapons=_lookup(ruleset.weapons, trooper.weapons),
                equipment=_lookup(ruleset.equipment, trooper.equipment),
                abilities=_lookup(ruleset.abilities, trooper.abilities),
            )
            if with_options:
                sheet.class_options = class_options
            if path == loadout_for and unit_type is not None:
                sheet.weapon_options = _options(allowed("weapons", unit.type), trooper.weapons)
                sheet.equipment_options = _options(
                    allowed("equipment", unit.type), trooper.equipment
                )
                sheet.ability_options = _options(allowed("abilities", unit.type), trooper.abilities)
            troopers.append(sheet)
        unit_sheet = UnitSheet(
            index=u_index,
            path=unit_path,
            name=unit.name,
            type_id=unit.type,
            unit_type=unit_type,
            points=costs[u_index].total if costs else 0,
            issues=by_path.get(unit_path, []),
            troopers=troopers,
            skills=_lookup(ruleset.unit_skills, unit.skills),
        )
        if with_options and unit_type is not None:
            unit_sheet.skill_options = _options(allowed("unit_skills", unit.type), unit.skills)
        units.append(unit_sheet)
    force_issues = [
        i for path, issues in by_path.items() if not path.startswith("units[") for i in issues
    ]
    return ForceSheet(spec, ruleset, faction, report, units, force_issues)
