"""The whole exchange, exact: every catalogue entry's effect read from the data and checked
against piles worked out by hand and against an independent enumeration, card by card,
on a small deck; the rules' open questions (ties in a reaction, bursts at a downed target,
armor piercing) both ways; and the full deck's pair counts against sequential draws."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from onefinity.rules import current_ruleset
from onefinity.rules.cards import pile_pair_counts, rank_sizes, reaction_counts
from onefinity.rules.combat import Plan, Situation, plan_exchange, resolve
from onefinity.rules.effects import CombatError, Fighter, Pile, fighter
from onefinity.rules.ruleset import (
    AP_DEFENSE,
    CLOSE_COMBAT,
    REDRAW_EXCHANGE,
    SHOOTING,
    UNTIL_KILLED,
    CardRules,
    Ruleset,
)
from tests.conftest import examples
from tests.onefinity import exchange_reference as reference
from tests.onefinity.catalogue_scenarios import Scenario, Side, plain, scenarios

RULESET = current_ruleset()
# Nine cards (four values in two suits and a joker): small enough to enumerate a reaction.
SMALL = replace(
    RULESET,
    cards=CardRules(
        values=4, suits=("spades", "hearts"), jokers=1, ties_fail=False, special_action_success=3
    ),
)
SCENARIOS = scenarios(RULESET)


def _side(side: Side, name: str, ruleset: Ruleset = SMALL) -> Fighter:
    found = fighter(side.trooper, side.unit, ruleset, name, side.weapon or None)
    assert found is not None
    return found.with_situation(side.combat, side.defense)


def _engine_figures(result) -> dict[str, Fraction]:  # type: ignore[no-untyped-def]
    figures = {
        "attacker_hits": result.attacker_hits,
        "target_hits": result.target_hits,
        "both_hit": result.both_hit,
        "neither_hits": result.neither_hits,
    }
    for who, fate in (("target", result.target), ("attacker", result.attacker)):
        for name in ("unhurt", "wounded", "downed", "killed"):
            figures[f"{who}_{name}"] = getattr(fate, name)
    return {name: value for name, value in figures.items() if value}


def _reference_exchange(scenario: Scenario, attacker_wounds: int) -> reference.Exchange:
    cards = scenario.cards
    if scenario.mode == CLOSE_COMBAT:
        return reference.Exchange(
            CLOSE_COMBAT,
            attacker_wounds,
            scenario.target_wounds,
            melee=cards["melee"],
            reaction=cards.get("reaction"),
        )
    return reference.Exchange(
        SHOOTING,
        attacker_wounds,
        scenario.target_wounds,
        shot=cards["shot"],
        burst=scenario.burst,
        reaction=cards.get("reaction"),
    )


def test_every_catalogue_entry_with_an_effect_has_a_scenario():
    with_effects = {
        (e.id, i)
        for kind in ("weapons", "equipment", "abilities", "unit_skills")
        for e in getattr(RULESET, kind).values()
        for i in range(len(e.effects))
    }
    assert with_effects == {(s.entry.id, s.index) for s in SCENARIOS if s.index is not None}
    assert {s.entry.id for s in SCENARIOS if s.index is None} == set(RULESET.weapons)
    # The eleven entries the audit found without an effect now all have one.
    for entry_id in (
        "mimetism",
        "multispectral-visor",
        "sixth-sense",
        "reactive-fire-plus",
        "regeneration",
        "infiltration",
        "climbing-plus",
        "smoke-grenades",
        "medkit",
        "deployable-repeater",
        "motion-sensor",
    ):
        entry = RULESET.entry(entry_id)
        assert entry is not None and entry.effects, entry_id


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.name)
def test_each_catalogue_entry_counts_as_its_data_says_and_the_odds_match_an_enumeration(
    scenario: Scenario,
):
    attacker = _side(scenario.attacker, "Attacker")
    target = _side(scenario.target, "Target")
    situation = Situation(scenario.mode, scenario.band, scenario.reaction)
    if scenario.refused:
        with pytest.raises(CombatError, match=scenario.refused):
            plan_exchange(attacker, target, situation, SMALL)
        # Without the enemy's situation that forbids it, the reaction is allowed.
        calm = attacker.with_situation((), attacker.defense_modifiers)
        assert plan_exchange(calm, target, situation, SMALL).reaction is not None
        return
    plan = plan_exchange(attacker, target, situation, SMALL)
    piles = {"shot": plan.shot, "reaction": plan.reaction, "melee": plan.melee}
    for name, (attack, against) in scenario.cards.items():
        matchup = piles[name]
        assert matchup is not None, name
        assert (matchup[0].cards, matchup[1].cards) == (attack, against), name
    assert plan.burst == scenario.burst
    assert plan.target_wounds == scenario.target_wounds
    if scenario.index is not None:
        owner = scenario.owner.capitalize()
        (use,) = [
            u
            for u in plan.effects
            if u.side == owner and u.entry.id == scenario.entry.id and u.index == scenario.index
        ]
        assert use.applied == scenario.applied, use.reason
        if not use.effect.in_exchange:
            assert "not part of the odds" in use.reason
    for ties_fail in (False, True):
        result = resolve(plan, SMALL, ties_fail=ties_fail)
        played = reference.play(
            _reference_exchange(scenario, plan.attacker_wounds),
            SMALL.cards,
            ties_fail,
            SMALL.exchange,
        )
        expected = {k: v for k, v in reference.summary(played).items() if v}
        assert _engine_figures(result) == expected


# --- The resolution alone, on synthetic piles --------------------------------------------

TINY = replace(
    RULESET,
    cards=CardRules(
        values=3, suits=("spades", "hearts"), jokers=1, ties_fail=False, special_action_success=2
    ),
)


def _pile(side: str, cards: int) -> Pile:
    return Pile(side, "attack", cards, ())


def _synthetic(exchange: reference.Exchange) -> Plan:
    nobody = Fighter("x", 0, 1, 0, ())
    mode = exchange.mode
    shot = reaction = melee = follow = None
    if mode == SHOOTING:
        shot = (_pile("A", exchange.shot[0]), _pile("T", exchange.shot[1]))
        if exchange.follow_up:
            follow = (_pile("A", exchange.follow_up[0]), _pile("T", exchange.follow_up[1]))
    else:
        melee = (_pile("A", exchange.melee[0]), _pile("T", exchange.melee[1]))
    if exchange.reaction:
        reaction = (_pile("T", exchange.reaction[0]), _pile("A", exchange.reaction[1]))
    return Plan(
        nobody,
        nobody,
        Situation(mode, "short", exchange.reaction is not None),
        shot,
        reaction,
        melee,
        follow,
        exchange.burst,
        exchange.attacker_wounds,
        0 if exchange.target_downed else exchange.target_wounds,
        exchange.target_downed,
        (),
    )


SIZES = st.integers(1, 3)


@st.composite
def exchanges(draw: st.DrawFn) -> reference.Exchange:
    mode = draw(st.sampled_from([SHOOTING, CLOSE_COMBAT]))
    reaction = draw(st.one_of(st.none(), st.tuples(SIZES, SIZES)))
    downed = reaction is None and draw(st.booleans())
    return reference.Exchange(
        mode,
        draw(st.integers(1, 2)),
        draw(st.integers(1, 3)),
        downed,
        shot=(draw(SIZES), draw(SIZES)),
        burst=draw(st.integers(1, 3)) if mode == SHOOTING else 1,
        reaction=reaction,
        melee=(draw(SIZES), draw(SIZES)),
        follow_up=(draw(SIZES), draw(SIZES)) if mode == SHOOTING else None,
    )


@settings(max_examples=examples(60), deadline=None)
@given(
    exchange=exchanges(),
    ties_fail=st.booleans(),
    ties=st.sampled_from(["redraw-comparison", REDRAW_EXCHANGE]),
    follow_up=st.sampled_from(["until-downed", UNTIL_KILLED]),
    per_hit=st.integers(1, 2),
)
def test_the_resolution_matches_the_rules_played_out_branch_by_branch(
    exchange, ties_fail, ties, follow_up, per_hit
):
    rules = replace(
        TINY,
        exchange=replace(
            TINY.exchange, reaction_ties=ties, follow_up=follow_up, wounds_per_hit=per_hit
        ),
    )
    plan = _synthetic(exchange)
    if follow_up != UNTIL_KILLED:
        plan = replace(plan, follow_up=None)
        exchange = replace(exchange, follow_up=None)
    result = resolve(plan, rules, ties_fail=ties_fail)
    played = reference.play(exchange, rules.cards, ties_fail, rules.exchange)
    assert _engine_figures(result) == {k: v for k, v in reference.summary(played).items() if v}
    assert (
        sum(
            _engine_figures(result)[k]
            for k in ("attacker_hits", "target_hits", "both_hit", "neither_hits")
            if k in _engine_figures(result)
        )
        == 1
    )


def test_a_reaction_in_the_seed_example_can_down_both_troopers():
    # Combi Rifle (3 cards) against a Medium Infantry in cover (1 + 1 + 1); its Rifle
    # reacts with 1 card against the attacker's 1: both shots resolve at once.
    attacker = _side(plain("light-infantry", "combi-rifle"), "AT", RULESET)
    target = _side(plain("medium-infantry"), "RT", RULESET)
    plan = plan_exchange(
        attacker,
        target.with_situation((), ("cover",)),
        Situation(SHOOTING, "medium", True),
        RULESET,
    )
    assert plan.shot is not None and plan.reaction is not None
    assert (plan.shot[0].cards, plan.shot[1].cards) == (3, 3)
    assert (plan.reaction[0].cards, plan.reaction[1].cards) == (1, 1)
    result = resolve(plan, RULESET)
    assert result.both_hit > 0 and result.attacker.downed == Fraction(1, 2)
    assert result.attacker_hits + result.target_hits + result.both_hit + result.neither_hits == 1


# --- The full deck: pair counts against drawing card after card --------------------------


def _card_after_card(
    first: int, second: int, low_first: int, low_second: int, deck: int
) -> Fraction:
    """P(every card of the first pile is among the ``low_first`` lowest and every card of
    the second among the ``low_second`` lowest), drawing one card after another: each draw
    is a card still in the deck, all equally likely."""

    @cache
    def chance(n1: int, n2: int, both: int, only1: int, only2: int, left: int) -> Fraction:
        if not n1 and not n2:
            return Fraction(1)
        # The next card goes to the first pile while it needs cards, then to the second;
        # it is one of the cards allowed to both, or to that pile only.
        own = only1 if n1 else only2
        rest = (n1 - 1, n2) if n1 else (0, n2 - 1)
        total = Fraction(0)
        if both:
            total += Fraction(both, left) * chance(*rest, both - 1, only1, only2, left - 1)
        if own:
            after = (only1 - 1, only2) if n1 else (only1, only2 - 1)
            total += Fraction(own, left) * chance(*rest, both, *after, left - 1)
        return total

    both = min(low_first, low_second)
    return chance(first, second, both, low_first - both, low_second - both, deck)


@pytest.mark.parametrize(("first", "second"), [(1, 1), (3, 2), (2, 4)])
def test_two_piles_from_one_full_deck_match_drawing_card_after_card(first, second):
    sizes = rank_sizes(RULESET.cards, ties_fail=False)
    counts = pile_pair_counts(first, second, sizes)
    total = sum(map(sum, counts))
    for i, j in [(0, 0), (10, 30), (30, 10), (51, 52), (52, 51), (52, 52), (40, 40)]:
        at_most = sum(counts[a][b] for a in range(i + 1) for b in range(j + 1))
        low = [sum(sizes[: rank + 1]) for rank in (i, j)]
        assert Fraction(at_most, total) == _card_after_card(first, second, *low, sum(sizes))


def test_a_reaction_of_one_card_each_is_symmetric_and_sums_to_every_draw():
    counts = reaction_counts(1, 1, 1, 1, RULESET.cards, ties_fail=False)
    joint = counts.counts
    assert sum(map(sum, joint)) == counts.total == 54 * 53 * 54 * 53
    # Either side's shot wins as often as it loses, and the picture is the same both ways.
    assert joint[0][1] == joint[1][0] and joint[0][0] == joint[1][1]


@pytest.mark.parametrize(
    ("ties", "armor_piercing"), [(REDRAW_EXCHANGE, AP_DEFENSE), ("redraw-comparison", "armor")]
)
def test_the_open_questions_are_ruleset_data(ties, armor_piercing):
    rules = replace(
        RULESET,
        exchange=replace(RULESET.exchange, reaction_ties=ties, armor_piercing=armor_piercing),
    )
    launcher = _side(plain("heavy-infantry", "missile-launcher"), "A", rules)
    tag = _side(plain("tag"), "T", rules)
    plan = plan_exchange(
        launcher, tag.with_situation((), ("cover",)), Situation(SHOOTING, "long"), rules
    )
    assert plan.shot is not None
    # AP 1 against armor 3 in cover: "armor" lowers the armor (1 + 2 + 1), "defense" the
    # whole defense modifier (1 + (3 + 1 - 1)): the same here, told apart by the lines.
    assert plan.shot[1].cards == 4
    words = " ".join(line.text for line in plan.shot[1].lines)
    assert ("armor 2" in words) == (armor_piercing == "armor")
