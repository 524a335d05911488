"""What a request to a game does: start one from two lists and a table, join it, take a
step, undo the last one; and what the game's page shows. The rules are the pure engine's
(onefinity.rules.game); this module reads the request's fields once and keeps the record.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from urllib.parse import urlencode

from django.db import transaction
from django.http import Http404, HttpRequest

from accounts.ownership import (
    DamagedRecord,
    QuotaExceeded,
    StaleVersion,
    get_shared_or_404,
    owned,
    owner_fields,
)
from forcebuilder.models import Force
from games.models import MAX_STEPS, Game, GameRefusal, GameStep, StaleGame
from games.places import Places
from games.rounds import report_to_round
from games.table_odds import game_map, map_odds, standing_hexes, table_spec
from onefinity.http import record_id, stale_words
from onefinity.once import made_once
from onefinity.rules import Ruleset, force_document
from onefinity.rules.game import (
    MAX_VP,
    GameError,
    GameState,
    GameTrooper,
    Step,
    action_name,
    action_refusal,
    apply,
    cost,
    describe_step,
    game_actions,
    game_rules,
    new_game,
    public_state,
    read_state_document,
    read_step,
    state_document,
    step_document,
)
from onefinity.rules.hexgrid import Hex
from onefinity.rules.ruleset import TAG_ONLY
from onefinity.rules.text import whole_number
from tablegen.engine.tables import TableSpec
from tablegen.models import Table

# A share link's code, alone or at the end of the link (/s/<code>/...).
_SHARE_CODE = re.compile(r"(?:^|/s/)([A-Za-z0-9_-]{8,32})/?(?:[?#].*)?$")


# --- Starting and joining ------------------------------------------------------------------


def _my_list(request: HttpRequest, text: str, field: str) -> Force:
    pk = record_id(text.strip())
    found = owned(request, Force).filter(pk=pk).first() if pk is not None else None
    if found is None:
        raise GameRefusal(f"{field}: choose one of your lists")
    return found


def _opponent_list(request: HttpRequest, text: str) -> Force:
    """One of my lists by its id, or any shared list by its share link or code."""
    text = text.strip()[:300]
    if record_id(text) is not None:
        return _my_list(request, text, "list_b")
    found = _SHARE_CODE.search(text)
    if found is None:
        raise GameRefusal("list_b: paste the opponent's share link or code, or pick your list")
    try:
        return get_shared_or_404(Force, found[1])
    except Http404:
        raise GameRefusal("list_b: no list is shared under that link") from None


def start_game(request: HttpRequest, fields: dict[str, str]) -> Game:
    """A new game of ``list_a`` (mine) against ``list_b``, on ``table`` (mine, or the
    standard board), to ``vp_target`` VP. GameRefusal with the reason."""
    force_a = _my_list(request, fields.get("list_a", ""), "list_a")
    force_b = _opponent_list(request, fields.get("list_b", ""))
    vp_target = whole_number(fields.get("vp_target", "").strip(), 1, MAX_VP)
    if vp_target is None:
        raise GameRefusal(f"vp_target: a whole number from 1 to {MAX_VP}")
    table_document: Any = None
    table_name = "Standard board"
    ruleset = force_a.ruleset()
    table_field = fields.get("table", "").strip()
    try:
        spec = None
        if table_field:
            pk = record_id(table_field)
            table = owned(request, Table).filter(pk=pk).first() if pk is not None else None
            if table is None:
                raise GameRefusal("table: choose one of your tables, or none")
            spec = table.to_spec()
            table_document, table_name = table.stored_document(), table.name
        spec_a, spec_b = force_a.to_spec(), force_b.to_spec()
        state = new_game(spec_a, spec_b, ruleset, vp_target, standing_hexes(spec, ruleset))
    except DamagedRecord as damaged:
        raise GameRefusal(f"{damaged.record} cannot be read: {damaged.problem}") from None
    except GameError as error:
        raise GameRefusal(str(error)) from None
    document = state_document(state)
    game = Game(
        name_a=spec_a.name,
        name_b=spec_b.name,
        list_a=force_document(spec_a),
        list_b=force_document(spec_b),
        table=table_document,
        table_name=table_name,
        ruleset_version=ruleset.version,
        vp_target=vp_target,
        state=document,
        initial=document,
    )
    return _saved_once(request, game)


def _saved_once(request: HttpRequest, game: Game) -> Game:
    """The game made (above, outside the claim's transaction) saved as the requester's:
    once, however often the form was sent (a double tap, a resend); both answers lead to it
    (onefinity.once)."""

    def save() -> Game:
        try:
            owner = owner_fields(request, Game)
        except QuotaExceeded as full:
            raise GameRefusal(str(full)) from None
        for field, value in owner.items():
            setattr(game, field, value)
        game.save_new()
        return game

    return made_once(request, owned(request, Game), save)[0]


def join(game: Game, user: Any) -> None:
    """``user`` plays side b; GameRefusal when another already does."""
    if game.owner_id == user.pk:
        raise GameRefusal("You started this game: you play side A. Send the link to your opponent.")
    taken = Game.objects.filter(pk=game.pk, player_b=None, b_left=False).update(player_b=user)
    if not taken and game.player_b_id != user.pk:
        raise GameRefusal("This game already has two players.")
    game.player_b_id = user.pk


# --- Steps ---------------------------------------------------------------------------------


def take_step(game: Game, user: Any, expected: int, fields: dict[str, str]) -> Game:
    """Apply the step the fields name, if the page showed the current version; GameRefusal
    (400: the rules forbid it) or StaleGame (409) otherwise, and nothing changes."""
    if expected != game.version:
        raise StaleGame(stale_words("This game"))
    ruleset = game.ruleset()
    state = _state(game)
    places = None
    if fields.get("kind") == "place" and ROW_COLUMN in fields:
        places = _places(game, ruleset)
        fields = {**fields, "hex": _standing(places, state, fields[ROW_COLUMN])}
    try:
        step = read_step(fields)
        after = apply(state, step, ruleset)
    except GameError as error:
        raise GameRefusal(str(error)) from None
    if step.kind == "place" and step.hex is not None:
        words = _placed(
            state.trooper(step.trooper).name, places or _places(game, ruleset), step.hex
        )
    else:
        words = describe_step(step, state, ruleset)
    number = game.steps.count() + 1
    if number > MAX_STEPS:
        raise GameRefusal(f"A game keeps at most {MAX_STEPS} steps.")
    try:
        with transaction.atomic():
            game.swap(expected, state=state_document(after))
            GameStep.objects.create(
                game=game,
                number=number,
                player=user,
                side=game.side_of(user) or "",
                step=step_document(step),
                description=words[:200],
                version=game.version,
            )
    except StaleVersion:
        raise StaleGame(stale_words("This game")) from None
    if after.ended and not state.ended and game.pairing_id is not None:
        report_to_round(game)
    return game


def undo(game: Game, expected: int) -> str:
    """Take back the last step (the state is the log's replay without it); its words."""
    if expected != game.version:
        raise StaleGame(stale_words("This game"))
    last = game.steps.order_by("-number").first()
    if last is None:
        raise GameRefusal("There is no step to undo.")
    if game.pairing_id is not None and game.result_note:
        raise GameRefusal(
            "The result is with the event's round: ask the organizer to change it there."
        )
    ruleset = game.ruleset()
    try:
        state = read_state_document(game.initial)
        for kept in game.steps.filter(number__lt=last.number).order_by("number"):
            state = apply(state, read_step({k: str(v) for k, v in kept.step.items()}), ruleset)
    except GameError as error:
        raise GameRefusal(f"The log cannot be replayed: {error}") from None
    try:
        with transaction.atomic():
            game.swap(expected, state=state_document(state))
            last.delete()
    except StaleVersion:
        raise StaleGame(stale_words("This game")) from None
    return _recorded_words(last, _places_once(game))


def _state(game: Game) -> GameState:
    try:
        return game.game_state()
    except DamagedRecord as damaged:
        raise GameRefusal(damaged.problem) from None


# --- Hexes as the players name them (games.places) -----------------------------------------

# The place form's field: the hex typed as the players count it, "row,column" from side A
# ("3,5"). The contract's ``hex`` ("q,r", axial, as tools and the steps kept offline by a
# page drawn before this field send it) is read as before; the place form sends this one.
ROW_COLUMN = "row_column"


def _places(game: Game, ruleset: Ruleset) -> Places:
    return Places(table_spec(game, ruleset).board)


def _places_once(game: Game) -> Callable[[], Places]:
    """The game's Places, its table read the first time they are asked for."""
    return functools.cache(lambda: _places(game, game.ruleset()))


def _standing(places: Places, state: GameState, typed: str) -> str:
    """The contract's "q,r" for the hex typed as "row,column"; GameRefusal (400) naming the
    rows and columns there are, or the hex when no trooper may stand on it."""
    hex_ = places.read(typed)
    if hex_ not in state.board:
        raise GameRefusal(
            f"Hex: {places.name(hex_)} is not a hex a trooper may stand on (terrain nobody enters)."
        )
    return f"{hex_[0]},{hex_[1]}"


def _placed(name: str, places: Places, hex_: Hex) -> str:
    """A placing in the log's words, its hex as the map names it."""
    return f"{name} placed on {places.name(hex_)}"


# The words a placing was logged with before hexes were named the players' way.
_AXIAL_PLACED = re.compile(r"^(.*) placed on \(-?[0-9]+, -?[0-9]+\)$", re.DOTALL)
_AXIAL = re.compile(r"^(-?[0-9]{1,3}),(-?[0-9]{1,3})$")


def _recorded_words(row: GameStep, places: Callable[[], Places]) -> str:
    """A logged step's words. A placing logged before hexes were named the players' way
    says its hex in axial coordinates ("Alpha 1 placed on (3, 4)"): it is said again with
    the hex of its step as the map names it. The stored words are left as they are."""
    old = _AXIAL_PLACED.match(row.description)
    document = row.step if isinstance(row.step, dict) else {}
    axial = _AXIAL.match(str(document.get("hex", ""))) if old else None
    if old is None or axial is None or document.get("kind") != "place":
        return row.description
    return _placed(old[1], places(), (int(axial[1]), int(axial[2])))


# --- What the players read -------------------------------------------------------------------


def state_json(game: Game) -> dict[str, Any]:
    """The contract's state.json."""
    return {"version": game.version, **public_state(_state(game), game.ruleset())}


def log_json(game: Game) -> dict[str, Any]:
    places = _places_once(game)
    return {
        "format": "onefinity-game-log",
        "version": 1,
        "game": game.code,
        "lists": {"a": game.name_a, "b": game.name_b},
        "table": game.table_name,
        "vp_target": game.vp_target,
        "steps": [
            {
                "number": s.number,
                "side": s.side,
                "player": s.player.get_username() if s.player else None,
                "when": s.created.isoformat(),
                "step": s.step,
                "words": _recorded_words(s, places),
                "version": s.version,
            }
            for s in game.steps.select_related("player")
        ],
    }


@dataclass(frozen=True)
class ActionChoice:
    id: str
    name: str
    cost: int
    refusal: str
    special: bool


@dataclass(frozen=True)
class Outcome:
    """A step about the chosen trooper (a wound, a heal...), and why it is not possible."""

    kind: str
    label: str
    refusal: str


@dataclass(frozen=True)
class TrooperRow:
    id: str
    side: str
    name: str
    type_name: str
    state: str
    state_name: str
    wounds: int
    max_wounds: int
    hacked: bool
    # Where it stands as the map names it ("Row 3 from side A, column 5"), and as the place
    # field takes it ("3,5"); "" for both off the table.
    place: str
    typed_place: str
    selected: bool
    # The specialist's class ("Medic"), or "" for a plain trooper.
    class_name: str = ""


@dataclass(frozen=True)
class LogLine:
    """A step of the log as the page shows it."""

    number: int
    created: datetime
    side: str
    words: str


@dataclass(frozen=True)
class Target:
    """A placed enemy trooper the odds panel offers, with its hex as the map names it."""

    id: str
    name: str
    place: str


@dataclass(frozen=True)
class SideView:
    """A side as its header says it: who plays it (Game.side_titles), and its list's name
    when that is not already the title (a game of an event's pairing), else ""."""

    side: str
    title: str
    list_name: str
    rows: list[TrooperRow]


# The page's own query (what it shows): the chosen trooper, a hex tapped on the map, and
# the odds panel's choices.
VIEW_FIELDS = ("trooper", "at", "target", "mode", "weapon", "rear", "charge")


def view_choices(query: Any) -> dict[str, str]:
    return {name: str(query.get(name, ""))[:40] for name in VIEW_FIELDS if query.get(name)}


def page(game: Game, side: str, choices: dict[str, str] | None = None) -> dict[str, Any]:
    """What the game's page (or its region) shows."""
    choices = choices or {}
    selected = choices.get("trooper", "")
    ruleset = game.ruleset()
    state = _state(game)
    # Every hex the page names or takes is the map's: its table's board, read once.
    table = table_spec(game, ruleset)
    places = Places(table.board)
    rows = _trooper_rows(state, ruleset, selected, places)
    chosen = next((t for t in state.troopers if t.id == selected), None)
    actions = _action_choices(state, chosen, ruleset) if chosen is not None else []
    outcomes = _outcomes(state, chosen, ruleset) if chosen is not None else []
    view = {
        **_map_and_odds(game, table, places, state, ruleset, chosen, choices),
        "query": urlencode(choices),
    }
    return {
        **view,
        "game": game,
        "me": side,
        "state": state,
        "sides": [
            SideView(
                side,
                title,
                list_name if game.by_players else "",
                [r for r in rows if r.side == side],
            )
            for side, title, list_name in (
                ("a", game.title_a, game.name_a),
                ("b", game.title_b, game.name_b),
            )
        ],
        "vp_pairs": [("a", state.vp[0]), ("b", state.vp[1])],
        "outcomes": outcomes,
        "chosen": next((r for r in rows if r.selected), None),
        "chosen_trooper": chosen,
        "actions": actions,
        "ap_values": range(1, ruleset.cards.values + 1),
        "special_success": ruleset.cards.special_action_success,
        "vp_values": {"a": state.vp[0], "b": state.vp[1]},
        "log": [
            LogLine(row.number, row.created, row.side, _recorded_words(row, lambda: places))
            for row in game.steps.order_by("-number")[:12]
        ],
        "row_column": ROW_COLUMN,
        "ruleset": ruleset,
        "wound_counts": range(1, (chosen.wounds + 2) if chosen and chosen.wounds >= 0 else 1),
    }


def _trooper_rows(
    state: GameState, ruleset: Ruleset, selected: str, places: Places
) -> list[TrooperRow]:
    """Each trooper's line on the page: its state in words, wounds, hex, class."""
    rules = game_rules(ruleset)
    rows = []
    for t in state.troopers:
        state_id = t.state(rules)
        state_name = rules.states[state_id].name if state_id in rules.states else "Off the table"
        unit_type = ruleset.unit_types.get(t.unit_type)
        rows.append(
            TrooperRow(
                t.id,
                t.side,
                t.name,
                unit_type.name if unit_type else t.unit_type,
                state_id,
                state_name,
                t.wounds,
                t.max_wounds,
                t.hacked,
                places.name(t.hex) if t.hex else "",
                places.typed(t.hex),
                t.id == selected,
                _class_name(t, ruleset),
            )
        )
    return rows


def _action_choices(state: GameState, chosen: GameTrooper, ruleset: Ruleset) -> list[ActionChoice]:
    """The actions the chosen trooper's panel offers, each with its cost now (the doubling
    applied) or the reason it is not possible."""
    return [
        ActionChoice(
            a,
            action_name(a, ruleset),
            cost(state, chosen.id, a, ruleset),
            action_refusal(state, chosen, a, ruleset),
            a in ruleset.special_actions,
        )
        for a in game_actions(ruleset)
        if _may_ever_take(chosen, a, ruleset)
    ]


def _outcomes(state: GameState, trooper: GameTrooper, ruleset: Ruleset) -> list[Outcome]:
    """The steps about the trooper the page offers, each tried on the engine: a refused one
    is shown disabled with the engine's reason."""
    rules = game_rules(ruleset)
    restorer = "Repair" if trooper.tag else "Heal"
    offered = [
        (Step("wound", trooper=trooper.id, count=1), "Lose wounds"),
        (Step("heal", trooper=trooper.id), f"{restorer}ed: +{rules.restore_wounds} wound"),
    ]
    if _can_be_hacked(trooper, ruleset):
        offered += [
            (Step("hack", trooper=trooper.id), f"Mark {rules.hacked.name.lower()}"),
            (Step("recover", trooper=trooper.id), "Recovered"),
        ]
    offered.append((Step("place", trooper=trooper.id, hex=_some_free_hex(state, trooper)), "Place"))
    found = []
    for step, label in offered:
        try:
            apply(state, step, ruleset)
            refusal = ""
        except GameError as error:
            refusal = str(error)
        found.append(Outcome(step.kind, label, refusal))
    return found


def _some_free_hex(state: GameState, trooper: GameTrooper) -> Hex | None:
    """A hex to try placing on: its own, or any free one (placing is refused for the
    trooper, not the hex, when it is off the table or out of play)."""
    if trooper.hex is not None:
        return trooper.hex
    taken = {t.hex for t in state.troopers}
    return next((h for h in sorted(state.board) if h not in taken), None)


def _map_and_odds(
    game: Game,
    table: TableSpec,
    places: Places,
    state: GameState,
    ruleset: Ruleset,
    chosen: GameTrooper | None,
    choices: dict[str, str],
) -> dict[str, Any]:
    """The map (while a trooper on the table is chosen: tap a hex to place it) and the
    odds of its attack on the target chosen, read from the map."""
    if (
        chosen is None
        or not chosen.on_table
        or game_rules(ruleset).state_for(chosen.wounds).removed
    ):
        return {}
    # A hex tapped on the map: its link's ``at``, the hex as the place field takes it.
    tapped = places.find(choices.get("at", ""))
    target = next(
        (t for t in state.troopers if t.id == choices.get("target") and t.side != chosen.side),
        None,
    )
    odds = (
        map_odds(game, table, places, state, ruleset, chosen, target, choices) if target else None
    )
    keep = {k: v for k, v in choices.items() if k != "at"}

    def link(hex_: Hex) -> str:
        return "?" + urlencode({**keep, "at": places.typed(hex_)})

    targets = [
        Target(t.id, t.name, places.name(t.hex))
        for t in state.troopers
        if t.side != chosen.side
        and t.hex is not None
        and not game_rules(ruleset).state_for(t.wounds).removed
    ]
    return {
        "map": game_map(table, state, ruleset, link, odds),
        "tapped": places.typed(tapped),
        "tapped_place": places.name(tapped) if tapped else "",
        "targets": targets,
        "odds": odds,
        "choices": choices,
    }


def _class_name(trooper: GameTrooper, ruleset: Ruleset) -> str:
    found = ruleset.trooper_classes.get(trooper.trooper_class)
    return found.name if found is not None and found.specialist else ""


def _can_be_hacked(trooper: GameTrooper, ruleset: Ruleset) -> bool:
    return trooper.tag == (game_rules(ruleset).hacked.targets == TAG_ONLY)


def _may_ever_take(trooper: GameTrooper, action: str, ruleset: Ruleset) -> bool:
    """Whether the action is ever the trooper's: another class's special action, or the
    end of a condition it can never have, is left off its panel (one hand, a short list)."""
    special = ruleset.special_actions.get(action)
    if special is not None and special.trooper_class not in (None, trooper.trooper_class):
        return False
    return action != game_rules(ruleset).hacked.ended_by or _can_be_hacked(trooper, ruleset)
