"""What a roster shows for a trooper: stat line, weapons by range band, base modifiers.

Base modifiers are the ones that hold before the situation is known: the Trooper
Combat Modifier (cards drawn to attack) per weapon and range band, and the Trooper
Defense Modifier (cards drawn to defend on top of the one every defender draws).
Situational modifiers (cover, higher ground, rear, charging, downed) come on top.
"""

from __future__ import annotations

from dataclasses import dataclass

from onefinity.rules.force import TrooperSpec, UnitSpec
from onefinity.rules.ruleset import Faction, Ruleset, known_entries


@dataclass(frozen=True, slots=True)
class BandValue:
    band: str
    fire_power: int
    # Cards drawn to shoot at this band; None when the weapon cannot fire there.
    combat_modifier: int | None


@dataclass(frozen=True, slots=True)
class WeaponProfile:
    id: str
    name: str
    bonus: int
    close_combat: int
    bands: tuple[BandValue, ...]
    default: bool


@dataclass(frozen=True, slots=True)
class TrooperProfile:
    unit_type: str
    trooper_class: str
    specialist: bool
    movement: int
    armor: int
    wounds: int
    ability_slots: int
    slots_used: int
    weapons: tuple[WeaponProfile, ...]
    close_combat_modifier: int
    defense_modifier: int
    points: int


def trooper_profile(
    trooper: TrooperSpec, unit: UnitSpec, faction: Faction | None, ruleset: Ruleset, points: int
) -> TrooperProfile | None:
    """The roster line of a trooper, or None when its unit type is unknown."""
    unit_type = ruleset.unit_types.get(unit.type)
    if unit_type is None:
        return None
    trooper_class = ruleset.trooper_classes.get(trooper.trooper_class)
    abilities = known_entries(ruleset.abilities, trooper.abilities)
    modifiers = (
        abilities
        + known_entries(ruleset.equipment, trooper.equipment)
        + known_entries(ruleset.unit_skills, unit.skills)
    )
    weapon_ids = trooper.weapons or (unit_type.default_weapon,)
    weapons = []
    for weapon in known_entries(ruleset.weapons, weapon_ids):
        bands = []
        for band in ruleset.range_bands:
            power = weapon.fire_power.get(band.id, 0)
            shooting = sum(m.effects.shooting_at(band.id) for m in modifiers)
            bands.append(
                BandValue(band.id, power, power + weapon.bonus + shooting if power > 0 else None)
            )
        weapons.append(
            WeaponProfile(
                weapon.id,
                weapon.name,
                weapon.bonus,
                weapon.close_combat,
                tuple(bands),
                not trooper.weapons,
            )
        )
    best_close_combat = max((w.close_combat for w in weapons), default=0)
    return TrooperProfile(
        unit_type=unit_type.id,
        trooper_class=trooper_class.id if trooper_class else trooper.trooper_class,
        specialist=bool(trooper_class and trooper_class.specialist),
        movement=unit_type.movement + sum(m.effects.movement for m in modifiers),
        armor=unit_type.armor,
        wounds=unit_type.wounds + sum(m.effects.wounds for m in modifiers),
        ability_slots=unit_type.ability_slots,
        slots_used=sum(a.slots for a in abilities),
        weapons=tuple(weapons),
        close_combat_modifier=best_close_combat + sum(m.effects.close_combat for m in modifiers),
        defense_modifier=max(0, unit_type.armor + sum(m.effects.defense for m in modifiers)),
        points=points,
    )
