"""The Swiss engine (events/swiss.py), pure: standings at their boundaries, round 1's seeded
draw, and the laws of pairing over random events (8 to 64 players, 3 to 6 rounds, random
results, drops and odd counts): every active player seated once a round, no second bye, no
rematch or repeated table while one is avoidable, and standings equal to a recomputation
from the results. On small events every possible pairing and table assignment is tried, and
the engine's must be the best by the documented priorities."""

from __future__ import annotations

import itertools
import random
import subprocess
import sys
from collections import Counter, defaultdict
from fractions import Fraction
from pathlib import Path

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from events.swiss import (
    EXACT_UP_TO,
    WINDOW,
    Bye,
    Draw,
    Game,
    History,
    SwissError,
    assign_tables,
    bye_candidates,
    first_round_order,
    half,
    lot,
    match_players,
    pair_round,
    pairing_cost,
    rounds_complete,
    standings,
)
from tests.conftest import examples

ROOT = Path(__file__).resolve().parents[2]


def test_the_swiss_engine_loads_no_django():
    script = (
        "import sys, events.swiss\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'django'))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert result.stdout.strip() == "[]"


# --- Standings ---------------------------------------------------------------------------------


def ranked(table):
    return [s.player for s in table]


def test_higher_vp_wins_and_equal_vp_is_a_draw():
    games = [Game(1, 1, 2, a_vp=10, b_vp=9), Game(1, 3, 4, a_vp=5, b_vp=5)]
    by = {s.player: s for s in standings([1, 2, 3, 4], games, [], bye_vp=0, seed=1)}
    assert (by[1].wins, by[1].losses, by[2].wins, by[2].losses) == (1, 0, 0, 1)
    assert by[3].draws == by[4].draws == 1 and by[3].score == Fraction(1, 2)
    assert by[1].vp == 10 and by[1].vp_against == 9


def test_a_game_without_a_result_counts_for_nobody():
    by = {s.player: s for s in standings([1, 2], [Game(1, 1, 2)], [], 0, 1)}
    assert by[1].games == by[2].games == 0 and by[1].sos2 == 0


def test_a_bye_is_a_win_with_the_organizers_vp():
    (only,) = standings([7], [], [Bye(1, 7)], bye_vp=12, seed=1)
    # Its SoS: a virtual opponent with the score the player had when round 1 began: none.
    assert (only.wins, only.byes, only.vp, only.games, only.sos2) == (1, 1, 12, 0, 0)
    later = {
        s.player: s for s in standings([7, 8], [Game(1, 7, 8, a_vp=5, b_vp=1)], [Bye(2, 7)], 0, 1)
    }
    assert later[7].sos2 == 0 + 2  # 8 scored nothing; the bye of round 2: 7 had won once


def test_strength_of_schedule_is_the_sum_of_the_opponents_scores():
    games = [
        Game(1, 1, 2, a_vp=9, b_vp=1),  # 1 beats 2
        Game(1, 3, 4, a_vp=5, b_vp=5),  # 3 and 4 draw
        Game(2, 1, 3, a_vp=2, b_vp=8),  # 3 beats 1
        Game(2, 2, 4, a_vp=4, b_vp=6),  # 4 beats 2
    ]
    by = {s.player: s for s in standings([1, 2, 3, 4], games, [], 0, 1)}
    # Scores: 1 -> 1, 2 -> 0, 3 -> 1.5, 4 -> 1.5. SoS of 2: 1's 1 + 4's 1.5.
    assert [by[p].sos for p in (1, 2, 3, 4)] == [1.5, 2.5, 2.5, 1.5]
    assert half(5) == 2.5 and half(4) == 2


def test_ties_go_to_strength_of_schedule_then_vp_then_the_lot():
    games = [
        Game(1, 1, 2, a_vp=10, b_vp=0),
        Game(1, 3, 4, a_vp=6, b_vp=0),
        Game(2, 1, 4, a_vp=1, b_vp=0),  # 1: two wins
        Game(2, 3, 2, a_vp=1, b_vp=0),  # 3: two wins, same SoS as 1, fewer VP
    ]
    order = ranked(standings([1, 2, 3, 4], games, [], 0, 1))
    assert order[:2] == [1, 3]
    # Equal in everything: only the lot orders them, the same way every time.
    tied = [Game(1, 5, 6, a_vp=3, b_vp=3), Game(1, 7, 8, a_vp=3, b_vp=3)]
    first = ranked(standings([5, 6, 7, 8], tied, [], 0, seed=99))
    assert first == sorted([5, 6, 7, 8], key=lambda p: lot(99, p))
    assert first == ranked(standings([8, 7, 6, 5], list(reversed(tied)), [], 0, seed=99))


def test_ranks_run_from_one_without_sharing():
    table = standings(range(1, 11), [], [], 0, seed=5)
    assert [s.rank for s in table] == list(range(1, 11))


def test_a_round_is_complete_when_every_game_has_its_result():
    games = [Game(1, 1, 2, a_vp=1, b_vp=0), Game(2, 1, 3, a_vp=1, b_vp=0), Game(2, 2, 4)]
    assert rounds_complete(games) == 1
    assert rounds_complete([*games[:2], Game(2, 2, 4, a_vp=0, b_vp=0)]) == 2
    assert rounds_complete([]) == 0


# --- Round 1 -------------------------------------------------------------------------------------


def test_round_one_is_the_same_draw_for_the_same_seed():
    players = list(range(1, 21))
    one = pair_round(1, players, [], [], [f"t{i}" for i in range(10)], seed=7)
    again = pair_round(1, list(reversed(players)), [], [], [f"t{i}" for i in range(10)], seed=7)
    other = pair_round(1, players, [], [], [f"t{i}" for i in range(10)], seed=8)
    assert one == again and one.seats != other.seats


def test_seeded_players_come_first_and_do_not_meet_in_round_one():
    players = list(range(1, 9))
    draw = pair_round(1, players, [], [], [f"t{i}" for i in range(4)], seed=3, seeding=[8, 2, 5])
    order = first_round_order(players, 3, 1, [8, 2, 5])
    assert order[:3] == [8, 2, 5]
    assert [(s.a, s.b) for s in draw.seats] == [(order[i], order[i + 4]) for i in range(4)]
    for seat in draw.seats:
        assert not {seat.a, seat.b} <= {8, 2, 5}


def test_an_odd_round_one_gives_the_bye_to_the_last_of_the_draw():
    draw = pair_round(1, [1, 2, 3, 4, 5], [], [], ["a", "b"], seed=11)
    assert draw.bye == first_round_order([1, 2, 3, 4, 5], 11, 1, [])[-1]
    assert len(draw.seats) == 2


def test_too_few_players_or_tables_are_refused():
    with pytest.raises(SwissError, match="at least two players"):
        pair_round(1, [1], [], [], ["a"], seed=1)
    with pytest.raises(SwissError, match="6 players make 3 games, and the round has 2 tables"):
        pair_round(1, range(1, 7), [], [], ["a", "b"], seed=1)
    # At the limit: exactly one table a game.
    assert len(pair_round(1, range(1, 7), [], [], ["a", "b", "c"], seed=1).seats) == 3


# --- Random events -------------------------------------------------------------------------------


def play_event(
    count: int,
    rounds: int,
    seed: int,
    extra_tables: int,
    drop_chance: float,
    window: int = WINDOW,
    exact_up_to: int = EXACT_UP_TO,
    on_draw=None,
):
    """Run a whole event: each round paired by the engine, results drawn at random, a few
    players dropping. Returns the games, byes and each round's draw."""
    rng = random.Random(seed)
    players = list(range(101, 101 + count))
    active = set(players)
    games: list[Game] = []
    byes: list[Bye] = []
    tables = [f"map {i}" for i in range(count // 2 + extra_tables)]
    draws = []
    for number in range(1, rounds + 1):
        draw = pair_round(
            number,
            sorted(active),
            games,
            byes,
            tables,
            seed=seed,
            bye_vp=7,
            window=window,
            exact_up_to=exact_up_to,
        )
        if on_draw is not None:
            on_draw(number, sorted(active), games, byes, tables, draw, seed)
        draws.append((number, sorted(active), draw))
        for seat in draw.seats:
            games.append(
                Game(
                    number,
                    seat.a,
                    seat.b,
                    tables[seat.table - 1],
                    rng.randint(0, 20),
                    rng.randint(0, 20),
                )
            )
        if draw.bye is not None:
            byes.append(Bye(number, draw.bye))
        for player in sorted(active):
            if len(active) > 3 and rng.random() < drop_chance:
                active.discard(player)
    return players, games, byes, draws


def allowed_graph(active, history: History) -> nx.Graph:
    """The pairs that are no rematch, and the bye (node 0) for those who may have it."""
    graph = nx.Graph()
    graph.add_nodes_from(active)
    for a, b in itertools.combinations(active, 2):
        if frozenset((a, b)) not in history.met:
            graph.add_edge(a, b)
    if len(active) % 2:
        graph.add_node(0)
        for player in bye_candidates(active, history):
            graph.add_edge(0, player)
    return graph


def check_round(number, active, games, byes, tables, draw: Draw, seed: int = 0):
    earlier = [g for g in games if g.round < number]
    history = History.of(earlier, [b for b in byes if b.round < number])
    # Every active player is seated once: in one game or the bye.
    seated = [p for s in draw.seats for p in (s.a, s.b)] + ([draw.bye] if draw.bye else [])
    assert sorted(seated) == sorted(active)
    assert len({s.table for s in draw.seats}) == len(draw.seats)
    assert all(1 <= s.table <= len(tables) for s in draw.seats)
    # No second bye while someone without one is left (the fewest byes in general).
    if draw.bye is not None:
        assert history.byes[draw.bye] == min(history.byes[p] for p in active)
    # No rematch while avoidable: a rematch only when no pairing without one exists.
    if draw.rematches:
        graph = allowed_graph(active, history)
        assert (
            len(nx.max_weight_matching(graph, maxcardinality=True)) < graph.number_of_nodes() // 2
        )
    # No repeated table while avoidable, for these games: a repeat only when the games
    # cannot all sit at tables new to both their players.
    if draw.repeated_tables:
        fresh = nx.Graph()
        for g, seat in enumerate(draw.seats):
            fresh.add_node(("game", g))
            for t, key in enumerate(tables):
                if key not in history.tables[seat.a] and key not in history.tables[seat.b]:
                    fresh.add_edge(("game", g), ("table", t))
        assert len(nx.max_weight_matching(fresh, maxcardinality=True)) < len(draw.seats)
    assert draw.rematches == sum(frozenset((s.a, s.b)) in history.met for s in draw.seats)


def score_before(player, round_, games, byes):
    """The player's score from the rounds before ``round_`` (a bye's virtual opponent)."""
    score = Fraction(0)
    for g in games:
        if g.round >= round_ or g.a_vp is None or g.b_vp is None or player not in (g.a, g.b):
            continue
        mine, theirs = (g.a_vp, g.b_vp) if g.a == player else (g.b_vp, g.a_vp)
        score += 1 if mine > theirs else Fraction(1, 2) if mine == theirs else 0
    return score + sum(1 for b in byes if b.player == player and b.round < round_)


def recompute(players, games, byes, bye_vp, seed):
    """The standings again, the slow and obvious way, in fractions."""
    wins, draws, losses, vp = Counter(), Counter(), Counter(), Counter()
    opponents = defaultdict(list)
    for g in games:
        if g.a_vp is None or g.b_vp is None:
            continue
        opponents[g.a].append(g.b)
        opponents[g.b].append(g.a)
        vp[g.a] += g.a_vp
        vp[g.b] += g.b_vp
        if g.a_vp == g.b_vp:
            draws[g.a] += 1
            draws[g.b] += 1
        else:
            winner, loser = (g.a, g.b) if g.a_vp > g.b_vp else (g.b, g.a)
            wins[winner] += 1
            losses[loser] += 1
    for b in byes:
        wins[b.player] += 1
        vp[b.player] += bye_vp
    score = {p: wins[p] + Fraction(draws[p], 2) for p in players}
    sos = {
        p: sum((score[o] for o in opponents[p]), Fraction(0))
        + sum(score_before(p, b.round, games, byes) for b in byes if b.player == p)
        for p in players
    }
    order = sorted(players, key=lambda p: (-score[p], -sos[p], -vp[p], lot(seed, p)))
    return [(i, p, wins[p], draws[p], losses[p], vp[p], sos[p]) for i, p in enumerate(order, 1)]


@settings(max_examples=examples(20), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    count=st.integers(8, 64),
    rounds=st.integers(3, 6),
    seed=st.integers(0, 2**32),
    extra_tables=st.integers(0, 2),
    drop_chance=st.sampled_from([0.0, 0.03, 0.1]),
    windowed=st.booleans(),
)
def test_random_events_keep_the_laws_of_swiss_pairing(
    count, rounds, seed, extra_tables, drop_chance, windowed
):
    """Windowed: as a large event is matched (first within WINDOW places), whatever its size."""
    players, games, byes, _ = play_event(
        count,
        rounds,
        seed,
        extra_tables,
        drop_chance,
        exact_up_to=0 if windowed else EXACT_UP_TO,
        on_draw=check_round,
    )
    got = [
        (s.rank, s.player, s.wins, s.draws, s.losses, s.vp, Fraction(s.sos2, 2))
        for s in standings(players, games, byes, 7, seed)
    ]
    assert got == recompute(players, games, byes, 7, seed)


# --- Small events, against every possible pairing ------------------------------------------------


def all_matchings(nodes):
    if not nodes:
        yield []
        return
    first, rest = nodes[0], nodes[1:]
    for i, other in enumerate(rest):
        for more in all_matchings(rest[:i] + rest[i + 1 :]):
            yield [(first, other), *more]


def best_cost(active, games, byes, number, seed):
    earlier = [g for g in games if g.round < number]
    earlier_byes = [b for b in byes if b.round < number]
    history = History.of(earlier, earlier_byes)
    table = standings(active, earlier, earlier_byes, 7, seed)
    order = [s.player for s in table if s.player in set(active)]
    score2 = {s.player: s.score2 for s in table}
    may_bye = bye_candidates(order, history)
    nodes = order + ([0] if len(order) % 2 else [])
    best = None
    for matching in all_matchings(nodes):
        bye = next((a if b == 0 else b for a, b in matching if 0 in (a, b)), None)
        if bye is not None and bye not in may_bye:
            continue
        pairs = [(a, b) for a, b in matching if 0 not in (a, b)]
        cost = pairing_cost(order, pairs, bye, score2, history)
        best = cost if best is None or cost < best else best
    return order, score2, history, best


def fewest_repeats(seats, tables, history):
    best = None
    for chosen in itertools.permutations(range(len(tables)), len(seats)):
        repeats = sum(
            (tables[t] in history.tables[s.a]) + (tables[t] in history.tables[s.b])
            for s, t in zip(seats, chosen, strict=True)
        )
        best = repeats if best is None else min(best, repeats)
    return best


def check_against_brute_force(number, active, games, byes, tables, draw, seed):
    check_round(number, active, games, byes, tables, draw)
    if number == 1:
        return
    order, score2, history, best = best_cost(active, games, byes, number, seed)
    assert list(draw.ranked) == order
    pairs = [(s.a, s.b) for s in draw.seats]
    assert pairing_cost(order, pairs, draw.bye, score2, history) == best
    assert draw.repeated_tables == fewest_repeats(draw.seats, tables, history)


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    count=st.integers(4, 9),
    rounds=st.integers(3, 5),
    seed=st.integers(0, 2**32),
    extra_tables=st.integers(0, 1),
    drop_chance=st.sampled_from([0.0, 0.1]),
)
def test_small_events_get_the_best_pairing_and_tables_there_are(
    count, rounds, seed, extra_tables, drop_chance
):
    play_event(count, rounds, seed, extra_tables, drop_chance, on_draw=check_against_brute_force)


def test_the_window_gives_way_to_every_pair_when_it_finds_only_rematches():
    """With a window of one place, 1..8 can only pair as 1-2, 3-4, 5-6, 7-8: all rematches
    here. The engine then looks at every pair and finds games without one."""
    met = {frozenset(p) for p in [(1, 2), (3, 4), (5, 6), (7, 8)]}
    history = History(met, Counter(), defaultdict(set))
    score2 = dict.fromkeys(range(1, 9), 2)
    pairs, _ = match_players(list(range(1, 9)), score2, history, window=1, exact_up_to=0)
    assert len(pairs) == 4 and not any(frozenset(p) in met for p in pairs)


def test_the_tables_window_gives_way_when_it_finds_only_repeats():
    played = {1: "ab", 2: "ab", 3: "abc", 4: "abc", 5: "bcd", 6: "bcd"}
    history = History(set(), Counter(), defaultdict(set, {p: set(t) for p, t in played.items()}))
    # Within one place of its own number (b, c, d) the third game repeats a table; beyond
    # the window each game also reaches its nearest tables new to both players (the third:
    # a or e, as near as each other), so no game repeats one.
    tables = list("abcdefg")
    chosen = assign_tables([(1, 2), (3, 4), (5, 6)], tables, history, 1, exact_up_to=0)
    assert chosen[:2] == [2, 3] and chosen[2] in (0, 4)


def test_tables_are_spread_so_nobody_plays_one_twice():
    history = History.of(
        [Game(1, 1, 2, "red"), Game(1, 3, 4, "blue"), Game(2, 1, 3, "blue"), Game(2, 2, 4, "red")],
        [],
    )
    # 1 played red and blue; 4 too. Only green is new to both: game (1, 4) gets it.
    chosen = assign_tables([(1, 4), (2, 3)], ["red", "blue", "green"], history)
    assert chosen[0] == 2
    # With only red and blue, every game repeats: the fewest repeats is still found.
    assert sorted(assign_tables([(1, 4), (2, 3)], ["red", "blue"], history)) == [0, 1]
    with pytest.raises(SwissError, match="2 games need 2 tables; there are 1"):
        assign_tables([(1, 4), (2, 3)], ["red"], history)


def test_pairing_across_score_groups_weighs_more_than_distance_in_the_standings():
    """Scores 3, 3, 2, 2, 1, 0 where 1-3, 2-4, 3-4 and 4-5 have met: 1-2, 3-5, 4-6 pairs
    neighbours but drops two score groups at 4-6; 1-4, 2-3, 5-6 keeps every game one group
    apart at most."""
    history = History(
        {frozenset(p) for p in [(1, 3), (2, 4), (3, 4), (4, 5)]}, Counter(), defaultdict(set)
    )
    score2 = {1: 6, 2: 6, 3: 4, 4: 4, 5: 2, 6: 0}
    pairs, bye = match_players([1, 2, 3, 4, 5, 6], score2, history, WINDOW)
    assert bye is None and {frozenset(p) for p in pairs} == {
        frozenset((1, 4)),
        frozenset((2, 3)),
        frozenset((5, 6)),
    }


def test_seven_players_who_all_met_at_the_foot_are_paired_without_the_exact_search(monkeypatch):
    """The crafted field of benchmarks/swiss_scale.py at 128 players: the window cannot pair
    the last seven among themselves; each player's nearest unmet opponents beyond it can,
    so no matching over every pair is made (it took 2 s at 256 players)."""
    import itertools
    import random

    import networkx as nx

    sizes: list[int] = []
    real = nx.max_weight_matching

    def counted(graph, *args, **kwargs):
        sizes.append(graph.number_of_edges())
        return real(graph, *args, **kwargs)

    monkeypatch.setattr(nx, "max_weight_matching", counted)
    rng = random.Random(7)
    keys = list(range(1, 129))
    seven, rest = keys[-7:], keys[:-7]
    games = [Game(1 + k % 6, a, b) for k, (a, b) in enumerate(itertools.combinations(seven, 2))]
    for number in range(1, 7):
        rng.shuffle(rest)
        games += [
            Game(number, rest[i], rest[i + 1], None, rng.randint(0, 15), rng.randint(0, 15))
            for i in range(0, len(rest) - 1, 2)
        ]
    draw = pair_round(7, keys, games, [], [f"map {n}" for n in range(64)], seed=5)
    assert draw.rematches == 0 and sorted(draw.ranked[-7:]) == seven
    assert max(sizes) < 128 * 127 // 4  # banded graphs only, never every pair
