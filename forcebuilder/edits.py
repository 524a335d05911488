"""Edits of a force list as pure functions: each takes a ForceSpec and returns a new one.

Indices come from the browser, so each is checked: a bad one raises EditError with a
message for the player, and nothing changes. Whether the result is legal is not checked
here; the rules engine reports that.

Units and troopers keep their ids through every edit; whatever an edit creates (a new
unit, a new trooper, a copy) gets ids of its own from ``new_key``.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from onefinity.rules import ForceSpec, TrooperSpec, UnitSpec
from onefinity.rules.force import (
    MAX_ITEMS_PER_LIST,
    MAX_NAME_LENGTH,
    MAX_TROOPERS,
    MAX_UNITS,
)
from onefinity.rules.ruleset import Ruleset
from onefinity.rules.text import normalize_name, text_problem

# Ids the editor makes: 6 characters without look-alikes (no 0/o, 1/l): 32^6, about a
# billion, so a clash inside one list is rare, and re-drawn when it happens.
KEY_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"
KEY_LENGTH = 6
ITEM_KINDS = ("weapons", "equipment", "abilities")


class EditError(ValueError):
    pass


# --- ids ------------------------------------------------------------------------------------


def keys_of(force: ForceSpec) -> set[str]:
    """Every id the force's units and troopers carry."""
    keys = {unit.id for unit in force.units}
    keys |= {trooper.id for unit in force.units for trooper in unit.troopers}
    keys.discard("")
    return keys


def new_key(taken: set[str]) -> str:
    """A fresh id, not in ``taken``, which it joins. (One read of the system's randomness
    per id: each byte picks one of 32 characters, and 256 is a multiple of 32, so every
    character is as likely as any other.)"""
    while True:
        key = "".join(KEY_ALPHABET[byte % 32] for byte in secrets.token_bytes(KEY_LENGTH))
        if key not in taken:
            taken.add(key)
            return key


def with_keys(force: ForceSpec) -> ForceSpec:
    """The force with an id on every unit and trooper: those it has are kept."""
    if all(unit.id and all(t.id for t in unit.troopers) for unit in force.units):
        return force
    taken = keys_of(force)
    units = []
    for unit in force.units:
        troopers = tuple(t if t.id else replace(t, id=new_key(taken)) for t in unit.troopers)
        units.append(replace(unit, id=unit.id or new_key(taken), troopers=troopers))
    return replace(force, units=tuple(units))


def _fresh_troopers(troopers: Iterable[TrooperSpec], taken: set[str]) -> tuple[TrooperSpec, ...]:
    return tuple(replace(t, id=new_key(taken)) for t in troopers)


# --- where things are -----------------------------------------------------------------------


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


# --- the list -------------------------------------------------------------------------------


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


# --- units ----------------------------------------------------------------------------------


def add_unit(force: ForceSpec, unit_type: str, ruleset: Ruleset) -> ForceSpec:
    """A new unit of the type's minimum size, so it starts legal."""
    kind = ruleset.unit_types.get(unit_type)
    if kind is None:
        raise EditError("Choose a unit type from the list.")
    if len(force.units) >= MAX_UNITS:
        raise EditError(f"A list holds at most {MAX_UNITS} units.")
    _room_for(force, kind.min_troopers)
    taken = keys_of(force)
    unit = UnitSpec(
        type=unit_type,
        troopers=_fresh_troopers((TrooperSpec() for _ in range(kind.min_troopers)), taken),
        id=new_key(taken),
    )
    return replace(force, units=(*force.units, unit))


def remove_unit(force: ForceSpec, unit: int) -> ForceSpec:
    _unit_at(force, unit)
    return replace(force, units=force.units[:unit] + force.units[unit + 1 :])


def duplicate_unit(force: ForceSpec, unit: int) -> ForceSpec:
    original = _unit_at(force, unit)
    if len(force.units) >= MAX_UNITS:
        raise EditError(f"A list holds at most {MAX_UNITS} units.")
    _room_for(force, len(original.troopers))
    taken = keys_of(force)
    copy = replace(original, id=new_key(taken), troopers=_fresh_troopers(original.troopers, taken))
    return replace(force, units=(*force.units[: unit + 1], copy, *force.units[unit + 1 :]))


def split_unit(force: ForceSpec, unit: int) -> ForceSpec:
    """Move the second half of a unit's troopers into a new unit of the same type, right
    after it (the troopers keep their ids: they are the same troopers)."""
    original = _unit_at(force, unit)
    if len(original.troopers) < 2:
        raise EditError("A unit of fewer than 2 troopers cannot be split.")
    if len(force.units) >= MAX_UNITS:
        raise EditError(f"A list holds at most {MAX_UNITS} units.")
    keep = (len(original.troopers) + 1) // 2
    name = f"{original.name} 2"[:MAX_NAME_LENGTH] if original.name else ""
    second = UnitSpec(
        type=original.type,
        name=name,
        troopers=original.troopers[keep:],
        skills=original.skills,
        id=new_key(keys_of(force)),
    )
    first = replace(original, troopers=original.troopers[:keep])
    return replace(force, units=(*force.units[:unit], first, second, *force.units[unit + 1 :]))


def rename_unit(force: ForceSpec, unit: int, name: str) -> ForceSpec:
    return _with_unit(force, unit, replace(_unit_at(force, unit), name=_clean_name(name, "unit")))


def set_unit_skills(force: ForceSpec, unit: int, skills: list[str]) -> ForceSpec:
    return _with_unit(force, unit, replace(_unit_at(force, unit), skills=_items(skills)))


# --- troopers -------------------------------------------------------------------------------


def add_trooper(force: ForceSpec, unit: int) -> ForceSpec:
    original = _unit_at(force, unit)
    _room_for(force, 1)
    trooper = TrooperSpec(id=new_key(keys_of(force)))
    return _with_unit(force, unit, replace(original, troopers=(*original.troopers, trooper)))


def remove_trooper(force: ForceSpec, unit: int, trooper: int) -> ForceSpec:
    _trooper_at(force, unit, trooper)
    troopers = force.units[unit].troopers
    return _with_unit(
        force,
        unit,
        replace(force.units[unit], troopers=troopers[:trooper] + troopers[trooper + 1 :]),
    )


def duplicate_trooper(force: ForceSpec, unit: int, trooper: int) -> ForceSpec:
    """Another trooper like this one (its own id), right after it."""
    original = _trooper_at(force, unit, trooper)
    copy = replace(original, id=new_key(keys_of(force)))
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


def remove_item(
    force: ForceSpec, unit: int, trooper: int | None, kind: str, item: str
) -> ForceSpec:
    """Take one item off a trooper (``kind`` weapons, equipment or abilities) or a skill off
    a unit (``trooper`` None, ``kind`` skills): its last copy, so of an item listed twice
    the second goes."""
    if trooper is None:
        if kind != "skills":
            raise EditError("That is not something a unit carries.")
        original_unit = _unit_at(force, unit)
        return _with_unit(
            force, unit, replace(original_unit, skills=_without(original_unit.skills, item))
        )
    if kind not in ITEM_KINDS:
        raise EditError("That is not something a trooper carries.")
    original = _trooper_at(force, unit, trooper)
    kept: dict[str, Any] = {kind: _without(getattr(original, kind), item)}
    changed = replace(original, **kept)
    return _with_trooper(force, unit, trooper, changed)


def _without(items: tuple[str, ...], item: str) -> tuple[str, ...]:
    if item not in items:
        raise EditError("That item is no longer there; reload the page.")
    last = len(items) - 1 - items[::-1].index(item)
    return items[:last] + items[last + 1 :]


def _items(ids: list[str]) -> tuple[str, ...]:
    # The browser sends each picked id once; keep their order and drop repeats. Ids are
    # exact: one the ruleset does not have is reported by validation, never trimmed to fit.
    unique = tuple(dict.fromkeys(i for i in ids if i))
    if len(unique) > MAX_ITEMS_PER_LIST:
        raise EditError(f"At most {MAX_ITEMS_PER_LIST} items in one list.")
    return unique
