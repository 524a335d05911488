"""The game's map and the odds of an attack between two placed troopers, taken from it:
the range band from the hex distance, line of fire, cover and higher ground from the
table's exact geometry (onefinity.rules.map_odds), whether the target may react
(onefinity.rules.reactions), and the exact exchange (onefinity.rules.combat). The players
add only the target's facing (an attack in its rear arc) and a charge."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.models import Game
from games.places import Places
from onefinity.rules import ForceDocumentError, read_force_document
from onefinity.rules.cards import CardOddsError
from onefinity.rules.combat import ExchangeResult, Situation, plan_exchange, resolve
from onefinity.rules.effects import CombatError, Fighter, fighter
from onefinity.rules.game import GameState, GameTrooper, game_rules, list_troopers
from onefinity.rules.hexgrid import Hex, standard_board
from onefinity.rules.lineoffire import Terrain
from onefinity.rules.map_odds import AttackSituation, MapReading, attack_situation, read_map
from onefinity.rules.reactions import Watch, reaction_refusal, unseen_reach
from onefinity.rules.ruleset import CLOSE_COMBAT, SHOOTING, Ruleset
from onefinity.rules.visibility import board_visibility
from tablegen.engine.render import Overlay, svg
from tablegen.engine.tables import TableDocumentError, TableSpec, read_table_document


def table_spec(game: Game, ruleset: Ruleset) -> TableSpec:
    """The game's table as it was when the game started, or the standard board."""
    if game.table is not None:
        try:
            return read_table_document(game.table, ruleset.table)
        except TableDocumentError:
            pass  # a table the reader no longer takes: play on the standard board's shape
    rules = ruleset.table
    return TableSpec(standard_board(rules.rows, rules.columns), {}, game.table_name)


def standing_hexes(table: TableSpec | None, ruleset: Ruleset) -> tuple[Hex, ...]:
    """The hexes a trooper may stand on: the table's but those of blocking terrain (a kind
    nobody enters), or the standard board's when the game has no table."""
    if table is None:
        return standard_board(ruleset.table.rows, ruleset.table.columns).hexes
    kinds = ruleset.table.terrain
    return tuple(
        h
        for i, h in enumerate(table.board.hexes)
        if i not in table.terrain or kinds[table.terrain[i]].enterable
    )


def game_map(
    table: TableSpec, state: GameState, ruleset: Ruleset, link: Any, odds: MapOdds | None
) -> str:
    """The game's table (``table_spec``) with the placed troopers marked, each hex a link
    (``link(hex)``) named as the map names it ("Row 3 from side A, column 5: …")."""
    placed = frozenset(
        t.hex for t in state.troopers if t.hex is not None and t.hex in table.board.index
    )
    overlay = Overlay(highlighted=placed)
    if odds is not None and odds.reading is not None:
        source, target = odds.attacker.hex, odds.target.hex
        assert source is not None
        # What the attacker sees: every hex its line of fire reaches (the map dims the rest).
        clear = board_visibility(table.board, Terrain.of(table.board, table.terrain, ruleset.table))
        row = clear[table.board.index[source]]
        seen = frozenset(h for h, visible in zip(table.board.hexes, row, strict=True) if visible)
        overlay = Overlay(
            highlighted=placed,
            source=source,
            target=target,
            seen=seen,
            blockers=frozenset(odds.reading.blocked_by),
        )
    return svg(
        table, overlay, link=link, title=f"{table.name}: the game's map", rules=ruleset.table
    )


@dataclass
class MapOdds:
    attacker: GameTrooper
    target: GameTrooper
    mode: str
    reading: MapReading | None = None
    reaction: bool = False
    no_reaction: str = ""
    weapons: list[tuple[str, str]] = field(default_factory=list)
    weapon: str = ""
    modifiers: list[str] = field(default_factory=list)
    result: ExchangeResult | None = None
    error: str = ""

    def percent(self, value: Any) -> str:
        return f"{float(value) * 100:.1f}%"

    @property
    def outcome(self) -> list[tuple[str, str]]:
        if self.result is None:
            return []
        r = self.result
        return [
            ("Only the attacker hits", self.percent(r.attacker_hits)),
            ("Only the target hits", self.percent(r.target_hits)),
            ("Both hit", self.percent(r.both_hit)),
            ("Neither hits", self.percent(r.neither_hits)),
        ]

    @property
    def target_ends(self) -> list[tuple[str, str]]:
        if self.result is None:
            return []
        fate = self.result.target
        return [
            ("unhurt", self.percent(fate.unhurt)),
            ("wounded", self.percent(fate.wounded)),
            ("downed", self.percent(fate.downed)),
            ("killed", self.percent(fate.killed)),
        ]


def map_odds(
    game: Game,
    table: TableSpec,
    places: Places,
    state: GameState,
    ruleset: Ruleset,
    attacker: GameTrooper,
    target: GameTrooper,
    choices: dict[str, str],
) -> MapOdds:
    """The odds of ``attacker`` attacking ``target`` as the game's table (``table_spec``)
    says, with the players' ``choices``: mode (shooting or close-combat), weapon, rear,
    charge; a hex it names is named as the map names it (``places``). Its steps: the map
    read between the two, the two fighters, whether the target may react, whether the
    attack reaches at all, and the exact exchange."""
    mode = CLOSE_COMBAT if choices.get("mode") == CLOSE_COMBAT else SHOOTING
    odds = MapOdds(attacker, target, mode)
    reading = _read_between(table, ruleset, odds)
    if reading is None:
        return odds
    fighters = _fighters(game, ruleset, odds, choices)
    if fighters is None:
        return odds
    target_state = game_rules(ruleset).state_for(target.wounds)
    odds.no_reaction = reaction_refusal(
        Watch(
            state_reacts=target_state.reacts,
            sees=reading.clear,
            in_rear_arc=choices.get("rear") == "on",
            distance=reading.distance,
            unseen_reach=unseen_reach(fighters[1].gear),
            state_name=target_state.name.lower(),
        )
    )
    odds.reaction = not odds.no_reaction
    odds.error = _out_of_reach(reading, mode, places)
    if not odds.error:
        downed = not target_state.acts and not target_state.removed
        _exchange(odds, fighters, ruleset, choices, target_downed=downed)
    return odds


def _read_between(table: TableSpec, ruleset: Ruleset, odds: MapOdds) -> MapReading | None:
    """The map read from the attacker's hex to the target's (kept on ``odds``), or None
    with the reason on ``odds`` when either is not on this table's map."""
    if odds.attacker.hex is None or odds.target.hex is None:
        odds.error = "Place both troopers on the map to read the odds from it."
        return None
    if odds.attacker.hex not in table.board.index or odds.target.hex not in table.board.index:
        odds.error = "A trooper stands outside this table's map."
        return None
    odds.reading = read_map(table.board, table.terrain, ruleset, odds.attacker.hex, odds.target.hex)
    return odds.reading


def _fighters(
    game: Game, ruleset: Ruleset, odds: MapOdds, choices: dict[str, str]
) -> tuple[Fighter, Fighter] | None:
    """The attacker with the weapon chosen (the weapons it carries kept on ``odds``) and
    the target, from their lists; None with the reason on ``odds``."""
    specs = _specs(game)
    mine, theirs = specs.get(odds.attacker.id), specs.get(odds.target.id)
    if mine is None or theirs is None:
        odds.error = "A trooper's list no longer reads."
        return None
    unit_type = ruleset.unit_types.get(mine[1].type)
    carried = mine[0].weapons or ((unit_type.default_weapon,) if unit_type else ())
    odds.weapons = [(w, ruleset.weapons[w].name) for w in carried if w in ruleset.weapons]
    odds.weapon = (
        choices.get("weapon", "")
        if choices.get("weapon") in carried
        else (odds.weapons[0][0] if odds.weapons else "")
    )
    side_a = fighter(mine[0], mine[1], ruleset, odds.attacker.name, odds.weapon or None)
    side_b = fighter(theirs[0], theirs[1], ruleset, odds.target.name)
    if side_a is None or side_b is None:
        odds.error = "A trooper's unit type is not in this ruleset."
        return None
    return side_a, side_b


def _out_of_reach(reading: MapReading, mode: str, places: Places) -> str:
    """Why the attack cannot be made from where the two stand, or ""."""
    if mode == SHOOTING and not reading.clear:
        # Each hex's name has a comma of its own ("Row 3 from side A, column 5").
        blockers = "; ".join(places.name(h) for h in reading.blocked_by)
        if not blockers:
            return "No line of fire."
        return f"No line of fire: {blockers} {'blocks' if len(reading.blocked_by) == 1 else 'block'} it."
    if mode == SHOOTING and reading.band is None:
        return f"{reading.distance} hexes is beyond every range band."
    if mode == CLOSE_COMBAT and reading.distance != 1:
        return "Close combat is between troopers in base contact (adjacent hexes)."
    return ""


def _exchange(
    odds: MapOdds,
    fighters: tuple[Fighter, Fighter],
    ruleset: Ruleset,
    choices: dict[str, str],
    target_downed: bool,
) -> None:
    """The exact exchange in the situation the map gives (kept on ``odds``): with the
    target's reaction when it may react and the exchange allows it, else without."""
    reading = odds.reading
    assert reading is not None
    side_a, side_b = fighters
    for reacting in (True, False) if odds.reaction else (False,):
        situation = attack_situation(
            reading,
            odds.mode,
            ruleset,
            rear=choices.get("rear") == "on",
            charge=choices.get("charge") == "on",
            target_downed=target_downed,
            reaction=reacting,
        )
        odds.modifiers = _modifier_names(situation, odds.attacker, odds.target, ruleset)
        try:
            plan = plan_exchange(
                side_a.with_situation(situation.attacker_combat, situation.attacker_defense),
                side_b.with_situation(situation.target_combat, situation.target_defense),
                Situation(odds.mode, reading.band or "", reacting),
                ruleset,
            )
            odds.result = resolve(plan, ruleset)
        except (CombatError, CardOddsError) as error:
            if reacting:
                # The exchange forbids the reaction (the target's weapon cannot fire at
                # this band, an effect of its own): the odds without it, and why.
                odds.reaction, odds.no_reaction = False, str(error).rstrip(".")
                continue
            odds.error = str(error)
        break


def _modifier_names(
    situation: AttackSituation, attacker: GameTrooper, target: GameTrooper, ruleset: Ruleset
) -> list[str]:
    names = {**ruleset.combat_modifiers, **ruleset.defense_modifiers}
    return [
        f"{who}: {names[m].name}"
        for who, ids in (
            (attacker.name, situation.attacker_combat + situation.attacker_defense),
            (target.name, situation.target_combat + situation.target_defense),
        )
        for m in ids
    ]


def _specs(game: Game) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for side, document in (("a", game.list_a), ("b", game.list_b)):
        try:
            found |= list_troopers(read_force_document(document), side)
        except ForceDocumentError:
            continue
    return found
