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


def _rank_sizes(rules: CardRules, ties_fail: bool) -> list[int]:
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
    sizes = _rank_sizes(rules, variant)
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
