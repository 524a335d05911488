"""What a unit or trooper is called on the page, in undo labels and in the odds panel:
its own name, or else what it is ("Medium Infantry 2", "Hacker")."""

from __future__ import annotations

from onefinity.rules import ForceSpec
from onefinity.rules.ruleset import Ruleset


def unit_type_name(type_id: str, ruleset: Ruleset) -> str:
    unit_type = ruleset.unit_types.get(type_id)
    if unit_type is None:
        return type_id
    # "TAG (Tactical Armored Gear)" is the rules' name; in a label the short form reads better.
    return "TAG" if unit_type.is_tag else unit_type.name


def unit_label(force: ForceSpec, index: int, ruleset: Ruleset) -> str:
    """The unit's name, or its type numbered among the unnamed units of that type."""
    unit = force.units[index]
    if unit.name:
        return unit.name
    kind = unit_type_name(unit.type, ruleset)
    same = [i for i, u in enumerate(force.units) if u.type == unit.type and not u.name]
    return kind if len(same) == 1 else f"{kind} {same.index(index) + 1}"


def trooper_label(force: ForceSpec, unit: int, index: int, ruleset: Ruleset) -> str:
    trooper = force.units[unit].troopers[index]
    if trooper.name:
        return trooper.name
    trooper_class = ruleset.trooper_classes.get(trooper.trooper_class)
    return trooper_class.name if trooper_class else trooper.trooper_class
