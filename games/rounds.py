"""A game played for an event round: started in one tap from a published round's pairing
(both players' locked lists, the round's table), and its result sent to the round as both
players' report when the game ends (events.commands.report: the event handles it like any
reported result)."""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError
from django.http import Http404

from accounts.ownership import DamagedRecord
from events import commands
from events.models import Entry, EventRefusal, Pairing
from games.models import Game, GameRefusal
from games.table_odds import standing_hexes
from onefinity.rules import Ruleset, force_document, library
from onefinity.rules.game import GameError, new_game, state_document
from tablegen.engine.tables import TableDocumentError


def my_pairing(user: Any, event_id: int, number: int) -> Pairing:
    """The user's pairing in the event's published round ``number``; 404 otherwise."""
    entry = Entry.objects.filter(event_id=event_id, player=user).first()
    pairing = (
        Pairing.objects.select_related("round__event", "player_a__player", "player_b__player")
        .filter(round__event_id=event_id, round__number=number, round__published=True)
        .filter(player_a=entry)
        .first()
        or Pairing.objects.select_related("round__event", "player_a__player", "player_b__player")
        .filter(round__event_id=event_id, round__number=number, round__published=True)
        .filter(player_b=entry)
        .first()
        if entry is not None
        else None
    )
    if pairing is None:
        raise Http404("Not found")
    return pairing


def start_from_round(pairing: Pairing, vp_target: int | None = None) -> Game:
    """The pairing's game (made now if it has none): side a the pairing's player a, with
    both locked lists and the round's table, played to ``vp_target`` or the ruleset's
    (its [game] vp_target: the scenario's VP, which an event does not set)."""
    existing = Game.objects.filter(pairing=pairing).first()
    if existing is not None:
        return existing
    ruleset, scenario_vp = _ready_to_play(pairing)
    game = _round_game(pairing, ruleset, scenario_vp if vp_target is None else vp_target)
    try:
        game.save_new()
    except IntegrityError:
        # The other player's tap came first: theirs is the game.
        return Game.objects.get(pairing=pairing)
    return game


def _ready_to_play(pairing: Pairing) -> tuple[Ruleset, int]:
    """The event's ruleset and its scenario's VP, if the pairing can be played: both
    players still in, both lists locked, a ruleset with rules for a game; GameRefusal."""
    entry_a, entry_b = pairing.player_a, pairing.player_b
    if entry_a.player_id is None or entry_b.player_id is None:
        raise GameRefusal("A player of this pairing has left the event.")
    if not entry_a.locked or not entry_b.locked:
        raise GameRefusal("Both lists must be locked by the organizer before the game.")
    ruleset = library().get_or_current(pairing.round.event.ruleset_version)
    if ruleset.game is None:
        raise GameRefusal(f"Ruleset {ruleset.version} has no rules for a game at the table.")
    return ruleset, ruleset.game.vp_target


def _round_game(pairing: Pairing, ruleset: Ruleset, vp_target: int) -> Game:
    """The pairing's game, not yet saved: the two locked lists' snapshots on the round's
    table (or the standard board), every trooper off the table."""
    entry_a, entry_b, round_ = pairing.player_a, pairing.player_b, pairing.round
    try:
        spec_a, spec_b = entry_a.snapshot_spec(), entry_b.snapshot_spec()
        table = round_.table_spec(pairing.table)
        hexes = standing_hexes(table, ruleset)
        state = state_document(new_game(spec_a, spec_b, ruleset, vp_target, hexes))
    except (DamagedRecord, TableDocumentError, GameError) as error:
        raise GameRefusal(f"This game cannot start: {error}") from None
    return Game(
        owner_id=entry_a.player_id,
        player_b_id=entry_b.player_id,
        name_a=spec_a.name,
        name_b=spec_b.name,
        list_a=force_document(spec_a),
        list_b=force_document(spec_b),
        table=round_.tables[pairing.table - 1] if table is not None else None,
        table_name=round_.table_name(pairing.table) if table is not None else "Standard board",
        ruleset_version=ruleset.version,
        vp_target=vp_target,
        state=state,
        initial=state,
        pairing=pairing,
    )


def report_to_round(game: Game) -> str:
    """Send the ended game's VP to its round as both players' report; what happened, in
    words (kept on the game)."""
    if game.pairing_id is None:
        return ""
    pairing = (
        Pairing.objects.select_related("round", "player_a", "player_b", "player_a__event")
        .filter(pk=game.pairing_id)
        .first()
    )
    if pairing is None:
        return ""
    state = game.game_state()
    vp_a, vp_b = state.vp
    number = pairing.round.number
    try:
        commands.report(pairing.player_a, number, vp_a, vp_b)
        reported = commands.report(pairing.player_b, number, vp_b, vp_a)
    except EventRefusal as refusal:
        note = f"The result could not be sent to round {number}: {refusal}"
    else:
        confirmed = reported.result.confirmed
        note = f"The result, {vp_a} to {vp_b}, is sent to round {number}" + (
            " and counts." if confirmed else "."
        )
    Game.objects.filter(pk=game.pk).update(result_note=note[:300])
    game.result_note = note[:300]
    return note
