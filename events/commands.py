"""The commands of an event run by the Swiss system: pairing, publishing, closing and
finishing, results and corrections, swaps, drops, check-in and the clock. Each takes the
request's fields already parsed (and, where its page sent one, the version the page showed)
and runs in one transaction that holds the round's row (``_lock_rounds``), so two of them on
one round never interleave; every record's write is a compare-and-swap on its version
(accounts.history.Versioned). Views read the request, call one of these and render."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.db.models import Q, Subquery
from django.utils import timezone

from events.models import (
    MAX_TABLES_PER_ROUND,
    Bye,
    Correction,
    Drop,
    Entry,
    Event,
    EventRefusal,
    Pairing,
    Result,
    Round,
    StaleEvent,
)
from events.pairings import PairingRow
from events.reading import (
    EventPlay,
    closed_words,
    listed,
    number_key,
    pair_problem,
    plural,
    result_of,
    round_started,
    stale_round,
    swiss_of,
)
from events.swiss import (
    Draw,
    SwissError,
    pair_round,
)

# --- Pairing a round --------------------------------------------------------------------------


@dataclass
class Paired:
    draw: Draw
    names: dict[int, str]
    tables_from: str  # the earlier round whose tables this one took, or ""
    was_published: bool


def _lock_rounds(event: Event, up_to: int) -> dict[int, Round]:
    locked = {
        r.number: r
        for r in Round.objects.select_for_update()
        .filter(event=event, number__lte=up_to)
        .defer("tables")
        .order_by("number")
    }
    if up_to not in locked:
        raise EventRefusal(f"{event.name} has no round {up_to}.")
    return locked


def _results_still_open(play: EventPlay, number: int) -> None:
    """Refuse a change a settled round no longer takes (a player's report, a swap, taking
    back the organizer's result)."""
    if play.closed(number):
        raise EventRefusal(
            f"{closed_words(play, number)}, so the results of round {number} are settled and "
            "nothing was changed. Ask the organizer if a result is wrong: they can correct it."
        )


def _tables_source(locked: dict[int, Round], number: int) -> Round | None:
    """The round whose tables round ``number`` is played on: its own, else the latest
    earlier round's."""
    if locked[number].table_names:
        return locked[number]
    return next((locked[n] for n in range(number - 1, 0, -1) if locked[n].table_names), None)


def _table_keys(play: EventPlay, number: int, source: Round | None, players: int) -> list[str]:
    """What identifies each table the round may use; EventRefusal when there are too few."""
    count = source.table_count if source is not None else 0
    needed = players // 2
    if count and count < needed:
        raise EventRefusal(
            f"{plural(players, 'player')} make {plural(needed, 'game')}, and round "
            f"{number} has {plural(count, 'table')}: attach a pack or saved "
            f"tables of at least {needed} (or type the pairings yourself)."
        )
    if needed > MAX_TABLES_PER_ROUND:
        raise EventRefusal(f"A round has at most {MAX_TABLES_PER_ROUND} games.")
    if source is None:
        return [number_key(n) for n in range(1, needed + 1)]
    return play.use_tables(number, [str(k) for k in source.table_keys])


def _copied_tables(source: Round, tables_from: str) -> dict[str, Any]:
    """The columns of a round taking ``source``'s tables: the documents copied inside the
    database (the painted boards are never read here), their names, keys and size."""
    return {
        "tables": Subquery(Round.objects.filter(pk=source.pk).values("tables")[:1]),
        "table_names": source.table_names,
        "table_keys": source.table_keys,
        "tables_bytes": source.tables_bytes,
        "tables_source": f"{tables_from}'s tables"[:200],
    }


def pair(event: Event, number: int, expected: int) -> Paired:
    """Pair round ``number`` by the Swiss system, replacing its pairings and bye if it has
    no result yet. EventRefusal (nothing saved) when it cannot be paired now; StaleEvent
    when the round changed since the organizer's page was drawn. The round is left
    unpublished: pairing never shows players anything."""
    with transaction.atomic():
        locked = _lock_rounds(event, number)
        round_ = locked[number]
        if round_.version != expected:
            raise stale_round(number)
        play = EventPlay(event, with_tables=True)
        problem = pair_problem(play, number)
        if problem:
            raise EventRefusal(problem)
        active = play.active(number)
        source = _tables_source(locked, number)
        tables_from = (
            f"round {source.number}" if source is not None and source is not round_ else ""
        )
        keys = _table_keys(play, number, source, len(active))
        seeding = [pk for pk in play.swiss.seeding if isinstance(pk, int)]
        try:
            draw = pair_round(
                number,
                active,
                play.games(before=number, tables=True),
                play.bye_list(before=number),
                keys,
                play.swiss.seed,
                seeding,
                play.swiss.bye_vp,
            )
        except SwissError as error:
            raise EventRefusal(str(error)) from None
        Pairing.objects.filter(round=round_).delete()
        Bye.objects.filter(round=round_).delete()
        Pairing.objects.bulk_create(
            Pairing(round=round_, table=s.table, player_a_id=s.a, player_b_id=s.b)
            for s in draw.seats
        )
        if draw.bye is not None:
            Bye.objects.create(round=round_, entry_id=draw.bye)
        # Pairing this round settles the ones before it.
        for earlier, held in locked.items():
            if earlier < number and held.closed_at is None:
                held.swap(held.version, closed_at=timezone.now())
        fields: dict[str, Any] = {"published": False}
        if source is not None and tables_from:
            fields |= _copied_tables(source, tables_from)
        was_published = round_.published
        round_.swap(expected, **fields)
        if tables_from:
            event.measure(check=False)  # the copy counts in the organizer's storage
    return Paired(
        draw, {pk: e.player_name for pk, e in play.entries.items()}, tables_from, was_published
    )


def publish_round(event: Event, number: int, published: bool, expected: int) -> None:
    """Publish round ``number`` to the players (or hide it again), holding the rounds' rows
    as pairing does: a round paired again in another tab since the page was drawn
    (StaleEvent) is never published unseen."""
    with transaction.atomic():
        round_ = _lock_rounds(event, number)[number]
        if round_.version != expected:
            raise stale_round(number)
        round_.swap(expected, published=published)


# --- Settling: closing a round, finishing the event --------------------------------------------


def close_round(event: Event, number: int, expected: int) -> None:
    """The organizer closes round ``number``: its results are settled (a player's report is
    refused from now on; the organizer still corrects, logged). Refused while a game of it
    has no confirmed result, and for a round not paired."""
    with transaction.atomic():
        round_ = _lock_rounds(event, number)[number]
        if round_.version != expected:
            raise stale_round(number)
        play = EventPlay(event)
        if play.closed(number):
            raise EventRefusal(f"Round {number} is already closed.")
        state = play.state(number)
        if not state.paired:
            raise EventRefusal(f"Round {number} is not paired: there is nothing to close.")
        if not state.complete:
            open_tables = sorted(state.disputed + state.waiting + state.missing)
            raise EventRefusal(
                f"Round {number} still needs results at table {listed(open_tables)}: settle "
                "or enter them, then close it. Nothing was changed."
            )
        round_.swap(expected, closed_at=timezone.now())


def finish(event: Event, expected: int) -> None:
    """Publish the final standings and finish the event: every round is closed. Refused
    (EventRefusal, nothing changed) until every round's results are in; StaleEvent when the
    standings' settings moved since the page was drawn."""
    with transaction.atomic():
        locked = _lock_rounds(event, event.round_count)
        play = EventPlay(event)
        unfinished = [s.number for s in play.states() if not s.complete]
        if unfinished:
            raise EventRefusal(
                f"Round {unfinished[0]} is not finished: pair it and settle its results before "
                "finishing the event. Nothing was changed."
            )
        now = timezone.now()
        play.swiss.swap(expected, standings_published=True)
        for held in locked.values():
            if held.closed_at is None:
                held.swap(held.version, closed_at=now)
        Event.objects.filter(pk=event.pk).update(finished_at=now)
        event.finished_at = now


# The round clock: its length, asked once per event (the organizer's last choice is offered).
MAX_ROUND_MINUTES = 600
DEFAULT_ROUND_MINUTES = 120


def save_settings(event: Event, expected: int, bye_vp: int, seeding: list[int]) -> None:
    """The Swiss settings page: the bye's VP and the organizer's seeds, if the settings are
    still at version ``expected`` (StaleEvent otherwise)."""
    swiss_of(event).swap(expected, bye_vp=bye_vp, seeding=seeding)


def publish_standings(event: Event, expected: int, publish: bool) -> None:
    """Publish the standings (live, for the players and the public link) or hide them."""
    try:
        swiss_of(event).swap(expected, standings_published=publish)
    except StaleEvent:
        raise StaleEvent(
            "The standings were published or hidden in another tab since your page was "
            "drawn. Nothing was changed: check below and try again."
        ) from None


def set_bye_vp(event: Event, bye_vp: int) -> None:
    """The VP a bye scores, as the pairing form asked it (the settings page's own field)."""
    swiss = swiss_of(event)
    swiss.swap(swiss.version, bye_vp=bye_vp)


def start_clock(event: Event, number: int, minutes: int) -> Round:
    """The organizer starts round ``number``'s clock: it ends ``minutes`` from now (started
    again, it counts from now). The round's version grows (its printed sheets show the end);
    the event keeps the length for the next round."""
    if not 1 <= minutes <= MAX_ROUND_MINUTES:
        raise EventRefusal(f"A round lasts 1 to {MAX_ROUND_MINUTES} minutes.")
    with transaction.atomic():
        round_ = _lock_rounds(event, number)[number]
        play = EventPlay(event)
        if not play.paired(number):
            raise EventRefusal(f"Pair round {number} before starting its clock.")
        if play.closed(number):
            raise EventRefusal(f"Round {number} is closed: its clock is over.")
        # To the second: a clock's end, and a valid HTML <time> (at most 3 decimals).
        ends = (timezone.now() + timedelta(minutes=minutes)).replace(microsecond=0)
        round_.swap(round_.version, ends_at=ends)
        Event.objects.filter(pk=event.pk).update(round_minutes=minutes)
        event.round_minutes = minutes
    return round_


# --- Results ----------------------------------------------------------------------------------


def _pairing_of(round_: Round, entry_id: int) -> Pairing | None:
    return (
        Pairing.objects.filter(round=round_)
        .filter(Q(player_a_id=entry_id) | Q(player_b_id=entry_id))
        .first()
    )


def record_result(
    event: Event,
    number: int,
    player: str,
    vp: int,
    opponent_vp: int,
    expected: int | None,
    by: Any = None,
) -> tuple[Pairing, Result]:
    """The organizer enters (or overrides) a game's result: ``player`` (either side, by
    name) scored ``vp``, their opponent ``opponent_vp``. ``expected`` is the result's version
    the page showed (None: a tool that sends none). In a closed round this is a correction:
    logged (``by``, when, before and after) and marked on the standings."""
    with transaction.atomic():
        round_ = _lock_rounds(event, number)[number]
        play = EventPlay(event)
        correcting = play.closed(number)
        entry_id = play.by_name(player)
        if entry_id is None:
            raise EventRefusal(f"No registered player is called {player.strip()[:40]!r}.")
        pairing = _pairing_of(round_, entry_id)
        if pairing is None:
            raise EventRefusal(f"{play.name(entry_id)} has no game in round {number}.")
        result, _ = Result.objects.get_or_create(pairing=pairing)
        if expected is not None and result.version != expected:
            raise StaleEvent(
                f"The result at table {pairing.table} changed since your page was drawn (a "
                "player reported it, or another tab): nothing was saved. Check it and enter "
                "it again."
            )
        a_vp, b_vp = (vp, opponent_vp) if pairing.player_a_id == entry_id else (opponent_vp, vp)
        changed = (result.a_vp, result.b_vp) != (a_vp, b_vp)
        if correcting and changed:
            Correction.objects.create(
                result=result,
                by=by,
                by_name=str(by.get_username()) if by is not None else "",
                before_a_vp=result.a_vp,
                before_b_vp=result.b_vp,
                after_a_vp=a_vp,
                after_b_vp=b_vp,
            )
        result.swap(
            result.version,  # read under the round's lock; the page's version checked above
            a_vp=a_vp,
            b_vp=b_vp,
            by_organizer=True,
            corrected=result.corrected or (correcting and changed),
        )
    return pairing, result


def clear_result(event: Event, number: int, table: int, expected: int) -> Pairing:
    """Take back the organizer's result at a table: the players' reports count again."""
    with transaction.atomic():
        round_ = _lock_rounds(event, number)[number]
        _results_still_open(EventPlay(event), number)
        pairing = Pairing.objects.filter(round=round_, table=table).first()
        result = Result.objects.filter(pairing=pairing).first() if pairing else None
        if pairing is None or result is None:
            raise EventRefusal(f"Table {table} has no result to take back.")
        if result.version != expected:
            raise StaleEvent(
                f"The result at table {table} changed since your page was drawn: nothing was "
                "changed. Check it and try again."
            )
        agreed = result.report_of_a if result.report_of_a == result.report_of_b else None
        result.swap(
            expected,
            a_vp=agreed[0] if agreed else None,
            b_vp=agreed[1] if agreed else None,
            by_organizer=False,
        )
    return pairing


@dataclass
class Reported:
    pairing: Pairing
    result: Result
    opponent: str
    side_a: bool


def report(
    entry: Entry, number: int, vp: int, opponent_vp: int, expected: int | None = None
) -> Reported:
    """A player reports their game: their VP and their opponent's. When both players'
    reports agree, the result is confirmed; when they differ, it waits for the organizer.
    ``expected`` is the result's version the player's page showed (None: a tool that sends
    none): a report crossing their opponent's since the page was drawn is refused."""
    event = entry.event
    with transaction.atomic():
        round_ = _lock_rounds(event, number)[number]
        if not round_.published:
            raise EventRefusal(f"Round {number} is not published yet.")
        play = EventPlay(event)
        _results_still_open(play, number)
        pairing = _pairing_of(round_, entry.pk)
        if pairing is None:
            raise EventRefusal(f"You have no game in round {number}.")
        result, _ = Result.objects.get_or_create(pairing=pairing)
        side_a = pairing.player_a_id == entry.pk
        opponent = play.name(pairing.player_b_id if side_a else pairing.player_a_id)
        if expected is not None and result.version != expected:
            raise StaleEvent(
                f"The result of your game changed since your page was drawn ({opponent} "
                "reported, or the organizer): nothing was sent. Check it below and send yours "
                "again."
            )
        if result.by_organizer:
            raise EventRefusal(
                f"The organizer has entered this result ({result.a_vp if side_a else result.b_vp}"
                f" to {result.b_vp if side_a else result.a_vp}): ask them to change it."
            )
        if side_a:
            result.a_reports_a_vp, result.a_reports_b_vp = vp, opponent_vp
        else:
            result.b_reports_a_vp, result.b_reports_b_vp = opponent_vp, vp
        mine, theirs = result.report_of_a, result.report_of_b
        agreed = mine if mine is not None and mine == theirs else None
        result.swap(
            result.version,  # read under the round's lock
            a_reports_a_vp=result.a_reports_a_vp,
            a_reports_b_vp=result.a_reports_b_vp,
            b_reports_a_vp=result.b_reports_a_vp,
            b_reports_b_vp=result.b_reports_b_vp,
            a_vp=agreed[0] if agreed else None,
            b_vp=agreed[1] if agreed else None,
        )
    return Reported(pairing, result, opponent, side_a)


# --- The organizer's changes by hand ----------------------------------------------------------


def _editable(play: EventPlay, pairing: Pairing | None) -> None:
    result = result_of(pairing) if pairing is not None else None
    if pairing is not None and result is not None and result.started:
        raise EventRefusal(
            f"The game at table {pairing.table} has a result: players are swapped only "
            "before their games are reported."
        )


def _two_players(play: EventPlay, first: str, second: str) -> tuple[int, int]:
    """The two players a swap names, by name; EventRefusal saying which is unknown."""
    keys = []
    for typed in (first, second):
        key = play.by_name(typed)
        if key is None:
            shown = typed.strip()[:40]
            raise EventRefusal(
                f"No registered player is called {shown!r}."
                if shown
                else "Name the two players to swap."
            )
        keys.append(key)
    if keys[0] == keys[1]:
        raise EventRefusal("Choose two different players to swap.")
    return keys[0], keys[1]


def _seat_of(play: EventPlay, number: int, entry_id: int) -> tuple[Pairing | None, Bye | None]:
    """The player's game or bye in round ``number`` (neither: no seat)."""
    for p in play.pairings.get(number, []):
        if entry_id in (p.player_a_id, p.player_b_id):
            return p, None
    for b in play.byes.get(number, []):
        if b.entry_id == entry_id:
            return None, b
    return None, None


def _put(pairing: Pairing, leaving: int, coming: int) -> None:
    if pairing.player_a_id == leaving:
        pairing.player_a_id = coming
    else:
        pairing.player_b_id = coming


def swap_players(event: Event, number: int, first: str, second: str, expected: int) -> list[str]:
    """Exchange two players' seats in round ``number`` (a game's side, the bye, or no seat
    at all); the warnings the new seats give (rematches, repeated tables, a second bye)."""
    with transaction.atomic():
        round_ = _lock_rounds(event, number)[number]
        if round_.version != expected:
            raise stale_round(number)
        play = EventPlay(event, with_tables=True)
        _results_still_open(play, number)
        one, two = _two_players(play, first, second)
        (game_one, bye_one), (game_two, bye_two) = (
            _seat_of(play, number, one),
            _seat_of(play, number, two),
        )
        _editable(play, game_one)
        _editable(play, game_two)
        if not (game_one or bye_one or game_two or bye_two):
            raise EventRefusal(
                f"Neither {play.name(one)} nor {play.name(two)} plays in round {number}: pair "
                "the round again to include them."
            )

        if bye_one is not None and bye_two is not None:
            raise EventRefusal(f"{play.name(one)} and {play.name(two)} both have a bye.")
        if game_one is not None and game_one is game_two:
            game_one.player_a_id, game_one.player_b_id = game_one.player_b_id, game_one.player_a_id
            game_one.save(update_fields=["player_a", "player_b"])
        else:
            for game, leaving, coming in ((game_one, one, two), (game_two, two, one)):
                if game is not None:
                    _put(game, leaving, coming)
                    game.save(update_fields=["player_a", "player_b"])
            for bye, coming in ((bye_one, two), (bye_two, one)):
                if bye is not None:
                    bye.entry_id = coming
                    bye.save(update_fields=["entry"])
        round_.swap(expected)
        moved = {p.pk for p in (game_one, game_two) if p is not None}
        warnings = [
            w for pk, found in play.seat_warnings(number).items() if pk in moved for w in found
        ]
        return warnings + play.bye_warnings(number)


def swap_tables(event: Event, number: int, first: int, second: int, expected: int) -> list[str]:
    """Move the game at table ``first`` to table ``second`` (exchanging with the game there,
    if any); the repeated-table warnings of the moved games."""
    with transaction.atomic():
        round_ = _lock_rounds(event, number)[number]
        if round_.version != expected:
            raise stale_round(number)
        play = EventPlay(event, with_tables=True)
        _results_still_open(play, number)  # a settled round's games stay where they were played
        limit = round_.table_count or MAX_TABLES_PER_ROUND
        if first == second:
            raise EventRefusal("Choose two different tables.")
        if not 1 <= second <= limit:
            raise EventRefusal(
                f"Round {number} has tables 1 to {limit}."
                if round_.table_count
                else f"Tables are numbered 1 to {limit}."
            )
        at = {p.table: p for p in play.pairings.get(number, [])}
        moving = at.get(first)
        if moving is None:
            raise EventRefusal(f"No game is at table {first} in round {number}.")
        other = at.get(second)
        if other is not None:
            Pairing.objects.filter(pk=moving.pk).update(table=0)
            Pairing.objects.filter(pk=other.pk).update(table=first)
            other.table = first
        Pairing.objects.filter(pk=moving.pk).update(table=second)
        moving.table = second
        round_.swap(expected)
        moved = {moving.pk} | ({other.pk} if other is not None else set())
        return [w for pk, found in play.seat_warnings(number).items() if pk in moved for w in found]


def drop(event: Event, entry: Entry, after_round: int) -> list[str]:
    """``entry`` leaves after round ``after_round`` (0: before round 1): not paired again,
    still in the standings. The warnings: games they already have in later rounds."""
    if not 0 <= after_round <= event.round_count:
        raise EventRefusal(f"Choose a round from 0 to {event.round_count}.")
    with transaction.atomic():
        Event.objects.select_for_update().filter(pk=event.pk).first()
        Drop.objects.update_or_create(entry=entry, defaults={"after_round": after_round})
    later = sorted(
        {
            p.round.number
            for p in Pairing.objects.filter(round__event=event, round__number__gt=after_round)
            .filter(Q(player_a=entry) | Q(player_b=entry))
            .select_related("round")
        }
        | {
            b.round.number
            for b in Bye.objects.filter(
                round__event=event, round__number__gt=after_round, entry=entry
            ).select_related("round")
        }
    )
    return [
        f"{entry.player_name} still has a seat in round {n}: pair it again, or swap them out."
        for n in later
    ]


def self_drop(event: Event, entry: Entry) -> int:
    """The player drops themself after the last round paired (they finish a game they are
    seated in): not paired again, still ranked; the organizer's dashboard says so. The
    round they dropped after."""
    with transaction.atomic():
        Event.objects.select_for_update().filter(pk=event.pk).first()
        if Drop.objects.filter(entry=entry).exists():
            raise EventRefusal("You have already dropped: ask the organizer to pair you again.")
        after = EventPlay(event).last_paired()
        Drop.objects.create(entry=entry, after_round=after, by_player=True)
    return after


def open_check_in(event: Event, number: int) -> None:
    """The organizer opens check-in for round ``number`` (the next to be paired): players
    can check in from their phones, and the round pairs only the checked-in. Opening it
    again changes nothing."""
    with transaction.atomic():
        round_ = _lock_rounds(event, number)[number]
        play = EventPlay(event)
        next_round = play.next_to_pair()
        if next_round is None or next_round > number:
            raise EventRefusal(
                f"Round {number} is already paired: check-in is for the next round to be "
                "paired. Nothing was changed."
            )
        if next_round < number:
            raise EventRefusal(
                f"Check-in is for the next round to be paired: round {next_round}, not round "
                f"{number}. Nothing was changed."
            )
        _open_check_in(round_)


def _open_check_in(round_: Round) -> None:
    """Mark the round's check-in open (its version grows: the live pages follow), unless it
    is already; the round locked by the caller's transaction."""
    if round_.check_in_opened_at is None:
        round_.swap(round_.version, check_in_opened_at=timezone.now())


def check_in(event: Event, entry: Entry, present: bool, by_organizer: bool = False) -> int:
    """Check the player in (``present``) for the next round to be paired, or take it back;
    the round. A player checks in once the organizer opened check-in; the organizer's tick
    opens it. Once check-in is in use for a round, it pairs only the checked-in."""
    with transaction.atomic():
        Event.objects.select_for_update().filter(pk=event.pk).first()
        play = EventPlay(event)
        number = play.next_to_pair()
        if number is None:
            raise EventRefusal("Every round is paired: there is no round left to check in for.")
        if present and play.drops.get(entry.pk) is not None:
            raise EventRefusal(
                f"{entry.player_name} has dropped: the organizer pairs them again first."
            )
        if present and not play.check_in_open(number):
            if not by_organizer:
                raise EventRefusal(
                    f"Check-in for round {number} is not open yet: the organizer opens it at "
                    "the venue, then you check in here. Nothing was changed."
                )
            _open_check_in(_lock_rounds(event, number)[number])
        held = Entry.objects.select_for_update().get(pk=entry.pk)
        held.swap(held.version, checked_in_for=number if present else None)
    return number


def reinstate(entry: Entry) -> None:
    Drop.objects.filter(entry=entry).delete()


def check_replaceable(round_: Round) -> None:
    """Typed or imported pairings replace a round only before any result, as the Swiss
    pairing does (the results would go with the pairings)."""
    if round_started(round_):
        raise EventRefusal(
            f"Round {round_.number} has results: its pairings are replaced only before any "
            "result. Swap players or tables on the round's page instead."
        )


def replace_pairings(
    event: Event, by_round: dict[int, list[PairingRow]], expected: dict[int, int] | None
) -> None:
    """Replace the games and byes of each round named (typed in, or imported from a CSV): the
    rows are the whole round, so a bye not typed again is gone, as a game is. One transaction
    over the rounds, their pairings and byes; a round whose version moved since the page was
    drawn refuses the whole change (StaleEvent), a pairing on a table the round does not
    have too (EventRefusal)."""
    with transaction.atomic():
        for number, rows in sorted(by_round.items()):
            round_ = (
                Round.objects.select_for_update().defer("tables").get(event=event, number=number)
            )
            if expected is not None and round_.version != expected[number]:
                raise stale_round(number)
            games = [
                (row.table, row.player_a, row.player_b)
                for row in rows
                if row.table is not None and row.player_b is not None
            ]
            count = round_.table_count
            if count and any(table > count for table, _, _ in games):
                raise EventRefusal(f"Round {number} has only {count} tables.")
            check_replaceable(round_)
            round_.pairings.all().delete()
            Pairing.objects.bulk_create(
                Pairing(round=round_, table=table, player_a_id=a, player_b_id=b)
                for table, a, b in games
            )
            round_.byes.all().delete()
            Bye.objects.bulk_create(
                Bye(round=round_, entry_id=row.player_a) for row in rows if row.player_b is None
            )
            round_.swap(round_.version)


# --- Leaving, and the organizer removing a player --------------------------------------------


def played_rounds(entry: Entry) -> list[int]:
    """The rounds in which this player has a game with a result (reported or entered) or a
    bye: what the standings hold of them."""
    games = (
        Result.objects.filter(Q(pairing__player_a=entry) | Q(pairing__player_b=entry))
        .filter(
            Q(a_vp__isnull=False)
            | Q(a_reports_a_vp__isnull=False)
            | Q(b_reports_a_vp__isnull=False)
        )
        .values_list("pairing__round__number", flat=True)
    )
    byes = Bye.objects.filter(entry=entry).values_list("round__number", flat=True)
    return sorted(set(games) | set(byes))


def leave(entry: Entry) -> bool:
    """The player leaves the event. An entry that has played nothing goes (with any pairing
    not yet played: the organizer pairs that round again); one that has played stays with
    the event as a departed player, dropped after their last round played, so that nobody's
    game or result goes with it (True)."""
    with transaction.atomic():
        Event.objects.select_for_update().filter(pk=entry.event_id).first()
        held = Entry.objects.select_for_update().get(pk=entry.pk)
        if held.locked:
            raise EventRefusal(
                "Your entry is locked: ask the organizer if you cannot come after all."
            )
        played = played_rounds(held)
        if not played:
            held.delete()
            return False
        Drop.objects.update_or_create(
            entry=held, defaults={"after_round": played[-1], "by_player": True}
        )
        held.depart()
        return True


def remove_player(entry: Entry) -> None:
    """The organizer takes the player out of the event, with their pairings; refused
    (nothing changed) once a game of theirs has a result: their opponents' results would go
    with it."""
    with transaction.atomic():
        Event.objects.select_for_update().filter(pk=entry.event_id).first()
        played = Result.objects.filter(Q(pairing__player_a=entry) | Q(pairing__player_b=entry))
        if played.exists():
            raise EventRefusal(
                f"{entry.player_name} has played: removing them would take their games out "
                "of their opponents' results. Nothing was changed: drop them instead (open "
                "their name on the standings)."
            )
        Entry.objects.filter(pk=entry.pk).delete()
