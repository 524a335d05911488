"""A second, independent way to the odds of a whole exchange: every draw enumerated card by
card from a small deck, and the exchange played out as the rules say it, branch by branch.

It shares nothing with onefinity.rules.cards or onefinity.rules.combat but the pile sizes
it is given: the cards are real (value, suit) pairs and jokers, ranked as the rules rank
them; each player's piles are drawn from that player's own deck without replacement; a
re-draw is a fresh draw of the same piles. Only small decks are practical (a 9-card deck
enumerates a reaction of 4 cards against 5 in a second).
"""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from onefinity.rules.ruleset import CardRules, ExchangeRules

WIN, LOSS, TIE = "win", "loss", "tie"


@dataclass(frozen=True)
class Card:
    value: int  # 0 for a joker
    suit: int  # position in the suit order, 0 the highest; -1 for a joker


def deck(rules: CardRules) -> tuple[Card, ...]:
    plain = [Card(v, s) for v in range(1, rules.values + 1) for s in range(len(rules.suits))]
    return tuple(plain + [Card(0, -1)] * rules.jokers)


def strength(card: Card, rules: CardRules, ties_fail: bool) -> tuple[int, int]:
    """Higher is better. Jokers beat everything and equal each other; without the
    variant the suit order breaks equal values."""
    if card.value == 0:
        return (rules.values + 1, 0)
    return (card.value, 0) if ties_fail else (card.value, len(rules.suits) - card.suit)


def _compare(a: tuple[int, int], b: tuple[int, int]) -> str:
    return WIN if a > b else TIE if a == b else LOSS


@cache
def _piles(rules: CardRules, ties_fail: bool, sizes: tuple[int, ...]) -> Counter[tuple]:
    """Every way to draw piles of ``sizes`` one after the other from one deck (positions,
    so the two jokers are two cards), counted by the best strength of each pile."""
    cards = deck(rules)
    found: Counter[tuple] = Counter()

    def draw(left: tuple[int, ...], index: int, bests: tuple) -> None:
        if index == len(sizes):
            found[bests] += 1
            return
        for chosen in itertools.combinations(left, sizes[index]):
            rest = tuple(p for p in left if p not in chosen)
            best = max(strength(cards[p], rules, ties_fail) for p in chosen)
            draw(rest, index + 1, (*bests, best))

    draw(tuple(range(len(cards))), 0, ())
    return found


def comparison(attack: int, against: int, rules: CardRules, ties_fail: bool) -> dict[str, Fraction]:
    """One pile against another, each from its own deck: raw chances of win, loss, tie."""
    mine = _piles(rules, ties_fail, (attack,))
    theirs = _piles(rules, ties_fail, (against,))
    counts: Counter[str] = Counter()
    for (a,), n in mine.items():
        for (b,), m in theirs.items():
            counts[_compare(a, b)] += n * m
    total = sum(counts.values())
    return {k: Fraction(counts[k], total) for k in (WIN, LOSS, TIE)}


def settled(attack: int, against: int, rules: CardRules, ties_fail: bool) -> Fraction:
    """The chance the attack pile wins once ties are settled: fail both, or re-draw
    (fresh draws, again and again: the chance of a win among decided draws)."""
    odds = comparison(attack, against, rules, ties_fail)
    if ties_fail:
        return odds[WIN]
    return odds[WIN] / (odds[WIN] + odds[LOSS])


def reaction(
    active: tuple[int, int],
    reactive: tuple[int, int],
    rules: CardRules,
    ties_fail: bool,
    exchange: ExchangeRules,
) -> dict[tuple[bool, bool], Fraction]:
    """Reactive fire: each side draws (attack, defense) piles from its own deck. Returns the
    chance of (the active side's shot hits, the reactive side's shot hits)."""
    mine = _piles(rules, ties_fail, active)
    theirs = _piles(rules, ties_fail, reactive)
    raw: Counter[tuple[str, str]] = Counter()
    for (my_attack, my_defense), n in mine.items():
        for (their_attack, their_defense), m in theirs.items():
            raw[(_compare(my_attack, their_defense), _compare(their_attack, my_defense))] += n * m
    total = sum(raw.values())
    result: dict[tuple[bool, bool], Fraction] = defaultdict(Fraction)
    if ties_fail:
        for (x, y), n in raw.items():
            result[(x == WIN, y == WIN)] += Fraction(n, total)
        return result
    if exchange.reaction_ties == "redraw-exchange":
        decided = sum(n for (x, y), n in raw.items() if TIE not in (x, y))
        for (x, y), n in raw.items():
            if TIE not in (x, y):
                result[(x == WIN, y == WIN)] += Fraction(n, decided)
        return result
    # redraw-comparison: a tied comparison is drawn again on its own, from fresh decks.
    again_mine = settled(active[0], reactive[1], rules, False)
    again_theirs = settled(reactive[0], active[1], rules, False)
    for (x, y), n in raw.items():
        p = Fraction(n, total)
        xs = (
            [(x == WIN, Fraction(1))] if x != TIE else [(True, again_mine), (False, 1 - again_mine)]
        )
        ys = (
            [(y == WIN, Fraction(1))]
            if y != TIE
            else [(True, again_theirs), (False, 1 - again_theirs)]
        )
        for hit_x, px in xs:
            for hit_y, py in ys:
                result[(hit_x, hit_y)] += p * px * py
    return result


@dataclass(frozen=True)
class Trooper:
    wounds: int
    killed: bool = False
    hit: bool = False

    def shot(self, per_hit: int) -> Trooper:
        left = self.wounds - per_hit
        return Trooper(left, self.killed or left < 0, True)

    def struck(self, per_hit: int) -> Trooper:
        """Close combat: no downed state, a trooper with no wound left is killed."""
        left = self.wounds - per_hit
        return Trooper(left, self.killed or left <= 0, True)

    @property
    def standing(self) -> bool:
        return self.wounds > 0 and not self.killed

    @property
    def fate(self) -> str:
        if self.killed:
            return "killed"
        if self.wounds <= 0:
            return "downed"
        return "wounded" if self.hit else "unhurt"


@dataclass(frozen=True)
class Exchange:
    """Pile sizes and the rest of what the rules need to play an exchange out."""

    mode: str  # "shooting" or "close-combat"
    attacker_wounds: int
    target_wounds: int
    target_downed: bool = False
    # Shooting: the attacker's attack and the target's defense.
    shot: tuple[int, int] = (0, 0)
    burst: int = 1
    # With a reaction: the target's attack and the attacker's defense.
    reaction: tuple[int, int] | None = None
    # Close combat: the attacker's pile and the target's.
    melee: tuple[int, int] = (0, 0)
    # Following shots at a target downed by an earlier one (until-killed).
    follow_up: tuple[int, int] | None = None


def play(
    exchange: Exchange, rules: CardRules, ties_fail: bool, rules_of_exchange: ExchangeRules
) -> dict[tuple[Trooper, Trooper], Fraction]:
    """The exchange played out: every branch with its chance, by (attacker, target)."""
    per_hit = rules_of_exchange.wounds_per_hit
    start = (
        Trooper(exchange.attacker_wounds),
        Trooper(0 if exchange.target_downed else exchange.target_wounds),
    )
    branches: dict[tuple[Trooper, Trooper], Fraction] = {start: Fraction(1)}

    def branch(update) -> None:  # type: ignore[no-untyped-def]
        nonlocal branches
        after: dict[tuple[Trooper, Trooper], Fraction] = defaultdict(Fraction)
        for pair, chance in branches.items():
            for next_pair, p in update(*pair):
                after[next_pair] += chance * p
        branches = dict(after)

    if exchange.mode == "close-combat":
        if exchange.reaction is not None:
            hit = settled(*exchange.reaction, rules, ties_fail)
            branch(lambda a, t: [((a.shot(per_hit), t), hit), ((a, t), 1 - hit)])
        odds = comparison(*exchange.melee, rules, ties_fail)
        if ties_fail:
            win, loss, tie = odds[WIN], odds[LOSS], odds[TIE]
        else:
            win = odds[WIN] / (odds[WIN] + odds[LOSS])
            loss, tie = 1 - win, Fraction(0)

        def fight(a: Trooper, t: Trooper):  # type: ignore[no-untyped-def]
            if not a.standing:  # downed by the reaction: the action ends
                return [((a, t), Fraction(1))]
            return [((a, t.struck(per_hit)), win), ((a.struck(per_hit), t), loss), ((a, t), tie)]

        branch(fight)
        return branches
    if exchange.reaction is not None:
        both = reaction(
            (exchange.shot[0], exchange.reaction[1]),
            (exchange.reaction[0], exchange.shot[1]),
            rules,
            ties_fail,
            rules_of_exchange,
        )
        branch(
            lambda a, t: [
                ((a.shot(per_hit) if theirs else a, t.shot(per_hit) if mine else t), p)
                for (mine, theirs), p in both.items()
            ]
        )
    else:
        hit = settled(*exchange.shot, rules, ties_fail)
        branch(lambda a, t: [((a, t.shot(per_hit)), hit), ((a, t), 1 - hit)])
    again = settled(*exchange.shot, rules, ties_fail)
    at_downed = settled(*exchange.follow_up, rules, ties_fail) if exchange.follow_up else again
    go_on = rules_of_exchange.follow_up == "until-killed"

    def follow(a: Trooper, t: Trooper):  # type: ignore[no-untyped-def]
        # Another shot while the attacker stands and the target is still its target.
        if not a.standing or t.killed:
            return [((a, t), Fraction(1))]
        if t.wounds > 0 or exchange.target_downed:
            hit = again
        elif go_on:
            hit = at_downed
        else:
            return [((a, t), Fraction(1))]
        return [((a, t.shot(per_hit)), hit), ((a, t), 1 - hit)]

    for _ in range(exchange.burst - 1):
        branch(follow)
    return branches


def summary(branches: dict[tuple[Trooper, Trooper], Fraction]) -> dict[str, Fraction]:
    """The figures the engine reports, from the branches."""
    figures: dict[str, Fraction] = defaultdict(Fraction)
    for (attacker, target), chance in branches.items():
        figures[
            {(True, False): "attacker_hits", (False, True): "target_hits"}.get(
                (target.hit, attacker.hit), "both_hit" if target.hit else "neither_hits"
            )
        ] += chance
        figures[f"target_{target.fate}"] += chance
        figures[f"attacker_{attacker.fate}"] += chance
    return dict(figures)
