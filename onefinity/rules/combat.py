"""The whole exchange between two troopers, exact: who draws what, and how it ends.

Shooting (combat seed 001): the attacker draws its Trooper Combat Modifier, the target
1 + its Trooper Defense Modifier; highest wins. With a reaction the target shoots back at
the same time, its fire power limited (``[exchange] reaction_fire_power``, unless an
effect raises it), and each side draws an attack pile and a defense pile from its own
deck; both shots resolve at once, so both may hit. A weapon with a burst (B) shoots again
at the same target while neither side is down (the target reacts only once). Close
combat: both draw 1 + their close-combat modifier, and the loser loses a wound, killed
when it has none left (no downed state in close combat); a reaction's shot comes first,
and ends the action if it downs the attacker.

``plan_exchange`` builds every pile (onefinity.rules.effects counts the cards and says
why); ``resolve`` gives the exact chance of each outcome, as fractions, from the card
counts of onefinity.rules.cards. What the rules leave open is ruleset data, marked
provisional there (ties within a reaction, what a burst does once the target is downed,
what armor piercing lowers, wounds a hit costs).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from onefinity.rules.cards import (
    LOSS,
    TIE,
    WIN,
    CardOddsError,
    ExchangeOdds,
    comparison_counts,
    exchange_odds,
    reaction_counts,
)
from onefinity.rules.effects import (
    CombatError,
    Context,
    EffectUse,
    Fighter,
    Ledger,
    Pile,
    attack_pile,
    cancelled_when_reacting,
    defense_pile,
    reaction_refusal,
    wounds_of,
)
from onefinity.rules.reactions import Watch, may_react, unseen_reach
from onefinity.rules.ruleset import (
    ATTACKING,
    CLOSE_COMBAT,
    DEFENDING,
    EXCHANGE_NAMES,
    EXCHANGES,
    REDRAW_COMPARISON,
    SHOOTING,
    UNTIL_KILLED,
    Modifier,
    Ruleset,
)

__all__ = [
    "CLOSE_COMBAT",
    "EXCHANGES",
    "EXCHANGE_NAMES",
    "SHOOTING",
    "CombatError",
    "ExchangeResult",
    "Fate",
    "Plan",
    "Situation",
    "plan_exchange",
    "plan_from_cards",
    "resolve",
]


@dataclass(frozen=True, slots=True)
class Situation:
    mode: str = SHOOTING
    band: str = "short"
    # The target reacts with fire: at once when shooting, first in close combat.
    reaction: bool = False


Matchup = tuple[Pile, Pile]  # an attack pile, and the pile it must beat


@dataclass(frozen=True, slots=True)
class Plan:
    """Every pile of an exchange, and what the exchange made of each effect."""

    attacker: Fighter
    target: Fighter
    situation: Situation
    # The attacker's shot against the target's defense (shooting).
    shot: Matchup | None
    # The target's reaction against the attacker's defense.
    reaction: Matchup | None
    # The attacker's close-combat pile against the target's.
    melee: Matchup | None
    # The attacker's following shots at a target downed by an earlier one (when the
    # ruleset's follow_up goes on until it is killed).
    follow_up: Matchup | None
    burst: int
    attacker_wounds: int
    target_wounds: int
    target_downed: bool
    effects: tuple[EffectUse, ...]

    @property
    def matchups(self) -> list[tuple[str, Matchup]]:
        """The comparisons in the order they are drawn, named."""
        named: list[tuple[str, Matchup | None]] = []
        if self.situation.mode == CLOSE_COMBAT:
            named += [("The target's reaction", self.reaction), ("Close combat", self.melee)]
        else:
            shots = "The attacker's shot" if self.burst == 1 else "Each of the attacker's shots"
            named += [(shots, self.shot), ("The target's reaction", self.reaction)]
            named.append(("A following shot at the downed target", self.follow_up))
        return [(name, matchup) for name, matchup in named if matchup is not None]


def _check_modifiers(
    chosen: tuple[str, ...],
    known: Mapping[str, Modifier],
    kind: str,
    mode: str,
    side: str,
    counts: bool,
    why_not_counted: str,
) -> None:
    """The chosen modifiers of one side and kind; one that does not count in this
    exchange, or is chosen twice, is refused rather than silently changing the answer."""
    for modifier_id in chosen:
        modifier = known.get(modifier_id)
        if modifier is None:
            raise CombatError(f"{modifier_id!r} is not a {kind} modifier")
        if chosen.count(modifier_id) > 1:
            raise CombatError(f"{modifier.name} is chosen more than once; it counts once")
        if not modifier.applies_to(mode):
            raise CombatError(f"{modifier.name} does not apply in {EXCHANGE_NAMES[mode]}")
        if side not in modifier.sides:
            who = "attacker" if side == "reactive" else "target"
            raise CombatError(
                f"{modifier.name} is the {who}'s to claim: "
                f"the {'target' if side == 'reactive' else 'attacker'} cannot have it"
            )
        if not counts:
            raise CombatError(f"{modifier.name} ({why_not_counted})")


def _check_sight(
    attacker: Fighter, target: Fighter, mode: str, band: str, ruleset: Ruleset
) -> None:
    """CombatError when the target may not react because it does not see its attacker (a
    modifier that says so, the rear arc's, which its gear does not cancel: Sixth Sense),
    unless its gear lets it react unseen at the range band's nearest hexes
    (onefinity.rules.reactions: the game page asks the same)."""
    cancelled = cancelled_when_reacting(target, attacker, mode, band, ruleset)
    unseen = [
        ruleset.combat_modifiers[m]
        for m in attacker.combat_modifiers
        if ruleset.combat_modifiers[m].out_of_sight and m not in cancelled
    ]
    if not unseen:
        return
    nearest = next((b.min for b in ruleset.range_bands if b.id == band), None)
    watch = Watch(
        state_reacts=True,
        sees=False,
        in_rear_arc=True,
        distance=nearest,
        unseen_reach=unseen_reach(target.gear),
    )
    if may_react(watch):
        return
    raise CombatError(
        f"{target.name} cannot react: it does not see the attacker ({unseen[0].name}; "
        '"RT cannot react as it does not see AT", seed 001). Untick one or the other, '
        "or give it something that reacts without line of fire (a Motion Sensor)"
    )


def plan_exchange(
    attacker: Fighter, target: Fighter, situation: Situation, ruleset: Ruleset
) -> Plan:
    """Every pile of the exchange; CombatError, saying what to change, when the exchange
    cannot happen as asked."""
    planning = _Planning(attacker, target, situation, ruleset)
    planning.check_asked()
    downed = [
        ruleset.combat_modifiers[m]
        for m in attacker.combat_modifiers
        if ruleset.combat_modifiers[m].target_downed
    ]
    target_downed = bool(downed)
    shot = reaction = melee = follow_up = None
    if situation.reaction:
        reaction = planning.reaction(downed)
    if situation.mode == SHOOTING:
        shot, follow_up, burst = planning.shooting(target_downed)
    else:
        melee, burst = planning.close_combat(), 1
    ledger = planning.ledger
    attacker_wounds = wounds_of(attacker, ledger)
    target_wounds = wounds_of(target, ledger)
    planning.note_the_rest()
    return Plan(
        attacker,
        target,
        situation,
        shot,
        reaction,
        melee,
        follow_up,
        burst,
        attacker_wounds,
        0 if target_downed else target_wounds,
        target_downed,
        ledger.ordered(),
    )


@dataclass(slots=True)
class _Planning:
    """One exchange being planned: its two sides and what was asked, and the ledger that
    each pile notes its effects in, in the order they are drawn."""

    attacker: Fighter
    target: Fighter
    situation: Situation
    ruleset: Ruleset
    ledger: Ledger = field(default_factory=Ledger)

    @property
    def target_attacks(self) -> bool:
        """The target attacks too: in close combat, or with a reaction."""
        return self.situation.mode == CLOSE_COMBAT or self.situation.reaction

    def check_asked(self) -> None:
        """CombatError when the exchange asked names no kind of exchange or range band, or
        a side claims a modifier that does not count in it."""
        attacker, target, ruleset = self.attacker, self.target, self.ruleset
        mode, band, reaction = self.situation.mode, self.situation.band, self.situation.reaction
        if mode not in EXCHANGES:
            raise CombatError(f"{mode!r} is not a kind of exchange")
        if (mode == SHOOTING or reaction) and band not in {b.id for b in ruleset.range_bands}:
            raise CombatError(f"{band!r} is not a range band")
        combat, defense = ruleset.combat_modifiers, ruleset.defense_modifiers
        _check_modifiers(attacker.combat_modifiers, combat, "combat", mode, "active", True, "")
        _check_modifiers(target.defense_modifiers, defense, "defense", mode, "reactive", True, "")
        _check_modifiers(
            target.combat_modifiers,
            combat,
            "combat",
            mode,
            "reactive",
            self.target_attacks,
            "the target's: it counts only when the target attacks, in close combat or a reaction",
        )
        _check_modifiers(
            attacker.defense_modifiers,
            defense,
            "defense",
            SHOOTING if reaction else mode,
            "active",
            reaction,
            "the attacker's: it counts only when the target reacts with fire",
        )

    def reaction(self, downed: list[Modifier]) -> Matchup:
        """The target's shot back and the attacker's defense against it; CombatError when
        the target may not react: it is downed (``downed``: the attacker's modifiers that
        say so), its own gear forbids it, it does not see the attacker, or its weapon cannot
        fire at the band."""
        attacker, target, ruleset, ledger = self.attacker, self.target, self.ruleset, self.ledger
        mode, band = self.situation.mode, self.situation.band
        if downed:
            raise CombatError(
                f"A downed trooper cannot react ({downed[0].name}): untick one or the other"
            )
        refusal = reaction_refusal(target, attacker, mode, band, ruleset, ledger)
        if refusal:
            raise CombatError(refusal)
        _check_sight(attacker, target, mode, band, ruleset)
        if target.weapon is None or target.weapon.power_at(band) <= 0:
            weapon = target.weapon.name if target.weapon else "no weapon"
            raise CombatError(
                f"The target's {weapon} cannot fire at {band} range, so it cannot react with fire"
            )
        return (
            attack_pile(target, attacker, SHOOTING, band, ruleset, True, False, ledger),
            defense_pile(attacker, target, band, ruleset, False, True, ledger),
        )

    def shooting(self, target_downed: bool) -> tuple[Matchup, Matchup | None, int]:
        """The attacker's shot against the target's defense; the following shots at a
        downed target, when its burst goes on until the target is killed; its burst."""
        attacker, target, ruleset, ledger = self.attacker, self.target, self.ruleset, self.ledger
        band, reaction = self.situation.band, self.situation.reaction
        shot = (
            attack_pile(attacker, target, SHOOTING, band, ruleset, False, reaction, ledger),
            defense_pile(target, attacker, band, ruleset, reaction, False, ledger),
        )
        burst = attacker.weapon.burst if attacker.weapon else 1
        follow = ruleset.exchange.follow_up == UNTIL_KILLED and not target_downed and burst > 1
        marker = next((m for m in ruleset.combat_modifiers.values() if m.target_downed), None)
        follow_up = None
        if follow and marker is not None and marker.applies_to(SHOOTING):
            at_downed = attacker.with_situation(
                (*attacker.combat_modifiers, marker.id), attacker.defense_modifiers
            )
            follow_up = (
                attack_pile(at_downed, target, SHOOTING, band, ruleset),
                defense_pile(target, at_downed, band, ruleset),
            )
        return shot, follow_up, burst

    def close_combat(self) -> Matchup:
        """The attacker's close-combat pile against the target's."""
        attacker, target, ruleset, ledger = self.attacker, self.target, self.ruleset, self.ledger
        return (
            attack_pile(attacker, target, CLOSE_COMBAT, "", ruleset, False, False, ledger),
            attack_pile(target, attacker, CLOSE_COMBAT, "", ruleset, False, False, ledger),
        )

    def note_the_rest(self) -> None:
        """What no pile considered: an effect for a role its side does not play here, or
        one outside the odds. The attacker is attacked only by a reaction or in close
        combat; the target attacks only then."""
        mode = self.situation.mode
        shooting_band = self.situation.band if mode == SHOOTING else ""
        both = (ATTACKING, DEFENDING)
        target_attacks = self.target_attacks
        for side, enemy, plays in (
            (self.attacker, self.target, both if target_attacks else (ATTACKING,)),
            (self.target, self.attacker, both if target_attacks else (DEFENDING,)),
        ):
            own = side.combat_modifiers + side.defense_modifiers
            against = enemy.combat_modifiers + enemy.defense_modifiers
            context = Context(mode, shooting_band, ATTACKING, False, own, against)
            self.ledger.note_all(side, self.ruleset, context, plays)


def plan_from_cards(
    situation: Situation,
    attack: int,
    against: int,
    ruleset: Ruleset,
    reaction: tuple[int, int] | None = None,
    burst: int = 1,
    attacker_wounds: int = 1,
    target_wounds: int = 1,
) -> Plan:
    """An exchange given by its card counts alone (the odds calculator, ``card_odds``):
    ``attack`` against ``against`` (shooting: the target's defense; close combat: the
    target's own pile), ``reaction`` the target's attack and the attacker's defense.
    CombatError for counts no exchange can have."""
    deck = ruleset.cards.deck_size
    counts = [attack, against, *(reaction or ())]
    if any(isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= deck for n in counts):
        raise CombatError(f"each pile holds from 1 to {deck} cards")
    if not 1 <= burst <= MAX_BURST:
        raise CombatError(f"a burst is from 1 to {MAX_BURST} shots")
    if not (1 <= attacker_wounds <= MAX_WOUNDS and 1 <= target_wounds <= MAX_WOUNDS):
        raise CombatError(f"a trooper has from 1 to {MAX_WOUNDS} wounds")
    if situation.mode not in EXCHANGES:
        raise CombatError(f"{situation.mode!r} is not a kind of exchange")
    attacker = Fighter("Attacker", 0, attacker_wounds, 0, ())
    target = Fighter("Target", 0, target_wounds, 0, ())

    def pile(side: str, purpose: str, cards: int) -> Pile:
        return Pile(side, purpose, cards, ())

    shooting = situation.mode == SHOOTING
    first = (
        pile("Attacker", "attack" if shooting else "close combat", attack),
        pile("Target", "defense" if shooting else "close combat", against),
    )
    back = None
    if reaction is not None:
        back = (pile("Target", "attack", reaction[0]), pile("Attacker", "defense", reaction[1]))
    return Plan(
        attacker,
        target,
        Situation(situation.mode, situation.band, reaction is not None),
        first if shooting else None,
        back,
        None if shooting else first,
        None,
        burst if shooting else 1,
        attacker_wounds,
        target_wounds,
        False,
        (),
    )


# Bounds of an exchange given by counts: far above any trooper's.
MAX_BURST = 6
MAX_WOUNDS = 6


# --- Resolution ------------------------------------------------------------------------------

HIT, MISS = True, False


@dataclass(frozen=True, slots=True)
class Fate:
    """How one side ends the exchange."""

    unhurt: Fraction  # active, no wound lost (or, having started downed, not hit)
    wounded: Fraction  # active, a wound lost
    downed: Fraction
    killed: Fraction

    def as_dict(self) -> dict[str, Any]:
        return _fractions(
            {
                "unhurt": self.unhurt,
                "wounded": self.wounded,
                "downed": self.downed,
                "killed": self.killed,
            }
        )


@dataclass(frozen=True, slots=True)
class ExchangeResult:
    plan: Plan
    ties_fail: bool
    # Over the whole action (every shot of a burst): who lost at least one wound.
    attacker_hits: Fraction  # the target is hit, the attacker is not
    target_hits: Fraction  # the attacker is hit, the target is not
    both_hit: Fraction
    neither_hits: Fraction
    target: Fate
    attacker: Fate
    # Each comparison on its own, as exchange_odds gives it (named as Plan.matchups).
    comparisons: tuple[tuple[str, ExchangeOdds], ...] = field(default=())

    def as_dict(self) -> dict[str, Any]:
        plan = self.plan
        return {
            "mode": plan.situation.mode,
            "band": plan.situation.band if _band_counts(plan) else None,
            "reaction": plan.situation.reaction,
            "ties": "fail" if self.ties_fail else "redraw",
            "burst": plan.burst,
            "attacker": _side_dict(plan.attacker, plan.attacker_wounds),
            "target": _side_dict(plan.target, plan.target_wounds) | {"downed": plan.target_downed},
            "comparisons": [
                {
                    "name": name,
                    "attack": _pile_dict(matchup[0]),
                    "against": _pile_dict(matchup[1]),
                    "attack_wins": str(odds.attacker_wins),
                    "against_wins": str(odds.defender_wins),
                    "both_fail": str(odds.both_fail),
                }
                for (name, odds), (_, matchup) in zip(self.comparisons, plan.matchups, strict=True)
            ],
            "outcome": _fractions(
                {
                    "attacker_hits": self.attacker_hits,
                    "target_hits": self.target_hits,
                    "both_hit": self.both_hit,
                    "neither_hits": self.neither_hits,
                }
            ),
            "target_ends": self.target.as_dict(),
            "attacker_ends": self.attacker.as_dict(),
            "effects": [
                {
                    "side": use.side,
                    "entry": use.entry.id,
                    "name": use.entry.name,
                    "effect": use.index,
                    "applied": use.applied,
                    "why": use.reason,
                }
                for use in plan.effects
            ],
        }


def _band_counts(plan: Plan) -> bool:
    return plan.situation.mode == SHOOTING or plan.situation.reaction


def _fractions(values: Mapping[str, Fraction]) -> dict[str, Any]:
    """Exact values as text ("3/8"), with floats beside them for quick reading."""
    return {name: {"exact": str(value), "float": float(value)} for name, value in values.items()}


def _pile_dict(pile: Pile) -> dict[str, Any]:
    return {
        "side": pile.side,
        "purpose": pile.purpose,
        "cards": pile.cards,
        "lines": [
            {"source": line.source, "text": line.text, "cards": line.cards, "applied": line.applied}
            for line in pile.lines
        ],
    }


def _side_dict(fighter: Fighter, wounds: int) -> dict[str, Any]:
    return {
        "name": fighter.name,
        "weapon": fighter.weapon.id if fighter.weapon else None,
        "wounds": wounds,
        "combat_modifiers": list(fighter.combat_modifiers),
        "defense_modifiers": list(fighter.defense_modifiers),
    }


# A side's state: wounds left, killed, lost a wound.
State = tuple[int, bool, bool]
Both = tuple[State, State]  # (attacker, target)


def _single(matchup: Matchup, ruleset: Ruleset, ties_fail: bool) -> tuple[Fraction, ...]:
    """(the attack wins, it loses, neither: a tie that fails both)."""
    counts = comparison_counts(matchup[0].cards, matchup[1].cards, ruleset.cards, ties_fail)
    if ties_fail:
        return tuple(Fraction(n, counts.total) for n in (counts.wins, counts.losses, counts.ties))
    decided = counts.wins + counts.losses
    if decided == 0:
        # Raised by exchange_odds with the reason in full.
        exchange_odds(matchup[0].cards, matchup[1].cards, ruleset.cards)
    return (Fraction(counts.wins, decided), Fraction(counts.losses, decided), Fraction(0))


def _reaction(
    shot: Matchup, reaction: Matchup, ruleset: Ruleset, ties_fail: bool
) -> dict[tuple[bool, bool], Fraction]:
    """The chance of each pair (the attacker's shot hits, the target's reaction hits)."""
    counts = reaction_counts(
        shot[0].cards, reaction[1].cards, reaction[0].cards, shot[1].cards, ruleset.cards, ties_fail
    )
    joint = counts.counts
    total = counts.total
    outcome = {WIN: HIT, LOSS: MISS}
    result: dict[tuple[bool, bool], Fraction] = defaultdict(Fraction)
    if ties_fail:
        for x in (WIN, LOSS, TIE):
            for y in (WIN, LOSS, TIE):
                result[(x == WIN, y == WIN)] += Fraction(joint[x][y], total)
        return result
    if ruleset.exchange.reaction_ties == REDRAW_COMPARISON:
        first = _single(shot, ruleset, False)
        second = _single(reaction, ruleset, False)
        again = {HIT: first[0], MISS: first[1]}, {HIT: second[0], MISS: second[1]}
        for x in (WIN, LOSS, TIE):
            for y in (WIN, LOSS, TIE):
                weight = Fraction(joint[x][y], total)
                xs = [(outcome[x], Fraction(1))] if x != TIE else list(again[0].items())
                ys = [(outcome[y], Fraction(1))] if y != TIE else list(again[1].items())
                for hit_x, p_x in xs:
                    for hit_y, p_y in ys:
                        result[(hit_x, hit_y)] += weight * p_x * p_y
        return result
    decided = sum(joint[x][y] for x in (WIN, LOSS) for y in (WIN, LOSS))
    if decided == 0:
        raise CardOddsError("this reaction ties every time and would be re-drawn forever")
    for x in (WIN, LOSS):
        for y in (WIN, LOSS):
            result[(outcome[x], outcome[y])] += Fraction(joint[x][y], decided)
    return result


def _hurt(state: State, per_hit: int, close_combat: bool) -> State:
    wounds = state[0] - per_hit
    killed = state[1] or (wounds <= 0 if close_combat else wounds < 0)
    return (wounds, killed, True)


def _standing(state: State) -> bool:
    return state[0] > 0 and not state[1]


def _fate(states: Mapping[State, Fraction]) -> Fate:
    unhurt = wounded = downed = killed = Fraction(0)
    for (wounds, dead, lost), chance in states.items():
        if dead:
            killed += chance
        elif wounds <= 0:
            downed += chance
        elif lost:
            wounded += chance
        else:
            unhurt += chance
    return Fate(unhurt, wounded, downed, killed)


Transitions = Mapping[tuple[bool, bool], Fraction]  # (target hit, attacker hit) -> chance


def resolve(plan: Plan, ruleset: Ruleset, ties_fail: bool | None = None) -> ExchangeResult:
    """The exact chance of every outcome of the planned exchange. CardOddsError when a
    pile cannot be drawn (more cards than a deck) or a comparison never ends."""
    variant = ruleset.cards.ties_fail if ties_fail is None else ties_fail
    comparisons = [
        (name, exchange_odds(m[0].cards, m[1].cards, ruleset.cards, ties_fail=variant))
        for name, m in plan.matchups
    ]
    states = _States(plan, ruleset.exchange.wounds_per_hit)
    if plan.situation.mode == CLOSE_COMBAT:
        _draw_close_combat(plan, ruleset, variant, states)
    else:
        _draw_shooting(plan, ruleset, variant, states)
    outcome, attacker, target = states.ends()
    return ExchangeResult(
        plan,
        variant,
        outcome[(True, False)],
        outcome[(False, True)],
        outcome[(True, True)],
        outcome[(False, False)],
        target,
        attacker,
        tuple(comparisons),
    )


class _States:
    """The chance of each state of both sides (``Both``), draw after draw: the exchange's
    one running state, from both sides unhurt to how the exchange ends."""

    __slots__ = ("per_hit", "states")

    def __init__(self, plan: Plan, per_hit: int) -> None:
        self.per_hit = per_hit
        start: Both = ((plan.attacker_wounds, False, False), (plan.target_wounds, False, False))
        self.states: dict[Both, Fraction] = {start: Fraction(1)}

    def draw(
        self, transitions: Callable[[State, State], Transitions | None], close_combat: bool
    ) -> None:
        """Draw once more from every state: ``transitions(attacker, target)`` gives the
        chances from that state, or None when nothing is drawn there."""
        per_hit = self.per_hit
        after: dict[Both, Fraction] = defaultdict(Fraction)
        for (mine, theirs), chance in self.states.items():
            chances = transitions(mine, theirs)
            if chances is None:
                after[(mine, theirs)] += chance
                continue
            for (target_hit, attacker_hit), p in chances.items():
                if p:
                    a = _hurt(mine, per_hit, close_combat) if attacker_hit else mine
                    t = _hurt(theirs, per_hit, close_combat) if target_hit else theirs
                    after[(a, t)] += chance * p
        self.states = dict(after)

    def ends(self) -> tuple[dict[tuple[bool, bool], Fraction], Fate, Fate]:
        """The chance of each (target hit, attacker hit) over the whole exchange, and how
        the attacker and the target end it."""
        outcome: dict[tuple[bool, bool], Fraction] = defaultdict(Fraction)
        attacker_states: dict[State, Fraction] = defaultdict(Fraction)
        target_states: dict[State, Fraction] = defaultdict(Fraction)
        for (mine, theirs), chance in self.states.items():
            outcome[(theirs[2], mine[2])] += chance
            attacker_states[mine] += chance
            target_states[theirs] += chance
        return outcome, _fate(attacker_states), _fate(target_states)


def _draw_close_combat(plan: Plan, ruleset: Ruleset, variant: bool, states: _States) -> None:
    """The target's reaction first, when it reacts; then close combat, unless the
    reaction downed the attacker (its action ends)."""
    if plan.reaction is not None:
        hit = _single(plan.reaction, ruleset, variant)[0]
        reacted = {(False, True): hit, (False, False): 1 - hit}
        states.draw(lambda mine, theirs: reacted, close_combat=False)
    assert plan.melee is not None
    win, loss, tie = _single(plan.melee, ruleset, variant)
    fought = {(True, False): win, (False, True): loss, (False, False): tie}
    states.draw(lambda mine, theirs: fought if _standing(mine) else None, close_combat=True)


def _draw_shooting(plan: Plan, ruleset: Ruleset, variant: bool, states: _States) -> None:
    """The first shot (with the target's reaction at once, when it reacts), then the
    burst's following shots."""
    assert plan.shot is not None
    if plan.reaction is not None:
        first = _reaction(plan.shot, plan.reaction, ruleset, variant)
        states.draw(lambda mine, theirs: first, close_combat=False)
    else:
        hit = _single(plan.shot, ruleset, variant)[0]
        shot = {(True, False): hit, (False, False): 1 - hit}
        states.draw(lambda mine, theirs: shot, close_combat=False)
    hit = _single(plan.shot, ruleset, variant)[0]
    again = {(True, False): hit, (False, False): 1 - hit}
    at_downed = again
    if plan.follow_up is not None:
        hit_downed = _single(plan.follow_up, ruleset, variant)[0]
        at_downed = {(True, False): hit_downed, (False, False): 1 - hit_downed}
    until_killed = ruleset.exchange.follow_up == UNTIL_KILLED

    def following(mine: State, theirs: State) -> Transitions | None:
        """A following shot of the burst: only while the attacker stands and the
        target is still its target (not killed; not downed by this burst unless the
        burst goes on until it is killed)."""
        if not _standing(mine) or theirs[1]:
            return None
        if theirs[0] > 0 or plan.target_downed:
            return again
        return at_downed if until_killed else None

    for _ in range(plan.burst - 1):
        states.draw(following, close_combat=False)
