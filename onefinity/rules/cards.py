"""Exact odds of a card exchange: one side draws N cards, the other M, each keeps its best.

Each player draws from their own fresh, full deck (no replacement within a draw).
Cards rank by value, then by suit order; jokers are criticals and beat every card.
Under the standard rules an exact tie (the same card from each deck, or a joker against
a joker) is re-drawn, so the figures are conditional on the exchange not being tied; when
both sides always hold a joker that re-draw never ends, and :class:`CardOddsError` says so.
Under the ties-fail variant suits never break ties and a tie fails both sides.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import comb
from operator import mul

from onefinity.rules.ruleset import CardRules

ASSUMPTION = "Assumes each player draws from a fresh, full, shuffled deck."


class CardOddsError(ValueError):
    pass


@dataclass(frozen=True, slots=True)
class ExchangeOdds:
    attacker_cards: int
    defender_cards: int
    ties_fail: bool
    attacker_wins: Fraction
    defender_wins: Fraction
    # Chance that the exchange ends tied and both fail (ties-fail variant only, else 0).
    both_fail: Fraction
    # Chance the standard rules re-draw an exchange (the figures above exclude it).
    redraw: Fraction

    def as_dict(self) -> dict[str, object]:
        return {
            "attacker_cards": self.attacker_cards,
            "defender_cards": self.defender_cards,
            "ties": "fail" if self.ties_fail else "suit-order",
            "attacker_wins": float(self.attacker_wins),
            "defender_wins": float(self.defender_wins),
            "both_fail": float(self.both_fail),
            "redraw_chance": float(self.redraw),
            "exact": {
                "attacker_wins": str(self.attacker_wins),
                "defender_wins": str(self.defender_wins),
                "both_fail": str(self.both_fail),
                "redraw_chance": str(self.redraw),
            },
            "assumption": ASSUMPTION,
        }


def rank_sizes(rules: CardRules, ties_fail: bool) -> list[int]:
    """How many cards of the deck share each rank, lowest rank first.

    With suit order every plain card is its own rank; under ties-fail the suits of a
    value share one. Jokers share the top rank either way.
    """
    suits = len(rules.suits)
    plain = [suits] * rules.values if ties_fail else [1] * (rules.values * suits)
    return plain + ([rules.jokers] if rules.jokers else [])


def _best_card_counts(cards: int, rank_sizes: list[int]) -> list[int]:
    """How many of the C(deck, cards) draws have their best card at each rank."""
    counts = []
    at_or_below = 0
    previous = 0
    for size in rank_sizes:
        at_or_below += size
        cumulative = comb(at_or_below, cards)
        counts.append(cumulative - previous)
        previous = cumulative
    return counts


def best_card_distribution(cards: int, rank_sizes: list[int]) -> list[Fraction]:
    """P(best card drawn has rank k) for k over ``rank_sizes``, drawing without replacement."""
    total = comb(sum(rank_sizes), cards)
    return [Fraction(count, total) for count in _best_card_counts(cards, rank_sizes)]


def exchange_odds(
    attacker_cards: int, defender_cards: int, rules: CardRules, ties_fail: bool | None = None
) -> ExchangeOdds:
    """Exact chances that the attacker's best card beats the defender's, and the reverse."""
    deck = rules.deck_size
    for side, cards in (("attacker", attacker_cards), ("defender", defender_cards)):
        if isinstance(cards, bool) or not isinstance(cards, int) or not 1 <= cards <= deck:
            raise CardOddsError(f"the {side} must draw from 1 to {deck} cards, not {cards!r}")
    variant = rules.ties_fail if ties_fail is None else ties_fail
    sizes = rank_sizes(rules, variant)
    # Whole numbers of draw pairs, made into fractions once: exact and fast.
    attacker = _best_card_counts(attacker_cards, sizes)
    defender = _best_card_counts(defender_cards, sizes)
    pairs = comb(deck, attacker_cards) * comb(deck, defender_cards)

    attacker_wins = 0
    tie = 0
    defender_below = 0
    for count_attacker, count_defender in zip(attacker, defender, strict=True):
        attacker_wins += count_attacker * defender_below
        tie += count_attacker * count_defender
        defender_below += count_defender
    defender_wins = pairs - attacker_wins - tie

    if variant:
        return ExchangeOdds(
            attacker_cards,
            defender_cards,
            True,
            Fraction(attacker_wins, pairs),
            Fraction(defender_wins, pairs),
            Fraction(tie, pairs),
            Fraction(0),
        )
    decided = pairs - tie
    if decided == 0:
        # Both sides always hold a card of the top rank (with jokers: a joker), and the
        # standard rules re-draw such a tie, so the exchange would never end.
        safe = deck - sizes[-1]
        best, tie_name = (
            ("a joker", "joker against joker")
            if rules.jokers
            else ("the best card", "the same card from both decks")
        )
        raise CardOddsError(
            f"{attacker_cards} cards against {defender_cards} can never be decided: "
            f"more than {safe} of {deck} cards always hold {best}, and {tie_name} is "
            f"re-drawn forever; one side must draw at most {safe} cards"
        )
    return ExchangeOdds(
        attacker_cards,
        defender_cards,
        False,
        Fraction(attacker_wins, decided),
        Fraction(defender_wins, decided),
        Fraction(0),
        Fraction(tie, pairs),
    )


# --- Comparisons, as whole numbers of draws -------------------------------------------------
# The whole exchange (onefinity.rules.combat) puts comparisons together; it needs the draws
# counted exactly, ties apart, so that each tie rule is applied on top.


@dataclass(frozen=True, slots=True)
class Counts:
    """One comparison of two piles: how many of ``total`` equally likely draws the first
    pile's best card beats the second's (``wins``), loses, or ties."""

    wins: int
    losses: int
    ties: int
    total: int


def _check_cards(side: str, cards: int, deck: int) -> None:
    if isinstance(cards, bool) or not isinstance(cards, int) or not 1 <= cards <= deck:
        raise CardOddsError(f"the {side} must draw from 1 to {deck} cards, not {cards!r}")


def comparison_counts(first: int, second: int, rules: CardRules, ties_fail: bool) -> Counts:
    """One pile of ``first`` cards against one of ``second``, each from its own fresh deck."""
    deck = rules.deck_size
    _check_cards("attacker", first, deck)
    _check_cards("defender", second, deck)
    sizes = rank_sizes(rules, ties_fail)
    one = _best_card_counts(first, sizes)
    other = _best_card_counts(second, sizes)
    wins = ties = below = 0
    for count_one, count_other in zip(one, other, strict=True):
        wins += count_one * below
        ties += count_one * count_other
        below += count_other
    total = comb(deck, first) * comb(deck, second)
    return Counts(wins, total - wins - ties, ties, total)


def _choose(n: int, k: int) -> int:
    return comb(n, k) if n >= 0 else 0


def pile_pair_counts(first: int, second: int, sizes: list[int]) -> list[list[int]]:
    """How many ordered draws of two piles from one deck (``first`` cards, then ``second``
    more) have their best cards at ranks (i, j): ``counts[i][j]``.

    Counted through the draws whose best cards are at most (i, j): the smaller pile's
    ranks hold the cards of one pile, the larger's the other's, so with c(i) cards at
    rank i or below there are C(c(i), first) * C(c(j) - first, second) of them when
    i <= j, and the mirror image otherwise; differences of those give each pair."""
    cumulative = []
    running = 0
    for size in sizes:
        running += size
        cumulative.append(running)
    # at_most[i][j], from four rows of binomials rather than two per cell.
    first_in = [_choose(c, first) for c in cumulative]
    second_after = [_choose(c - first, second) for c in cumulative]
    second_in = [_choose(c, second) for c in cumulative]
    first_after = [_choose(c - second, first) for c in cumulative]
    ranks = len(sizes)
    at_most = [
        [
            first_in[i] * second_after[j] if i <= j else second_in[j] * first_after[i]
            for j in range(ranks)
        ]
        for i in range(ranks)
    ]
    counts = []
    zero = [0] * ranks
    for i in range(ranks):
        row, before = at_most[i], at_most[i - 1] if i else zero
        counts.append(
            [row[j] - before[j] - (row[j - 1] - before[j - 1] if j else 0) for j in range(ranks)]
        )
    return counts


@dataclass(frozen=True, slots=True)
class ReactionCounts:
    """Two comparisons at once (reactive fire): the active side's attack against the
    reactive side's defense (the first outcome), and the reactive side's attack against
    the active side's defense (the second). ``counts[x][y]`` counts the draws with
    outcomes x and y, each WIN (that attack beats its defense), LOSS or TIE."""

    counts: tuple[tuple[int, int, int], ...]
    total: int


WIN, LOSS, TIE = 0, 1, 2


def reaction_counts(
    active_attack: int,
    active_defense: int,
    reactive_attack: int,
    reactive_defense: int,
    rules: CardRules,
    ties_fail: bool,
) -> ReactionCounts:
    """Each player draws an attack pile and a defense pile from their own deck (so the
    two piles of one player never share a card); both comparisons are counted together."""
    deck = rules.deck_size
    _check_two_piles("active trooper", active_attack, active_defense, deck)
    _check_two_piles("reactive trooper", reactive_attack, reactive_defense, deck)
    sizes = rank_sizes(rules, ties_fail)
    counts = _joint_outcomes(
        pile_pair_counts(active_attack, active_defense, sizes),
        pile_pair_counts(reactive_attack, reactive_defense, sizes),
    )
    total = (
        comb(deck, active_attack)
        * comb(deck - active_attack, active_defense)
        * comb(deck, reactive_attack)
        * comb(deck - reactive_attack, reactive_defense)
    )
    return ReactionCounts(tuple((a, b, c) for a, b, c in counts), total)


def _check_two_piles(side: str, attack: int, defense: int, deck: int) -> None:
    """One player's attack and defense piles, drawn from one deck: each a pile a deck
    holds, and both together too."""
    _check_cards(side, attack, deck)
    _check_cards(side, defense, deck)
    if attack + defense > deck:
        raise CardOddsError(
            f"the {side} would draw {attack + defense} cards for attack and defense: "
            f"more than a deck of {deck} holds"
        )


def _joint_outcomes(active: list[list[int]], reactive: list[list[int]]) -> list[list[int]]:
    """``counts[x][y]``: the draws in which the active attack has outcome x against the
    reactive defense and the reactive attack outcome y against the active defense, from
    each side's draws by (best attack rank, best defense rank) (``pile_pair_counts``)."""
    ranks = len(active)
    # below[k][l]: the reactive draws with attack rank k and defense rank below l.
    below = []
    for row in reactive:
        running, sums = 0, [0]
        for count in row:
            running += count
            sums.append(running)
        below.append(sums)
    counts = [[0, 0, 0] for _ in range(3)]
    for i in range(ranks):  # the active side's best attack card
        mine = active[i]  # its draws by best defense rank j
        # Its attack wins against a reactive defense ranked below i, ties at i, loses
        # above; for each, the reactive draws by their attack rank k ...
        by_attack = (
            (WIN, [sums[i] for sums in below]),
            (TIE, [row[i] for row in reactive]),
            (LOSS, [sums[ranks] - sums[i + 1] for sums in below]),
        )
        for x, column in by_attack:
            # ... then, against the active defense j: the reactive attack wins above j,
            # ties at j, loses below (sums over k, paired with the active draws by j).
            up_to = [0]
            for count in column:
                up_to.append(up_to[-1] + count)
            top = up_to[ranks]
            counts[x][WIN] += sum(map(mul, mine, [top - up_to[j + 1] for j in range(ranks)]))
            counts[x][TIE] += sum(map(mul, mine, column))
            counts[x][LOSS] += sum(map(mul, mine, up_to[:ranks]))
    return counts
