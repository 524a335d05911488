"""An attack's situation read from the table's own map, for the exact odds.

Between two placed troopers the map knows the range band (the hex distance, through the
ruleset's bands), line of fire and what blocks it (the engine's exact line of fire,
onefinity.rules.lineoffire), cover (rules reference 5: a trooper whose own hex is cover, or
next to any terrain) and higher ground (the levels of the two hexes). The players add only
what the map cannot know: the target's facing (an attack in its rear arc) and a charge.
The situation is said as ids of the ruleset's situational modifiers, as the odds take them
(onefinity.rules.combat); a modifier the ruleset does not have, or that does not count in
the exchange or for that side, is left out.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from onefinity.rules.hexgrid import Board, Hex, distance
from onefinity.rules.lineoffire import Terrain, line_of_fire
from onefinity.rules.ruleset import CLOSE_COMBAT, SHOOTING, Modifier, Ruleset

# The terrain kind that gives cover to a trooper standing on it (tablegen's metrics count
# cover the same way).
COVER_KIND = "cover"
# The situational modifiers the map (or the players) can say, by their ruleset ids.
HIGHER_GROUND, COVER, REAR, CHARGING = "higher-ground", "cover", "rear", "charging"


@dataclass(frozen=True, slots=True)
class MapReading:
    distance: int
    band: str | None  # None: beyond every band
    clear: bool  # line of fire
    blocked_by: tuple[Hex, ...]
    attacker_in_cover: bool
    target_in_cover: bool
    attacker_higher: bool
    target_higher: bool


def read_map(
    board: Board, kinds: Mapping[int, str], ruleset: Ruleset, attacker: Hex, target: Hex
) -> MapReading:
    """What the map says of an attack from ``attacker``'s hex at ``target``'s."""
    terrain = Terrain.of(board, kinds, ruleset.table)
    lof = line_of_fire(board, terrain, attacker, target)
    i, j = board.index[attacker], board.index[target]
    hexes = distance(attacker, target)
    band = ruleset.band_for_distance(hexes)

    def in_cover(at: int) -> bool:
        return kinds.get(at) == COVER_KIND or any(n in kinds for n in board.neighbours[at])

    blocked = tuple(
        dict.fromkeys(lof.blocked_by + tuple(h for pair in lof.blocked_along for h in pair))
    )
    return MapReading(
        distance=hexes,
        band=band.id if band else None,
        clear=lof.clear,
        blocked_by=blocked,
        attacker_in_cover=in_cover(i),
        target_in_cover=in_cover(j),
        attacker_higher=int(terrain.levels[i]) > int(terrain.levels[j]),
        target_higher=int(terrain.levels[j]) > int(terrain.levels[i]),
    )


@dataclass(frozen=True, slots=True)
class AttackSituation:
    """Each side's situational modifiers (ruleset ids), as plan_exchange takes them."""

    attacker_combat: tuple[str, ...]
    attacker_defense: tuple[str, ...]
    target_combat: tuple[str, ...]
    target_defense: tuple[str, ...]


def _kept(
    wanted: list[str], modifiers: Mapping[str, Modifier], mode: str, side: str
) -> tuple[str, ...]:
    return tuple(
        m
        for m in dict.fromkeys(wanted)
        if m in modifiers and modifiers[m].applies_to(mode) and side in modifiers[m].sides
    )


def attack_situation(
    reading: MapReading,
    mode: str,
    ruleset: Ruleset,
    rear: bool = False,
    charge: bool = False,
    target_downed: bool = False,
    reaction: bool = True,
) -> AttackSituation:
    """The modifiers the map and the players' two answers give each side. The attacker's
    defense counts only against a reaction, the target's combat modifiers only when it
    attacks (close combat, or a reaction): without one they are left out."""
    combat, defense = ruleset.combat_modifiers, ruleset.defense_modifiers
    attacker_combat = [HIGHER_GROUND] if reading.attacker_higher else []
    if rear:
        attacker_combat.append(REAR)
    if charge and mode == CLOSE_COMBAT:
        attacker_combat.append(CHARGING)
    if target_downed:
        attacker_combat += [m.id for m in combat.values() if m.target_downed]
    target_defense = []
    attacker_defense = []
    if mode == SHOOTING:
        target_defense = [COVER] * reading.target_in_cover + [HIGHER_GROUND] * reading.target_higher
        if reaction:
            attacker_defense = [COVER] * reading.attacker_in_cover + [
                HIGHER_GROUND
            ] * reading.attacker_higher
    target_attacks = mode == CLOSE_COMBAT or reaction
    target_combat = [HIGHER_GROUND] if reading.target_higher and target_attacks else []
    return AttackSituation(
        attacker_combat=_kept(attacker_combat, combat, mode, "active"),
        attacker_defense=_kept(attacker_defense, defense, mode, "active"),
        target_combat=_kept(target_combat, combat, mode, "reactive"),
        target_defense=_kept(target_defense, defense, mode, "reactive"),
    )
