"""The ruleset: the game's rules as immutable values, and the library of versions.

Everything the engine knows about units, points, limits and cards comes from a ruleset
file in ``onefinity/data/rulesets``, read and checked by :mod:`onefinity.rules.ruleset_file`
(a missing or mistyped value, or an id that refers to nothing, raises :class:`RulesetError`
naming the file and the key, so an organizer editing the data sees what to fix).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

RULESET_DIR = Path(__file__).resolve().parent.parent / "data" / "rulesets"
RULESET_FORMAT = "onefinity-ruleset"
ALL = "*"

# The effects the engine folds into a trooper's stat line and base modifiers.
EFFECT_KEYS = ("shooting", "close_combat", "defense", "movement", "wounds")

# The kinds of exchange (combat seed 001); each situational modifier names those it
# applies to, since close combat uses combat modifiers only.
SHOOTING = "shooting"
CLOSE_COMBAT = "close-combat"
EXCHANGES = (SHOOTING, CLOSE_COMBAT)
EXCHANGE_NAMES = {SHOOTING: "shooting", CLOSE_COMBAT: "close combat"}


class RulesetError(ValueError):
    """A ruleset file that cannot be used, with the file and key that are wrong."""

    def __init__(self, source: str, key: str, problem: str) -> None:
        self.source = source
        self.key = key
        self.problem = problem
        where = f"{source}: {key}" if key else source
        super().__init__(f"{where}: {problem}")


def frozen(mapping: Mapping[str, Any]) -> Mapping[str, Any]:
    """A read-only mapping: ruleset values are shared by every request."""
    return MappingProxyType(dict(mapping))


@dataclass(frozen=True, slots=True)
class Effects:
    shooting: int = 0
    close_combat: int = 0
    defense: int = 0
    movement: int = 0
    wounds: int = 0
    # Range band ids a shooting effect is limited to; empty means every band.
    bands: tuple[str, ...] = ()

    def shooting_at(self, band: str) -> int:
        return self.shooting if not self.bands or band in self.bands else 0


NO_EFFECTS = Effects()


@dataclass(frozen=True, slots=True)
class RangeBand:
    id: str
    name: str
    min: int
    max: int


@dataclass(frozen=True, slots=True)
class CardRules:
    values: int
    suits: tuple[str, ...]
    jokers: int
    ties_fail: bool
    special_action_success: int

    @property
    def deck_size(self) -> int:
        return self.values * len(self.suits) + self.jokers


@dataclass(frozen=True, slots=True)
class ForceLimits:
    points: int
    unit_points: int
    units: int
    troopers: int
    tags: int
    specialists_max: int
    specialists_min: int


@dataclass(frozen=True, slots=True)
class UnitType:
    id: str
    name: str
    movement: int
    armor: int
    wounds: int
    ability_slots: int
    cost: int
    min_troopers: int
    max_troopers: int
    max_specialists: int
    default_weapon: str
    is_tag: bool = False
    provisional: bool = False


@dataclass(frozen=True, slots=True)
class TrooperClass:
    id: str
    name: str
    specialist: bool
    cost: int
    actions: tuple[str, ...]
    unit_types: tuple[str, ...] = (ALL,)
    factions: tuple[str, ...] = (ALL,)
    description: str = ""
    provisional: bool = False

    def allowed_for_unit_type(self, unit_type: str) -> bool:
        return ALL in self.unit_types or unit_type in self.unit_types

    def allowed_for_faction(self, faction: str) -> bool:
        return ALL in self.factions or faction in self.factions


@dataclass(frozen=True, slots=True)
class SpecialAction:
    id: str
    name: str
    description: str
    trooper_class: str | None
    ap: int


@dataclass(frozen=True, slots=True)
class Discount:
    unit_type: str
    points: int


@dataclass(frozen=True, slots=True)
class Faction:
    id: str
    name: str
    description: str
    discounts: tuple[Discount, ...] = ()
    provisional: bool = False

    def discount_for(self, unit_type: str) -> int:
        return sum(d.points for d in self.discounts if d.unit_type == unit_type)


@dataclass(frozen=True, slots=True)
class CatalogueEntry:
    """A weapon, special ability, piece of equipment or unit skill."""

    kind: str  # "weapon" | "ability" | "equipment" | "unit_skill"
    id: str
    name: str
    cost: int
    unit_types: tuple[str, ...]
    factions: tuple[str, ...]
    effects: Effects = NO_EFFECTS
    description: str = ""
    provisional: bool = False
    # Ability slots this entry takes (special abilities only).
    slots: int = 0
    # Weapons only: fire power per range band id, bonus, close-combat bonus.
    fire_power: Mapping[str, int] = field(default_factory=lambda: frozen({}))
    bonus: int = 0
    close_combat: int = 0
    # Ids this entry had in earlier rulesets, so a list can move to this one.
    replaces: tuple[str, ...] = ()

    def allowed_for_unit_type(self, unit_type: str) -> bool:
        return ALL in self.unit_types or unit_type in self.unit_types

    def allowed_for_faction(self, faction: str) -> bool:
        return ALL in self.factions or faction in self.factions


@dataclass(frozen=True, slots=True)
class Modifier:
    id: str
    name: str
    bonus: int
    # The kinds of exchange (ids from EXCHANGES) the modifier counts in.
    exchanges: tuple[str, ...]

    def applies_to(self, exchange: str) -> bool:
        return exchange in self.exchanges

    @property
    def only_in(self) -> str:
        """The exchange's name when the modifier counts in one kind only, else ''."""
        return EXCHANGE_NAMES[self.exchanges[0]] if len(self.exchanges) == 1 else ""


@dataclass(frozen=True, slots=True)
class TerrainKind:
    id: str
    name: str
    height: int
    level: int
    enterable: bool


@dataclass(frozen=True, slots=True)
class TableRules:
    """The table: standard board size, terrain kinds, line-of-fire policy, validity."""

    rows: int
    columns: int
    terrain: Mapping[str, TerrainKind]
    line_of_fire_version: int
    line_of_fire_policy: str
    coverage_min: float
    coverage_max: float
    edge_lanes_max: int
    cover_difference_max: int
    exposure_difference_max: float
    near_edge_depth: int
    connected: bool


@dataclass(frozen=True, slots=True)
class Ruleset:
    version: str
    name: str
    released: str
    notes: str
    source: str
    cards: CardRules
    action_costs: Mapping[str, int]
    repeat_multiplier: int
    combat_modifiers: Mapping[str, Modifier]
    defense_modifiers: Mapping[str, Modifier]
    range_bands: tuple[RangeBand, ...]
    force_limits: ForceLimits
    unit_types: Mapping[str, UnitType]
    trooper_classes: Mapping[str, TrooperClass]
    special_actions: Mapping[str, SpecialAction]
    factions: Mapping[str, Faction]
    weapons: Mapping[str, CatalogueEntry]
    abilities: Mapping[str, CatalogueEntry]
    equipment: Mapping[str, CatalogueEntry]
    unit_skills: Mapping[str, CatalogueEntry]
    table: TableRules

    def band_for_distance(self, hexes: int) -> RangeBand | None:
        for band in self.range_bands:
            if band.min <= hexes <= band.max:
                return band
        return None


# --- Reading ------------------------------------------------------------------------


def version_key(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("."))


@dataclass(frozen=True, slots=True)
class RulesetLibrary:
    """Every ruleset version the site knows, newest last."""

    rulesets: Mapping[str, Ruleset]

    @property
    def current(self) -> Ruleset:
        return self.rulesets[max(self.rulesets, key=version_key)]

    def get(self, version: str | None) -> Ruleset | None:
        return self.current if version is None else self.rulesets.get(version)

    def get_or_current(self, version: str | None) -> Ruleset:
        """The ruleset a list names, or the current one when this site does not have it
        (validation then reports the unknown version)."""
        return self.get(version) or self.current


@functools.cache
def library() -> RulesetLibrary:
    """The shipped rulesets, read once per process."""
    from onefinity.rules.ruleset_file import load_library

    return load_library()


def current_ruleset() -> Ruleset:
    return library().current


def known_entries(
    catalogue: Mapping[str, CatalogueEntry], ids: tuple[str, ...]
) -> list[CatalogueEntry]:
    """The catalogue entries among ``ids``, skipping ids the ruleset does not have."""
    return [entry for entry in map(catalogue.get, ids) if entry is not None]
