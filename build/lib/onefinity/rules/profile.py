"""What a roster shows for a trooper: stat line, weapons by range band, base modifiers.

Base modifiers are the ones that hold before the situation is known: the Trooper
Combat Modifier (cards drawn to attack) per weapon and range band, and the Trooper
Defense Modifier (cards drawn to defend on top of the one every defender draws).
Situational modifiers (cover, higher ground, rear, charging, downed) come on top.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from onefinity.rules.effects import (
    Fighter,
    Weapon,
    attack_pile,
    defense_pile,
    fighter,
    movement_of,
    wounds_of,
)
from onefinity.rules.force import TrooperSpec, UnitSpec
from onefinity.rules.ruleset import (
    CLOSE_COMBAT,
    SHOOTING,
    CatalogueEntry,
    Faction,
    Ruleset,
    known_entries,
)


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
    burst: int = 1
    armor_piercing: int = 0


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
    # Every catalogue entry the trooper carries (weapons, equipment, abilities, unit skills).
    gear: tuple[CatalogueEntry, ...] = ()

    @property
    def outside_odds(self) -> tuple[CatalogueEntry, ...]:
        """Entries whose effects all lie outside an exchange ("not part of the odds")."""
        return tuple(entry for entry in self.gear if entry.outside_exchange)


def trooper_profile(
    trooper: TrooperSpec, unit: UnitSpec, faction: Faction | None, ruleset: Ruleset, points: int
) -> TrooperProfile | None:
    """The roster line of a trooper, or None when its unit type is unknown. Its numbers are
    the exchange evaluator's (onefinity.rules.effects) with no situation and no enemy, so
    the stat line and the odds panel never disagree."""
    unit_type = ruleset.unit_types.get(unit.type)
    side = fighter(trooper, unit, ruleset)
    if unit_type is None or side is None:
        return None
    trooper_class = ruleset.trooper_classes.get(trooper.trooper_class)
    abilities = known_entries(ruleset.abilities, trooper.abilities)
    nobody = Fighter("", 0, 0, 0, ())
    weapons = []
    for entry in known_entries(ruleset.weapons, trooper.weapons or (unit_type.default_weapon,)):
        armed = replace(side, weapon=Weapon.of(entry))
        bands = []
        for band in ruleset.range_bands:
            power = entry.fire_power.get(band.id, 0)
            cards = (
                attack_pile(armed, nobody, SHOOTING, band.id, ruleset).cards if power > 0 else None
            )
            bands.append(BandValue(band.id, power, cards))
        weapons.append(
            WeaponProfile(
                entry.id,
                entry.name,
                entry.bonus,
                entry.close_combat,
                tuple(bands),
                not trooper.weapons,
                entry.burst,
                entry.armor_piercing,
            )
        )
    close_combat = attack_pile(side, nobody, CLOSE_COMBAT, "", ruleset).cards - 1
    defense = defense_pile(side, nobody, "", ruleset).cards - 1
    return TrooperProfile(
        unit_type=unit_type.id,
        trooper_class=trooper_class.id if trooper_class else trooper.trooper_class,
        specialist=bool(trooper_class and trooper_class.specialist),
        movement=movement_of(side, unit_type.movement),
        armor=unit_type.armor,
        wounds=wounds_of(side),
        ability_slots=unit_type.ability_slots,
        slots_used=sum(a.slots for a in abilities),
        weapons=tuple(weapons),
        close_combat_modifier=close_combat,
        defense_modifier=defense,
        points=points,
        gear=side.gear,
    )
