"""One exchange per effect of every catalogue entry, read from the entry's data: a situation
in which the effect must count, and the cards each pile must then hold, worked out here
from the data with plain arithmetic (fire power + bonus, 1 + armor, + the effect's amount),
not by the engine.

The engine test (tests/onefinity/test_exchange.py) and the odds panel's test
(tests/forcebuilder/test_odds_catalogue.py) play each scenario and compare the cards, and
the chances against tests/onefinity/exchange_reference.py.
"""

from __future__ import annotations

from dataclasses import dataclass

from onefinity.rules.force import TrooperSpec, UnitSpec
from onefinity.rules.ruleset import (
    ALL,
    ATTACK,
    ATTACKING,
    CANCELS,
    CLOSE_COMBAT,
    DEFENSE,
    ENEMY_ATTACK,
    MOVEMENT,
    NO_REACTION,
    OUTSIDE,
    REACTION_FIRE_POWER,
    REACTS_UNSEEN,
    SHOOTING,
    WOUNDS,
    CatalogueEntry,
    Ruleset,
)

KINDS = {
    "weapon": "weapons",
    "equipment": "equipment",
    "ability": "abilities",
    "unit_skill": "unit_skills",
}


@dataclass(frozen=True)
class Side:
    unit: UnitSpec
    trooper: TrooperSpec
    weapon: str
    combat: tuple[str, ...] = ()
    defense: tuple[str, ...] = ()

    def carrying(self, entry: CatalogueEntry) -> Side:
        """The same trooper with the entry (a unit skill goes to its unit)."""
        if entry.kind == "unit_skill":
            unit = UnitSpec(self.unit.type, troopers=self.unit.troopers, skills=(entry.id,))
            return Side(unit, self.trooper, self.weapon, self.combat, self.defense)
        kind = KINDS[entry.kind]
        items = {k: getattr(self.trooper, k) for k in ("weapons", "equipment", "abilities")}
        items[kind] = (*items[kind], entry.id)
        trooper = TrooperSpec(trooper_class="trooper", **items)
        unit = UnitSpec(self.unit.type, troopers=(trooper,), skills=self.unit.skills)
        return Side(unit, trooper, self.weapon, self.combat, self.defense)


@dataclass(frozen=True)
class Scenario:
    entry: CatalogueEntry
    index: int | None  # the effect's index; None for a weapon's own profile
    attacker: Side
    target: Side
    mode: str
    band: str
    reaction: bool
    # Matchup name ("shot", "reaction", "melee") -> (attack cards, cards it must beat).
    cards: dict[str, tuple[int, int]]
    burst: int = 1
    target_wounds: int = 0
    applied: bool = True
    # The words the engine must refuse the exchange with (no_reaction), else ''.
    refused: str = ""

    @property
    def owner(self) -> str:
        """Which side carries the entry: "attacker" or "target"."""
        side = self.attacker
        carried = side.trooper.weapons + side.trooper.equipment + side.trooper.abilities
        return "attacker" if self.entry.id in carried + side.unit.skills else "target"

    @property
    def name(self) -> str:
        where = "weapon" if self.index is None else f"effect {self.index}"
        return f"{self.entry.id} ({where})"


def _unit_type_for(entry: CatalogueEntry, ruleset: Ruleset, prefer: str = "medium-infantry") -> str:
    if ALL in entry.unit_types or prefer in entry.unit_types:
        return prefer
    return entry.unit_types[0]


def plain(unit_type: str, weapon: str = "") -> Side:
    weapons = (weapon,) if weapon else ()
    trooper = TrooperSpec(trooper_class="trooper", weapons=weapons)
    return Side(UnitSpec(unit_type, troopers=(trooper,)), trooper, weapon)


def _default(ruleset: Ruleset, unit_type: str) -> str:
    return ruleset.unit_types[unit_type].default_weapon


def _firing_band(ruleset: Ruleset, weapon: CatalogueEntry) -> str:
    return next((b.id for b in ruleset.range_bands if weapon.fire_power.get(b.id, 0) > 0), "")


def _strongest_at(ruleset: Ruleset, band: str, unit_type: str) -> CatalogueEntry:
    """The weapon of that unit type with the most fire power at the band (a first on ties)."""
    fitting = [w for w in ruleset.weapons.values() if w.allowed_for_unit_type(unit_type)]
    return max(
        fitting, key=lambda w: (w.fire_power.get(band, 0), -list(ruleset.weapons).index(w.id))
    )


def _attack(weapon: CatalogueEntry, band: str) -> int:
    return weapon.fire_power[band] + weapon.bonus


def _defense(ruleset: Ruleset, unit_type: str, extra: int = 0, situation: int = 0) -> int:
    return 1 + max(0, ruleset.unit_types[unit_type].armor + extra) + situation


def _wounds(ruleset: Ruleset, unit_type: str) -> int:
    return ruleset.unit_types[unit_type].wounds


def scenarios(ruleset: Ruleset) -> list[Scenario]:
    found = []
    for kind in ("weapons", "equipment", "abilities", "unit_skills"):
        catalogue: dict[str, CatalogueEntry] = dict(getattr(ruleset, kind))
        for entry in catalogue.values():
            if entry.kind == "weapon":
                found.append(_weapon(ruleset, entry))
            found += [_effect(ruleset, entry, i) for i in range(len(entry.effects))]
    return found


def _weapon(ruleset: Ruleset, weapon: CatalogueEntry) -> Scenario:
    """The weapon against armor 2 (so armor piercing shows), at its first band."""
    own_type = _unit_type_for(weapon, ruleset)
    attacker = plain(own_type, weapon.id)
    target = plain("heavy-infantry")
    band = _firing_band(ruleset, weapon)
    armor = ruleset.unit_types["heavy-infantry"].armor
    if not band:  # a close-combat weapon
        cards = {
            "melee": (
                1 + weapon.close_combat,
                1 + ruleset.weapons[_default(ruleset, "heavy-infantry")].close_combat,
            )
        }
        return Scenario(
            weapon,
            None,
            attacker,
            target,
            CLOSE_COMBAT,
            "",
            False,
            cards,
            1,
            _wounds(ruleset, "heavy-infantry"),
        )
    defense = 1 + max(0, armor - weapon.armor_piercing)
    cards = {"shot": (_attack(weapon, band), defense)}
    return Scenario(
        weapon,
        None,
        attacker,
        target,
        SHOOTING,
        band,
        False,
        cards,
        weapon.burst,
        _wounds(ruleset, "heavy-infantry"),
    )


def _effect(ruleset: Ruleset, entry: CatalogueEntry, index: int) -> Scenario:
    effect = entry.effects[index]
    change = effect.change
    own_type = _unit_type_for(entry, ruleset)
    if change == ATTACK:
        if effect.reacting is not None:
            raise NotImplementedError(
                f"{entry.id}: no scenario yet for an attack bonus tied to reactions"
            )
        if effect.exchanges == (CLOSE_COMBAT,):
            owner = plain(own_type).carrying(entry)
            target = plain("medium-infantry")
            melee_own = 1 + _best_cc(ruleset, owner) + effect.amount
            cards = {"melee": (max(1, melee_own), 1)}
            return Scenario(
                entry,
                index,
                owner,
                target,
                CLOSE_COMBAT,
                "",
                False,
                cards,
                target_wounds=_wounds(ruleset, "medium-infantry"),
            )
        band = effect.bands[0] if effect.bands else ruleset.range_bands[0].id
        weapon = _strongest_at(ruleset, band, own_type)
        owner = plain(own_type, weapon.id).carrying(entry)
        cards = {
            "shot": (
                max(1, _attack(weapon, band) + effect.amount),
                _defense(ruleset, "medium-infantry"),
            )
        }
        return Scenario(
            entry,
            index,
            owner,
            plain("medium-infantry"),
            SHOOTING,
            band,
            False,
            cards,
            weapon.burst,
            _wounds(ruleset, "medium-infantry"),
        )
    if change == DEFENSE:
        owner = plain(own_type).carrying(entry)
        attacker = plain("medium-infantry")
        band = ruleset.range_bands[0].id
        rifle = ruleset.weapons[_default(ruleset, "medium-infantry")]
        cards = {"shot": (_attack(rifle, band), _defense(ruleset, own_type, effect.amount))}
        return Scenario(
            entry,
            index,
            attacker,
            owner,
            SHOOTING,
            band,
            False,
            cards,
            rifle.burst,
            _wounds(ruleset, own_type),
        )
    if change == ENEMY_ATTACK:
        band = effect.bands[0] if effect.bands else ruleset.range_bands[0].id
        weapon = _strongest_at(ruleset, band, "medium-infantry")
        attacker = plain("medium-infantry", weapon.id)
        owner = plain(own_type).carrying(entry)
        cards = {
            "shot": (max(1, _attack(weapon, band) + effect.amount), _defense(ruleset, own_type))
        }
        return Scenario(
            entry,
            index,
            attacker,
            owner,
            SHOOTING,
            band,
            False,
            cards,
            weapon.burst,
            _wounds(ruleset, own_type),
        )
    if change == CANCELS:
        return _cancels(ruleset, entry, index, own_type)
    if change == REACTION_FIRE_POWER:
        band = ruleset.range_bands[0].id
        weapon = _strongest_at(ruleset, band, own_type)
        owner = plain(own_type, weapon.id).carrying(entry)
        rifle = ruleset.weapons[_default(ruleset, "medium-infantry")]
        attacker = plain("medium-infantry", rifle.id)
        limit = max(effect.amount, ruleset.exchange.reaction_fire_power)
        cards = {
            "shot": (_attack(rifle, band), _defense(ruleset, own_type)),
            "reaction": (
                min(weapon.fire_power[band], limit) + weapon.bonus,
                _defense(ruleset, "medium-infantry"),
            ),
        }
        return Scenario(
            entry,
            index,
            attacker,
            owner,
            SHOOTING,
            band,
            True,
            cards,
            rifle.burst,
            _wounds(ruleset, own_type),
        )
    if change == NO_REACTION:
        owner = plain(own_type).carrying(entry)
        enemy = effect.enemy_situation
        mode = (
            CLOSE_COMBAT
            if any(
                ruleset.combat_modifiers[m].exchanges == (CLOSE_COMBAT,)
                for m in enemy
                if m in ruleset.combat_modifiers
            )
            else SHOOTING
        )
        attacker = plain("medium-infantry")
        attacker = Side(
            attacker.unit,
            attacker.trooper,
            attacker.weapon,
            tuple(m for m in enemy if m in ruleset.combat_modifiers),
        )
        return Scenario(
            entry,
            index,
            attacker,
            owner,
            mode,
            ruleset.range_bands[0].id,
            True,
            {},
            applied=True,
            refused=entry.name,
        )
    if change == WOUNDS:
        owner = plain(own_type).carrying(entry)
        attacker = plain("medium-infantry")
        band = ruleset.range_bands[0].id
        rifle = ruleset.weapons[_default(ruleset, "medium-infantry")]
        cards = {"shot": (_attack(rifle, band), _defense(ruleset, own_type))}
        return Scenario(
            entry,
            index,
            attacker,
            owner,
            SHOOTING,
            band,
            False,
            cards,
            rifle.burst,
            _wounds(ruleset, own_type) + effect.amount,
        )
    assert change in (MOVEMENT, OUTSIDE, REACTS_UNSEEN), change
    owner = plain(own_type).carrying(entry)
    band = ruleset.range_bands[0].id
    rifle = ruleset.weapons[_default(ruleset, own_type)]
    cards = {"shot": (_attack(rifle, band), _defense(ruleset, "medium-infantry"))}
    return Scenario(
        entry,
        index,
        owner,
        plain("medium-infantry"),
        SHOOTING,
        band,
        False,
        cards,
        rifle.burst,
        _wounds(ruleset, "medium-infantry"),
        applied=False,
    )


def _best_cc(ruleset: Ruleset, side: Side) -> int:
    unit_type = ruleset.unit_types[side.unit.type]
    weapons = side.trooper.weapons or (unit_type.default_weapon,)
    return max(ruleset.weapons[w].close_combat for w in weapons if w in ruleset.weapons)


def _cancels(ruleset: Ruleset, entry: CatalogueEntry, index: int, own_type: str) -> Scenario:
    """The cancelled modifier claimed by the other side; the pile must not count it."""
    effect = entry.effects[index]
    band = effect.bands[0] if effect.bands else ruleset.range_bands[0].id
    rifle = ruleset.weapons[_default(ruleset, "medium-infantry")]
    if effect.role == ATTACKING:
        if effect.cancels not in ruleset.defense_modifiers:
            raise NotImplementedError(
                f"{entry.id}: no scenario yet for cancelling {effect.cancels}"
            )
        weapon = ruleset.weapons[_default(ruleset, own_type)]
        owner = plain(own_type, weapon.id).carrying(entry)
        target = plain("medium-infantry")
        target = Side(target.unit, target.trooper, target.weapon, (), (effect.cancels,))
        cards = {"shot": (_attack(weapon, band), _defense(ruleset, "medium-infantry"))}
        return Scenario(
            entry,
            index,
            owner,
            target,
            SHOOTING,
            band,
            False,
            cards,
            weapon.burst,
            _wounds(ruleset, "medium-infantry"),
        )
    if effect.cancels not in ruleset.combat_modifiers:
        raise NotImplementedError(f"{entry.id}: no scenario yet for cancelling {effect.cancels}")
    attacker = plain("medium-infantry", rifle.id)
    attacker = Side(attacker.unit, attacker.trooper, attacker.weapon, (effect.cancels,))
    owner = plain(own_type).carrying(entry)
    mode = (
        SHOOTING if ruleset.combat_modifiers[effect.cancels].applies_to(SHOOTING) else CLOSE_COMBAT
    )
    if mode == SHOOTING:
        cards = {"shot": (_attack(rifle, band), _defense(ruleset, own_type))}
    else:
        cards = {"melee": (1 + rifle.close_combat, 1 + _best_cc(ruleset, owner))}
    return Scenario(
        entry,
        index,
        attacker,
        owner,
        mode,
        band,
        False,
        cards,
        rifle.burst if mode == SHOOTING else 1,
        _wounds(ruleset, own_type),
    )
