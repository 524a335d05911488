"""The one place that applies the catalogue's effects: how many cards each pile of an
exchange holds, and why, line by line.

A pile is the cards one side draws in one comparison: an attack pile (shooting, a
reaction's shot, or close combat) or a defense pile (against shooting). Each pile starts
from the rules (fire power and the weapon's bonus; 1 + close-combat bonus; 1 + armor),
then adds the situational modifiers its side claims and the effects of the entries either
side carries, as the ruleset's data says (``Effect``): who it helps, when it applies, what
it changes. Every effect considered is reported, applied or left out with the reason, so
the odds panel can show a player what it counted. The trooper's stat line
(onefinity.rules.profile) is this evaluator with no situation and no enemy.

The words for each effect (``describe``) are generated from the same data, for the rules
page and the panel.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from onefinity.rules.force import TrooperSpec, UnitSpec
from onefinity.rules.ruleset import (
    AP_ARMOR,
    ATTACK,
    ATTACKING,
    CANCELS,
    CLOSE_COMBAT,
    DEFENDING,
    DEFENSE,
    ENEMY_ATTACK,
    EXCHANGE_NAMES,
    EXCHANGES,
    MOVEMENT,
    NO_REACTION,
    OUTSIDE,
    REACTION_FIRE_POWER,
    REACTS_UNSEEN,
    SHOOTING,
    WOUNDS,
    Attack,
    CatalogueEntry,
    Effect,
    Modifier,
    Ruleset,
    known_entries,
)

# What each kind of catalogue entry is called in a sentence.
KIND_NAMES = {
    "weapon": "weapon",
    "ability": "special ability",
    "equipment": "equipment",
    "unit_skill": "unit skill",
}


class CombatError(ValueError):
    pass


# What an effect outside any exchange is called wherever it is shown.
NOT_IN_ODDS = "not part of the odds"


@dataclass(frozen=True, slots=True)
class Weapon:
    """What a side attacks with: a weapon of the catalogue, or an attack of a special
    action (the plasma charge), which has one fire power at every range."""

    id: str
    name: str
    fire_power: Mapping[str, int]
    bonus: int = 0
    burst: int = 1
    armor_piercing: int = 0
    # The catalogue entry, when it is one (its own effects count like any other's).
    entry: CatalogueEntry | None = None

    def power_at(self, band: str) -> int:
        return self.fire_power.get(band, 0)

    @classmethod
    def of(cls, entry: CatalogueEntry) -> Weapon:
        return cls(
            entry.id,
            entry.name,
            entry.fire_power,
            entry.bonus,
            entry.burst,
            entry.armor_piercing,
            entry,
        )

    @classmethod
    def of_attack(cls, attack_id: str, name: str, attack: Attack, ruleset: Ruleset) -> Weapon:
        power = {band.id: attack.fire_power for band in ruleset.range_bands}
        return cls(attack_id, name, power, 0, attack.burst, attack.armor_piercing)


@dataclass(frozen=True, slots=True)
class Fighter:
    """One side of an exchange: a trooper as its list makes it, the weapon it uses, and
    the situation it claims (ids of the ruleset's combat and defense modifiers)."""

    name: str
    armor: int
    wounds: int
    # The best close-combat bonus among its weapons.
    close_combat: int
    # Every catalogue entry it carries: weapons, equipment, abilities, its unit's skills.
    gear: tuple[CatalogueEntry, ...]
    weapon: Weapon | None = None
    combat_modifiers: tuple[str, ...] = ()
    defense_modifiers: tuple[str, ...] = ()

    def with_situation(self, combat: Iterable[str] = (), defense: Iterable[str] = ()) -> Fighter:
        return Fighter(
            self.name,
            self.armor,
            self.wounds,
            self.close_combat,
            self.gear,
            self.weapon,
            tuple(combat),
            tuple(defense),
        )


def fighter(
    trooper: TrooperSpec,
    unit: UnitSpec,
    ruleset: Ruleset,
    name: str = "",
    weapon: str | None = None,
) -> Fighter | None:
    """A trooper of a list as a side of an exchange, or None when its unit type is not in
    the ruleset. ``weapon`` is one it carries (its default weapon when it lists none);
    None: the first. CombatError when it does not carry that weapon."""
    unit_type = ruleset.unit_types.get(unit.type)
    if unit_type is None:
        return None
    weapons = known_entries(ruleset.weapons, trooper.weapons or (unit_type.default_weapon,))
    gear = tuple(
        weapons
        + known_entries(ruleset.equipment, trooper.equipment)
        + known_entries(ruleset.abilities, trooper.abilities)
        + known_entries(ruleset.unit_skills, unit.skills)
    )
    chosen = None
    if weapons:
        found = next((w for w in weapons if w.id == weapon), None) if weapon else weapons[0]
        if found is None:
            raise CombatError(f"{name or 'the trooper'} does not carry that weapon")
        chosen = Weapon.of(found)
    return Fighter(
        name or unit_type.name,
        unit_type.armor,
        unit_type.wounds,
        max((w.close_combat for w in weapons), default=0),
        gear,
        chosen,
    )


# --- Whether an effect applies --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Context:
    """One side's view of one comparison."""

    kind: str  # SHOOTING or CLOSE_COMBAT
    band: str  # the range band when shooting, '' in close combat
    role: str  # ATTACKING: its own attack pile; DEFENDING: the pile against it
    reacting: bool  # it is the reactive trooper of a reaction
    own: tuple[str, ...] = ()  # its situational modifiers
    enemy: tuple[str, ...] = ()  # its enemy's


# The role in a comparison each change acts in.
ROLE_OF = {
    ATTACK: ATTACKING,
    REACTION_FIRE_POWER: ATTACKING,
    DEFENSE: DEFENDING,
    ENEMY_ATTACK: DEFENDING,
}


def _band_names(bands: Iterable[str], ruleset: Ruleset) -> str:
    return _or([_band_name(band, ruleset) for band in bands])


def _band_name(band: str, ruleset: Ruleset) -> str:
    for known in ruleset.range_bands:
        if known.id == band:
            return known.name.lower()
    return band


def _or(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _modifier_names(ids: Iterable[str], ruleset: Ruleset) -> list[str]:
    known = {**ruleset.defense_modifiers, **ruleset.combat_modifiers}
    return [known[i].name if i in known else i for i in ids]


def why_not(effect: Effect, context: Context, ruleset: Ruleset) -> str:
    """'' when ``effect`` applies in ``context``, else why not, in words."""
    if not effect.in_exchange:
        return f"{NOT_IN_ODDS} ({effect.outside or 'movement'})"
    role = ROLE_OF.get(effect.change, effect.role)
    if role and role != context.role:
        return "only when it attacks" if role == ATTACKING else "only when it is attacked"
    if effect.change == DEFENSE and context.kind != SHOOTING:
        return "only against shooting"
    if effect.exchanges and context.kind not in effect.exchanges:
        return "only in " + _or([EXCHANGE_NAMES[e] for e in effect.exchanges])
    if effect.bands and (context.kind != SHOOTING or context.band not in effect.bands):
        return f"only at {_band_names(effect.bands, ruleset)} range"
    if effect.change == REACTION_FIRE_POWER and not context.reacting:
        return "only when it shoots in reaction"
    if effect.reacting is True and not context.reacting:
        return "only when it reacts"
    if effect.reacting is False and context.reacting:
        return "not when it reacts"
    missing = [m for m in effect.own_situation if m not in context.own]
    if missing:
        return "only with " + _and(_modifier_names(missing, ruleset))
    missing = [m for m in effect.enemy_situation if m not in context.enemy]
    if missing:
        return "only when its enemy has " + _and(_modifier_names(missing, ruleset))
    return ""


# --- Piles -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Line:
    """One thing a pile counted, or left out, in words."""

    side: str  # whose it is (a fighter's name)
    source: str  # what it is: "Combi Rifle", "Cover", "Mimetism"
    text: str
    cards: int
    applied: bool = True
    # The ruleset's choice this line leans on ("exchange.armor_piercing"), when one does:
    # the odds panel lists the provisional ones it used.
    choice: str = ""


@dataclass(frozen=True, slots=True)
class Pile:
    side: str
    purpose: str  # "attack", "defense" or "close combat"
    cards: int
    lines: tuple[Line, ...]


@dataclass(frozen=True, slots=True)
class EffectUse:
    """One effect of an entry a fighter carries, and what the exchange made of it."""

    side: str
    entry: CatalogueEntry
    index: int
    effect: Effect
    applied: bool
    # Applied: where ("its attack at long range"); left out: why.
    reason: str


@dataclass
class Ledger:
    """Every effect either fighter carries, as each comparison finds it: an effect
    applied in one comparison is applied; one applied nowhere keeps the first reason."""

    uses: dict[tuple[str, str, int], EffectUse] = field(default_factory=dict)

    def note(self, side: str, entry: CatalogueEntry, index: int, reason: str, where: str) -> None:
        key = (side, entry.id, index)
        known = self.uses.get(key)
        if known is not None and (known.applied or reason):
            return
        self.uses[key] = EffectUse(
            side, entry, index, entry.effects[index], not reason, reason or where
        )

    def note_all(
        self, fighter: Fighter, ruleset: Ruleset, context: Context, plays: tuple[str, ...]
    ) -> None:
        """Every effect of the fighter's gear that no pile considered, with why not. It
        ``plays`` the roles (ATTACKING, DEFENDING) it has in this exchange: an effect for
        another says so; one for a role it plays is judged on its other conditions."""
        for entry in fighter.gear:
            for index, effect in enumerate(entry.effects):
                if (fighter.name, entry.id, index) in self.uses:
                    continue
                role = ROLE_OF.get(effect.change, effect.role)
                if not effect.in_exchange:
                    reason = why_not(effect, context, ruleset)
                elif effect.change == NO_REACTION:
                    reason = "only when it would react"
                elif role and role not in plays:
                    reason = (
                        "only when it attacks: it does not here"
                        if role == ATTACKING
                        else "only when it is attacked: it is not here"
                    )
                else:
                    judged = Context(
                        context.kind,
                        context.band,
                        role or context.role,
                        context.reacting,
                        context.own,
                        context.enemy,
                    )
                    reason = why_not(effect, judged, ruleset) or "not in this exchange"
                self.note(fighter.name, entry, index, reason, "")

    def ordered(self) -> tuple[EffectUse, ...]:
        return tuple(self.uses.values())


def _cancelled(
    fighter: Fighter,
    enemy: Fighter,
    context: Context,
    ruleset: Ruleset,
    ledger: Ledger | None,
    where: str,
) -> dict[str, str]:
    """What the fighter's CANCELS effects that apply in this context cancel of its
    enemy's: id -> by what (the entry's name). One with nothing to cancel (the enemy
    claims no such modifier and carries no such entry) is left out, saying so."""
    present = set(enemy.combat_modifiers + enemy.defense_modifiers)
    present |= {entry.id for entry in enemy.gear}
    cancelled: dict[str, str] = {}
    for entry in fighter.gear:
        for index, effect in enumerate(entry.effects):
            if effect.change != CANCELS:
                continue
            reason = why_not(effect, context, ruleset)
            if not reason and effect.cancels not in present:
                reason = f"nothing to cancel: no {_cancel_name(effect.cancels, ruleset)} here"
            if ledger is not None:
                ledger.note(fighter.name, entry, index, reason, where)
            if not reason:
                cancelled.setdefault(effect.cancels, entry.name)
    return cancelled


def _entry_effects(
    fighter: Fighter,
    change: str,
    context: Context,
    cancelled: Mapping[str, str],
    ruleset: Ruleset,
    ledger: Ledger | None,
    where: str,
) -> list[Line]:
    """Lines for the fighter's effects of one change in this context."""
    lines = []
    for entry in fighter.gear:
        for index, effect in enumerate(entry.effects):
            if effect.change != change:
                continue
            reason = why_not(effect, context, ruleset)
            if not reason and entry.id in cancelled:
                reason = f"cancelled by {cancelled[entry.id]}"
            if ledger is not None:
                ledger.note(fighter.name, entry, index, reason, where)
            if reason:
                continue
            lines.append(Line(fighter.name, entry.name, describe(effect, ruleset), effect.amount))
    return lines


def _modifier_lines(
    fighter: Fighter,
    chosen: tuple[str, ...],
    known: Mapping[str, Modifier],
    kind: str,
    cancelled: Mapping[str, str],
) -> list[Line]:
    lines = []
    for modifier_id in chosen:
        modifier = known[modifier_id]
        if not modifier.applies_to(kind):
            continue
        if modifier_id in cancelled:
            lines.append(
                Line(
                    fighter.name,
                    modifier.name,
                    f"cancelled by {cancelled[modifier_id]}",
                    0,
                    applied=False,
                )
            )
        else:
            lines.append(Line(fighter.name, modifier.name, "situation", modifier.bonus))
    return lines


def _clamp(lines: list[Line], side: str, minimum: int) -> int:
    cards = sum(line.cards for line in lines)
    if cards < minimum:
        lines.append(
            Line(
                side,
                "Rules",
                f"at least {minimum} card{'s' if minimum > 1 else ''}",
                minimum - cards,
                choice="exchange.minimum_cards",
            )
        )
        return minimum
    return cards


def reaction_fire_power(
    striker: Fighter, context: Context, ruleset: Ruleset, ledger: Ledger | None = None
) -> tuple[int, str]:
    """The fire power cap of a reaction's shot, and what set it."""
    cap, source = ruleset.exchange.reaction_fire_power, "the rules"
    for entry in striker.gear:
        for index, effect in enumerate(entry.effects):
            if effect.change != REACTION_FIRE_POWER:
                continue
            reason = why_not(effect, context, ruleset)
            if ledger is not None:
                ledger.note(striker.name, entry, index, reason, "its reaction's fire power")
            if not reason and effect.amount > cap:
                cap, source = effect.amount, entry.name
    return cap, source


def attack_pile(
    striker: Fighter,
    target: Fighter,
    kind: str,
    band: str,
    ruleset: Ruleset,
    striker_reacting: bool = False,
    target_reacting: bool = False,
    ledger: Ledger | None = None,
) -> Pile:
    """The cards ``striker`` draws to attack ``target``: shooting (CombatError when its
    weapon cannot fire at that band) or close combat (1 + its close-combat bonus)."""
    own = Context(
        kind,
        band,
        ATTACKING,
        striker_reacting,
        striker.combat_modifiers + striker.defense_modifiers,
        target.combat_modifiers + target.defense_modifiers,
    )
    theirs = Context(kind, band, DEFENDING, target_reacting, own.enemy, own.own)
    # Where each effect counted, for the ledger only (the stat line keeps none).
    where = _where(kind, band, "its attack") if ledger is not None else ""
    their_where = _where(kind, band, "against its enemy's attack") if ledger is not None else ""
    if kind == CLOSE_COMBAT:
        lines = _close_combat_cards(striker)
    else:
        lines = _weapon_cards(striker, own, ruleset, ledger)
    # The target's defending cancels act on the striker's modifiers and entries; the
    # striker's attacking cancels on the target's entries.
    theirs_cancel = _cancelled(target, striker, theirs, ruleset, ledger, their_where)
    own_cancel = _cancelled(striker, target, own, ruleset, ledger, where)
    lines += _modifier_lines(
        striker, striker.combat_modifiers, ruleset.combat_modifiers, kind, theirs_cancel
    )
    lines += _entry_effects(striker, ATTACK, own, theirs_cancel, ruleset, ledger, where)
    lines += _entry_effects(target, ENEMY_ATTACK, theirs, own_cancel, ruleset, ledger, their_where)
    cards = _clamp(lines, striker.name, ruleset.exchange.minimum_cards)
    purpose = "close combat" if kind == CLOSE_COMBAT else "attack"
    return Pile(striker.name, purpose, cards, tuple(lines))


def _close_combat_cards(striker: Fighter) -> list[Line]:
    """The rules' card in close combat, and the best close-combat bonus of its weapons."""
    lines = [Line(striker.name, "Rules", "1 card in close combat", 1)]
    if striker.close_combat:
        best = max((e for e in striker.gear if e.kind == "weapon"), key=lambda e: e.close_combat)
        lines.append(Line(striker.name, best.name, "close-combat bonus", best.close_combat))
    return lines


def _weapon_cards(
    striker: Fighter, own: Context, ruleset: Ruleset, ledger: Ledger | None
) -> list[Line]:
    """A shot's cards from its weapon: the fire power at the band (in a reaction, no more
    than the reaction's fire power allows) and the weapon's bonus. CombatError when it has
    no weapon, or its weapon cannot fire at that band."""
    weapon = striker.weapon
    if weapon is None:
        raise CombatError(f"{striker.name} has no weapon to shoot with")
    band = own.band
    power = weapon.power_at(band)
    if power <= 0:
        raise CombatError(f"The {weapon.name} cannot fire at {_band_names([band], ruleset)} range")
    text = f"fire power {power} at {_band_name(band, ruleset)} range"
    if own.reacting:
        cap, source = reaction_fire_power(striker, own, ruleset, ledger)
        if power > cap:
            text, power = f"{text}, limited to {cap} in a reaction ({source})", cap
    lines = [Line(striker.name, weapon.name, text, power)]
    if weapon.bonus:
        lines.append(Line(striker.name, weapon.name, "weapon bonus", weapon.bonus))
    return lines


def defense_pile(
    defender: Fighter,
    striker: Fighter,
    band: str,
    ruleset: Ruleset,
    defender_reacting: bool = False,
    striker_reacting: bool = False,
    ledger: Ledger | None = None,
) -> Pile:
    """The cards ``defender`` draws against ``striker``'s shot: 1 + its Trooper Defense
    Modifier (armor, less the weapon's armor piercing, and its defense effects) + the
    defense modifiers it claims."""
    own = Context(
        SHOOTING,
        band,
        DEFENDING,
        defender_reacting,
        defender.combat_modifiers + defender.defense_modifiers,
        striker.combat_modifiers + striker.defense_modifiers,
    )
    theirs = Context(SHOOTING, band, ATTACKING, striker_reacting, own.enemy, own.own)
    where = _where(SHOOTING, band, "its defense") if ledger is not None else ""
    # The striker's attacking cancels act on the defender's modifiers and entries (the
    # defender's own cancels act on the attack pile: attack_pile).
    theirs_cancel = _cancelled(
        striker, defender, theirs, ruleset, ledger, _where(SHOOTING, band, "its attack")
    )
    weapon = striker.weapon
    piercing = weapon.armor_piercing if weapon is not None else 0
    by_armor = ruleset.exchange.armor_piercing == AP_ARMOR
    # The Trooper Defense Modifier: armor and defense effects, never below 0 ...
    modifier: list[Line] = []
    if defender.armor:
        modifier.append(Line(defender.name, "Armor", f"armor {defender.armor}", defender.armor))
        if by_armor and piercing:
            modifier.append(_pierced(striker, piercing, "armor", defender.armor))
    modifier += _entry_effects(defender, DEFENSE, own, theirs_cancel, ruleset, ledger, where)
    total = sum(line.cards for line in modifier)
    if total < 0:
        modifier.append(Line(defender.name, "Rules", "defense never below 0", -total))
    # ... then the situation it claims.
    modifier += _modifier_lines(
        defender, defender.defense_modifiers, ruleset.defense_modifiers, SHOOTING, theirs_cancel
    )
    total = sum(line.cards for line in modifier)
    if not by_armor and piercing and total > 0:
        modifier.append(_pierced(striker, piercing, "defense", total))
    lines = [Line(defender.name, "Rules", "1 card to defend", 1), *modifier]
    return Pile(defender.name, "defense", sum(line.cards for line in lines), tuple(lines))


def _pierced(striker: Fighter, piercing: int, what: str, cards: int) -> Line:
    """What the striker's armor piercing takes off ``cards`` of the defense: of its armor
    or of the whole of it, as the ruleset chooses (``exchange.armor_piercing``)."""
    cut = min(piercing, cards)
    weapon_name = striker.weapon.name if striker.weapon else ""
    return Line(
        striker.name,
        weapon_name,
        f"armor piercing {piercing}: {what} {cards - cut}",
        -cut,
        choice="exchange.armor_piercing",
    )


def _where(kind: str, band: str, what: str) -> str:
    if kind == SHOOTING and band:
        return f"{what}, shooting at {band} range"
    return f"{what}, {EXCHANGE_NAMES[kind]}"


def wounds_of(fighter: Fighter, ledger: Ledger | None = None) -> int:
    """The fighter's wounds: its unit type's and its wounds effects'."""
    wounds = fighter.wounds
    for entry in fighter.gear:
        for index, effect in enumerate(entry.effects):
            if effect.change == WOUNDS:
                wounds += effect.amount
                if ledger is not None:
                    ledger.note(fighter.name, entry, index, "", "its wounds")
    return max(wounds, 0)


def movement_of(fighter: Fighter, base: int) -> int:
    return base + sum(
        effect.amount
        for entry in fighter.gear
        for effect in entry.effects
        if effect.change == MOVEMENT
    )


def cancelled_when_reacting(
    reactor: Fighter, enemy: Fighter, kind: str, band: str, ruleset: Ruleset
) -> dict[str, str]:
    """What the reactor's own cancels take away of its enemy's modifiers and entries when
    it reacts (Sixth Sense, the rear arc's): id -> by what."""
    context = Context(
        kind,
        band,
        DEFENDING,
        True,
        reactor.combat_modifiers + reactor.defense_modifiers,
        enemy.combat_modifiers + enemy.defense_modifiers,
    )
    return _cancelled(reactor, enemy, context, ruleset, None, "its reaction")


def reaction_refusal(
    reactor: Fighter,
    enemy: Fighter,
    kind: str,
    band: str,
    ruleset: Ruleset,
    ledger: Ledger | None = None,
) -> str:
    """Why ``reactor`` may not react to ``enemy`` ('' when it may): a NO_REACTION
    effect of its own that applies."""
    context = Context(
        kind,
        band,
        DEFENDING,
        True,
        reactor.combat_modifiers + reactor.defense_modifiers,
        enemy.combat_modifiers + enemy.defense_modifiers,
    )
    refusal = ""
    for entry in reactor.gear:
        for index, effect in enumerate(entry.effects):
            if effect.change != NO_REACTION:
                continue
            reason = why_not(effect, context, ruleset)
            if ledger is not None:
                ledger.note(reactor.name, entry, index, reason, "its reaction")
            if not reason and not refusal:
                refusal = (
                    f"{reactor.name} may not react: {entry.name} ({describe(effect, ruleset)})"
                )
    return refusal


# --- Words ---------------------------------------------------------------------------------


def _cards(amount: int) -> str:
    count = abs(amount)
    return f"{count} card{'s' if count != 1 else ''}"


def _when(effect: Effect, ruleset: Ruleset, shooting_verb: str = "shooting") -> str:
    """The conditions of an effect in words, to follow its change."""
    parts = []
    kinds = effect.exchanges or ()
    if effect.bands:
        parts.append(f"{shooting_verb} at {_band_names(effect.bands, ruleset)} range")
    elif kinds and set(kinds) != set(EXCHANGES):
        parts.append("in close combat" if kinds == (CLOSE_COMBAT,) else f"{shooting_verb}")
    if effect.reacting is True:
        parts.append("in a reaction")
    elif effect.reacting is False:
        parts.append("except in a reaction")
    if effect.own_situation:
        parts.append("with " + _and(_modifier_names(effect.own_situation, ruleset)))
    if effect.enemy_situation:
        parts.append("when its enemy has " + _and(_modifier_names(effect.enemy_situation, ruleset)))
    return (" " + ", ".join(parts)) if parts else ""


def describe(effect: Effect, ruleset: Ruleset) -> str:
    """One effect in words, from its data alone."""
    change = effect.change
    if change == ATTACK:
        sign = "+" if effect.amount > 0 else "-"
        when = _when(effect, ruleset, "when shooting")
        return f"{sign}{_cards(effect.amount)} to attack{when or ''}"
    if change == DEFENSE:
        sign = "+" if effect.amount > 0 else "-"
        return f"{sign}{_cards(effect.amount)} to defend against shooting{_when(effect, ruleset)}"
    if change == ENEMY_ATTACK:
        more = "more" if effect.amount > 0 else "less"
        when = _when(effect, ruleset, "shooting")
        attack = (
            f"an enemy{when.replace(' shooting', ' shooting at it', 1)}"
            if when.startswith(" shooting")
            else f"an enemy attacking it{when}"
        )
        return f"{attack} draws {_cards(effect.amount)} {more}"
    if change == REACTION_FIRE_POWER:
        return (
            f"fire power up to {effect.amount} when it shoots in reaction "
            f"(the rules allow {ruleset.exchange.reaction_fire_power}){_when(effect, ruleset)}"
        )
    if change == CANCELS:
        target = _cancel_name(effect.cancels, ruleset)
        when = _when(effect, ruleset, "when shooting")
        if effect.role == ATTACKING:
            return f"its enemy's {target} does not count against its attacks{when}"
        return f"an attacker's {target} does not count against it{when}"
    if change == NO_REACTION:
        return f"it may not react{_when(effect, ruleset)}"
    if change == WOUNDS:
        sign = "+" if effect.amount > 0 else "-"
        return f"{sign}{abs(effect.amount)} wound{'s' if abs(effect.amount) != 1 else ''}"
    if change == MOVEMENT:
        sign = "+" if effect.amount > 0 else "-"
        count = abs(effect.amount)
        return f"{sign}{count} hex{'es' if count != 1 else ''} of movement"
    if change == REACTS_UNSEEN:
        count = effect.amount
        return (
            f"it may react to an enemy activating within {count} hex{'es' if count != 1 else ''}"
            " without line of fire"
        )
    assert change == OUTSIDE
    return f"its effect is on {effect.outside}"


def _cancel_name(cancels: str, ruleset: Ruleset) -> str:
    modifiers = {**ruleset.defense_modifiers, **ruleset.combat_modifiers}
    if cancels in modifiers:
        return modifiers[cancels].name
    entry = ruleset.entry(cancels)
    return entry.name if entry else cancels


def describe_entry(entry: CatalogueEntry, ruleset: Ruleset) -> str:
    """Everything an entry does to an exchange, in words: its effects and, for a weapon,
    its burst and armor piercing. '' when it has nothing to say."""
    parts = [
        describe(effect, ruleset) + ("" if effect.in_exchange else f" ({NOT_IN_ODDS})")
        for effect in entry.effects
    ]
    if entry.kind == "weapon":
        if entry.burst > 1:
            parts.insert(0, f"B {entry.burst}: up to {entry.burst} shots at one target")
        if entry.armor_piercing:
            parts.insert(0, describe_piercing(entry.armor_piercing, ruleset))
    return "; ".join(parts)


def describe_piercing(piercing: int, ruleset: Ruleset) -> str:
    what = "for its armor" if ruleset.exchange.armor_piercing == AP_ARMOR else "to defend"
    return f"AP {piercing}: the target draws up to {_cards(piercing)} fewer {what}"
