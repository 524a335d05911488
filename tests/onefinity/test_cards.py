"""Exact card odds, checked against hand-computed values and a Monte Carlo simulation."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from onefinity.rules import CardOddsError, current_ruleset, exchange_odds
from onefinity.rules.cards import best_card_distribution

CARDS = current_ruleset().cards


def test_one_card_each_is_an_even_exchange():
    odds = exchange_odds(1, 1, CARDS)
    assert odds.attacker_wins == odds.defender_wins == Fraction(1, 2)
    # The same card from each deck (52 ways) or joker against joker (2 x 2) is re-drawn.
    assert odds.redraw == Fraction(52 + 4, 54 * 54)
    assert odds.both_fail == 0


def test_the_ties_fail_variant_counts_equal_values_as_failures():
    odds = exchange_odds(1, 1, CARDS, ties_fail=True)
    assert odds.both_fail == Fraction(13 * 4 * 4 + 2 * 2, 54 * 54)
    assert odds.attacker_wins == odds.defender_wins == (1 - odds.both_fail) / 2
    assert odds.redraw == 0


def test_drawing_the_whole_deck_always_wins():
    odds = exchange_odds(54, 1, CARDS)
    assert odds.attacker_wins == 1 and odds.defender_wins == 0


def test_the_best_of_two_cards_is_a_joker_with_the_right_chance():
    distribution = best_card_distribution(2, [1] * 52 + [2])
    assert sum(distribution) == 1
    # 1 - C(52, 2) / C(54, 2)
    assert distribution[-1] == 1 - Fraction(52 * 51, 54 * 53)


def test_the_figures_add_up_and_swap_with_the_sides():
    for attacker, defender in [(1, 2), (3, 2), (5, 1), (2, 7)]:
        odds = exchange_odds(attacker, defender, CARDS)
        assert odds.attacker_wins + odds.defender_wins == 1
        swapped = exchange_odds(defender, attacker, CARDS)
        assert swapped.attacker_wins == odds.defender_wins


def test_more_cards_never_lower_the_chance_to_win():
    chances = [exchange_odds(n, 2, CARDS).attacker_wins for n in range(1, 12)]
    assert chances == sorted(chances)


@pytest.mark.parametrize(("attacker", "defender"), [(0, 1), (1, 0), (55, 1), (1, -3)])
def test_impossible_draws_are_refused_clearly(attacker, defender):
    with pytest.raises(CardOddsError, match="from 1 to 54 cards"):
        exchange_odds(attacker, defender, CARDS)


def _simulate(
    attacker: int, defender: int, ties_fail: bool, trials: int, seed: int
) -> tuple[float, float, float]:
    """Draw real decks: (value 1..13, suit rank 0..3) and jokers; re-draw ties unless ties_fail."""
    rng = random.Random(seed)
    deck = [(value, suit) for value in range(1, 14) for suit in range(4)] + [(14, -1), (14, -1)]

    def rank(card):
        value, suit = card
        if value == 14:
            return (14, 0)  # jokers are equal to each other
        return (value, 0) if ties_fail else (value, 3 - suit)

    wins = losses = ties = 0
    done = 0
    while done < trials:
        a = max(map(rank, rng.sample(deck, attacker)))
        d = max(map(rank, rng.sample(deck, defender)))
        if a == d and not ties_fail:
            continue  # re-draw
        done += 1
        if a > d:
            wins += 1
        elif a < d:
            losses += 1
        else:
            ties += 1
    return wins / trials, losses / trials, ties / trials


@pytest.mark.parametrize(
    ("attacker", "defender", "ties_fail"), [(3, 2, False), (1, 4, False), (2, 2, True)]
)
def test_monte_carlo_agrees_with_the_exact_figures(attacker, defender, ties_fail):
    trials = 40_000
    wins, losses, ties = _simulate(
        attacker, defender, ties_fail, trials, seed=attacker * 100 + defender
    )
    odds = exchange_odds(attacker, defender, CARDS, ties_fail=ties_fail)
    tolerance = 4 * (0.25 / trials) ** 0.5  # four standard errors at worst
    assert abs(wins - float(odds.attacker_wins)) < tolerance
    assert abs(losses - float(odds.defender_wins)) < tolerance
    assert abs(ties - float(odds.both_fail)) < tolerance


@pytest.mark.parametrize(("attacker", "defender"), [(53, 53), (53, 54), (54, 53), (54, 54)])
def test_card_odds_refuses_a_whole_deck_against_a_whole_deck(attacker, defender):
    # Both sides always hold a joker, and joker against joker is re-drawn forever.
    with pytest.raises(CardOddsError, match="joker against joker is re-drawn") as refused:
        exchange_odds(attacker, defender, CARDS)
    assert "\n" not in str(refused.value)


def test_a_whole_deck_against_one_card_short_of_it_is_still_answered():
    # 52 of 54 cards miss both jokers in 1 draw of C(54, 2) = 1431: then the joker wins.
    odds = exchange_odds(54, 52, CARDS)
    assert odds.attacker_wins == 1 and odds.redraw == Fraction(1430, 1431)


def test_the_ties_fail_variant_answers_a_whole_deck_against_a_whole_deck_as_both_failing():
    odds = exchange_odds(54, 54, CARDS, ties_fail=True)
    assert odds.both_fail == 1 and odds.attacker_wins == odds.defender_wins == 0


@pytest.mark.parametrize("ties_fail", [False, True])
def test_card_odds_answers_or_refuses_every_pair_of_draws_cleanly(ties_fail):
    deck = CARDS.deck_size
    for attacker in range(1, deck + 1):
        for defender in range(1, deck + 1):
            try:
                odds = exchange_odds(attacker, defender, CARDS, ties_fail=ties_fail)
            except CardOddsError:
                assert not ties_fail and min(attacker, defender) > deck - CARDS.jokers
                continue
            assert odds.attacker_wins + odds.defender_wins + odds.both_fail == 1
            assert all(0 <= p <= 1 for p in (odds.attacker_wins, odds.defender_wins, odds.redraw))
            assert odds.redraw < 1
