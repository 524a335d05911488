"""The read model of an event run by the Swiss system: ``EventPlay`` loads an event's rounds,
pairings, results, byes and drops once (a few queries, whatever the size of the event) and
hands the pure engine (events/swiss.py) its games; what the round pages, the players' pages
and the standings show is read from it. Nothing here writes: the writes are events/commands.py."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q

from events.models import (
    Bye,
    Drop,
    Entry,
    Event,
    Pairing,
    Result,
    Round,
    StaleEvent,
    Swiss,
)
from events.pairings import player_key
from events.swiss import (
    Bye as ByeOf,
)
from events.swiss import (
    Game,
    Standing,
    rounds_complete,
    standings,
)
from onefinity.http import stale_words

MAX_LISTED = 12  # tables named in one message


def swiss_of(event: Event) -> Swiss:
    swiss, _ = Swiss.objects.get_or_create(event=event)
    return swiss


def number_key(number: int) -> str:
    """A table of a round without maps: only its number identifies it."""
    return f"number {number}"


def listed(numbers: list[int]) -> str:
    shown = ", ".join(str(n) for n in numbers[:MAX_LISTED])
    more = len(numbers) - MAX_LISTED
    return shown + (f" and {more} more" if more > 0 else "")


def plural(count: int, word: str, words: str | None = None) -> str:
    return f"{count} {word if count == 1 else (words or word + 's')}"


def result_of(pairing: Pairing) -> Result | None:
    found: Result | None = getattr(pairing, "result", None)
    return found


def stale_round(number: int) -> StaleEvent:
    return StaleEvent(stale_words(f"Round {number}"))


# --- Reading ---------------------------------------------------------------------------------


@dataclass
class RoundState:
    """Where a round stands: paired, published, and its results."""

    number: int
    paired: bool
    published: bool
    games: int
    confirmed: int
    disputed: list[int] = field(default_factory=list)  # table numbers
    waiting: list[int] = field(default_factory=list)  # one player reported
    missing: list[int] = field(default_factory=list)  # nobody reported
    bye: str = ""

    @property
    def complete(self) -> bool:
        return self.paired and self.confirmed == self.games

    @property
    def label(self) -> str:
        if not self.paired:
            return "not paired"
        if self.complete:
            return "results in"
        parts = [f"{self.confirmed} of {self.games} results in"]
        if self.disputed:
            parts.append(f"{len(self.disputed)} disputed")
        missing = len(self.waiting) + len(self.missing)
        if missing:
            parts.append(f"{missing} missing")
        return ", ".join(parts)


@dataclass
class StandingRow:
    standing: Standing
    entry: Entry
    dropped_after: int | None
    corrected: bool = False  # a game of theirs was corrected after its round closed

    @property
    def name(self) -> str:
        return self.entry.player_name


@dataclass
class GameRow:
    """One game of a round as the organizer's round page shows it."""

    pairing: Pairing
    result: Result | None
    table_name: str
    warnings: list[str]
    a_name: str
    b_name: str

    @property
    def named_table(self) -> str:
        """The table's name when it has one of its own (a map's name)."""
        return "" if self.table_name == f"Table {self.pairing.table}" else self.table_name

    @property
    def status(self) -> str:
        result = self.result
        if result is None or not result.started:
            return "missing"
        if result.confirmed:
            return "confirmed"
        return "disputed" if result.disputed else "waiting"


class EventPlay:
    """An event's rounds, pairings, results, byes and drops, loaded once (a few queries,
    whatever the size of the event)."""

    def __init__(self, event: Event, with_tables: bool = False) -> None:
        self.event = event
        self.swiss = swiss_of(event)
        # The rounds' table documents (up to 128 maps each) are read only where a page
        # shows their names; what identifies each table is kept by round and version.
        rounds = event.rounds.defer("tables").order_by("number")
        self.rounds = {r.number: r for r in rounds}
        self.with_tables = with_tables
        self.entries = {e.pk: e for e in event.entries.select_related("player")}
        drops = list(Drop.objects.filter(entry__event=event))
        self.drops = {d.entry_id: d.after_round for d in drops}
        self.self_drops = {d.entry_id: d.after_round for d in drops if d.by_player}
        numbers = {r.pk: r.number for r in self.rounds.values()}
        self.pairings: defaultdict[int, list[Pairing]] = defaultdict(list)
        for pairing in (
            Pairing.objects.filter(round__event=event).select_related("result").order_by("table")
        ):
            self.pairings[numbers[pairing.round_id]].append(pairing)
        self.byes: defaultdict[int, list[Bye]] = defaultdict(list)
        for bye in Bye.objects.filter(round__event=event).order_by("pk"):
            self.byes[numbers[bye.round_id]].append(bye)
        self._keys: dict[int, list[str]] = {}

    # names
    def name(self, entry_id: int) -> str:
        entry = self.entries.get(entry_id)
        return entry.player_name if entry is not None else "(removed)"

    def by_name(self, typed: str) -> int | None:
        wanted = player_key(typed)
        for pk, entry in self.entries.items():
            if player_key(entry.player_name) == wanted:
                return pk
        return None

    # tables
    def table_keys(self, number: int) -> list[str]:
        """What identifies each of the round's tables (read when its tables were set)."""
        if number not in self._keys:
            self._keys[number] = [str(k) for k in self.rounds[number].table_keys]
        return self._keys[number]

    def use_tables(self, number: int, keys: list[str]) -> list[str]:
        """Round ``number`` is about to take tables with these identities."""
        self._keys[number] = list(keys)
        return self._keys[number]

    def has_map(self, number: int, table: int) -> bool:
        """Whether round ``number``'s table ``table`` is one of its tables (a map), not a
        number alone."""
        return 1 <= table <= len(self.table_keys(number))

    def key_of(self, number: int, table: int) -> str:
        keys = self.table_keys(number)
        return keys[table - 1] if 1 <= table <= len(keys) else number_key(table)

    # the engine's view
    def games(self, before: int | None = None, tables: bool = False) -> list[Game]:
        found = []
        for number, pairings in sorted(self.pairings.items()):
            if before is not None and number >= before:
                continue
            for p in pairings:
                result = result_of(p)
                confirmed = result is not None and result.confirmed
                found.append(
                    Game(
                        round=number,
                        a=p.player_a_id,
                        b=p.player_b_id,
                        table=self.key_of(number, p.table) if tables else None,
                        a_vp=result.a_vp if confirmed and result else None,
                        b_vp=result.b_vp if confirmed and result else None,
                    )
                )
        return found

    def bye_list(self, before: int | None = None) -> list[ByeOf]:
        return [
            ByeOf(number, bye.entry_id)
            for number, byes in sorted(self.byes.items())
            if before is None or number < before
            for bye in byes
        ]

    def standings(self) -> list[StandingRow]:
        table = standings(
            self.entries, self.games(), self.bye_list(), self.swiss.bye_vp, self.swiss.seed
        )
        corrected = {
            player
            for pairings in self.pairings.values()
            for p in pairings
            if (result := result_of(p)) is not None and result.corrected
            for player in (p.player_a_id, p.player_b_id)
        }
        return [
            StandingRow(s, self.entries[s.player], self.drops.get(s.player), s.player in corrected)
            for s in table
            if s.player in self.entries
        ]

    def rounds_played(self) -> int:
        return rounds_complete(self.games())

    def paired(self, number: int) -> bool:
        return bool(self.pairings.get(number) or self.byes.get(number))

    def next_to_pair(self) -> int | None:
        """The round a check-in is for: the first one not paired (None: all are)."""
        return next((n for n in self.rounds if not self.paired(n)), None)

    def checked_in(self, number: int) -> set[int]:
        return {pk for pk, e in self.entries.items() if e.checked_in_for == number}

    def check_in_open(self, number: int) -> bool:
        """Whether the organizer opened check-in for round ``number``."""
        round_ = self.rounds.get(number)
        return round_ is not None and round_.check_in_opened_at is not None

    def checks_in(self, number: int) -> bool:
        """Whether round ``number`` pairs only the checked-in: once the organizer opened
        check-in for it, or anyone is checked in for it (the contract's rule)."""
        return self.check_in_open(number) or bool(self.checked_in(number))

    def active(self, number: int) -> list[int]:
        """Who round ``number`` pairs: every player who has not dropped before it; once
        check-in is in use for it, only the checked-in ones."""
        staying = [
            pk for pk in self.entries if self.drops.get(pk) is None or self.drops[pk] >= number
        ]
        if not self.checks_in(number):
            return staying
        checked = self.checked_in(number)
        return [pk for pk in staying if pk in checked]

    def closed(self, number: int) -> bool:
        """Whether round ``number``'s results are settled: the organizer closed it, paired
        the next round, or finished the event. Only the organizer's logged corrections
        change them from then on."""
        round_ = self.rounds.get(number)
        return (
            self.event.finished_at is not None
            or (round_ is not None and round_.closed_at is not None)
            or (number + 1 in self.rounds and self.paired(number + 1))
        )

    def state(self, number: int) -> RoundState:
        round_ = self.rounds[number]
        pairings = self.pairings.get(number, [])
        state = RoundState(
            number,
            self.paired(number),
            round_.published,
            len(pairings),
            0,
            bye=", ".join(self.name(b.entry_id) for b in self.byes.get(number, [])),
        )
        for pairing in pairings:
            result = result_of(pairing)
            if result is not None and result.confirmed:
                state.confirmed += 1
            elif result is not None and result.disputed:
                state.disputed.append(pairing.table)
            elif result is not None and result.started:
                state.waiting.append(pairing.table)
            else:
                state.missing.append(pairing.table)
        return state

    def states(self) -> list[RoundState]:
        return [self.state(n) for n in self.rounds]

    def seat_warnings(self, number: int) -> dict[int, list[str]]:
        """For each game of round ``number`` (by pairing id), what the organizer is warned of:
        a rematch, a player at a map they played before. Needs the tables."""
        met: dict[frozenset[int], list[int]] = defaultdict(list)
        tables: dict[tuple[int, str], list[int]] = defaultdict(list)
        for game in self.games(before=number, tables=True):
            met[frozenset((game.a, game.b))].append(game.round)
            if game.table is not None:
                tables[game.a, game.table].append(game.round)
                tables[game.b, game.table].append(game.round)
        found: dict[int, list[str]] = {}
        for pairing in self.pairings.get(number, []):
            warnings = []
            a, b = pairing.player_a_id, pairing.player_b_id
            if met.get(frozenset((a, b))):
                rounds = met[frozenset((a, b))]
                warnings.append(
                    f"Rematch: {self.name(a)} and {self.name(b)} met in round {listed(rounds)}."
                )
            # Only a map is a table one can have played: a round without tables has table
            # numbers alone, and "table 1" again is no repeat.
            key = self.key_of(number, pairing.table) if self.has_map(number, pairing.table) else ""
            for player in (a, b):
                if key and tables.get((player, key)):
                    warnings.append(
                        f"{self.name(player)} played this table in round "
                        f"{listed(tables[player, key])}."
                    )
            if self.drops.get(a) is not None and self.drops[a] < number:
                warnings.append(f"{self.name(a)} dropped after round {self.drops[a]}.")
            if self.drops.get(b) is not None and self.drops[b] < number:
                warnings.append(f"{self.name(b)} dropped after round {self.drops[b]}.")
            found[pairing.pk] = warnings
        return found

    def bye_warnings(self, number: int) -> list[str]:
        earlier: dict[int, list[int]] = defaultdict(list)
        for bye in self.bye_list(before=number):
            earlier[bye.player].append(bye.round)
        return [
            f"{self.name(b.entry_id)} had a bye in round {listed(earlier[b.entry_id])} already."
            for b in self.byes.get(number, [])
            if earlier.get(b.entry_id)
        ]

    def game_rows(self, number: int) -> list[GameRow]:
        warnings = self.seat_warnings(number)
        round_ = self.rounds[number]
        return [
            GameRow(
                p,
                result_of(p),
                round_.table_name(p.table),
                warnings.get(p.pk, []),
                self.name(p.player_a_id),
                self.name(p.player_b_id),
            )
            for p in self.pairings.get(number, [])
        ]

    def unpaired(self, number: int) -> list[Entry]:
        """Registered players with neither a game nor a bye in the round (late joiners,
        dropped players, anyone the typed pairings left out)."""
        seated = {b.entry_id for b in self.byes.get(number, [])}
        for p in self.pairings.get(number, []):
            seated |= {p.player_a_id, p.player_b_id}
        return [e for pk, e in self.entries.items() if pk not in seated]

    def own_name(self, round_: Round, table: int) -> str:
        name = round_.table_name(table) if self.with_tables else ""
        return "" if name == f"Table {table}" else name

    def last_paired(self) -> int:
        return max((n for n in self.rounds if self.paired(n)), default=0)

    def under_way(self) -> int | None:
        """The round of the day: the last one paired, until it is closed (None: none is)."""
        number = self.last_paired()
        return number if number and not self.closed(number) else None


# --- The contract's documents, and a player's history ----------------------------------------


def pairings_document(play: EventPlay, number: int) -> dict[str, Any]:
    """The contract's pairings.json: every game by table, then the byes."""
    rows: list[dict[str, Any]] = [
        {"table": p.table, "a": play.name(p.player_a_id), "b": play.name(p.player_b_id)}
        for p in play.pairings.get(number, [])
    ]
    rows += [
        {"table": None, "a": play.name(b.entry_id), "b": None} for b in play.byes.get(number, [])
    ]
    ends_at = play.rounds[number].ends_at if number in play.rounds else None
    return {
        "round": number,
        "pairings": rows,
        "ends_at": ends_at.isoformat() if ends_at is not None else None,
    }


def standings_document(play: EventPlay) -> dict[str, Any]:
    """The contract's standings.json."""
    return {
        "rounds_played": play.rounds_played(),
        "standings": [
            {
                "rank": row.standing.rank,
                "player": row.name,
                "wins": row.standing.wins,
                "draws": row.standing.draws,
                "losses": row.standing.losses,
                "vp": row.standing.vp,
                "sos": row.standing.sos,
            }
            for row in play.standings()
        ],
    }


def history(play: EventPlay, entry_id: int, published_only: bool) -> list[dict[str, Any]]:
    """A player's rounds: opponent, side, table, result."""
    rows = []
    for number, round_ in play.rounds.items():
        if published_only and not round_.published:
            continue
        for bye in play.byes.get(number, []):
            if bye.entry_id == entry_id:
                rows.append(
                    {
                        "round": number,
                        "bye": True,
                        "outcome": "bye",
                        "vp": play.swiss.bye_vp,
                    }
                )
        for p in play.pairings.get(number, []):
            if entry_id not in (p.player_a_id, p.player_b_id):
                continue
            side_a = p.player_a_id == entry_id
            result = result_of(p)
            row: dict[str, Any] = {
                "round": number,
                "bye": False,
                "opponent": play.entries.get(p.player_b_id if side_a else p.player_a_id),
                "side": "A" if side_a else "B",
                "table": p.table,
                "table_name": play.own_name(round_, p.table),
                "outcome": "pending",
            }
            if result is not None and result.confirmed:
                assert result.a_vp is not None and result.b_vp is not None
                mine, theirs = (result.a_vp, result.b_vp) if side_a else (result.b_vp, result.a_vp)
                row |= {
                    "vp": mine,
                    "vp_against": theirs,
                    "outcome": "win" if mine > theirs else "loss" if mine < theirs else "draw",
                }
            rows.append(row)
    return rows


def closed_words(play: EventPlay, number: int) -> str:
    """Why round ``number``'s results no longer change, in the players' words."""
    if play.event.finished_at is not None:
        return f"{play.event.name} is finished: its final standings are published"
    if number + 1 in play.rounds and play.paired(number + 1):
        return f"Round {number + 1} is paired"
    return f"The organizer closed round {number}"


def next_steps(play: EventPlay) -> list[str]:
    """What the organizer does next, from the first round not finished; first, the
    players who dropped themselves."""
    told = (
        [
            f"{play.name(pk)} dropped out after round {after} (from their phone)."
            for pk, after in sorted(play.self_drops.items())[:MAX_LISTED]
            if not play.entries[pk].departed
        ]
        if play.event.finished_at is None
        else []
    )
    return told + _round_steps(play)


def _round_steps(play: EventPlay) -> list[str]:
    """The next step of the first round not finished (or of the finished event)."""
    active = [pk for pk in play.entries if pk not in play.drops]
    if len(active) < 2:
        return ["Wait for at least two players: pairing needs them."]
    for state in play.states():
        n = state.number
        if not state.paired:
            has_tables = any(play.rounds[k].tables_source for k in range(1, n + 1))
            tables = "" if has_tables else " (attach its tables first)"
            check_in = (
                f" ({len(play.checked_in(n))} checked in)"
                if play.checks_in(n)
                else "; at the venue, open check-in first so that only those present are paired"
            )
            return [f"Pair round {n}{tables}: Swiss pairing is one button on its page{check_in}."]
        seatless = [
            e.player_name
            for e in play.unpaired(n)
            if play.drops.get(e.pk) is None or play.drops[e.pk] >= n
        ]
        if seatless and state.confirmed == 0 and not state.disputed and not state.waiting:
            return [
                f"{', '.join(seatless[:MAX_LISTED])} {'has' if len(seatless) == 1 else 'have'}"
                f" no seat in round {n} (joined after it was paired?): pair it again."
            ]
        if not state.published:
            return [f"Check round {n}'s pairings and tables, then publish it to the players."]
        if not state.complete:
            steps = []
            if state.disputed:
                steps.append(
                    f"Round {n}: settle the disputed "
                    f"{'result' if len(state.disputed) == 1 else 'results'} at table "
                    f"{listed(state.disputed)}."
                )
            waiting = sorted(state.waiting + state.missing)
            if waiting:
                steps.append(
                    f"Round {n}: {plural(len(waiting), 'result')} missing (table "
                    f"{listed(waiting)}); players report from their phones, or enter them."
                )
            return steps
    if play.event.finished_at is None:
        return [
            "Every round is played: publish the final standings and finish the event "
            "(on the standings page)."
        ]
    return ["The event is finished: the final standings are published."]


def pair_problem(play: EventPlay, number: int) -> str | None:
    """Why round ``number`` cannot be paired now (None: it can)."""
    later = [n for n in play.rounds if n > number and play.paired(n)]
    if later:
        return (
            f"Round {later[0]} is already paired: rounds are paired in order, and round "
            f"{number}'s pairings can no longer change."
        )
    started = [p.table for p in play.pairings.get(number, []) if (r := result_of(p)) and r.started]
    if started:
        return (
            f"Round {number} has results reported at table {listed(started)} (confirmed or "
            "not): a round is paired again only before any result. Swap players or tables "
            "instead."
        )
    for earlier in range(1, number):
        state = play.state(earlier)
        if not state.paired:
            return f"Pair round {earlier} first: rounds are paired in order."
        if not state.complete:
            open_tables = sorted(state.disputed + state.waiting + state.missing)
            disputed = f" ({listed(state.disputed)} disputed)" if state.disputed else ""
            return (
                f"Round {earlier} still needs results at table {listed(open_tables)}"
                f"{disputed}: confirm or enter them before round {number} is paired."
            )
    active = play.active(number)
    if len(active) < 2 and play.checks_in(number):
        who = "no player is" if not active else "only one player is"
        return (
            f"Check-in for round {number} is open and {who} checked in: pairing needs at "
            "least two. Players check in from their event page, or tick them in the check-in "
            "list."
        )
    if len(active) < 2:
        return "Pairing needs at least two players who have not dropped."
    return None


def round_started(round_: Round) -> bool:
    """Whether anything of the round was reported or entered."""
    return (
        Result.objects.filter(pairing__round=round_)
        .filter(
            Q(a_vp__isnull=False)
            | Q(a_reports_a_vp__isnull=False)
            | Q(b_reports_a_vp__isnull=False)
        )
        .exists()
    )


def round_page(event: Event, round_: Round) -> dict[str, Any]:
    """What the organizer's round page shows of the Swiss system."""
    play = EventPlay(event, with_tables=True)
    number = round_.number
    state = play.state(number)
    check_in = None
    if number == play.next_to_pair():
        checked = play.checked_in(number)
        check_in = {
            "open": play.check_in_open(number),
            "count": len(checked),
            "rows": [
                (entry, entry.pk in checked)
                for pk, entry in sorted(play.entries.items(), key=lambda i: i[1].player_name)
                if play.drops.get(pk) is None or play.drops[pk] >= number
            ],
        }
    return {
        "check_in": check_in,
        # An odd number to pair: the pairing form asks the bye's VP (kept for the event).
        "bye_asked": not state.paired and len(play.active(number)) % 2 == 1,
        "swiss": play.swiss,
        "state": state,
        "games": play.game_rows(number),
        "byes": [play.name(b.entry_id) for b in play.byes.get(number, [])],
        "bye_warnings": play.bye_warnings(number),
        "seatless": [e.player_name for e in play.unpaired(number)] if state.paired else [],
        "pair_problem": pair_problem(play, number),
        "closed": play.closed(number),
        "closed_words": closed_words(play, number) if play.closed(number) else "",
        "can_close": state.complete and not play.closed(number),
        "player_names": sorted(e.player_name for e in play.entries.values()),
    }


def dashboard(event: Event, rounds: Sequence[Round]) -> dict[str, Any]:
    """The dashboard's part: each round's state (set on the rounds the dashboard lists, as
    ``state``) and what to do next."""
    play = EventPlay(event)
    for round_ in rounds:
        if round_.number in play.rounds:
            round_.state = play.state(round_.number)  # type: ignore[attr-defined]
    return {
        "settings": play.swiss,
        "next_steps": next_steps(play),
        "rounds_played": play.rounds_played(),
    }


def my_page(event: Event, entry: Entry, rounds: list[dict[str, Any]]) -> dict[str, Any]:
    """What the player's event page shows of the day: their games (my_games), the round
    under way (paired and not closed, published or not), the round they can check in for,
    whether they are checked in, and their drop."""
    play = EventPlay(event)
    number = play.next_to_pair()
    current = play.entries.get(entry.pk, entry)
    under_way = play.under_way()
    return {
        "rounds": my_games(event, entry, rounds, play),
        "day": {
            "under_way": under_way,
            "under_way_published": under_way is not None and play.rounds[under_way].published,
            "check_in_round": number if event.finished_at is None else None,
            "check_in_open": number is not None and play.check_in_open(number),
            "checked_in": number is not None and current.checked_in_for == number,
            "dropped_after": play.drops.get(entry.pk),
            "last_paired": play.last_paired(),
            "finished": event.finished_at is not None,
        },
    }


def my_games(
    event: Event, entry: Entry, rounds: list[dict[str, Any]], play: EventPlay | None = None
) -> list[dict[str, Any]]:
    """The player's published rounds (as the entry page lists them) with each game's result
    and whether it can still be reported."""
    play = play or EventPlay(event)
    for row in rounds:
        number = row["round"].number
        row["bye"] = any(b.entry_id == entry.pk for b in play.byes.get(number, []))
        row["bye_vp"] = play.swiss.bye_vp
        # Open: results still change (and the round's clock shows, a bye's player too).
        row["open"] = not play.closed(number)
        row["closed_words"] = closed_words(play, number) if not row["open"] else ""
        pairing = row.get("pairing")
        if pairing is None:
            continue
        name = row.get("table_name", "")
        row["own_table_name"] = "" if name == f"Table {pairing.table}" else name
        found = next((p for p in play.pairings.get(number, []) if p.pk == pairing.pk), None)
        result = result_of(found) if found is not None else None
        side_a = pairing.player_a_id == entry.pk
        row["result"] = result
        if result is None:
            continue
        if result.confirmed:
            assert result.a_vp is not None and result.b_vp is not None
            mine, theirs = (result.a_vp, result.b_vp) if side_a else (result.b_vp, result.a_vp)
            row["final"] = {
                "vp": mine,
                "vp_against": theirs,
                "outcome": "won" if mine > theirs else "lost" if mine < theirs else "drew",
            }
        mine_sent = result.report_of_a if side_a else result.report_of_b
        theirs_sent = result.report_of_b if side_a else result.report_of_a
        if mine_sent is not None:
            row["my_report"] = mine_sent if side_a else (mine_sent[1], mine_sent[0])
        if theirs_sent is not None:
            row["their_report"] = theirs_sent if side_a else (theirs_sent[1], theirs_sent[0])
        row["by_organizer"] = result.by_organizer
        row["corrected"] = result.corrected
        row["disputed"] = result.disputed
    return rounds


def add_results(event: Event, rounds: list[dict[str, Any]]) -> None:
    """The overview of the rounds (as events.entry_views lists them): each game's result
    once it counts, and each round's bye."""
    play = EventPlay(event)
    results = {
        p.pk: result
        for pairings in play.pairings.values()
        for p in pairings
        if (result := result_of(p)) is not None and result.confirmed
    }
    for row in rounds:
        number = row["round"].number
        row["byes"] = [play.name(b.entry_id) for b in play.byes.get(number, [])]
        for item in row["pairings"]:
            item["result"] = results.get(item["pairing"].pk)
