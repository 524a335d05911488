"""Edits of a force list as pure functions: each takes a ForceSpec and returns a new one.

Indices come from the browser, so each is checked: a bad one raises EditError with a
message for the player, and nothing changes. Whether the result is legal is not checked
here; the rules engine reports that.
"""

from __future__ import annotations

from dataclasses import replace

from onefinity.rules import ForceSpec, TrooperSpec, UnitSpec
from onefinity.rules.force import (
    MAX_ITEMS_PER_LIST,
    MAX_NAME_LENGTH,
    MAX_TROOPERS,
    MAX_UNITS,
)
from onefinity.rules.ruleset import Ruleset
from onefinity.rules.text import normalize_name, text_problem


class EditError(ValueError):
    pass


def _unit_at(force: ForceSpec, unit: int) -> UnitSpec:
    if not 0 <= unit < len(force.units):
        raise EditError("That unit is no longer in the list; reload the page.")
    return force.units[unit]


def _trooper_at(force: ForceSpec, unit: int, trooper: int) -> TrooperSpec:
    troopers = _unit_at(force, unit).troopers
    if not 0 <= trooper < len(troopers):
        raise EditError("That trooper is no longer in the unit; reload the page.")
    return troopers[trooper]


def _with_unit(force: ForceSpec, index: int, unit: UnitSpec) -> ForceSpec:
    units = list(force.units)
    units[index] = unit
    return replace(force, units=tuple(units))


def _with_trooper(force: ForceSpec, unit: int, index: int, trooper: TrooperSpec) -> ForceSpec:
    troopers = list(_unit_at(force, unit).troopers)
    troopers[index] = trooper
    return _with_unit(force, unit, replace(force.units[unit], troopers=tuple(troopers)))


def _clean_name(name: str, what: str) -> str:
    name = normalize_name(name)
    if len(name) > MAX_NAME_LENGTH:
        raise EditError(f"A {what} name has at most {MAX_NAME_LENGTH} characters.")
    problem = text_problem(name)
    if problem:
        raise EditError(f"A {what} name {problem}.")
    return name


def _room_for(force: ForceSpec, troopers: int) -> None:
    if sum(len(u.troopers) for u in force.units) + troopers > MAX_TROOPERS:
        raise EditError(f"A list holds at most {MAX_TROOPERS} troopers.")


def rename_force(force: ForceSpec, name: str) -> ForceSpec:
    name = _clean_name(name, "list")
    if not name:
        raise EditError("A list needs a name.")
    return replace(force, name=name)


def set_points_limit(force: ForceSpec, points: int) -> ForceSpec:
    if not 1 <= points <= 10_000:
        raise EditError("The game size is a number of points from 1 to 10,000.")
    return replace(force, points_limit=points)


def set_faction(force: ForceSpec, faction: str, ruleset: Ruleset) -> ForceSpec:
    if faction not in ruleset.factions:
        raise EditError("Choose a faction from the list.")
    return replace(force, faction=faction)


def add_unit(force: ForceSpec, unit_type: str, ruleset: Ruleset) -> ForceSpec:
    """A new unit of the type's minimum size, so it starts legal."""
    kind = ruleset.unit_types.get(unit_type)
    if kind is None:
        raise EditError("Choose a unit type from the list.")
    if len(force.units) >= MAX_UNITS:
        raise EditError(f"A list holds at most {MAX_UNITS} units.")
    _room_for(force, kind.min_troopers)
    unit = UnitSpec(type=unit_type, troopers=tuple(TrooperSpec() for _ in range(kind.min_troopers)))
    return replace(force, units=(*force.units, unit))


def remove_unit(force: ForceSpec, unit: int) -> ForceSpec:
    _unit_at(force, unit)
    return replace(force, units=force.units[:unit] + force.units[unit + 1 :])


def duplicate_unit(force: ForceSpec, unit: int) -> ForceSpec:
    original = _unit_at(force, unit)
    if len(force.units) >= MAX_UNITS:
        raise EditError(f"A list holds at most {MAX_UNITS} units.")
    _room_for(force, len(original.troopers))
    return replace(force, units=(*force.units[: unit + 1], original, *force.units[unit + 1 :]))


def rename_unit(force: ForceSpec, unit: int, name: str) -> ForceSpec:
    return _with_unit(force, unit, replace(_unit_at(force, unit), name=_clean_name(name, "unit")))


def set_unit_skills(force: ForceSpec, unit: int, skills: list[str]) -> ForceSpec:
    return _with_unit(force, unit, replace(_unit_at(force, unit), skills=_items(skills)))


def add_trooper(force: ForceSpec, unit: int) -> ForceSpec:
    original = _unit_at(force, unit)
    _room_for(force, 1)
    return _with_unit(force, unit, replace(original, troopers=(*original.troopers, TrooperSpec())))


def remove_trooper(force: ForceSpec, unit: int, trooper: int) -> ForceSpec:
    _trooper_at(force, unit, trooper)
    troopers = force.units[unit].troopers
    return _with_unit(
        force,
        unit,
        replace(force.units[unit], troopers=troopers[:trooper] + troopers[trooper + 1 :]),
    )


def duplicate_trooper(force: ForceSpec, unit: int, trooper: int) -> ForceSpec:
    copy = _trooper_at(force, unit, trooper)
    troopers = force.units[unit].troopers
    _room_for(force, 1)
    return _with_unit(
        force,
        unit,
        replace(
            force.units[unit], troopers=(*troopers[: trooper + 1], copy, *troopers[trooper + 1 :])
        ),
    )


def rename_trooper(force: ForceSpec, unit: int, trooper: int, name: str) -> ForceSpec:
    original = _trooper_at(force, unit, trooper)
    return _with_trooper(force, unit, trooper, replace(original, name=_clean_name(name, "trooper")))


def set_trooper_class(
    force: ForceSpec, unit: int, trooper: int, trooper_class: str, ruleset: Ruleset
) -> ForceSpec:
    if trooper_class not in ruleset.trooper_classes:
        raise EditError("Choose a trooper class from the list.")
    original = _trooper_at(force, unit, trooper)
    return _with_trooper(force, unit, trooper, replace(original, trooper_class=trooper_class))


def set_loadout(
    force: ForceSpec,
    unit: int,
    trooper: int,
    weapons: list[str],
    equipment: list[str],
    abilities: list[str],
) -> ForceSpec:
    original = _trooper_at(force, unit, trooper)
    changed = replace(
        original, weapons=_items(weapons), equipment=_items(equipment), abilities=_items(abilities)
    )
    return _with_trooper(force, unit, trooper, changed)


def _items(ids: list[str]) -> tuple[str, ...]:
    # The browser sends each picked id once; keep their order and drop repeats. Ids are
    # exact: one the ruleset does not have is reported by validation, never trimmed to fit.
    unique = tuple(dict.fromkeys(i for i in ids if i))
    if len(unique) > MAX_ITEMS_PER_LIST:
        raise EditError(f"At most {MAX_ITEMS_PER_LIST} items in one list.")
    return unique
