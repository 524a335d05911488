"""Points: what each trooper, unit and force costs under a ruleset.

Ids the ruleset does not know cost nothing here; validation reports them.
"""

from __future__ import annotations

from dataclasses import dataclass

from onefinity.rules.force import ForceSpec, TrooperSpec, UnitSpec
from onefinity.rules.ruleset import Faction, Ruleset, known_entries


@dataclass(frozen=True, slots=True)
class UnitCost:
    troopers: tuple[int, ...]

    @property
    def total(self) -> int:
        return sum(self.troopers)


@dataclass(frozen=True, slots=True)
class ForceCost:
    units: tuple[UnitCost, ...]

    @property
    def total(self) -> int:
        return sum(unit.total for unit in self.units)


def trooper_cost(
    trooper: TrooperSpec, unit: UnitSpec, faction: Faction | None, ruleset: Ruleset
) -> int:
    """Base cost of the unit type (less faction discounts) plus class, loadout and unit skills.

    A trooper with no weapon listed carries its unit type's default weapon for free.
    """
    points = 0
    unit_type = ruleset.unit_types.get(unit.type)
    if unit_type is not None:
        discount = faction.discount_for(unit_type.id) if faction is not None else 0
        points += max(0, unit_type.cost - discount)
    trooper_class = ruleset.trooper_classes.get(trooper.trooper_class)
    if trooper_class is not None:
        points += trooper_class.cost
    points += sum(e.cost for e in known_entries(ruleset.weapons, trooper.weapons))
    points += sum(e.cost for e in known_entries(ruleset.equipment, trooper.equipment))
    points += sum(e.cost for e in known_entries(ruleset.abilities, trooper.abilities))
    points += sum(e.cost for e in known_entries(ruleset.unit_skills, unit.skills))
    return points


def force_cost(force: ForceSpec, ruleset: Ruleset) -> ForceCost:
    faction = ruleset.factions.get(force.faction)
    return ForceCost(
        tuple(
            UnitCost(tuple(trooper_cost(t, unit, faction, ruleset) for t in unit.troopers))
            for unit in force.units
        )
    )
