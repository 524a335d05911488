"""The editor's actions: one POST field ``action`` names the edit, the others its arguments.

A unit is named by ``unit_id`` (its id, or its position key ``u.N`` while it has no id) or
by ``unit`` (its position); a trooper by ``trooper_id`` or by ``unit`` and ``trooper``.
Ids name the same unit or trooper whatever happened before, so a request queued behind
another in the same tab still reaches the trooper the player pointed at.

Each action also says, in a few words, what it did (stored with the revision: "Undo: add
a trooper to Alpha").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from django.http import QueryDict

from forcebuilder import edits
from forcebuilder.edits import EditError
from forcebuilder.naming import trooper_label, unit_label
from onefinity.rules import ForceSpec
from onefinity.rules.ruleset import CatalogueEntry, Ruleset
from onefinity.rules.text import whole_number

# How long a description may be (ForceRevision.description).
MAX_DESCRIPTION = 200


@dataclass(frozen=True)
class Change:
    spec: ForceSpec
    description: str
    # The element the change concerns ("unit-<key>" or "trooper-<key>"): a page without
    # JavaScript comes back to it, and focus goes there when its control is gone.
    concerns: str = ""


def unit_key(force: ForceSpec, index: int) -> str:
    return force.units[index].id or f"u.{index}"


def trooper_key(force: ForceSpec, unit: int, index: int) -> str:
    return force.units[unit].troopers[index].id or f"t.{unit}.{index}"


def find_unit(force: ForceSpec, key: str) -> int:
    for index, unit in enumerate(force.units):
        if key in (unit.id, f"u.{index}") and key:
            return index
    raise EditError("That unit is no longer in the list; reload the page.")


def find_trooper(force: ForceSpec, key: str) -> tuple[int, int]:
    for u, unit in enumerate(force.units):
        for t, trooper in enumerate(unit.troopers):
            if key and key in (trooper.id, f"t.{u}.{t}"):
                return u, t
    raise EditError("That trooper is no longer in the list; reload the page.")


# No list holds more units, or a unit more troopers, than the readers allow; a position
# past these is no position of any list.
_LARGEST_POSITION = 999


def _index(data: QueryDict, key: str) -> int:
    index = whole_number(data.get(key, ""), 0, _LARGEST_POSITION)
    if index is None:
        raise EditError("That part of the list is no longer there; reload the page.")
    return index


def _unit(force: ForceSpec, data: QueryDict) -> int:
    key = data.get("unit_id", "")
    index = find_unit(force, key) if key else _index(data, "unit")
    edits._unit_at(force, index)
    return index


def _trooper(force: ForceSpec, data: QueryDict) -> tuple[int, int]:
    key = data.get("trooper_id", "")
    if key:
        return find_trooper(force, key)
    unit, trooper = _index(data, "unit"), _index(data, "trooper")
    edits._trooper_at(force, unit, trooper)
    return unit, trooper


def _points(data: QueryDict) -> int:
    text = data.get("points_limit", "").strip()
    if not (text.isascii() and text.isdigit()):
        raise EditError("The game size is a whole number of points.")
    # Digits past any game size read as one past the largest, whose message gives the range
    # (set_points_limit): the size is checked before the digits are read.
    points = whole_number(text, 0, 10**6)
    return 10**6 + 1 if points is None else points


# --- the actions ------------------------------------------------------------------------------


def _settings(force: ForceSpec, data: QueryDict, ruleset: Ruleset) -> Change:
    changed = edits.set_faction(
        edits.set_points_limit(edits.rename_force(force, data.get("name", "")), _points(data)),
        data.get("faction", ""),
        ruleset,
    )
    what = []
    if changed.name != force.name:
        what.append(f"rename the list {changed.name}")
    if changed.faction != force.faction:
        what.append(f"make it {ruleset.factions[changed.faction].name}")
    if changed.points_limit != force.points_limit:
        what.append(f"set the game size to {changed.points_limit} points")
    return Change(changed, "; ".join(what) or "save the list's settings")


def _add_unit(force: ForceSpec, data: QueryDict, ruleset: Ruleset) -> Change:
    changed = edits.add_unit(force, data.get("unit_type", ""), ruleset)
    index = len(changed.units) - 1
    name = ruleset.unit_types[changed.units[index].type].name
    return Change(changed, f"add a {name} unit", f"unit-{unit_key(changed, index)}")


def _remove_unit(force: ForceSpec, data: QueryDict, ruleset: Ruleset) -> Change:
    unit = _unit(force, data)
    return Change(edits.remove_unit(force, unit), f"remove {unit_label(force, unit, ruleset)}")


def _duplicate_unit(force: ForceSpec, data: QueryDict, ruleset: Ruleset) -> Change:
    unit = _unit(force, data)
    changed = edits.duplicate_unit(force, unit)
    return Change(
        changed,
        f"duplicate {unit_label(force, unit, ruleset)}",
        f"unit-{unit_key(changed, unit + 1)}",
    )


def _split_unit(force: ForceSpec, data: QueryDict, ruleset: Ruleset) -> Change:
    unit = _unit(force, data)
    changed = edits.split_unit(force, unit)
    return Change(
        changed,
        f"split {unit_label(force, unit, ruleset)} in two",
        f"unit-{unit_key(changed, unit + 1)}",
    )


def _rename_unit(force: ForceSpec, data: QueryDict, ruleset: Ruleset) -> Change:
    unit = _unit(force, data)
    changed = edits.rename_unit(force, unit, data.get("name", ""))
    before, new_name = unit_label(force, unit, ruleset), changed.units[unit].name
    what = f"rename {before} {new_name}" if new_name else f"clear the name of {before}"
    return Change(changed, what, f"unit-{unit_key(changed, unit)}")


def _unit_skills(force: ForceSpec, data: QueryDict, ruleset: Ruleset) -> Change:
    unit = _unit(force, data)
    changed = edits.set_unit_skills(force, unit, data.getlist("skills"))
    what = _item_change(
        force.units[unit].skills,
        changed.units[unit].skills,
        ruleset.unit_skills,
        unit_label(force, unit, ruleset),
    )
    return Change(changed, what, f"unit-{unit_key(changed, unit)}")


def _add_trooper(force: ForceSpec, data: QueryDict, ruleset: Ruleset) -> Change:
    unit = _unit(force, data)
    changed = edits.add_trooper(force, unit)
    last = len(changed.units[unit].troopers) - 1
    return Change(
        changed,
        f"add a trooper to {unit_label(force, unit, ruleset)}",
        f"trooper-{trooper_key(changed, unit, last)}",
    )


def _remove_trooper(force: ForceSpec, data: QueryDict, ruleset: Ruleset) -> Change:
    unit, trooper = _trooper(force, data)
    return Change(
        edits.remove_trooper(force, unit, trooper),
        f"remove {trooper_label(force, unit, trooper, ruleset)} from "
        f"{unit_label(force, unit, ruleset)}",
        f"unit-{unit_key(force, unit)}",
    )


def _duplicate_trooper(force: ForceSpec, data: QueryDict, ruleset: Ruleset) -> Change:
    unit, trooper = _trooper(force, data)
    return Change(
        edits.duplicate_trooper(force, unit, trooper),
        f"add another {trooper_label(force, unit, trooper, ruleset)} to "
        f"{unit_label(force, unit, ruleset)}",
        f"unit-{unit_key(force, unit)}",
    )


def _rename_trooper(force: ForceSpec, data: QueryDict, ruleset: Ruleset) -> Change:
    unit, trooper = _trooper(force, data)
    changed = edits.rename_trooper(force, unit, trooper, data.get("name", ""))
    before = trooper_label(force, unit, trooper, ruleset)
    new_name = changed.units[unit].troopers[trooper].name
    what = f"rename {before} {new_name}" if new_name else f"clear the name of {before}"
    return Change(
        changed,
        f"{what} in {unit_label(force, unit, ruleset)}",
        f"trooper-{trooper_key(changed, unit, trooper)}",
    )


def _set_class(force: ForceSpec, data: QueryDict, ruleset: Ruleset) -> Change:
    unit, trooper = _trooper(force, data)
    before = trooper_label(force, unit, trooper, ruleset)
    changed = edits.set_trooper_class(force, unit, trooper, data.get("class", ""), ruleset)
    new_class = ruleset.trooper_classes[changed.units[unit].troopers[trooper].trooper_class]
    article = "an" if new_class.name[:1] in "AEIOU" else "a"
    return Change(
        changed,
        f"make {before} in {unit_label(force, unit, ruleset)} {article} {new_class.name}",
        f"trooper-{trooper_key(changed, unit, trooper)}",
    )


def _loadout(force: ForceSpec, data: QueryDict, ruleset: Ruleset) -> Change:
    unit, trooper = _trooper(force, data)
    changed = edits.set_loadout(
        force,
        unit,
        trooper,
        data.getlist("weapons"),
        data.getlist("equipment"),
        data.getlist("abilities"),
    )
    old, new = force.units[unit].troopers[trooper], changed.units[unit].troopers[trooper]
    catalogues = {
        "weapons": ruleset.weapons,
        "equipment": ruleset.equipment,
        "abilities": ruleset.abilities,
    }
    owner = f"{trooper_label(force, unit, trooper, ruleset)} in {unit_label(force, unit, ruleset)}"
    parts = [
        _item_change(getattr(old, kind), getattr(new, kind), catalogues[kind], owner)
        for kind in edits.ITEM_KINDS
        if getattr(old, kind) != getattr(new, kind)
    ]
    what = "; ".join(parts) or f"change the loadout of {owner}"
    return Change(changed, what, f"trooper-{trooper_key(changed, unit, trooper)}")


def _remove_item(force: ForceSpec, data: QueryDict, ruleset: Ruleset) -> Change:
    kind, item = data.get("kind", ""), data.get("item", "")
    catalogues = {
        "weapons": ruleset.weapons,
        "equipment": ruleset.equipment,
        "abilities": ruleset.abilities,
        "skills": ruleset.unit_skills,
    }
    entry = catalogues.get(kind, {}).get(item)
    name = entry.name if entry else item
    if data.get("trooper_id") or data.get("trooper"):
        unit, trooper = _trooper(force, data)
        changed = edits.remove_item(force, unit, trooper, kind, item)
        owner = (
            f"{trooper_label(force, unit, trooper, ruleset)} in {unit_label(force, unit, ruleset)}"
        )
        return Change(
            changed, f"remove {name} from {owner}", f"trooper-{trooper_key(changed, unit, trooper)}"
        )
    unit = _unit(force, data)
    changed = edits.remove_item(force, unit, None, kind, item)
    return Change(
        changed,
        f"remove {name} from {unit_label(force, unit, ruleset)}",
        f"unit-{unit_key(changed, unit)}",
    )


def _item_change(
    old: tuple[str, ...],
    new: tuple[str, ...],
    catalogue: Mapping[str, CatalogueEntry],
    owner: str,
) -> str:
    """What changed among a trooper's items or a unit's skills, in words."""

    def names(ids: list[str]) -> str:
        return ", ".join(catalogue[i].name if i in catalogue else i for i in ids)

    added = [i for i in new if i not in old]
    removed = [i for i in old if i not in new]
    if added and not removed:
        return f"give {owner} {names(added)}"
    if removed and not added:
        return f"take {names(removed)} from {owner}"
    if added and removed:
        return f"swap {names(removed)} for {names(added)} on {owner}"
    return f"reorder the items of {owner}"


ACTIONS: dict[str, Callable[[ForceSpec, QueryDict, Ruleset], Change]] = {
    "settings": _settings,
    "add-unit": _add_unit,
    "remove-unit": _remove_unit,
    "duplicate-unit": _duplicate_unit,
    "split-unit": _split_unit,
    "rename-unit": _rename_unit,
    "unit-skills": _unit_skills,
    "add-trooper": _add_trooper,
    "remove-trooper": _remove_trooper,
    "duplicate-trooper": _duplicate_trooper,
    "rename-trooper": _rename_trooper,
    "set-class": _set_class,
    "loadout": _loadout,
    "remove-item": _remove_item,
}


def apply_action(force: ForceSpec, data: QueryDict, ruleset: Ruleset) -> Change:
    action = ACTIONS.get(data.get("action", ""))
    if action is None:
        raise EditError("That is not something the editor can do.")
    change = action(force, data, ruleset)
    description = change.description
    if len(description) > MAX_DESCRIPTION:
        description = description[: MAX_DESCRIPTION - 1] + "…"
    return Change(change.spec, description, change.concerns)
