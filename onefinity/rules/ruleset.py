"""The ruleset: the game's rules as immutable values, and the library of versions.

Everything the engine knows about units, points, limits and cards comes from a ruleset
file in ``onefinity/data/rulesets``, read and checked by :mod:`onefinity.rules.ruleset_file`
(a missing or mistyped value, or an id that refers to nothing, raises :class:`RulesetError`
naming the file and the key, so an organizer editing the data sees what to fix).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

RULESET_DIR = Path(__file__).resolve().parent.parent / "data" / "rulesets"
RULESET_FORMAT = "onefinity-ruleset"
ALL = "*"

# The kinds of exchange (combat seed 001); each situational modifier and each effect
# names those it applies to, since close combat uses combat modifiers only.
SHOOTING = "shooting"
CLOSE_COMBAT = "close-combat"
EXCHANGES = (SHOOTING, CLOSE_COMBAT)
EXCHANGE_NAMES = {SHOOTING: "shooting", CLOSE_COMBAT: "close combat"}

# What an effect of a catalogue entry changes (the one "change" key of its table in the
# ruleset file). The first four are part of an exchange's cards; wounds count for the
# exchange's outcome (downed, killed); the rest lie outside an exchange.
ATTACK = "attack"  # cards the owner draws to attack (shooting or close combat)
DEFENSE = "defense"  # cards the owner draws to defend against shooting
ENEMY_ATTACK = "enemy_attack"  # cards an enemy draws to attack the owner
REACTION_FIRE_POWER = "reaction_fire_power"  # the owner's fire power cap in reactive fire
CANCELS = "cancels"  # an enemy's situational modifier or catalogue entry stops counting
NO_REACTION = "no_reaction"  # the owner may not react (under the effect's conditions)
WOUNDS = "wounds"
MOVEMENT = "movement"
OUTSIDE = "outside"  # an effect outside any exchange, named in a word (healing, ...)
# The owner may react to an enemy activating within this many hexes without line of fire
# (onefinity.rules.reactions); outside any exchange.
REACTS_UNSEEN = "reacts_unseen"
CHANGES = (
    ATTACK,
    DEFENSE,
    ENEMY_ATTACK,
    REACTION_FIRE_POWER,
    CANCELS,
    NO_REACTION,
    WOUNDS,
    MOVEMENT,
    OUTSIDE,
    REACTS_UNSEEN,
)
# The owner's role in a comparison of cards, for the changes that need one.
ATTACKING = "attacking"
DEFENDING = "defending"
ROLES = (ATTACKING, DEFENDING)

# How a tie within a reaction (two comparisons at once) is settled under the standard rules.
REDRAW_COMPARISON = "redraw-comparison"  # only the tied comparison is drawn again
REDRAW_EXCHANGE = "redraw-exchange"  # both comparisons are drawn again
REACTION_TIES = (REDRAW_COMPARISON, REDRAW_EXCHANGE)
# What a following shot of a burst aims at once the target is down.
UNTIL_DOWNED = "until-downed"  # the burst stops at the target once it is downed
UNTIL_KILLED = "until-killed"  # the burst goes on at a downed target, until it is killed
FOLLOW_UPS = (UNTIL_DOWNED, UNTIL_KILLED)
# What armor piercing (AP) lowers.
AP_ARMOR = "armor"  # the cards the target draws for its armor
AP_DEFENSE = "defense"  # the whole Trooper Defense Modifier (armor, abilities, cover)
ARMOR_PIERCING = (AP_ARMOR, AP_DEFENSE)


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
class Effect:
    """One effect of a catalogue entry, as the ruleset writes it: what it changes, by how
    much, and when it applies. It always helps the trooper that carries the entry (the
    owner); the evaluator (onefinity.rules.effects) is the one place that applies it."""

    change: str  # one of CHANGES
    amount: int = 0  # cards, fire power, wounds or hexes (ATTACK ... MOVEMENT)
    # CANCELS: the id of an enemy's situational modifier or catalogue entry.
    cancels: str = ""
    # OUTSIDE: what it concerns instead of an exchange, in a word or two ("healing").
    outside: str = ""
    # CANCELS: whether it acts when the owner attacks or when it is attacked.
    role: str = ""
    # Conditions; empty means any.
    exchanges: tuple[str, ...] = ()
    bands: tuple[str, ...] = ()
    # True: only when the owner shoots in reaction; False: never then; None: either way.
    reacting: bool | None = None
    # Situational modifiers the owner, or its enemy, must have for the effect to apply.
    own_situation: tuple[str, ...] = ()
    enemy_situation: tuple[str, ...] = ()

    @property
    def in_exchange(self) -> bool:
        """Whether the effect is part of the odds (movement and OUTSIDE are not)."""
        return self.change not in (MOVEMENT, OUTSIDE, REACTS_UNSEEN)


@dataclass(frozen=True, slots=True)
class ExchangeRules:
    """How an exchange plays out beyond the cards: reactions, bursts, wounds."""

    reaction_fire_power: int = 1
    reaction_ties: str = REDRAW_COMPARISON
    follow_up: str = UNTIL_DOWNED
    armor_piercing: str = AP_ARMOR
    wounds_per_hit: int = 1
    # A side that draws at all draws at least this many cards, whatever lowers it.
    minimum_cards: int = 1


@dataclass(frozen=True, slots=True)
class RangeBand:
    id: str
    name: str
    min: int
    max: int
    provisional: bool = False


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
    """The force-building numbers; the constraints name them (``force_limits.units``)."""

    points: int
    unit_points: int
    units: int
    troopers: int
    tags: int
    specialists_max: int
    specialists_min: int


# Constraints: the force limits as data, one loop evaluating them (as BattleScribe data
# does). What a constraint counts, within each part of the force its scope names.
POINTS = "points"
UNITS = "units"
TROOPERS = "troopers"
TAGS = "tags"  # troopers of TAG units
SPECIALISTS = "specialists"
SLOTS = "slots"  # ability slots its troopers' abilities take
COUNTS = (POINTS, UNITS, TROOPERS, TAGS, SPECIALISTS, SLOTS)
FORCE = "force"  # the whole force, once
UNIT_TYPE_SCOPE = "unit-type"  # the units of each unit type in the force, together
UNIT = "unit"  # each unit of a known type
TROOPER = "trooper"  # each trooper of a unit of a known type
SCOPES = (FORCE, UNIT_TYPE_SCOPE, UNIT, TROOPER)
MAX = "max"  # a force breaks the constraint when the count is over the limit
MIN = "min"  # ... when it is under it
ERROR = "error"  # an error makes the list illegal, a warning does not
WARNING = "warning"
SEVERITIES = (ERROR, WARNING)
# The limit a constraint may name instead of a number: a key of force_limits
# (``force_limits.units``), a number of the unit's type (``unit_type.max_troopers``; not in
# the force scope), or the game's size: the list's own points limit, else force_limits.points.
FORCE_LIMITS_PREFIX = "force_limits."
UNIT_TYPE_PREFIX = "unit_type."
GAME_POINTS = "force.points_limit"


@dataclass(frozen=True, slots=True)
class Constraint:
    """A limit on a force: what is counted over what scope, the bound it may not pass
    (a number or the name of one), and the problem of a force that passes it.

    ``message`` and ``fix`` are templates (onefinity.rules.wording) that may name the count
    (by its name: ``{units}``), ``limit`` (a max) or ``minimum`` (a min), ``over`` or
    ``short`` (how far past it), ``unit_type`` (its name, outside the force scope) and
    ``specialist_classes``. ``rule`` is the rule itself in a sentence, for a choice the
    editor refuses (the message says it when it is empty): it names only the count and
    its bound, the issue's counts."""

    code: str
    count: str  # one of COUNTS
    scope: str  # one of SCOPES
    bound: str  # MAX or MIN
    limit: int | str  # a number, or the name of one (FORCE_LIMITS_PREFIX ...)
    message: str
    fix: str
    rule: str = ""
    severity: str = ERROR
    # The path in the force and unit-type scopes; a unit's or trooper's own below.
    path: str = UNITS
    # The limit worked out when the file is read: per unit type id (the force scope's
    # under ""); empty when it is the game's points limit, which each list may set.
    limits: Mapping[str, int] = field(default_factory=lambda: frozen({}))


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
    # The default weapon is our decision, not the reference's.
    default_weapon_provisional: bool = False


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
    # An attack the action makes (the Saboteur's plasma charge), or None.
    attack: Attack | None = None


@dataclass(frozen=True, slots=True)
class Attack:
    """An attack that is not a trooper's weapon: fire power, burst and armor piercing."""

    fire_power: int
    burst: int = 1
    armor_piercing: int = 0


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
    effects: tuple[Effect, ...] = ()
    description: str = ""
    # Some value of the entry is ours, not the rules' (the ruleset file says which).
    provisional: bool = False
    # Ability slots this entry takes (special abilities only).
    slots: int = 0
    # Weapons only: fire power per range band id, bonus, close-combat bonus, burst (shots
    # at one target per Shoot action) and armor piercing.
    fire_power: Mapping[str, int] = field(default_factory=lambda: frozen({}))
    bonus: int = 0
    close_combat: int = 0
    burst: int = 1
    armor_piercing: int = 0
    # Ids this entry had in earlier rulesets, so a list can move to this one.
    replaces: tuple[str, ...] = ()

    def allowed_for_unit_type(self, unit_type: str) -> bool:
        return ALL in self.unit_types or unit_type in self.unit_types

    def allowed_for_faction(self, faction: str) -> bool:
        return ALL in self.factions or faction in self.factions

    def cards_at(self, band: str) -> int | None:
        """A weapon's cards at a range band before the trooper's own modifiers: fire power
        plus the weapon's bonus, or None where it cannot fire (fire power 0)."""
        power = self.fire_power.get(band, 0)
        return power + self.bonus if power > 0 else None

    @property
    def outside_exchange(self) -> bool:
        """Every effect of the entry lies outside an exchange ("not part of the odds")."""
        return bool(self.effects) and not any(e.in_exchange for e in self.effects)


@dataclass(frozen=True, slots=True)
class Modifier:
    id: str
    name: str
    bonus: int
    # The kinds of exchange (ids from EXCHANGES) the modifier counts in.
    exchanges: tuple[str, ...]
    # Which side may claim it: the active trooper, the reactive one, or both
    # (charging is the active trooper's; a downed trooper is never the active one).
    sides: tuple[str, ...] = ("active", "reactive")
    # The modifier says the target is downed (it starts at 0 wounds and cannot react).
    target_downed: bool = False
    # The target does not see its attacker (its rear arc): it may not react, unless its gear
    # lets it react without line of fire (onefinity.rules.reactions).
    out_of_sight: bool = False

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


# A game at the table (the [game] table of the ruleset file; onefinity.rules.game).
ABOVE_ZERO, ZERO, BELOW_ZERO = "above-zero", "zero", "below-zero"
WOUND_LEVELS = (ABOVE_ZERO, ZERO, BELOW_ZERO)
TAG_ONLY, NOT_TAG = "tag", "not-tag"
RESTORE_TARGETS = (TAG_ONLY, NOT_TAG)


@dataclass(frozen=True, slots=True)
class TrooperState:
    """A state of a trooper on the table, by its wound count, and what it may do."""

    id: str
    name: str
    wounds: str  # one of WOUND_LEVELS
    acts: bool
    reacts: bool
    restorable: bool
    removed: bool = False
    description: str = ""


@dataclass(frozen=True, slots=True)
class HackedRule:
    """The Hacked condition: given by ``by`` to a ``targets`` trooper, ended by its own
    ``ended_by``; meanwhile it may not take the actions of ``forbids``."""

    name: str
    by: str
    targets: str  # one of RESTORE_TARGETS
    forbids: tuple[str, ...]
    ended_by: str


@dataclass(frozen=True, slots=True)
class GameRules:
    enter_actions: tuple[str, ...]
    states: Mapping[str, TrooperState]
    # The action that restores wounds -> whom it restores (TAG_ONLY or NOT_TAG).
    restores: Mapping[str, str]
    restore_wounds: int
    hacked: HackedRule
    # The VP a game started from an event round is played to (the scenario's).
    vp_target: int = 5

    def state_for(self, wounds: int) -> TrooperState:
        level = ABOVE_ZERO if wounds > 0 else ZERO if wounds == 0 else BELOW_ZERO
        return next(state for state in self.states.values() if state.wounds == level)


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
    exchange: ExchangeRules = ExchangeRules()
    # How a game is kept at the table; None for a ruleset without a [game] table.
    game: GameRules | None = None
    # The constraints of each scope (SCOPES), in the file's order.
    constraints: Mapping[str, tuple[Constraint, ...]] = field(
        default_factory=lambda: frozen({scope: () for scope in SCOPES})
    )
    # Key paths (``cards.suits``, ``weapons.combi-rifle``) whose values are ours, not the
    # rules': a path covers everything below it.
    provisional: frozenset[str] = frozenset()

    def is_provisional(self, path: str) -> bool:
        parts = path.split(".")
        return any(".".join(parts[:n]) in self.provisional for n in range(1, len(parts) + 1))

    @property
    def bands_provisional(self) -> bool:
        return any(band.provisional for band in self.range_bands)

    def entry(self, entry_id: str) -> CatalogueEntry | None:
        """The catalogue entry of that id, whatever its kind."""
        for catalogue in (self.weapons, self.equipment, self.abilities, self.unit_skills):
            if entry_id in catalogue:
                return catalogue[entry_id]
        return None

    def band_for_distance(self, hexes: int) -> RangeBand | None:
        for band in self.range_bands:
            if band.min <= hexes <= band.max:
                return band
        return None


# --- The versions ---------------------------------------------------------------------


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


def known_entries(
    catalogue: Mapping[str, CatalogueEntry], ids: tuple[str, ...]
) -> list[CatalogueEntry]:
    """The catalogue entries among ``ids``, skipping ids the ruleset does not have."""
    return [entry for entry in map(catalogue.get, ids) if entry is not None]
