"""How many cards each side draws in one exchange, from trooper profiles and the situation.

Shooting: the attacker draws its weapon's Trooper Combat Modifier at the range band plus
combat modifiers; the defender draws 1 + its Trooper Defense Modifier plus defense
modifiers. Close combat: both draw 1 + their Trooper Combat Modifier, that is their
close-combat modifier, the attacker adding combat modifiers such as charging; armor and
defense modifiers such as cover do not count. Modifier values, and the kinds of exchange
each one counts in, come from the ruleset.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from onefinity.rules.profile import TrooperProfile
from onefinity.rules.ruleset import (
    CLOSE_COMBAT,
    EXCHANGE_NAMES,
    EXCHANGES,
    SHOOTING,
    Modifier,
    Ruleset,
)

__all__ = [
    "CLOSE_COMBAT",
    "EXCHANGES",
    "EXCHANGE_NAMES",
    "SHOOTING",
    "CombatError",
    "Draws",
    "Situation",
    "Target",
    "exchange_draws",
]


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


def _bonus(
    chosen: tuple[str, ...],
    known: Mapping[str, Modifier],
    kind: str,
    side: str,
    mode: str,
    notes: list[str],
) -> int:
    """The sum of the chosen modifiers; one that does not count in this exchange, or is
    chosen twice, is refused rather than silently changing the answer."""
    total = 0
    for modifier_id in chosen:
        modifier = known.get(modifier_id)
        if modifier is None:
            raise CombatError(f"{modifier_id!r} is not a {kind} modifier")
        if chosen.count(modifier_id) > 1:
            raise CombatError(f"{modifier.name} is chosen more than once; it counts once")
        if not modifier.applies_to(mode):
            raise CombatError(f"{modifier.name} does not apply in {EXCHANGE_NAMES[mode]}")
        total += modifier.bonus
        notes.append(f"{modifier.name} +{modifier.bonus} ({side})")
    return total


def exchange_draws(
    attacker: TrooperProfile, weapon: str, target: Target, situation: Situation, ruleset: Ruleset
) -> Draws:
    mode = situation.mode
    if mode not in EXCHANGES:
        raise CombatError(f"{mode!r} is not a kind of exchange")
    notes: list[str] = []
    combat_bonus = _bonus(
        situation.combat_modifiers, ruleset.combat_modifiers, "combat", "attacker", mode, notes
    )
    defense_bonus = _bonus(
        situation.defense_modifiers, ruleset.defense_modifiers, "defense", "target", mode, notes
    )

    if mode == CLOSE_COMBAT:
        attack = 1 + attacker.close_combat_modifier + combat_bonus
        defend = 1 + target.close_combat_modifier + defense_bonus
        notes.insert(
            0,
            "Close combat: both draw 1 + their close-combat modifier "
            f"({attacker.close_combat_modifier} and {target.close_combat_modifier})",
        )
        return Draws(attack, defend, tuple(notes))
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
