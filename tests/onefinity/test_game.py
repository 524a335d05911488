"""A game at the table (seed 000): every cost, repeat, state change, the Joker and the
reactions at their boundaries, with the numbers taken from the ruleset's data."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from onefinity.rules import current_ruleset
from onefinity.rules.game import (
    OFF_TABLE,
    GameError,
    GameState,
    Step,
    action_refusal,
    apply,
    base_cost,
    game_actions,
    new_game,
    problems,
    public_state,
    read_state_document,
    read_step,
    state_document,
    step_document,
)
from onefinity.rules.hexgrid import rows_by_columns
from onefinity.rules.reactions import Watch, reaction_refusal, unseen_reach
from tests.conftest import examples
from tests.onefinity.forces import force, trooper, unit

RULESET = current_ruleset()
RULES = RULESET.game
assert RULES is not None
BOARD = rows_by_columns(11, 9)
MOVE = "move"


def lists() -> GameState:
    """Side a: a medic, an engineer, a hacker and a plain trooper, and a TAG; side b the same."""
    medium = unit(
        "medium-infantry", trooper("medic"), trooper("engineer"), trooper("hacker"), size=4
    )
    tag = unit("tag", size=1)
    return new_game(force(medium, tag), force(medium, tag), RULESET, 5, BOARD)


def play(state: GameState, *steps: Step) -> GameState:
    for step in steps:
        state = apply(state, step, RULESET)
    return state


def started(ap: int = 13, side: str = "a") -> GameState:
    return play(lists(), Step("first", side=side), Step("ap", value=ap))


def act(trooper_id: str, action: str = MOVE) -> Step:
    return Step("act", trooper=trooper_id, action=action)


def refused(state: GameState, step: Step, words: str) -> None:
    with pytest.raises(GameError, match=words):
        apply(state, step, RULESET)


def test_a_new_game_has_every_trooper_off_the_table_with_its_profiles_wounds():
    state = lists()
    summary = public_state(state, RULESET)
    assert summary["active"] is None and summary["vp"] == {"a": 0, "b": 0}
    assert {t["state"] for t in summary["troopers"]} == {OFF_TABLE}
    wounds = {t["type"]: t["wounds"] for t in summary["troopers"]}
    assert wounds == {
        "medium-infantry": RULESET.unit_types["medium-infantry"].wounds,
        "tag": RULESET.unit_types["tag"].wounds,
    }
    assert len({t["id"] for t in summary["troopers"]}) == 10


@pytest.mark.parametrize("action", [a for a in RULESET.action_costs if a != "special"])
def test_each_cost_and_each_repeat_doubles_from_the_data(action):
    cost = base_cost(action, RULESET)
    assert cost == RULESET.action_costs[action]
    state = started()
    special = RULESET.special_actions.get(action)
    trooper_id = "a-1.4"  # a plain trooper
    if special and special.trooper_class:
        state = replace(
            state,
            troopers=tuple(
                replace(t, trooper_class=special.trooper_class) if t.id == trooper_id else t
                for t in state.troopers
            ),
        )
    if action not in RULES.enter_actions:
        state = play(state, act(trooper_id))  # enter first
    ap, times = state.ap, 0
    while True:
        price = cost * RULESET.repeat_multiplier**times
        if price > ap:
            refused(state, act(trooper_id, action), f"costs {price} AP and {ap} AP")
            break
        state = play(state, act(trooper_id, action))
        ap -= price
        times += 1
        assert state.ap == ap
    assert times >= 1


def test_the_doubling_counts_per_trooper_and_per_action_and_resets_each_turn():
    state = play(started(13), act("a-1.1"), act("a-1.1"), act("a-1.2"), act("a-1.1", "shoot"))
    assert state.ap == 13 - 1 - 2 - 1 - 1
    state = play(state, Step("pass"), Step("ap", value=5), act("b-1.1"))
    assert state.ap == 4 and state.active == "b"
    state = play(state, Step("pass"), Step("ap", value=3), act("a-1.1"))
    assert state.ap == 2  # a new turn: the first move costs 1 again


def test_a_special_action_costs_its_data_and_only_its_specialist_takes_it():
    state = play(started(), act("a-1.1"), act("a-1.4"))
    heal = RULESET.special_actions["heal"]
    refused(state, act("a-1.4", "heal"), "only a Medic")
    after = play(state, act("a-1.1", "heal"))
    assert state.ap - after.ap == heal.ap


def test_ap_is_a_cards_value_and_a_joker_is_drawn_again():
    state = play(lists(), Step("first", side="b"))
    refused(state, Step("ap", joker=True), "Joker has no value")
    refused(state, Step("ap", value=0), "1 to 13")
    refused(state, Step("ap", value=RULESET.cards.values + 1), "1 to 13")
    drawn = play(state, Step("ap", value=RULESET.cards.values))
    assert drawn.ap == 13
    refused(drawn, Step("ap", value=3), "already drawn")


def test_nothing_but_the_draw_off_before_the_game_starts():
    state = lists()
    for step in (Step("ap", value=3), act("a-1.1"), Step("pass"), Step("vp", side="a", value=1)):
        refused(state, step, "has not started")
    refused(play(state, Step("first", side="a")), Step("first", side="b"), "already recorded")
    refused(state, Step("first", side="c"), "a side is")


def test_the_reactive_side_does_not_act_and_an_action_needs_ap_drawn():
    state = play(lists(), Step("first", side="a"))
    refused(state, act("a-1.1"), "draw a card")
    refused(play(state, Step("ap", value=4)), act("b-1.1"), "reactive side")


def test_an_off_table_trooper_enters_only_with_an_entering_action():
    state = started()
    shooting_first = "shoot"
    assert shooting_first not in RULES.enter_actions
    refused(state, act("a-1.4", shooting_first), "off the table")
    for action in RULES.enter_actions:
        trooper_id = "a-1.3" if action == "deploy" else "a-1.4"
        special = RULESET.special_actions.get(action)
        probe = state
        if special and special.trooper_class:
            probe = replace(
                probe,
                troopers=tuple(
                    replace(t, trooper_class=special.trooper_class) if t.id == trooper_id else t
                    for t in probe.troopers
                ),
            )
        entered = play(probe, act(trooper_id, action))
        assert (
            public_state(entered, RULESET)["troopers"][3 if trooper_id == "a-1.4" else 2]["state"]
            == "active"
        )


def test_wounds_down_then_kill_and_a_downed_trooper_cannot_act():
    state = play(started(), act("a-1.4"))
    refused(state, Step("wound", trooper="a-1.4", count=0), "1 to 2")
    refused(state, Step("wound", trooper="a-1.4", count=3), "1 to 2")
    refused(state, Step("wound", trooper="a-1.3", count=1), "off the table")
    downed = play(state, Step("wound", trooper="a-1.4", count=1))
    assert downed.trooper("a-1.4").state(RULES) == "downed"
    refused(downed, act("a-1.4", "shoot"), "downed: it cannot act")
    killed = play(downed, Step("wound", trooper="a-1.4", count=1))
    assert killed.trooper("a-1.4").state(RULES) == "killed"
    refused(killed, act("a-1.4", "shoot"), "killed")
    refused(killed, Step("wound", trooper="a-1.4", count=1), "out of play")


def test_a_medic_heals_a_downed_trooper_once_per_heal_taken_and_a_tag_is_repaired():
    state = play(started(), act("a-1.1"), act("a-1.2"), act("a-1.4"), act("a-2.1"))
    state = play(state, Step("wound", trooper="a-1.4", count=1))
    refused(state, Step("heal", trooper="a-1.4"), "no Heal was taken")
    state = play(state, act("a-1.1", "heal"))
    healed = play(state, Step("heal", trooper="a-1.4"))
    assert healed.trooper("a-1.4").state(RULES) == "active"
    refused(healed, Step("heal", trooper="a-1.4"), "has all its wounds")
    # The TAG: a Heal does not repair it; a Repair does.
    tag = play(healed, Step("wound", trooper="a-2.1", count=1))
    state_after_heal = play(tag, act("a-1.1", "heal"))
    refused(state_after_heal, Step("heal", trooper="a-2.1"), "TAG is repaired, not healed")
    repaired = play(tag, act("a-1.2", "repair"), Step("heal", trooper="a-2.1"))
    assert repaired.trooper("a-2.1").wounds == repaired.trooper("a-2.1").max_wounds


def test_a_hacked_tag_cannot_move_until_its_emergency_recovery():
    state = play(started(), act("a-1.3"))
    state = play(state, Step("pass"), Step("ap", value=13), act("b-2.1"), Step("pass"))
    state = play(state, Step("ap", value=13))
    refused(state, Step("hack", trooper="b-2.1"), "no Hack was taken")
    state = play(state, act("a-1.3", "hack"))
    refused(state, Step("hack", trooper="a-1.3"), "enemy trooper")
    refused(state, Step("hack", trooper="b-1.1"), "off the table")
    hacked = play(state, Step("hack", trooper="b-2.1"))
    assert hacked.trooper("b-2.1").hacked
    hacked = play(hacked, Step("pass"), Step("ap", value=13))
    for action in RULES.hacked.forbids:
        refused(hacked, act("b-2.1", action), "hacked: it cannot move")
    assert not action_refusal(hacked, hacked.trooper("b-2.1"), "shoot", RULESET)
    refused(hacked, Step("recover", trooper="b-2.1"), "has not taken Emergency Recovery")
    recovered = play(hacked, act("b-2.1", RULES.hacked.ended_by), Step("recover", trooper="b-2.1"))
    assert not recovered.trooper("b-2.1").hacked
    play(recovered, act("b-2.1"))
    refused(recovered, act("b-2.1", RULES.hacked.ended_by), "not hacked")


def test_placing_needs_a_hex_of_the_table_that_nobody_holds():
    state = play(started(), act("a-1.1"), act("a-1.2"))
    refused(state, Step("place", trooper="a-1.3", hex=(0, 0)), "off the table")
    refused(state, Step("place", trooper="a-1.1", hex=(50, 50)), "not on the game's table")
    placed = play(state, Step("place", trooper="a-1.1", hex=(0, 0)))
    refused(placed, Step("place", trooper="a-1.2", hex=(0, 0)), "stands on that hex")


def test_the_game_ends_at_the_vp_target_and_nothing_follows():
    state = started()
    almost = play(state, Step("vp", side="b", value=4))
    assert not almost.ended
    refused(state, Step("vp", side="b", value=100), "0 to 99")
    ended = play(almost, Step("vp", side="b", value=5))
    assert ended.ended and ended.winner == "b"
    for step in (Step("pass"), act("a-1.1"), Step("vp", side="a", value=1)):
        refused(ended, step, "game is over")


def test_a_forged_trooper_id_is_refused():
    refused(started(), act("a-99"), "no trooper")


def test_reactions_need_a_state_that_reacts_and_a_line_of_fire_or_a_sensor():
    motion_sensor = RULESET.equipment["motion-sensor"]
    reach = unseen_reach([motion_sensor])
    assert reach == 3
    assert reaction_refusal(Watch(state_reacts=True, sees=True)) == ""
    assert "downed" in reaction_refusal(Watch(state_reacts=False, sees=True))
    assert "does not see" in reaction_refusal(Watch(state_reacts=True, sees=False))
    rear = Watch(state_reacts=True, sees=True, in_rear_arc=True, distance=reach)
    assert "rear arc" in reaction_refusal(rear)
    assert reaction_refusal(replace(rear, unseen_reach=reach)) == ""
    assert "rear arc" in reaction_refusal(replace(rear, unseen_reach=reach, distance=reach + 1))
    assert unseen_reach([RULESET.weapons["rifle"]]) == 0
    assert not RULES.states["downed"].reacts and RULES.states["active"].reacts


def test_the_state_and_the_steps_read_back():
    state = play(started(), act("a-1.1"), Step("place", trooper="a-1.1", hex=(2, 3)))
    assert read_state_document(state_document(state)) == state
    for step in (act("a-1.1"), Step("ap", joker=True), Step("place", trooper="x", hex=(-1, 2))):
        fields = {k: str(v) for k, v in step_document(step).items()}
        assert read_step(fields) == step
    with pytest.raises(GameError):
        read_step({"kind": "wound", "trooper": "a-1.1", "count": "99999999999"})
    with pytest.raises(GameError):
        read_step({"kind": "explode"})


# --- Any sequence of steps -------------------------------------------------------------------

TROOPER_IDS = [t.id for t in lists().troopers] + ["forged"]
steps = st.one_of(
    st.builds(Step, st.just("first"), side=st.sampled_from(["a", "b", "x"])),
    st.builds(Step, st.just("ap"), value=st.integers(-1, 15), joker=st.booleans()),
    st.builds(
        Step,
        st.just("act"),
        trooper=st.sampled_from(TROOPER_IDS),
        action=st.sampled_from([*game_actions(RULESET), "fly"]),
    ),
    st.just(Step("pass")),
    st.builds(
        Step, st.just("wound"), trooper=st.sampled_from(TROOPER_IDS), count=st.integers(-1, 4)
    ),
    st.builds(
        Step,
        st.sampled_from(["heal", "hack", "recover"]),
        trooper=st.sampled_from(TROOPER_IDS),
    ),
    st.builds(
        Step,
        st.just("place"),
        trooper=st.sampled_from(TROOPER_IDS),
        hex=st.tuples(st.integers(-2, 10), st.integers(-1, 11)),
    ),
    st.builds(Step, st.just("vp"), side=st.sampled_from(["a", "b"]), value=st.integers(0, 6)),
)


@settings(max_examples=examples(60))
@given(st.booleans(), st.lists(steps, max_size=40))
def test_any_steps_keep_the_state_valid_and_a_refused_step_changes_nothing(begun, sequence):
    state = started() if begun else lists()
    for step in sequence:
        before = state_document(state)
        try:
            state = apply(state, step, RULESET)
        except GameError as error:
            assert str(error)
            assert state_document(state) == before
        assert problems(state, RULESET) == []
        assert read_state_document(state_document(state)) == state


# --- An attack's situation from the map ------------------------------------------------------


def test_the_map_gives_the_band_line_of_fire_cover_and_higher_ground():
    from onefinity.rules.hexgrid import Board, distance
    from onefinity.rules.lineoffire import Terrain, line_of_fire
    from onefinity.rules.map_odds import attack_situation, read_map

    board = Board.of(tuple(BOARD))
    attacker, target, wall, crates = (0, 5), (4, 5), (2, 5), (5, 5)
    kinds = {board.index[attacker]: "elevated", board.index[crates]: "cover"}
    open_reading = read_map(board, kinds, RULESET, attacker, target)
    band = RULESET.band_for_distance(distance(attacker, target))
    assert band is not None and open_reading.band == band.id and open_reading.distance == 4
    assert open_reading.clear and open_reading.target_in_cover and open_reading.attacker_higher
    situation = attack_situation(open_reading, "shooting", RULESET, rear=True)
    assert situation.attacker_combat == ("higher-ground", "rear")
    assert situation.target_defense == ("cover",)
    assert (
        "charging"
        not in attack_situation(open_reading, "shooting", RULESET, charge=True).attacker_combat
    )
    # Without a reaction the attacker defends against nothing, and the target attacks not.
    higher = replace(
        open_reading, attacker_higher=False, target_higher=True, attacker_in_cover=True
    )
    reacting = attack_situation(higher, "shooting", RULESET)
    assert reacting.attacker_defense == ("cover",) and reacting.target_combat == ("higher-ground",)
    calm = attack_situation(higher, "shooting", RULESET, reaction=False)
    assert calm.attacker_defense == () and calm.target_combat == ()
    assert calm.target_defense == ("cover", "higher-ground")

    walled = kinds | {board.index[wall]: "blocking"}
    reading = read_map(board, walled, RULESET, attacker, target)
    exact = line_of_fire(board, Terrain.of(board, walled, RULESET.table), attacker, target)
    assert reading.clear is exact.clear is False and wall in reading.blocked_by
    beyond = max(b.max for b in RULESET.range_bands) + 1
    assert RULESET.band_for_distance(beyond) is None
