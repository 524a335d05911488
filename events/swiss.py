"""The Swiss system of an event: the standings, and the pairing of a round with its tables.
Pure Python (networkx for the matchings), strictly typed: the caller passes the players as
keys (the entries' ids), the games and byes of the rounds before, and what identifies each
of the round's tables; no Django.

Standings (``standings``). A game is won by the higher victory points (VP); equal VP is a
draw. A bye is a win with the VP the organizer sets. Players are ranked by

1. score: wins, a draw counting half;
2. strength of schedule (SoS): the sum of their opponents' scores; a bye counts as a game
   against a virtual opponent with the score the player had when that round began (as
   FIDE's tie-break rules count a round without a game, without the virtual opponent's
   later draws), so a bye neither drags a player's SoS down nor lifts it;
3. VP scored, in total;
4. the event's lot: an order drawn at random once from the event's seed, so no two players
   ever share a rank, and the same results always give the same standings.

Scores are kept in half points (``score2``, ``sos2``) so that every sum is exact.

Pairing (``pair_round``). Round 1 is drawn at random from the event's seed (the same seed,
players and round give the same draw), the organizer's seeded players first: the first
half of that order meets the second half (seed 1 against the first player of the second
half), so seeds do not meet in round 1. Later rounds rank the players by the standings and
pair them by a maximum-weight matching whose weights put, in this order of priority:

1. no second bye while a player without one is left (a hard rule);
2. as few rematches as possible (none while avoidable);
3. the bye to the lowest-ranked player who may have it;
4. as little pairing across score groups as possible: the least sum of squared score
   differences;
5. neighbours in the standings together (1 against 2, 3 against 4), as little rank
   distance as possible.

Each priority weighs more than everything below it could add up to, so the matching's
optimum is the lexicographic one. Events of up to EXACT_UP_TO players are matched over every
pair: the exact optimum. A dense graph of 256 players takes more than a second, so a larger
event is first matched over the players within WINDOW places of each other in the standings;
when that finds no perfect matching, or only one with a rematch, every pair is looked at
again (exact, and slow). The window keeps every law (no rematch or second bye while
avoidable); only the spread of score groups could, in principle, be a little worse than the
optimum (benchmarks/swiss.py measured the same costs with windows of 6, 8 and 10). Beyond
its window each player also gets an edge to their nearest opponents they have not met (as
many as the window is wide): a group that has all met each other at the foot of the
standings (seven players, in the crafted field of benchmarks/swiss_scale.py) is paired
without the exact search, which took 2 s at 256 players. The tables' matching does the
same with each game's nearest tables neither player has played.

Tables (``assign_tables``): the games, best-ranked first, get distinct tables by another
matching: as few players as possible at a table they played before (none while avoidable),
then the top games on the first tables. A table is identified by what the caller says (the
map it shows), so the same map in two rounds is the same table.
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import networkx as nx


MAX_VP = 99
# Events up to this size are matched exactly; larger ones first within WINDOW places of the
# standings (see above). Both figures come from benchmarks/swiss.py.
EXACT_UP_TO = 48
WINDOW = 6


class SwissError(ValueError):
    """The round cannot be paired as asked; the message says why."""


@dataclass(frozen=True)
class Game:
    """A game of an earlier round (or of this one, for the standings). ``table`` identifies
    the table it was played on (None: unknown); the VP are None until the result is in."""

    round: int
    a: int
    b: int
    table: str | None = None
    a_vp: int | None = None
    b_vp: int | None = None

    @property
    def decided(self) -> bool:
        return self.a_vp is not None and self.b_vp is not None


@dataclass(frozen=True)
class Bye:
    round: int
    player: int


@dataclass(frozen=True)
class Standing:
    rank: int
    player: int
    wins: int  # byes included
    draws: int
    losses: int
    byes: int
    vp: int  # scored, bye VP included
    vp_against: int
    sos2: int  # strength of schedule, in half points
    lot: int

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses - self.byes

    @property
    def score2(self) -> int:
        return 2 * self.wins + self.draws

    @property
    def score(self) -> int | float:
        return half(self.score2)

    @property
    def sos(self) -> int | float:
        return half(self.sos2)


def half(points2: int) -> int | float:
    """Half points as a number: 7 for 14, 7.5 for 15."""
    return points2 // 2 if points2 % 2 == 0 else points2 / 2


def lot(seed: int, player: int) -> int:
    """The player's place in the event's drawn order (the last tie-break): a number fixed
    by the event's seed and the player, the same on every page and every server."""
    digest = hashlib.sha256(f"onefinity-lot:{seed}:{player}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def standings(
    players: Iterable[int], games: Iterable[Game], byes: Iterable[Bye], bye_vp: int, seed: int
) -> list[Standing]:
    """Every player (those given, and anyone in a game or bye), ranked as the module says.
    Only decided games count."""
    games, byes = list(games), list(byes)  # read twice: the scores, then the byes' SoS
    keys = set(players)
    wins: Counter[int] = Counter()
    draws: Counter[int] = Counter()
    losses: Counter[int] = Counter()
    bye_count: Counter[int] = Counter()
    scored: Counter[int] = Counter()
    conceded: Counter[int] = Counter()
    opponents: defaultdict[int, list[int]] = defaultdict(list)
    for game in games:
        if game.a_vp is None or game.b_vp is None:
            continue
        keys |= {game.a, game.b}
        opponents[game.a].append(game.b)
        opponents[game.b].append(game.a)
        scored[game.a] += game.a_vp
        scored[game.b] += game.b_vp
        conceded[game.a] += game.b_vp
        conceded[game.b] += game.a_vp
        if game.a_vp > game.b_vp:
            wins[game.a] += 1
            losses[game.b] += 1
        elif game.a_vp < game.b_vp:
            wins[game.b] += 1
            losses[game.a] += 1
        else:
            draws[game.a] += 1
            draws[game.b] += 1
    for bye in byes:
        keys.add(bye.player)
        wins[bye.player] += 1
        bye_count[bye.player] += 1
        scored[bye.player] += bye_vp
    score2 = {p: 2 * wins[p] + draws[p] for p in keys}
    sos2 = _sos2(keys, score2, opponents, games, byes)
    lots = {p: lot(seed, p) for p in keys}
    order = sorted(keys, key=lambda p: (-score2[p], -sos2[p], -scored[p], lots[p], p))
    return [
        Standing(
            rank=index,
            player=p,
            wins=wins[p],
            draws=draws[p],
            losses=losses[p],
            byes=bye_count[p],
            vp=scored[p],
            vp_against=conceded[p],
            sos2=sos2[p],
            lot=lots[p],
        )
        for index, p in enumerate(order, start=1)
    ]


def _sos2(
    keys: set[int],
    score2: Mapping[int, int],
    opponents: Mapping[int, list[int]],
    games: Iterable[Game],
    byes: Iterable[Bye],
) -> dict[int, int]:
    """Each player's strength of schedule, in half points: their opponents' scores, and for
    each bye a virtual opponent with the score the player had when that round began (FIDE's
    tie-break rules' virtual opponent, without its later draws): a bye neither drags a player
    down nor lifts them."""
    byes = list(byes)
    before = _scores_before_byes(games, byes)
    bye_rounds: defaultdict[int, list[int]] = defaultdict(list)
    for bye in byes:
        bye_rounds[bye.player].append(bye.round)
    return {
        p: sum(score2[o] for o in opponents.get(p, [])) + sum(before[p, r] for r in bye_rounds[p])
        for p in keys
    }


def _scores_before_byes(games: Iterable[Game], byes: Iterable[Bye]) -> Counter[tuple[int, int]]:
    """For each bye (player, round): the player's score, in half points, from the rounds
    before that one."""
    byes = list(byes)
    wanted: defaultdict[int, list[int]] = defaultdict(list)
    for bye in byes:
        wanted[bye.player].append(bye.round)
    before: Counter[tuple[int, int]] = Counter()
    if not wanted:
        return before
    for game in games:
        if game.a_vp is None or game.b_vp is None:
            continue
        for player, mine, theirs in (
            (game.a, game.a_vp, game.b_vp),
            (game.b, game.b_vp, game.a_vp),
        ):
            points = 2 if mine > theirs else 1 if mine == theirs else 0
            for round_ in wanted.get(player, ()):
                if game.round < round_:
                    before[player, round_] += points
    for bye in byes:
        for round_ in wanted[bye.player]:
            if bye.round < round_:
                before[bye.player, round_] += 2
    return before


def rounds_complete(games: Iterable[Game]) -> int:
    """How many rounds, from round 1 on, have every game decided (and at least one game)."""
    by_round: defaultdict[int, list[Game]] = defaultdict(list)
    for game in games:
        by_round[game.round].append(game)
    complete = 0
    while by_round.get(complete + 1) and all(g.decided for g in by_round[complete + 1]):
        complete += 1
    return complete


# --- Pairing --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Seat:
    """One game of the drawn round: side A (the better ranked), side B, and the table's
    number (from 1, into the tables the caller gave)."""

    a: int
    b: int
    table: int


@dataclass(frozen=True)
class Draw:
    round: int
    seats: tuple[Seat, ...]
    bye: int | None
    rematches: int  # games whose players met before
    repeated_tables: int  # players at a table they played before
    ranked: tuple[int, ...] = field(default=())  # the players in the order they were paired


@dataclass
class History:
    """What the rounds before say about each player."""

    met: set[frozenset[int]]
    byes: Counter[int]
    tables: defaultdict[int, set[str]]

    @classmethod
    def of(cls, games: Iterable[Game], byes: Iterable[Bye]) -> History:
        met: set[frozenset[int]] = set()
        tables: defaultdict[int, set[str]] = defaultdict(set)
        for game in games:
            met.add(frozenset((game.a, game.b)))
            if game.table is not None:
                tables[game.a].add(game.table)
                tables[game.b].add(game.table)
        return cls(met, Counter(b.player for b in byes), tables)


def first_round_order(
    players: Sequence[int], seed: int, number: int, seeding: Sequence[int]
) -> list[int]:
    """The organizer's seeded players in their order, then the rest in an order drawn from
    the seed (sorted first, so the draw does not depend on the order they came in)."""
    present = set(players)
    seeded = list(dict.fromkeys(p for p in seeding if p in present))
    rest = sorted(present - set(seeded))
    random.Random(f"onefinity-swiss:{seed}:{number}").shuffle(rest)
    return seeded + rest


def _fold(order: list[int]) -> tuple[list[tuple[int, int]], int | None]:
    bye = order[-1] if len(order) % 2 else None
    paired = order[:-1] if bye is not None else order
    half_count = len(paired) // 2
    return [(paired[i], paired[i + half_count]) for i in range(half_count)], bye


@dataclass(frozen=True)
class _Weights:
    rank: int  # one unit of squared rank distance
    score: int  # one unit of squared score difference (half points)
    bye: int  # one place higher in the standings for the bye
    rematch: int

    @classmethod
    def for_players(cls, count: int, score_spread: int) -> _Weights:
        edges = count // 2 + 1
        score = edges * count * count + 1
        bye = score * (edges * score_spread * score_spread + 1)
        rematch = bye * (count + 1)
        return cls(1, score, bye, rematch)


def pairing_cost(
    ranked: Sequence[int],
    pairs: Iterable[tuple[int, int]],
    bye: int | None,
    score2: Mapping[int, int],
    history: History,
) -> tuple[int, int, int, int]:
    """What the matching minimises, as its priorities: rematches, the bye's places above the
    last, squared score differences, squared rank distances. (The tests compare it with every
    possible pairing of small events.)"""
    place = {p: i for i, p in enumerate(ranked)}
    rematches = scores = distance = 0
    for a, b in pairs:
        rematches += frozenset((a, b)) in history.met
        scores += (score2[a] - score2[b]) ** 2
        distance += (place[a] - place[b]) ** 2
    bye_places = len(ranked) - 1 - place[bye] if bye is not None else 0
    return rematches, bye_places, scores, distance


def bye_candidates(ranked: Sequence[int], history: History) -> set[int]:
    """Who may have the bye: the players with the fewest byes (no second bye while someone
    has none)."""
    fewest = min(history.byes[p] for p in ranked)
    return {p for p in ranked if history.byes[p] == fewest}


def nearest_unmet(ranked: Sequence[int], history: History, i: int, reach: int) -> list[int]:
    """Beyond ``reach`` places of player ``i`` (by index into ``ranked``), the nearest
    players they have not met, above and below, about ``reach`` of them."""
    found: list[int] = []
    for step in range(reach + 1, len(ranked)):
        for j in (i - step, i + step):
            if 0 <= j < len(ranked) and frozenset((ranked[i], ranked[j])) not in history.met:
                found.append(j)
        if len(found) >= reach:
            break
    return found


def match_players(
    ranked: Sequence[int],
    score2: Mapping[int, int],
    history: History,
    window: int = WINDOW,
    exact_up_to: int = EXACT_UP_TO,
) -> tuple[list[tuple[int, int]], int | None]:
    import networkx as nx  # here, not at the top: 70 ms of every process's start

    count = len(ranked)
    scores = [score2[p] for p in ranked]
    weights = _Weights.for_players(count, max(scores) - min(scores))
    base = weights.rematch * 2
    bye_node = count if count % 2 else None
    may_bye = bye_candidates(ranked, history) if bye_node is not None else set()

    def cost(i: int, j: int) -> int:
        return (
            weights.rematch * (frozenset((ranked[i], ranked[j])) in history.met)
            + weights.score * (scores[i] - scores[j]) ** 2
            + weights.rank * (j - i) ** 2
        )

    def build(reach: int) -> nx.Graph[int]:
        graph: nx.Graph[int] = nx.Graph()
        graph.add_nodes_from(range(count + (bye_node is not None)))
        for i in range(count):
            for j in range(i + 1, min(count, i + reach + 1)):
                graph.add_edge(i, j, weight=base - cost(i, j))
            if reach < count:
                # Beyond the window, the nearest opponents not met: a group that all met
                # each other at the foot of the standings finds opponents, no full graph.
                for j in nearest_unmet(ranked, history, i, reach):
                    a, b = min(i, j), max(i, j)
                    graph.add_edge(a, b, weight=base - cost(a, b))
            if bye_node is not None and ranked[i] in may_bye:
                graph.add_edge(i, bye_node, weight=base - weights.bye * (count - 1 - i))
        return graph

    def solve(reach: int) -> tuple[list[tuple[int, int]], int | None] | None:
        matching = nx.max_weight_matching(build(reach), maxcardinality=True)
        if 2 * len(matching) != count + (bye_node is not None):
            return None
        pairs: list[tuple[int, int]] = []
        bye: int | None = None
        for u, v in matching:
            i, j = sorted((int(u), int(v)))
            if j == bye_node:
                bye = ranked[i]
            else:
                pairs.append((ranked[i], ranked[j]))
        return pairs, bye

    if count > exact_up_to and window < count - 1:
        found = solve(window)
        if found is not None and not any(frozenset(p) in history.met for p in found[0]):
            return found
    exact = solve(count)
    assert exact is not None  # a complete graph always has a perfect matching
    return exact


def assign_tables(
    games: Sequence[tuple[int, int]],
    tables: Sequence[str],
    history: History,
    window: int = WINDOW,
    exact_up_to: int = EXACT_UP_TO,
) -> list[int]:
    """For each game (best first), the index of its table: distinct tables, as few players
    as possible at a table they played before, then game i at table i as far as that allows."""
    import networkx as nx  # as in match_players

    count, available = len(games), len(tables)
    if count > available:
        raise SwissError(f"{count} games need {count} tables; there are {available}.")
    big = count * available * available + 1
    base = big * 3

    def repeats(g: int, t: int) -> int:
        a, b = games[g]
        return (tables[t] in history.tables[a]) + (tables[t] in history.tables[b])

    def fresh_beyond(g: int, reach: int) -> list[int]:
        """The nearest tables outside the window that neither player of game g played."""
        found: list[int] = []
        for step in range(reach + 1, available):
            for t in (g - step, g + step):
                if 0 <= t < available and not repeats(g, t):
                    found.append(t)
            if len(found) >= reach:
                break
        return found

    def solve(reach: int) -> list[int] | None:
        graph: nx.Graph[int] = nx.Graph()
        for g in range(count):
            near = range(max(0, g - reach), min(available, g + reach + 1))
            beyond = fresh_beyond(g, reach) if reach < available else []
            for t in [*near, *beyond]:
                graph.add_edge(g, count + t, weight=base - big * repeats(g, t) - (g - t) ** 2)
        matching = nx.max_weight_matching(graph, maxcardinality=True)
        if len(matching) != count:
            return None
        chosen = [0] * count
        for u, v in matching:
            g, t = sorted((int(u), int(v)))
            chosen[g] = t - count
        return chosen

    if count == 0:
        return []
    if available > exact_up_to and window < available:
        found = solve(window)
        if found is not None and not any(repeats(g, t) for g, t in enumerate(found)):
            return found
    exact = solve(available)
    assert exact is not None  # every game can sit at its own table: count <= available
    return exact


def pair_round(
    number: int,
    players: Iterable[int],
    games: Iterable[Game],
    byes: Iterable[Bye],
    tables: Sequence[str],
    seed: int,
    seeding: Sequence[int] = (),
    bye_vp: int = 0,
    window: int = WINDOW,
    exact_up_to: int = EXACT_UP_TO,
) -> Draw:
    """Pair round ``number`` of ``players`` (the active ones) given the games and byes of
    the rounds before it; ``tables`` identifies the round's tables, table 1 first.
    SwissError when fewer than two players, or fewer tables than games."""
    active = sorted(set(players))
    if len(active) < 2:
        raise SwissError("A round needs at least two players to pair.")
    if len(tables) < len(active) // 2:
        raise SwissError(
            f"{len(active)} players make {len(active) // 2} games, and the round has "
            f"{len(tables)} table{'s' if len(tables) != 1 else ''}."
        )
    earlier = [g for g in games if g.round < number]
    earlier_byes = [b for b in byes if b.round < number]
    history = History.of(earlier, earlier_byes)
    if not earlier and not earlier_byes:
        ranked = first_round_order(active, seed, number, seeding)
        pairs, bye = _fold(ranked)
    else:
        present = set(active)
        table = standings(active, earlier, earlier_byes, bye_vp, seed)
        ranked = [s.player for s in table if s.player in present]
        score2 = {s.player: s.score2 for s in table}
        pairs, bye = match_players(ranked, score2, history, window, exact_up_to)
    place = {p: i for i, p in enumerate(ranked)}
    ordered = sorted(
        (tuple(sorted(pair, key=place.__getitem__)) for pair in pairs),
        key=lambda pair: place[pair[0]],
    )
    games_in_order = [(a, b) for a, b in ordered]
    chosen = assign_tables(games_in_order, tables, history, window, exact_up_to)
    seats = tuple(Seat(a, b, t + 1) for (a, b), t in zip(games_in_order, chosen, strict=True))
    return Draw(
        round=number,
        seats=seats,
        bye=bye,
        rematches=sum(frozenset((s.a, s.b)) in history.met for s in seats),
        repeated_tables=sum(
            (tables[s.table - 1] in history.tables[s.a])
            + (tables[s.table - 1] in history.tables[s.b])
            for s in seats
        ),
        ranked=tuple(ranked),
    )
