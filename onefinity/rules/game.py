"""A game at the table between two force lists: the state both phones share, and the steps
that change it (seed 000: turns, action points, trooper states). Pure: no Django.

``new_game`` builds the state from the two lists; ``apply(state, step, ruleset)`` returns
the next state, or raises :class:`GameError` with the reason and changes nothing (states
are immutable). Every cost, the repeat multiplier, which actions bring a trooper on, what
each state and the Hacked condition allow, and who is healed or repaired come from the
ruleset's data (``[actions]``, ``[special_actions]``, ``[game]``), so a new action or state
needs data, not code.

The players draw real cards; the game records what they drew and what it did: the
draw-off (``first``), the action points (``ap``), an action and its cost (``act``), a
wound, a heal or repair, a hack, an Emergency Recovery, a trooper placed on a hex, the
victory points.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from onefinity.rules.effects import fighter, wounds_of
from onefinity.rules.force import ForceSpec, TrooperSpec, UnitSpec
from onefinity.rules.hexgrid import Hex
from onefinity.rules.ruleset import NOT_TAG, TAG_ONLY, GameRules, Ruleset, TrooperState

SIDES = ("a", "b")
OFF_TABLE = "off-table"
STEP_KINDS = ("first", "ap", "act", "pass", "wound", "heal", "hack", "recover", "place", "vp")
MAX_VP = 99
JOKER = "joker"
STATE_FORMAT = "onefinity-game"
STATE_VERSION = 1
# The "special" cost of [actions.costs] is what a special action costs, not an action.
SPECIAL_COST = "special"


class GameError(ValueError):
    """A step the rules forbid, or a document that is not a game; the message says why."""


@dataclass(frozen=True, slots=True)
class GameTrooper:
    id: str
    side: str
    name: str
    unit_type: str
    trooper_class: str
    tag: bool
    max_wounds: int
    wounds: int
    on_table: bool = False
    hacked: bool = False
    hex: Hex | None = None

    def state(self, rules: GameRules) -> str:
        return rules.state_for(self.wounds).id if self.on_table else OFF_TABLE


@dataclass(frozen=True, slots=True)
class Step:
    """One step as the players record it; fields a kind does not use stay empty."""

    kind: str
    side: str = ""
    trooper: str = ""
    action: str = ""
    value: int = 0
    count: int = 0
    hex: Hex | None = None
    joker: bool = False


@dataclass(frozen=True, slots=True)
class GameState:
    troopers: tuple[GameTrooper, ...]
    vp_target: int
    # The hexes a trooper may be placed on (the game's table); empty: no map.
    board: frozenset[Hex] = frozenset()
    turn: int = 0
    active: str | None = None
    ap: int = 0
    ap_drawn: bool = False
    # This turn: how often each (trooper, action) was taken (the doubling), and how many
    # of those actions' outcomes were recorded (a heal, a hack, a recovery).
    taken: tuple[tuple[str, str, int], ...] = ()
    used: tuple[tuple[str, str, int], ...] = ()
    vp: tuple[int, int] = (0, 0)
    ended: bool = False
    winner: str | None = None
    _by_id: dict[str, int] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._by_id.update({t.id: i for i, t in enumerate(self.troopers)})

    def trooper(self, trooper_id: str) -> GameTrooper:
        index = self._by_id.get(trooper_id)
        if index is None:
            raise GameError(f"there is no trooper {trooper_id[:40]!r} in this game")
        return self.troopers[index]

    def with_trooper(self, trooper: GameTrooper) -> GameState:
        troopers = list(self.troopers)
        troopers[self._by_id[trooper.id]] = trooper
        return replace(self, troopers=tuple(troopers))

    def times_taken(self, trooper_id: str, action: str) -> int:
        return _count(self.taken, trooper_id, action)

    def vp_of(self, side: str) -> int:
        return self.vp[SIDES.index(side)]


def _count(counts: tuple[tuple[str, str, int], ...], key: str, action: str) -> int:
    return next((n for k, a, n in counts if k == key and a == action), 0)


def _bump(
    counts: tuple[tuple[str, str, int], ...], key: str, action: str
) -> tuple[tuple[str, str, int], ...]:
    n = _count(counts, key, action)
    return (*((k, a, c) for k, a, c in counts if (k, a) != (key, action)), (key, action, n + 1))


def other(side: str) -> str:
    return SIDES[1 - SIDES.index(side)]


def game_rules(ruleset: Ruleset) -> GameRules:
    if ruleset.game is None:
        raise GameError(f"the ruleset {ruleset.version} has no rules for a game")
    return ruleset.game


# --- Actions and their costs ------------------------------------------------------------


def game_actions(ruleset: Ruleset) -> tuple[str, ...]:
    """Every action a trooper may be given: the costs' and the special actions'."""
    plain = [a for a in ruleset.action_costs if a != SPECIAL_COST]
    return (*plain, *(a for a in ruleset.special_actions if a not in plain))


def action_name(action: str, ruleset: Ruleset) -> str:
    special = ruleset.special_actions.get(action)
    return special.name if special else action.replace("-", " ").capitalize()


def base_cost(action: str, ruleset: Ruleset) -> int:
    special = ruleset.special_actions.get(action)
    return special.ap if special else ruleset.action_costs[action]


def cost(state: GameState, trooper_id: str, action: str, ruleset: Ruleset) -> int:
    """What the action costs the trooper now: each repeat this turn multiplies it."""
    times = state.times_taken(trooper_id, action)
    multiplier: int = ruleset.repeat_multiplier**times
    return base_cost(action, ruleset) * multiplier


def action_refusal(state: GameState, trooper: GameTrooper, action: str, ruleset: Ruleset) -> str:
    """Why the trooper may not take the action now ('' when it may): the reason the page
    shows beside a disabled button and a forbidden step's 400."""
    rules = game_rules(ruleset)
    if state.ended:
        return _over(state)
    if state.active is None:
        return "the game has not started: record who won the draw-off"
    if trooper.side != state.active:
        return f"it is side {state.active.upper()}'s turn: the reactive side does not act"
    if not state.ap_drawn:
        return "draw a card for action points first"
    if action not in game_actions(ruleset):
        return f"{action[:40]!r} is not an action of the ruleset"
    special = ruleset.special_actions.get(action)
    if special and special.trooper_class and special.trooper_class != trooper.trooper_class:
        needed = ruleset.trooper_classes[special.trooper_class].name
        return f"only a {needed} may take {special.name}"
    if not trooper.on_table:
        if action not in rules.enter_actions:
            words = ", ".join(action_name(a, ruleset) for a in rules.enter_actions)
            return f"{trooper.name} is off the table: it enters with its first action ({words})"
    else:
        state_rule = _state_rule(trooper, rules)
        if not state_rule.acts:
            return f"{trooper.name} is {state_rule.name.lower()}: it cannot act"
    hacked = rules.hacked
    if trooper.hacked and action in hacked.forbids:
        recovery = action_name(hacked.ended_by, ruleset)
        return f"{trooper.name} is {hacked.name.lower()}: it cannot move until {recovery}"
    if action == hacked.ended_by and not trooper.hacked:
        return f"{trooper.name} is not {hacked.name.lower()}"
    price = cost(state, trooper.id, action, ruleset)
    if price > state.ap:
        return f"it costs {price} AP and {state.ap} AP {'is' if state.ap == 1 else 'are'} left"
    return ""


def _state_rule(trooper: GameTrooper, rules: GameRules) -> TrooperState:
    return rules.state_for(trooper.wounds)


def _over(state: GameState) -> str:
    winner = (state.winner or "").upper()
    return f"the game is over: side {winner} reached {state.vp_target} VP"


# --- A new game ---------------------------------------------------------------------------


def new_game(
    force_a: ForceSpec,
    force_b: ForceSpec,
    ruleset: Ruleset,
    vp_target: int,
    board: Iterable[Hex] = (),
) -> GameState:
    """Every trooper of both lists off the table with its profile's wounds, no VP, no side
    active yet."""
    game_rules(ruleset)
    if not 1 <= vp_target <= MAX_VP:
        raise GameError(f"the VP target is a whole number from 1 to {MAX_VP}")
    troopers: list[GameTrooper] = []
    for side, force in zip(SIDES, (force_a, force_b), strict=True):
        for trooper_id, (trooper, unit, place) in list_troopers(force, side).items():
            unit_type = ruleset.unit_types.get(unit.type)
            if unit_type is None:
                raise GameError(f"{force.name}: {unit.type!r} is not a unit type of the ruleset")
            side_of = fighter(trooper, unit, ruleset)
            assert side_of is not None
            wounds = wounds_of(side_of)
            troopers.append(
                GameTrooper(
                    id=trooper_id,
                    side=side,
                    name=trooper.name or f"{unit.name or unit_type.name} {place}",
                    unit_type=unit.type,
                    trooper_class=trooper.trooper_class,
                    tag=unit_type.is_tag,
                    max_wounds=wounds,
                    wounds=wounds,
                )
            )
    if len({t.id for t in troopers}) != len(troopers):
        raise GameError("two troopers of one list have the same id")
    return GameState(tuple(troopers), vp_target, frozenset(board))


def list_troopers(force: ForceSpec, side: str) -> dict[str, tuple[TrooperSpec, UnitSpec, int]]:
    """Each trooper of a list by its id in a game (the side, then its own id, or its unit's
    and its place), with its unit and its place in the unit (from 1)."""
    found = {}
    for u, unit in enumerate(force.units, start=1):
        for t, trooper in enumerate(unit.troopers, start=1):
            found[f"{side}-{trooper.id or f'{u}.{t}'}"] = (trooper, unit, t)
    return found


# --- The steps ------------------------------------------------------------------------------


def apply(state: GameState, step: Step, ruleset: Ruleset) -> GameState:
    """The state after the step, or GameError with the reason (the state is unchanged)."""
    handler = _HANDLERS.get(step.kind)
    if handler is None:
        raise GameError(
            f"{step.kind[:40]!r} is not a step (expected one of {', '.join(STEP_KINDS)})"
        )
    if state.ended:
        raise GameError(_over(state))
    if step.kind != "first" and state.active is None:
        raise GameError("the game has not started: record who won the draw-off")
    return handler(state, step, ruleset)


def _first(state: GameState, step: Step, ruleset: Ruleset) -> GameState:
    if state.active is not None:
        raise GameError("the draw-off is already recorded")
    _side(step.side)
    return replace(state, active=step.side, turn=1)


def _ap(state: GameState, step: Step, ruleset: Ruleset) -> GameState:
    if state.ap_drawn:
        raise GameError("action points are already drawn this turn")
    if step.joker:
        raise GameError(
            "a Joker has no value: discard it, shuffle the discard pile back in, draw again"
        )
    top = ruleset.cards.values
    if not 1 <= step.value <= top:
        raise GameError(f"action points are a card's value, 1 to {top}")
    return replace(state, ap=step.value, ap_drawn=True)


def _act(state: GameState, step: Step, ruleset: Ruleset) -> GameState:
    trooper = state.trooper(step.trooper)
    refusal = action_refusal(state, trooper, step.action, ruleset)
    if refusal:
        raise GameError(refusal)
    price = cost(state, trooper.id, step.action, ruleset)
    moved = replace(state, ap=state.ap - price, taken=_bump(state.taken, trooper.id, step.action))
    return moved.with_trooper(replace(trooper, on_table=True))


def _pass(state: GameState, step: Step, ruleset: Ruleset) -> GameState:
    assert state.active is not None
    return replace(
        state,
        active=other(state.active),
        turn=state.turn + 1,
        ap=0,
        ap_drawn=False,
        taken=(),
        used=(),
    )


def _on_table(trooper: GameTrooper, rules: GameRules) -> TrooperState:
    if not trooper.on_table:
        # A player reads this beside Place: say how it comes on (a walk found "is off the
        # table" read as a contradiction there).
        raise GameError(
            f"{trooper.name} is off the table: its first action brings it on, then place it"
        )
    state_rule = _state_rule(trooper, rules)
    if state_rule.removed:
        raise GameError(f"{trooper.name} is {state_rule.name.lower()}: it is out of play")
    return state_rule


def _wound(state: GameState, step: Step, ruleset: Ruleset) -> GameState:
    rules = game_rules(ruleset)
    trooper = state.trooper(step.trooper)
    _on_table(trooper, rules)
    # A trooper is killed one wound below 0: a larger count means nothing more.
    most = trooper.wounds + 1
    if not 1 <= step.count <= most:
        raise GameError(f"{trooper.name} can lose 1 to {most} wound{'s' if most != 1 else ''}")
    wounded = replace(trooper, wounds=trooper.wounds - step.count)
    if _state_rule(wounded, rules).removed:
        wounded = replace(wounded, hacked=False, hex=None)
    return state.with_trooper(wounded)


def _available(state: GameState, ruleset: Ruleset, action: str, key: str = "") -> int:
    """How many outcomes of the action, taken this turn, are still to be recorded: by the
    whole active side, or (with ``key``) by one trooper."""
    taken = sum(
        n
        for trooper_id, a, n in state.taken
        if a == action and (trooper_id == key if key else True)
    )
    return taken - _count(state.used, key, action)


def _restorer(trooper: GameTrooper, rules: GameRules) -> str:
    wanted = TAG_ONLY if trooper.tag else NOT_TAG
    return next(a for a, whom in rules.restores.items() if whom == wanted)


def _heal(state: GameState, step: Step, ruleset: Ruleset) -> GameState:
    rules = game_rules(ruleset)
    trooper = state.trooper(step.trooper)
    state_rule = _on_table(trooper, rules)
    action = _restorer(trooper, rules)
    name = action_name(action, ruleset)
    if trooper.side != state.active:
        raise GameError(f"{name} is for a trooper of the active side")
    if not state_rule.restorable or trooper.wounds >= trooper.max_wounds:
        raise GameError(f"{trooper.name} has all its wounds")
    if _available(state, ruleset, action) < 1:
        kind = "a TAG is repaired, not healed" if trooper.tag else "only a TAG is repaired"
        raise GameError(f"no {name} was taken this turn for {trooper.name} ({kind})")
    restored = min(trooper.max_wounds, trooper.wounds + rules.restore_wounds)
    healed = replace(state, used=_bump(state.used, "", action))
    return healed.with_trooper(replace(trooper, wounds=restored))


def _hack(state: GameState, step: Step, ruleset: Ruleset) -> GameState:
    rules = game_rules(ruleset)
    hacked = rules.hacked
    trooper = state.trooper(step.trooper)
    _on_table(trooper, rules)
    if trooper.side == state.active:
        raise GameError(f"{hacked.name} is given to an enemy trooper")
    if trooper.tag != (hacked.targets == TAG_ONLY):
        raise GameError(
            f"only a {'TAG' if hacked.targets == TAG_ONLY else 'non-TAG'} can be hacked"
        )
    if trooper.hacked:
        raise GameError(f"{trooper.name} is already {hacked.name.lower()}")
    if _available(state, ruleset, hacked.by) < 1:
        raise GameError(f"no {action_name(hacked.by, ruleset)} was taken this turn")
    marked = replace(state, used=_bump(state.used, "", hacked.by))
    return marked.with_trooper(replace(trooper, hacked=True))


def _recover(state: GameState, step: Step, ruleset: Ruleset) -> GameState:
    rules = game_rules(ruleset)
    hacked = rules.hacked
    trooper = state.trooper(step.trooper)
    _on_table(trooper, rules)
    if not trooper.hacked:
        raise GameError(f"{trooper.name} is not {hacked.name.lower()}")
    if _available(state, ruleset, hacked.ended_by, trooper.id) < 1:
        name = action_name(hacked.ended_by, ruleset)
        raise GameError(f"{trooper.name} has not taken {name} this turn")
    marked = replace(state, used=_bump(state.used, trooper.id, hacked.ended_by))
    return marked.with_trooper(replace(trooper, hacked=False))


def _place(state: GameState, step: Step, ruleset: Ruleset) -> GameState:
    trooper = state.trooper(step.trooper)
    _on_table(trooper, game_rules(ruleset))
    if step.hex is None or step.hex not in state.board:
        raise GameError("that hex is not on the game's table")
    holder = next((t for t in state.troopers if t.hex == step.hex and t.id != trooper.id), None)
    if holder is not None:
        raise GameError(f"{holder.name} stands on that hex")
    return state.with_trooper(replace(trooper, hex=step.hex))


def _vp(state: GameState, step: Step, ruleset: Ruleset) -> GameState:
    side = _side(step.side)
    if not 0 <= step.value <= MAX_VP:
        raise GameError(f"victory points are a whole number from 0 to {MAX_VP}")
    vp = list(state.vp)
    vp[SIDES.index(side)] = step.value
    scored = replace(state, vp=(vp[0], vp[1]))
    if step.value >= state.vp_target:
        scored = replace(scored, ended=True, winner=side)
    return scored


def _side(side: str) -> str:
    if side not in SIDES:
        raise GameError("a side is 'a' or 'b'")
    return side


_HANDLERS: Mapping[str, Callable[[GameState, Step, Ruleset], GameState]] = {
    "first": _first,
    "ap": _ap,
    "act": _act,
    "pass": _pass,
    "wound": _wound,
    "heal": _heal,
    "hack": _hack,
    "recover": _recover,
    "place": _place,
    "vp": _vp,
}
assert tuple(_HANDLERS) == STEP_KINDS


# --- Reading a step from a form --------------------------------------------------------------

_NUMBER = re.compile(r"^[0-9]{1,3}$")
_HEX = re.compile(r"^(-?[0-9]{1,3}),(-?[0-9]{1,3})$")
MAX_FIELD = 40


def _number(fields: Mapping[str, str], name: str) -> int:
    raw = fields.get(name, "").strip()
    if not _NUMBER.match(raw):
        raise GameError(f"{name} must be a whole number (0 to 999), not {raw[:MAX_FIELD]!r}")
    return int(raw)


def read_step(fields: Mapping[str, str]) -> Step:
    """A step from a form's fields (text), every size bounded; GameError when unreadable."""
    kind = fields.get("kind", "")
    if kind not in STEP_KINDS:
        raise GameError(f"kind must be one of {', '.join(STEP_KINDS)}")
    side = fields.get("side", "")[:MAX_FIELD]
    trooper = fields.get("trooper", "")[:MAX_FIELD]
    if kind == "ap":
        if fields.get("value", "").strip().lower() == JOKER:
            return Step(kind, joker=True)
        return Step(kind, value=_number(fields, "value"))
    if kind in ("first",):
        return Step(kind, side=side)
    if kind == "vp":
        return Step(kind, side=side, value=_number(fields, "value"))
    if kind == "act":
        return Step(kind, trooper=trooper, action=fields.get("action", "")[:MAX_FIELD])
    if kind == "wound":
        return Step(kind, trooper=trooper, count=_number(fields, "count"))
    if kind == "place":
        found = _HEX.match(fields.get("hex", "").strip())
        if not found:
            raise GameError("hex must be 'q,r', like '3,4'")
        return Step(kind, trooper=trooper, hex=(int(found[1]), int(found[2])))
    if kind == "pass":
        return Step(kind)
    return Step(kind, trooper=trooper)


def step_document(step: Step) -> dict[str, Any]:
    """The step's own fields, for the log (what read_step reads back)."""
    document: dict[str, Any] = {"kind": step.kind}
    if step.side:
        document["side"] = step.side
    if step.trooper:
        document["trooper"] = step.trooper
    if step.action:
        document["action"] = step.action
    if step.kind in ("ap", "vp"):
        document["value"] = JOKER if step.joker else step.value
    if step.kind == "wound":
        document["count"] = step.count
    if step.hex is not None:
        document["hex"] = f"{step.hex[0]},{step.hex[1]}"
    return document


def describe_step(step: Step, state: GameState, ruleset: Ruleset) -> str:
    """The step in a player's words, against the state it was applied to."""

    def who() -> str:
        try:
            return state.trooper(step.trooper).name
        except GameError:
            return step.trooper

    if step.kind == "first":
        return f"Side {step.side.upper()} won the draw-off and is active"
    if step.kind == "ap":
        return "A Joker for AP: drawn again" if step.joker else f"Drew {step.value} AP"
    if step.kind == "act":
        price = cost(state, step.trooper, step.action, ruleset)
        return f"{who()}: {action_name(step.action, ruleset)} ({price} AP)"
    if step.kind == "pass":
        return "Passed"
    if step.kind == "wound":
        return f"{who()} lost {step.count} wound{'s' if step.count != 1 else ''}"
    if step.kind == "heal":
        return f"{who()} {'repaired' if state.trooper(step.trooper).tag else 'healed'}"
    if step.kind == "hack":
        return f"{who()} hacked"
    if step.kind == "recover":
        return f"{who()} recovered"
    if step.kind == "place":
        return f"{who()} placed on {step.hex}"
    return f"Side {step.side.upper()} has {step.value} VP"


# --- The stored document and the public state ---------------------------------------------


def public_state(state: GameState, ruleset: Ruleset) -> dict[str, Any]:
    """The contract's state (without the version, which the stored record keeps)."""
    rules = game_rules(ruleset)
    return {
        "turn": state.turn,
        "active": state.active,
        "ap": state.ap,
        "vp": dict(zip(SIDES, state.vp, strict=True)),
        "vp_target": state.vp_target,
        "ended": state.ended,
        "winner": state.winner,
        "troopers": [
            {
                "id": t.id,
                "side": t.side,
                "name": t.name,
                "type": t.unit_type,
                "state": t.state(rules),
                "wounds": t.wounds,
                "hacked": t.hacked,
            }
            for t in state.troopers
        ],
    }


def state_document(state: GameState) -> dict[str, Any]:
    return {
        "format": STATE_FORMAT,
        "version": STATE_VERSION,
        "vp_target": state.vp_target,
        "board": sorted([q, r] for q, r in state.board),
        "turn": state.turn,
        "active": state.active,
        "ap": state.ap,
        "ap_drawn": state.ap_drawn,
        "taken": [list(t) for t in state.taken],
        "used": [list(u) for u in state.used],
        "vp": list(state.vp),
        "ended": state.ended,
        "winner": state.winner,
        "troopers": [
            {
                "id": t.id,
                "side": t.side,
                "name": t.name,
                "type": t.unit_type,
                "class": t.trooper_class,
                "tag": t.tag,
                "max_wounds": t.max_wounds,
                "wounds": t.wounds,
                "on_table": t.on_table,
                "hacked": t.hacked,
                "hex": list(t.hex) if t.hex is not None else None,
            }
            for t in state.troopers
        ],
    }


def read_state_document(document: Any) -> GameState:
    """The state a stored document holds; GameError when it is not one this code wrote."""
    try:
        if document["format"] != STATE_FORMAT or document["version"] != STATE_VERSION:
            raise GameError("not a game state document")
        troopers = tuple(
            GameTrooper(
                id=str(t["id"]),
                side=str(t["side"]),
                name=str(t["name"]),
                unit_type=str(t["type"]),
                trooper_class=str(t["class"]),
                tag=bool(t["tag"]),
                max_wounds=int(t["max_wounds"]),
                wounds=int(t["wounds"]),
                on_table=bool(t["on_table"]),
                hacked=bool(t["hacked"]),
                hex=(int(t["hex"][0]), int(t["hex"][1])) if t["hex"] is not None else None,
            )
            for t in document["troopers"]
        )
        return GameState(
            troopers=troopers,
            vp_target=int(document["vp_target"]),
            board=frozenset((int(q), int(r)) for q, r in document["board"]),
            turn=int(document["turn"]),
            active=document["active"],
            ap=int(document["ap"]),
            ap_drawn=bool(document["ap_drawn"]),
            taken=tuple((str(k), str(a), int(n)) for k, a, n in document["taken"]),
            used=tuple((str(k), str(a), int(n)) for k, a, n in document["used"]),
            vp=(int(document["vp"][0]), int(document["vp"][1])),
            ended=bool(document["ended"]),
            winner=document["winner"],
        )
    except (KeyError, TypeError, ValueError, IndexError) as error:
        raise GameError(f"not a game state document ({error})") from error


def problems(state: GameState, ruleset: Ruleset) -> list[str]:
    """What is wrong with a state (empty for every state ``apply`` can reach)."""
    rules = game_rules(ruleset)
    found = []
    if state.active not in (None, *SIDES):
        found.append("the active side is not a side")
    if not 0 <= state.ap <= ruleset.cards.values:
        found.append("AP outside a card's values")
    if state.ended != (state.winner is not None):
        found.append("a winner exactly when the game has ended")
    if any(not 0 <= v <= MAX_VP for v in state.vp):
        found.append("VP out of bounds")
    hexes = [t.hex for t in state.troopers if t.hex is not None]
    if len(hexes) != len(set(hexes)):
        found.append("two troopers on one hex")
    for t in state.troopers:
        if t.wounds > t.max_wounds or t.wounds < -1:
            found.append(f"{t.id}: wounds out of bounds")
        if not t.on_table and (t.hex is not None or t.hacked or t.wounds != t.max_wounds):
            found.append(f"{t.id}: off the table yet placed, hacked or wounded")
        if t.on_table and rules.state_for(t.wounds).removed and (t.hex or t.hacked):
            found.append(f"{t.id}: out of play yet placed or hacked")
        if t.hacked and t.tag != (rules.hacked.targets == TAG_ONLY):
            found.append(f"{t.id}: hacked but not of the kind the condition takes")
    return found
