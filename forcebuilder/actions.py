"""The editor's actions: one POST field ``action`` names the edit, the others its arguments."""

from __future__ import annotations

from collections.abc import Callable

from django.http import QueryDict

from forcebuilder import edits
from forcebuilder.edits import EditError
from onefinity.rules import ForceSpec
from onefinity.rules.ruleset import Ruleset


def _index(data: QueryDict, key: str) -> int:
    try:
        return int(data.get(key, ""))
    except ValueError:
        raise EditError("That part of the list is no longer there; reload the page.") from None


def _unit(data: QueryDict) -> int:
    return _index(data, "unit")


def _trooper(data: QueryDict) -> tuple[int, int]:
    return _index(data, "unit"), _index(data, "trooper")


def _points(data: QueryDict) -> int:
    try:
        return int(data.get("points_limit", ""))
    except ValueError:
        raise EditError("The game size is a whole number of points.") from None


Action = Callable[[ForceSpec, QueryDict, Ruleset], ForceSpec]

ACTIONS: dict[str, Action] = {
    "settings": lambda f, d, r: edits.set_faction(
        edits.set_points_limit(edits.rename_force(f, d.get("name", "")), _points(d)),
        d.get("faction", ""),
        r,
    ),
    "add-unit": lambda f, d, r: edits.add_unit(f, d.get("unit_type", ""), r),
    "remove-unit": lambda f, d, r: edits.remove_unit(f, _unit(d)),
    "duplicate-unit": lambda f, d, r: edits.duplicate_unit(f, _unit(d)),
    "rename-unit": lambda f, d, r: edits.rename_unit(f, _unit(d), d.get("name", "")),
    "unit-skills": lambda f, d, r: edits.set_unit_skills(f, _unit(d), d.getlist("skills")),
    "add-trooper": lambda f, d, r: edits.add_trooper(f, _unit(d)),
    "remove-trooper": lambda f, d, r: edits.remove_trooper(f, *_trooper(d)),
    "duplicate-trooper": lambda f, d, r: edits.duplicate_trooper(f, *_trooper(d)),
    "rename-trooper": lambda f, d, r: edits.rename_trooper(f, *_trooper(d), d.get("name", "")),
    "set-class": lambda f, d, r: edits.set_trooper_class(f, *_trooper(d), d.get("class", ""), r),
    "loadout": lambda f, d, r: edits.set_loadout(
        f, *_trooper(d), d.getlist("weapons"), d.getlist("equipment"), d.getlist("abilities")
    ),
}


def apply_action(force: ForceSpec, data: QueryDict, ruleset: Ruleset) -> ForceSpec:
    action = ACTIONS.get(data.get("action", ""))
    if action is None:
        raise EditError("That is not something the editor can do.")
    return action(force, data, ruleset)
