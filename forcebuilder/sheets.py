"""What the editor, the roster and the trooper cards show for a force, built once per request.

Everything here comes from the rules engine: the report (issues, tally, points) and the
trooper profiles. This module only arranges it next to the units and troopers it concerns,
groups identical troopers, and (for the editor) lists what each unit and trooper may take,
with the reason for each choice the rules do not allow (forcebuilder.choices).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from forcebuilder import edits
from forcebuilder.choices import Judge
from forcebuilder.models import Force
from forcebuilder.naming import unit_label, unit_type_name
from onefinity.rules import (
    ForceSpec,
    Issue,
    Report,
    TrooperProfile,
    TrooperSpec,
    UnitSpec,
    allowed_entries,
    library,
    trooper_profile,
)
from onefinity.rules.effects import NOT_IN_ODDS, describe_entry
from onefinity.rules.ruleset import CatalogueEntry, Faction, Ruleset, TrooperClass, UnitType


@dataclass
class Option:
    """One item of a picker: an entry of the catalogue, or an id the ruleset does not have."""

    item_id: str
    entry: CatalogueEntry | None
    selected: bool
    # Unticked: why it cannot be ticked ('' when it can).
    reason: str = ""
    # Ticked: what the rules say is wrong with it ('' when nothing).
    problem: str = ""
    # The unit type's default weapon, carried for free while no weapon is chosen.
    implicit: bool = False
    # Drawn once here rather than in the template (a picker has some 35 rows): the
    # checkbox's id, a weapon's cards per range band and close-combat bonus, an effect.
    box: str = ""
    cards: list[str] = field(default_factory=list)
    close_combat: str = ""
    effect: str = ""
    # Its effects all lie outside an exchange: "not part of the odds".
    outside_odds: bool = False

    @property
    def name(self) -> str:
        return self.entry.name if self.entry else self.item_id

    @property
    def disabled(self) -> bool:
        return not self.selected and bool(self.reason)


@dataclass
class PickerKind:
    """One fieldset of the loadout picker: weapons, equipment or special abilities."""

    field: str
    legend: str
    # What one of them is called ("Weapon"), for the picker's column heading.
    singular: str
    options: list[Option]
    # Entries this unit type or faction may not take at all (listed, with the reason).
    unavailable: list[Option]


@dataclass
class ClassChoice:
    trooper_class: TrooperClass
    selected: bool
    reason: str = ""


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
    key: str = ""
    spec: TrooperSpec = field(default_factory=TrooperSpec)
    # The editor's choices, filled only for open troopers (see force_sheet).
    class_choices: list[ClassChoice] = field(default_factory=list)
    picker: list[PickerKind] = field(default_factory=list)
    open: bool = False
    # The editor's problems about this trooper (forcebuilder.problems), with their fixes.
    problems: list[Any] = field(default_factory=list)
    # The editor's row it is drawn in (troopers alike share one: its first's key), and how
    # many troopers that row stands for.
    row_key: str = ""
    alike: int = 1

    @property
    def label(self) -> str:
        return self.name or (self.trooper_class.name if self.trooper_class else self.class_id)

    @property
    def class_note(self) -> str:
        """Why specialist classes are not offered, when none is (a TAG, a full unit)."""
        blocked = [c for c in self.class_choices if c.trooper_class.specialist and not c.selected]
        if blocked and all(c.reason for c in blocked) and len({c.reason for c in blocked}) == 1:
            return f"No specialist here: {blocked[0].reason}"
        return ""

    @property
    def is_specialist(self) -> bool:
        return bool(self.trooper_class and self.trooper_class.specialist)

    @cached_property
    def gear(self) -> list[str]:
        """Everything the trooper carries, by name: weapons (the default one included),
        equipment, abilities; ids the ruleset does not have as they are."""
        names = [w.name for w in self.profile.weapons] if self.profile else []
        for ids, entries in (
            (self.spec.equipment, self.equipment),
            (self.spec.abilities, self.abilities),
        ):
            names += [e.name if e else i for i, e in zip(ids, entries, strict=True)]
        return names

    @cached_property
    def summary(self) -> str:
        return ", ".join(self.gear)

    @cached_property
    def badge(self) -> str:
        """What a row shows after the name: the class of a named specialist, or
        'specialist' when the name is the class's."""
        if not self.is_specialist or self.trooper_class is None:
            return ""
        return self.trooper_class.name if self.name else "specialist"

    @property
    def wound_boxes(self) -> range:
        """One box to tick per wound on a trooper card."""
        return range(self.profile.wounds if self.profile else 1)

    @property
    def element_id(self) -> str:
        return f"trooper-{self.key}"


@dataclass
class TrooperGroup:
    """Troopers of one unit that are alike in every way (class, name, loadout): one row."""

    members: list[TrooperSheet]
    add_reason: str = ""

    @property
    def first(self) -> TrooperSheet:
        return self.members[0]

    @property
    def last(self) -> TrooperSheet:
        return self.members[-1]

    @property
    def count(self) -> int:
        return len(self.members)

    @property
    def key(self) -> str:
        return self.first.key

    @property
    def label(self) -> str:
        return self.first.label

    @property
    def points(self) -> int:
        return sum(m.points for m in self.members)

    @property
    def issues(self) -> list[Issue]:
        return self.first.issues

    @property
    def open(self) -> bool:
        return any(m.open for m in self.members)


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
    key: str = ""
    short_label: str = ""
    type_name: str = ""
    groups: list[TrooperGroup] = field(default_factory=list)
    add_reason: str = ""
    duplicate_reason: str = ""
    problems: list[Any] = field(default_factory=list)
    # Its options menu (name, unit skills, duplicate, remove) is drawn open.
    open: bool = False

    @property
    def label(self) -> str:
        type_name = self.unit_type.name if self.unit_type else self.type_id
        return f"{self.name} ({type_name})" if self.name else type_name

    @property
    def specialists(self) -> int:
        return sum(1 for t in self.troopers if t.is_specialist)

    @property
    def element_id(self) -> str:
        return f"unit-{self.key}"

    @property
    def trooper_issues(self) -> int:
        return sum(len(t.issues) for t in self.troopers)


@dataclass
class UnitTypeChoice:
    unit_type: UnitType
    name: str
    reason: str = ""


# Poker-sized cards (63 x 88 mm), three by three on an A4 page.
CARDS_PER_PAGE = 9
# What fits below a card's stat boxes (cards.html: 6.5 pt rule text, 57 mm wide): lines of
# about 46 characters, 17 of them when the card has no weapon, each weapon taking (with
# names that wrap) about 2 lines. Measured on printed lists; a card whose notes
# would not fit prints their names and points to the roster's glossary instead.
CARD_LINE_CHARACTERS = 46
CARD_NOTE_LINES = 17
CARD_LINES_PER_WEAPON = 2


@dataclass(frozen=True)
class CardNotes:
    notes: list[tuple[str, str]]
    # The rule text fits the card; otherwise the names alone, if they fit, else only a
    # pointer to the roster (a card of ten weapons has no room left at all).
    fits: bool
    names_fit: bool = True
    pointer_fits: bool = True

    @property
    def names(self) -> str:
        return ", ".join(name for name, _ in self.notes)


@dataclass
class ForceSheet:
    spec: ForceSpec
    ruleset: Ruleset
    faction: Faction | None
    report: Report
    units: list[UnitSheet]
    force_issues: list[Issue]
    unit_type_choices: list[UnitTypeChoice] = field(default_factory=list)
    # How many changes were tried on copies to find the reasons (for the benchmark).
    tried: int = 0

    @property
    def faction_name(self) -> str:
        return self.faction.name if self.faction else self.spec.faction

    @property
    def empty(self) -> bool:
        return not self.spec.units

    @property
    def troopers(self) -> list[tuple[UnitSheet, TrooperSheet]]:
        return [(unit, trooper) for unit in self.units for trooper in unit.troopers]

    def open_trooper(self) -> tuple[UnitSheet, TrooperSheet] | None:
        """The trooper whose loadout the editor's panel shows (the first open one)."""
        return next(((u, t) for u, t in self.troopers if t.open), None)

    def card_pages(self, per_page: int = CARDS_PER_PAGE) -> list[list[tuple[int, Any, Any, Any]]]:
        """The trooper cards, a page at a time: (slot on the page, unit, trooper, rule
        notes), with the list's own card (unit and trooper None) first. Each page is laid
        out on its own: WeasyPrint paginating one long run of cards took seconds per page."""
        cards: list[tuple[Any, Any, Any]] = [(None, None, None)]
        cards += [
            (unit, trooper, self.card_notes(unit, trooper))
            for unit in self.units
            for trooper in unit.troopers
        ]
        return [
            [(slot, *card) for slot, card in enumerate(cards[start : start + per_page])]
            for start in range(0, len(cards), per_page)
        ]

    def card_notes(self, unit: UnitSheet, trooper: TrooperSheet) -> CardNotes:
        """The rule text a trooper's card prints below its weapons: its special actions,
        equipment, abilities and unit skills, each with its text when it all fits the card
        (estimated from its length: the card is laid out by hand, nothing may overflow),
        else the names alone and a pointer to the roster's glossary."""
        notes: list[tuple[str, str]] = []
        if trooper.trooper_class is not None and trooper.trooper_class.specialist:
            notes += [
                (f"{action.name} ({action.ap} AP)", action.description)
                for action in self.ruleset.special_actions.values()
                if action.trooper_class == trooper.class_id
            ]
        for ids, entries in (
            (trooper.spec.equipment, trooper.equipment),
            (trooper.spec.abilities, trooper.abilities),
        ):
            notes += [
                (_card_name(e.name, e) if e else i, e.description if e else "")
                for i, e in zip(ids, entries, strict=True)
            ]
        notes += [
            (_card_name(e.name + " (unit)", e), e.description) for e in unit.skills if e is not None
        ]
        weapons = len(trooper.profile.weapons) if trooper.profile else 0
        # More than 6 weapons print in a smaller table (cards.html: .many), a line each.
        room = CARD_NOTE_LINES - weapons * (1 if weapons > 6 else CARD_LINES_PER_WEAPON)
        needed = sum(
            -(-(len(name) + len(text) + 1) // CARD_LINE_CHARACTERS) for name, text in notes
        )
        names = -(-(sum(len(name) + 2 for name, _ in notes) + 30) // CARD_LINE_CHARACTERS)
        return CardNotes(notes, needed <= room, names <= room, room >= 1)

    def tally_rows(self) -> list[dict[str, Any]]:
        """The live counters, each with how close it is to its limit."""
        tally = self.report.tally
        if tally is None:
            return []
        rows = [
            ("Points", "Pts", tally.points, tally.points_limit),
            ("Units", "Units", tally.units, tally.units_limit),
            ("Troopers", "Troop.", tally.troopers, tally.troopers_limit),
            ("TAG", "TAG", tally.tags, tally.tags_limit),
            ("Specialists", "Spec.", tally.specialists, tally.specialists_limit),
        ]
        return [
            {
                "label": label,
                "short": short,
                "value": value,
                "limit": limit,
                "state": "over" if value > limit else "full" if value == limit else "ok",
            }
            for label, short, value, limit in rows
        ]

    def glossary(self) -> list[CatalogueEntry]:
        """Every weapon, piece of equipment, ability and unit skill the list uses that has
        rule text, once each, in the order of the ruleset's catalogues: the roster's
        glossary."""
        used: set[str] = set()
        for unit in self.spec.units:
            used.update(f"unit_skills:{i}" for i in unit.skills)
            unit_type = self.ruleset.unit_types.get(unit.type)
            for trooper in unit.troopers:
                weapons = trooper.weapons or ((unit_type.default_weapon,) if unit_type else ())
                used.update(f"weapons:{i}" for i in weapons)
                used.update(f"equipment:{i}" for i in trooper.equipment)
                used.update(f"abilities:{i}" for i in trooper.abilities)
        entries = []
        for kind in ("weapons", "equipment", "abilities", "unit_skills"):
            catalogue: Mapping[str, CatalogueEntry] = getattr(self.ruleset, kind)
            entries += [e for i, e in catalogue.items() if f"{kind}:{i}" in used and e.description]
        return entries

    def specialist_actions(self) -> list[tuple[TrooperClass, list[str]]]:
        """The specialist classes the list has, with their special actions' rule text."""
        present = {t.trooper_class for u in self.spec.units for t in u.troopers}
        result = []
        for class_id, trooper_class in self.ruleset.trooper_classes.items():
            if class_id in present and trooper_class.specialist:
                texts = [
                    f"{action.name} ({action.ap} AP): {action.description}"
                    for action in self.ruleset.special_actions.values()
                    if action.trooper_class == class_id
                ]
                result.append((trooper_class, texts))
        return result


def _card_name(name: str, entry: CatalogueEntry) -> str:
    """An entry's name on a card, saying when its effect lies outside any exchange (the
    odds panel does not count it, so a player checking the odds knows why)."""
    return f"{name} ({NOT_IN_ODDS})" if entry.outside_exchange else name


def _lookup(catalogue: Any, ids: tuple[str, ...]) -> list[CatalogueEntry | None]:
    return [catalogue.get(i) for i in ids]


def _owner(path: str) -> str:
    """The unit or trooper an issue's path concerns (an item's issue belongs to its owner)."""
    for suffix in (".weapons[", ".equipment[", ".abilities[", ".skills[", ".class", ".type"):
        if suffix in path:
            path = path[: path.index(suffix)]
    return path


def force_sheet(
    spec: ForceSpec,
    report: Report,
    with_options: bool = False,
    loadout_for: str | None = None,
    open_keys: Collection[str] = (),
) -> ForceSheet:
    """Arrange the engine's report and profiles by unit and trooper.

    ``with_options`` adds the editor's choices (add a unit or trooper, unit skills), each
    with the reason when the rules do not allow it; ``open_keys`` (trooper keys) and
    ``loadout_for`` (a trooper's path) the troopers whose row is open, with their class
    menu and loadout picker.
    """
    return _SheetBuilder(spec, report, with_options, loadout_for, open_keys).force()


class _SheetBuilder:
    """One list's sheet being laid out: the report's issues by the unit or trooper they
    concern, and the judge that tries each choice the page shows."""

    def __init__(
        self,
        spec: ForceSpec,
        report: Report,
        with_options: bool,
        loadout_for: str | None,
        open_keys: Collection[str],
    ) -> None:
        self.spec, self.report = spec, report
        self.with_options, self.loadout_for, self.open_keys = with_options, loadout_for, open_keys
        self.ruleset = library().get_or_current(spec.ruleset)
        self.faction = self.ruleset.factions.get(spec.faction)
        self.by_path: dict[str, list[Issue]] = {}
        self.by_item: dict[str, str] = {}
        for issue in report.issues:
            owner = _owner(issue.path)
            self.by_path.setdefault(owner, []).append(issue)
            if owner != issue.path and issue.severity == "error":
                self.by_item.setdefault(issue.path, issue.message)
        # Choices are tried only where the page shows them: the editor's add buttons
        # (with_options) and the open troopers' class menus and pickers.
        self.judge = Judge(spec, report, self.ruleset)
        self.costs = report.cost.units if report.cost else ()

    def force(self) -> ForceSheet:
        ruleset, judge = self.ruleset, self.judge
        units = [self.unit(u_index, unit) for u_index, unit in enumerate(self.spec.units)]
        force_issues = [
            i
            for path, issues in self.by_path.items()
            if not path.startswith("units[")
            for i in issues
        ]
        drawn = ForceSheet(self.spec, ruleset, self.faction, self.report, units, force_issues)
        if self.with_options:
            drawn.unit_type_choices = [
                UnitTypeChoice(
                    unit_type,
                    unit_type_name(unit_type.id, ruleset),
                    judge.reason(_change(edits.add_unit, unit_type.id, ruleset)),
                )
                for unit_type in ruleset.unit_types.values()
            ]
        drawn.tried = judge.tried_in_all
        return drawn

    def unit(self, u_index: int, unit: UnitSpec) -> UnitSheet:
        ruleset, judge, costs = self.ruleset, self.judge, self.costs
        unit_path = f"units[{u_index}]"
        unit_type = ruleset.unit_types.get(unit.type)
        troopers = [
            self.trooper(u_index, t_index, unit, unit_type) for t_index in range(len(unit.troopers))
        ]
        sheet = UnitSheet(
            index=u_index,
            path=unit_path,
            name=unit.name,
            type_id=unit.type,
            unit_type=unit_type,
            points=costs[u_index].total if costs else 0,
            issues=self.by_path.get(unit_path, []),
            troopers=troopers,
            skills=_lookup(ruleset.unit_skills, unit.skills),
            key=unit.id or f"u.{u_index}",
            short_label=unit_label(self.spec, u_index, ruleset),
            type_name=unit_type_name(unit.type, ruleset),
            groups=_groups(troopers),
        )
        sheet.open = sheet.key in self.open_keys
        if self.with_options:
            sheet.add_reason = judge.reason(_change(edits.add_trooper, u_index))
            for group in sheet.groups:
                group.add_reason = judge.reason(
                    _change(edits.duplicate_trooper, u_index, group.last.index)
                )
        if sheet.open:
            sheet.duplicate_reason = judge.reason(_change(edits.duplicate_unit, u_index))
            if unit_type is not None:
                sheet.skill_options = _skill_options(
                    judge, ruleset, u_index, unit.skills, self.by_item, unit_path
                )
        return sheet

    def trooper(
        self, u_index: int, t_index: int, unit: UnitSpec, unit_type: UnitType | None
    ) -> TrooperSheet:
        ruleset, costs = self.ruleset, self.costs
        trooper = unit.troopers[t_index]
        path = f"units[{u_index}].troopers[{t_index}]"
        points = costs[u_index].troopers[t_index] if costs else 0
        sheet = TrooperSheet(
            index=t_index,
            path=path,
            name=trooper.name,
            trooper_class=ruleset.trooper_classes.get(trooper.trooper_class),
            class_id=trooper.trooper_class,
            profile=trooper_profile(trooper, unit, self.faction, ruleset, points),
            points=points,
            issues=self.by_path.get(path, []),
            weapons=_lookup(ruleset.weapons, trooper.weapons),
            equipment=_lookup(ruleset.equipment, trooper.equipment),
            abilities=_lookup(ruleset.abilities, trooper.abilities),
            key=trooper.id or f"t.{u_index}.{t_index}",
            spec=trooper,
        )
        sheet.open = sheet.key in self.open_keys or path == self.loadout_for
        if sheet.open:
            sheet.class_choices = _class_choices(self.judge, u_index, t_index, trooper)
        if sheet.open and unit_type is not None:
            sheet.picker = _picker(
                self.judge,
                ruleset,
                self.faction,
                unit_type,
                u_index,
                t_index,
                trooper,
                self.by_item,
            )
        return sheet


def _change(edit: Callable[..., ForceSpec], *args: Any) -> Callable[[ForceSpec], ForceSpec]:
    """A choice to try: ``edit`` made on a copy of the list with ``args`` (bound now, not when
    the judge calls it, as a lambda in a loop would)."""
    return lambda spec: edit(spec, *args)


def _groups(troopers: list[TrooperSheet]) -> list[TrooperGroup]:
    """Troopers alike in everything but their id, in the order each kind first appears."""
    groups: dict[Any, TrooperGroup] = {}
    for trooper in troopers:
        likeness = replace(trooper.spec, id="")
        if likeness in groups:
            groups[likeness].members.append(trooper)
        else:
            groups[likeness] = TrooperGroup([trooper])
    for group in groups.values():
        for member in group.members:
            member.row_key, member.alike = group.key, group.count
    return list(groups.values())


def _class_choices(judge: Judge, unit: int, index: int, trooper: TrooperSpec) -> list[ClassChoice]:
    choices = []
    for class_id, trooper_class in judge.ruleset.trooper_classes.items():
        selected = class_id == trooper.trooper_class
        reason = (
            ""
            if selected
            else judge.reason(
                _change(edits.set_trooper_class, unit, index, class_id, judge.ruleset)
            )
        )
        choices.append(ClassChoice(trooper_class, selected, reason))
    if trooper.trooper_class not in judge.ruleset.trooper_classes:
        # An unknown class stays shown (and chosen) until the player picks another.
        unknown = TrooperClass(trooper.trooper_class, trooper.trooper_class, False, 0, ())
        choices.insert(0, ClassChoice(unknown, True))
    return choices


def _picker(
    judge: Judge,
    ruleset: Ruleset,
    faction: Faction | None,
    unit_type: UnitType,
    unit: int,
    index: int,
    trooper: TrooperSpec,
    by_item: dict[str, str],
) -> list[PickerKind]:
    path = f"units[{unit}].troopers[{index}]"
    kinds = []
    for kind, legend, singular, catalogue in (
        ("weapons", "Weapons", "Weapon", ruleset.weapons),
        ("equipment", "Equipment", "Item", ruleset.equipment),
        ("abilities", "Special abilities", "Ability", ruleset.abilities),
    ):
        chosen: tuple[str, ...] = getattr(trooper, kind)
        allowed = allowed_entries(catalogue, unit_type.id, faction)
        implicit = kind == "weapons" and not chosen
        options, unavailable = [], []
        for item_id, entry in catalogue.items():
            selected = item_id in chosen or (implicit and item_id == unit_type.default_weapon)
            option = Option(item_id, entry, selected, implicit=implicit and selected)
            if selected:
                spots = [f"{path}.{kind}[{i}]" for i, c in enumerate(chosen) if c == item_id]
                option.problem = next((by_item[p] for p in spots if p in by_item), "")
            else:

                def tick(f: ForceSpec, item: str = item_id, k: str = kind) -> ForceSpec:
                    loadout = {
                        key: list(getattr(f.units[0].troopers[index], key))
                        for key in edits.ITEM_KINDS
                    }
                    loadout[k] = [*loadout[k], item]
                    return edits.set_loadout(f, 0, index, **loadout)

                option.reason = judge.for_unit(unit).reason(tick)
            if item_id in allowed or selected:
                options.append(option)
            else:
                unavailable.append(option)
        # Ids the ruleset does not have stay listed (and ticked) so they can be taken off.
        for i, item_id in enumerate(chosen):
            if item_id not in catalogue and all(o.item_id != item_id for o in options):
                options.append(
                    Option(item_id, None, True, problem=by_item.get(f"{path}.{kind}[{i}]", ""))
                )
        for option in options:
            _describe(option, ruleset, f"pick-{trooper.id or path}-")
        if options or unavailable:
            kinds.append(PickerKind(kind, legend, singular, options, unavailable))
    return kinds


def _describe(option: Option, ruleset: Ruleset, prefix: str) -> None:
    option.box = prefix + option.item_id
    entry = option.entry
    if entry is None:
        return
    if entry.kind == "weapon":
        option.cards = [
            "\N{EN DASH}" if cards is None else str(cards)
            for cards in (entry.cards_at(b.id) for b in ruleset.range_bands)
        ]
        option.close_combat = f"+{entry.close_combat}" if entry.close_combat else "\N{EN DASH}"
    if not entry.description:
        option.effect = describe_entry(entry, ruleset)
    option.outside_odds = entry.outside_exchange


def _skill_options(
    judge: Judge,
    ruleset: Ruleset,
    unit: int,
    chosen: tuple[str, ...],
    by_item: dict[str, str],
    unit_path: str,
) -> list[Option]:
    options = []
    for item_id, entry in ruleset.unit_skills.items():
        selected = item_id in chosen
        option = Option(item_id, entry, selected)
        if selected:
            spots = [f"{unit_path}.skills[{i}]" for i, c in enumerate(chosen) if c == item_id]
            option.problem = next((by_item[p] for p in spots if p in by_item), "")
        else:
            option.reason = judge.for_unit(unit).reason(_change(_with_skill, item_id))
        options.append(option)
    for i, item_id in enumerate(chosen):
        if item_id not in ruleset.unit_skills:
            options.append(
                Option(item_id, None, True, problem=by_item.get(f"{unit_path}.skills[{i}]", ""))
            )
    return options


def _with_skill(spec: ForceSpec, skill: str) -> ForceSpec:
    """The list (cut down to one unit) with ``skill`` added to its unit's skills."""
    return edits.set_unit_skills(spec, 0, [*spec.units[0].skills, skill])


def sheet_of(
    force: Force,
    with_options: bool = False,
    loadout_for: str | None = None,
    open_keys: Collection[str] = (),
    checked: tuple[ForceSpec, Report] | None = None,
) -> ForceSheet:
    """The list's sheet, from the list and verdict an edit made (``checked``) or as stored."""
    spec, report = checked or force.checked()
    return force_sheet(
        spec, report, with_options=with_options, loadout_for=loadout_for, open_keys=open_keys
    )
