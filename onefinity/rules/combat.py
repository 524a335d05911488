"""How many cards each side draws in one exchange, from trooper profiles and the situation.

Shooting: the attacker draws its weapon's Trooper Combat Modifier at the range band plus
combat modifiers; the defender draws 1 + its Trooper Defense Modifier plus defense
modifiers. Close combat: both draw 1 + their close-combat modifier (the attacker adds
combat modifiers such as charging). Modifier values come from the ruleset.
"""

from __future__ import annotations

from dataclasses import dataclass

from onefinity.rules.profile import TrooperProfile
from onefinity.rules.ruleset import Ruleset

SHOOTING = "shooting"
CLOSE_COMBAT = "close-combat"


class CombatError(ValueError):
    pass


@dataclass(frozen=True, slots=True)
class Target:
    """What the attacker faces: a trooper's base defense and close-combat modifiers."""

    name: str
    defense_modifier: int
    close_combat_modifier: int = 0


@dataclass(frozen=True, slots=True)
class Situation:
    mode: str = SHOOTING
    band: str = "short"
    # Ids of the ruleset's combat modifiers (for the attacker) and defense modifiers
    # (for the target) that apply, e.g. ("rear",) and ("cover",).
    combat_modifiers: tuple[str, ...] = ()
    defense_modifiers: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Draws:
    attacker_cards: int
    defender_cards: int
    explanation: tuple[str, ...]


def exchange_draws(
    attacker: TrooperProfile, weapon: str, target: Target, situation: Situation, ruleset: Ruleset
) -> Draws:
    combat_bonus = 0
    notes = []
    for modifier_id in situation.combat_modifiers:
        modifier = ruleset.combat_modifiers.get(modifier_id)
        if modifier is None:
            raise CombatError(f"{modifier_id!r} is not a combat modifier")
        combat_bonus += modifier.bonus
        notes.append(f"{modifier.name} +{modifier.bonus} (attacker)")
    defense_bonus = 0
    for modifier_id in situation.defense_modifiers:
        modifier = ruleset.defense_modifiers.get(modifier_id)
        if modifier is None:
            raise CombatError(f"{modifier_id!r} is not a defense modifier")
        defense_bonus += modifier.bonus
        notes.append(f"{modifier.name} +{modifier.bonus} (target)")

    if situation.mode == CLOSE_COMBAT:
        attack = 1 + attacker.close_combat_modifier + combat_bonus
        defend = 1 + target.close_combat_modifier + defense_bonus
        notes.insert(
            0,
            f"Close combat: both draw 1 + their close-combat modifier ({attack - 1 - combat_bonus} and {target.close_combat_modifier})",
        )
        return Draws(attack, defend, tuple(notes))
    if situation.mode != SHOOTING:
        raise CombatError(f"{situation.mode!r} is not a kind of exchange")
    profile = next((w for w in attacker.weapons if w.id == weapon), None)
    if profile is None:
        raise CombatError("the attacker does not carry that weapon")
    band = next((b for b in profile.bands if b.band == situation.band), None)
    if band is None:
        raise CombatError(f"{situation.band!r} is not a range band")
    if band.combat_modifier is None:
        raise CombatError(f"The {profile.name} cannot fire at {situation.band} range.")
    attack = band.combat_modifier + combat_bonus
    defend = 1 + target.defense_modifier + defense_bonus
    notes.insert(0, f"{profile.name} at {situation.band} range: {band.combat_modifier} card(s)")
    notes.insert(1, f"Target: 1 + defense {target.defense_modifier}")
    return Draws(attack, defend, tuple(notes))
