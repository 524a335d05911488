"""Reading a ruleset file: TOML in, a checked :class:`Ruleset` out, or a RulesetError
naming the file and the key. One function per table of the file; every key is checked
(an unknown key is an error, so a misspelt one is never silently ignored). The shipped
rulesets are read once per process (:func:`library`)."""

from __future__ import annotations

import dataclasses
import functools
import itertools
import re
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from onefinity.rules.ruleset import (
    ALL,
    ARMOR_PIERCING,
    ATTACK,
    CANCELS,
    CHANGES,
    COUNTS,
    DEFENSE,
    ENEMY_ATTACK,
    ERROR,
    EXCHANGES,
    FOLLOW_UPS,
    FORCE,
    FORCE_LIMITS_PREFIX,
    GAME_POINTS,
    MAX,
    MIN,
    MOVEMENT,
    NO_REACTION,
    OUTSIDE,
    REACTION_FIRE_POWER,
    REACTION_TIES,
    REACTS_UNSEEN,
    RESTORE_TARGETS,
    ROLES,
    RULESET_DIR,
    RULESET_FORMAT,
    SCOPES,
    SEVERITIES,
    SHOOTING,
    UNIT_TYPE_PREFIX,
    UNIT_TYPE_SCOPE,
    UNITS,
    WOUND_LEVELS,
    WOUNDS,
    Attack,
    CardRules,
    CatalogueEntry,
    Constraint,
    Discount,
    Effect,
    ExchangeRules,
    Faction,
    ForceLimits,
    GameRules,
    HackedRule,
    Modifier,
    RangeBand,
    Ruleset,
    RulesetError,
    RulesetLibrary,
    SpecialAction,
    TableRules,
    TerrainKind,
    TrooperClass,
    TrooperState,
    UnitType,
    frozen,
)
from onefinity.rules.strict_toml import StrictTable, load_toml
from onefinity.rules.wording import WordingError, check_template

# A problem's code: ids joined by dots, like "unit.troopers.too-many".
_CODE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*(?:\.[a-z0-9]+(?:-[a-z0-9]+)*)+$")
_VERSION = re.compile(r"^\d+(?:\.\d+)*$")


class _Reader(StrictTable):
    """Typed access to one table of the file, remembering the key path for errors."""

    error = RulesetError

    def __init__(
        self, source: str, table: Mapping[str, Any], path: str, marks: set[str] | None = None
    ) -> None:
        super().__init__(source, table, path)
        # The key paths marked provisional, shared by every reader of one file.
        self.marks: set[str] = set() if marks is None else marks

    def child(self, table: Mapping[str, Any], path: str) -> _Reader:
        return _Reader(self.source, table, path, self.marks)

    def integer(self, name: str, default: int | None = None, minimum: int | None = 0) -> int:
        value = self._get(name, default is None)
        if value is None:
            assert default is not None
            return default
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(name, f"expected a whole number, got {value!r}")
        if minimum is not None and value < minimum:
            raise self.fail(name, f"must be at least {minimum}, got {value}")
        return value

    def number(self, name: str) -> float:
        value = self._get(name, True)
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.fail(name, f"expected a number, got {value!r}")
        return float(value)

    def text(self, name: str, default: str | None = None) -> str:
        value = self._get(name, default is None)
        if value is None:
            assert default is not None
            return default
        if not isinstance(value, str):
            raise self.fail(name, f"expected text, got {value!r}")
        return value

    def optional_str(self, name: str) -> str | None:
        value = self._get(name, False)
        if value is not None and not isinstance(value, str):
            raise self.fail(name, f"expected text, got {value!r}")
        return value

    def flag(self, name: str, default: bool = False) -> bool:
        value = self._get(name, False)
        if value is None:
            return default
        if not isinstance(value, bool):
            raise self.fail(name, f"expected true or false, got {value!r}")
        return value

    def texts(self, name: str, default: tuple[str, ...] | None = None) -> tuple[str, ...]:
        value = self._get(name, default is None)
        if value is None:
            assert default is not None
            return default
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise self.fail(name, f"expected a list of text, got {value!r}")
        return tuple(value)

    def choice(self, name: str, options: tuple[str, ...]) -> str:
        value = self.text(name)
        if value not in options:
            raise self.fail(name, f"expected one of {', '.join(options)}, got {value!r}")
        return value

    def provisional(self) -> bool:
        """Read the table's ``provisional`` mark: ``true`` (every value of the table is
        ours, not the rules') or a list of its keys that are (``"fire_power.long"`` names a
        key of a table within). Marks are collected by path; True when the whole table is
        marked."""
        value = self._get("provisional", False)
        if value is None or value is False:
            return False
        if value is True:
            self.marks.add(self.path)
            return True
        if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
            raise self.fail("provisional", "expected true, or a list of this table's keys")
        for name in value:
            found: Any = self.table
            for part in name.split("."):
                if not isinstance(found, dict) or part not in found or part == "provisional":
                    raise self.fail("provisional", f"{name!r} is not a key of this table")
                found = found[part]
            self.marks.add(self.key(name))
        return False

    def marked(self, name: str = "") -> bool:
        """Whether a key of this table (or, without a name, any of it) is marked."""
        path = self.key(name) if name else self.path
        return any(
            m == path or m.startswith(path + ".") or path.startswith(m + ".") for m in self.marks
        )

    def _not_an_entry(self, name: str) -> bool:
        # Any table may be marked provisional, a table of entries too.
        if name == "provisional":
            self.provisional()
            return True
        return False

    def done(self, allowed_extra: tuple[str, ...] = ()) -> None:
        """Reject keys nobody read: a misspelt key must not be silently ignored. Any table
        may be marked provisional, so the mark is read here when nothing else read it."""
        if "provisional" in self.table and "provisional" not in self.used:
            self.provisional()
        super().done(allowed_extra)


_AMOUNTS = (ATTACK, DEFENSE, ENEMY_ATTACK, WOUNDS, MOVEMENT)


def _effect(effect: _Reader) -> Effect:
    """One effect: exactly one change key, then the conditions under which it applies."""
    present = [change for change in CHANGES if change in effect.table]
    if len(present) != 1:
        raise effect.fail("", f"name exactly one change of: {', '.join(CHANGES)}")
    change = present[0]
    amount, cancels, outside, role = 0, "", "", ""
    if change in _AMOUNTS:
        amount = effect.integer(change, minimum=None)
        if amount == 0:
            raise effect.fail(change, "an effect of 0 changes nothing")
    elif change in (REACTION_FIRE_POWER, REACTS_UNSEEN):
        amount = effect.integer(change, minimum=1)
    elif change == CANCELS:
        cancels = effect.text(change)
        role = effect.choice("role", ROLES)
    elif change == NO_REACTION:
        if effect.flag(change) is not True:
            raise effect.fail(change, "write no_reaction = true (or leave the effect out)")
    else:
        outside = effect.text(change)
        if not outside.strip():
            raise effect.fail(change, "say in a word what it concerns instead, like 'healing'")
    exchanges = effect.texts("exchanges", default=())
    for exchange in exchanges:
        if exchange not in EXCHANGES:
            raise effect.fail(
                "exchanges",
                f"{exchange!r} is not a kind of exchange (expected {', '.join(EXCHANGES)})",
            )
    reacting = effect._get("reacting", False)
    if reacting is not None and not isinstance(reacting, bool):
        raise effect.fail("reacting", f"expected true or false, got {reacting!r}")
    bands = effect.texts("bands", default=())
    own_situation = effect.texts("situation", default=())
    enemy_situation = effect.texts("enemy_situation", default=())
    conditional = bool(exchanges or bands or own_situation or enemy_situation)
    if change in (WOUNDS, MOVEMENT, OUTSIDE, REACTS_UNSEEN) and (
        conditional or reacting is not None
    ):
        raise effect.fail(change, "holds at all times: it takes no conditions")
    if change == DEFENSE and any(e != SHOOTING for e in exchanges):
        raise effect.fail("exchanges", "defense cards are drawn only against shooting")
    if change == REACTION_FIRE_POWER and reacting is not None:
        raise effect.fail("reacting", "a reaction's fire power counts only in a reaction")
    effect.done()
    return Effect(
        change,
        amount,
        cancels,
        outside,
        role,
        exchanges,
        bands,
        reacting,
        own_situation,
        enemy_situation,
    )


def _effects(entry: _Reader) -> tuple[Effect, ...]:
    raw = entry._get("effects", False)
    if raw is None:
        return ()
    if not isinstance(raw, list) or not all(isinstance(item, dict) for item in raw):
        raise entry.fail("effects", "expected a list of tables, like [{ attack = 1 }]")
    return tuple(
        _effect(_Reader(entry.source, item, entry.key(f"effects[{index}]"), entry.marks))
        for index, item in enumerate(raw)
    )


def _catalogue(
    root: _Reader, name: str, kind: str, with_slots: bool = False
) -> Mapping[str, CatalogueEntry]:
    entries: dict[str, CatalogueEntry] = {}
    for entry_id, entry in root.entries(name):
        extra: dict[str, Any] = {}
        if kind == "weapon":
            power = entry.table_of("fire_power")
            extra["fire_power"] = frozen({band: power.integer(band) for band in power.table})
            extra["bonus"] = entry.integer("bonus", default=0)
            extra["close_combat"] = entry.integer("close_combat", default=0)
            extra["burst"] = entry.integer("burst", default=1, minimum=1)
            extra["armor_piercing"] = entry.integer("armor_piercing", default=0)
        if with_slots:
            extra["slots"] = entry.integer("slots", default=1, minimum=1)
        entry.provisional()
        entries[entry_id] = CatalogueEntry(
            kind=kind,
            id=entry_id,
            name=entry.text("name"),
            cost=entry.integer("cost"),
            unit_types=entry.texts("unit_types"),
            factions=entry.texts("factions"),
            effects=_effects(entry),
            description=entry.text("description", default=""),
            provisional=entry.marked(),
            replaces=entry.texts("replaces", default=()),
            **extra,
        )
        entry.done()
    return frozen(entries)


def _exchanges(entry: _Reader) -> tuple[str, ...]:
    exchanges = entry.texts("exchanges")
    if not exchanges:
        raise entry.fail("exchanges", f"name at least one of: {', '.join(EXCHANGES)}")
    for exchange in exchanges:
        if exchange not in EXCHANGES:
            raise entry.fail(
                "exchanges",
                f"{exchange!r} is not a kind of exchange (expected {', '.join(EXCHANGES)})",
            )
        if exchanges.count(exchange) > 1:
            raise entry.fail("exchanges", f"names {exchange!r} more than once")
    return exchanges


_SIDES = ("active", "reactive")


def _modifiers(table: _Reader) -> Mapping[str, Modifier]:
    found = {}
    for modifier_id in table.table:
        if modifier_id == "provisional":
            continue
        entry = table.table_of(modifier_id)
        sides = entry.texts("sides", default=_SIDES)
        if not sides or any(side not in _SIDES for side in sides):
            raise entry.fail("sides", f"name one or both of: {', '.join(_SIDES)}")
        found[modifier_id] = Modifier(
            modifier_id,
            entry.text("name"),
            entry.integer("bonus"),
            _exchanges(entry),
            tuple(sides),
            entry.flag("target_downed"),
            entry.flag("out_of_sight"),
        )
        entry.done()
    table.done(allowed_extra=tuple(found))
    if sum(m.target_downed for m in found.values()) > 1:
        raise table.fail("", "at most one modifier may say the target is downed")
    return frozen(found)


def _cards(root: _Reader) -> CardRules:
    table = root.table_of("cards")
    cards = CardRules(
        values=table.integer("values", minimum=1),
        suits=table.texts("suits"),
        jokers=table.integer("jokers"),
        ties_fail=table.flag("ties_fail"),
        special_action_success=table.integer("special_action_success", minimum=1),
    )
    if not cards.suits or len(set(cards.suits)) != len(cards.suits):
        raise table.fail("suits", "expected at least one suit, each named once")
    table.done()
    return cards


def _actions(root: _Reader) -> tuple[Mapping[str, int], int]:
    """The action point costs, and the multiplier of a repeated action."""
    actions = root.table_of("actions")
    costs_table = actions.table_of("costs")
    costs = frozen({name: costs_table.integer(name) for name in costs_table.table})
    repeat_multiplier = actions.integer("repeat_multiplier", minimum=1)
    actions.done()
    if "special" not in costs:
        raise costs_table.fail("special", "missing")
    return costs, repeat_multiplier


def _range_bands(root: _Reader) -> tuple[RangeBand, ...]:
    bands = []
    for band_id, band in root.entries("range_bands"):
        band.provisional()
        bands.append(
            RangeBand(
                band_id,
                band.text("name"),
                band.integer("min", minimum=1),
                band.integer("max"),
                band.marked(),
            )
        )
        if bands[-1].max < bands[-1].min:
            raise band.fail("max", "must not be below min")
        band.done()
    bands.sort(key=lambda b: b.min)
    for before, after in itertools.pairwise(bands):
        if after.min <= before.max:
            raise RulesetError(root.source, f"range_bands.{after.id}", f"overlaps {before.id}")
    return tuple(bands)


def _force_limits(root: _Reader) -> ForceLimits:
    table = root.table_of("force_limits")
    limits = ForceLimits(
        points=table.integer("points", minimum=1),
        unit_points=table.integer("unit_points", minimum=1),
        units=table.integer("units", minimum=1),
        troopers=table.integer("troopers", minimum=1),
        tags=table.integer("tags"),
        specialists_max=table.integer("specialists_max"),
        specialists_min=table.integer("specialists_min"),
    )
    table.done()
    return limits


# The numbers a constraint may name (ruleset.FORCE_LIMITS_PREFIX, UNIT_TYPE_PREFIX).
_FORCE_LIMIT_NAMES = tuple(f.name for f in dataclasses.fields(ForceLimits))
_UNIT_TYPE_NUMBERS = tuple(f.name for f in dataclasses.fields(UnitType) if f.type == "int")
# What every constraint's words may name besides its count and bound.
_WORDS = ("unit_type", "specialist_classes")


def _limit_names(scope: str) -> tuple[str, ...]:
    names = [GAME_POINTS] + [FORCE_LIMITS_PREFIX + name for name in _FORCE_LIMIT_NAMES]
    if scope != FORCE:
        names += [UNIT_TYPE_PREFIX + name for name in _UNIT_TYPE_NUMBERS]
    return tuple(names)


def _constraint(
    code: str, entry: _Reader, limits: ForceLimits, unit_types: Mapping[str, UnitType]
) -> Constraint:
    count = entry.choice("count", COUNTS)
    scope = entry.choice("scope", SCOPES)
    bounds = [bound for bound in (MAX, MIN) if bound in entry.table]
    if len(bounds) != 1:
        raise entry.fail("", "give exactly one bound: max or min")
    bound = bounds[0]
    value = entry._get(bound, True)
    limit: int | str
    if isinstance(value, str):
        names = _limit_names(scope)
        if value not in names:
            raise entry.fail(bound, f"expected a whole number or one of {', '.join(names)}")
        limit = value
    else:
        limit = entry.integer(bound)
    if scope in (FORCE, UNIT_TYPE_SCOPE):
        path = entry.text("path", default=UNITS)
    elif "path" in entry.table:
        raise entry.fail("path", f"a {scope}'s problem is at its own path")
    else:
        path = UNITS
    numbers = (count, "limit", "over") if bound == MAX else (count, "minimum", "short")
    words = tuple(w for w in _WORDS if scope != FORCE or w != "unit_type")
    templates = {}
    for name in ("message", "fix", "rule"):
        templates[name] = entry.text(name, default="" if name == "rule" else None)
        try:
            if name == "rule":  # said later from the counts alone
                check_template(templates[name], numbers[:2], ())
            else:
                check_template(templates[name], numbers, words)
        except WordingError as error:
            raise entry.fail(name, str(error)) from None
    severity = entry.text("severity", default=ERROR)
    if severity not in SEVERITIES:
        raise entry.fail("severity", f"expected one of {', '.join(SEVERITIES)}, got {severity!r}")
    entry.done()
    return Constraint(
        code=code,
        count=count,
        scope=scope,
        bound=bound,
        limit=limit,
        message=templates["message"],
        fix=templates["fix"],
        rule=templates["rule"],
        severity=severity,
        path=path,
        limits=_worked_out(limit, scope, limits, unit_types),
    )


def _worked_out(
    limit: int | str, scope: str, limits: ForceLimits, unit_types: Mapping[str, UnitType]
) -> Mapping[str, int]:
    """A constraint's limit per unit type (under "" in the force scope), so that validating
    a force looks each up instead of reading the name again; none for the game's points."""
    if limit == GAME_POINTS:
        return frozen({})
    keys = ("",) if scope == FORCE else tuple(unit_types)
    if isinstance(limit, int):
        return frozen(dict.fromkeys(keys, limit))
    if limit.startswith(FORCE_LIMITS_PREFIX):
        named: int = getattr(limits, limit.removeprefix(FORCE_LIMITS_PREFIX))
        return frozen(dict.fromkeys(keys, named))
    number = limit.removeprefix(UNIT_TYPE_PREFIX)
    return frozen({key: getattr(unit_types[key], number) for key in keys})


def _constraints(
    root: _Reader, limits: ForceLimits, unit_types: Mapping[str, UnitType]
) -> Mapping[str, tuple[Constraint, ...]]:
    """The constraints keyed by their problem's code, grouped by scope in the file's order."""
    table = root.table_of("constraints")
    found: dict[str, list[Constraint]] = {scope: [] for scope in SCOPES}
    for code in table.table:
        if code == "provisional":
            table.provisional()
            continue
        if not _CODE.match(code):
            raise table.fail(code, "a code is ids joined by dots, like 'unit.troopers.too-many'")
        constraint = _constraint(code, table.table_of(code), limits, unit_types)
        found[constraint.scope].append(constraint)
    return frozen({scope: tuple(constraints) for scope, constraints in found.items()})


def _unit_types(root: _Reader) -> Mapping[str, UnitType]:
    unit_types: dict[str, UnitType] = {}
    for type_id, entry in root.entries("unit_types"):
        unit_types[type_id] = UnitType(
            id=type_id,
            name=entry.text("name"),
            movement=entry.integer("movement"),
            armor=entry.integer("armor"),
            wounds=entry.integer("wounds", minimum=1),
            ability_slots=entry.integer("ability_slots"),
            cost=entry.integer("cost"),
            min_troopers=entry.integer("min_troopers", minimum=1),
            max_troopers=entry.integer("max_troopers", minimum=1),
            max_specialists=entry.integer("max_specialists"),
            default_weapon=entry.text("default_weapon"),
            is_tag=entry.flag("is_tag"),
            provisional=entry.provisional(),
            default_weapon_provisional=entry.marked("default_weapon"),
        )
        if unit_types[type_id].max_troopers < unit_types[type_id].min_troopers:
            raise entry.fail("max_troopers", "must not be below min_troopers")
        entry.done()
    return frozen(unit_types)


def _trooper_classes(root: _Reader) -> Mapping[str, TrooperClass]:
    classes: dict[str, TrooperClass] = {}
    for class_id, entry in root.entries("trooper_classes"):
        classes[class_id] = TrooperClass(
            id=class_id,
            name=entry.text("name"),
            specialist=entry.flag("specialist"),
            cost=entry.integer("cost"),
            actions=entry.texts("actions"),
            unit_types=entry.texts("unit_types"),
            factions=entry.texts("factions"),
            description=entry.text("description", default=""),
            provisional=entry.provisional(),
        )
        entry.done()
    if "trooper" not in classes:
        raise RulesetError(
            root.source, "trooper_classes.trooper", "missing: it is the default class"
        )
    return frozen(classes)


def _special_actions(root: _Reader, special_cost: int) -> Mapping[str, SpecialAction]:
    special_actions: dict[str, SpecialAction] = {}
    for action_id, entry in root.entries("special_actions"):
        special_actions[action_id] = SpecialAction(
            id=action_id,
            name=entry.text("name"),
            description=entry.text("description"),
            trooper_class=entry.optional_str("class"),
            ap=entry.integer("ap", default=special_cost),
            attack=_attack(entry) if "attack" in entry.table else None,
        )
        entry.done()
    return frozen(special_actions)


def _attack(entry: _Reader) -> Attack:
    table = entry.table_of("attack")
    attack = Attack(
        fire_power=table.integer("fire_power", minimum=1),
        burst=table.integer("burst", default=1, minimum=1),
        armor_piercing=table.integer("armor_piercing", default=0),
    )
    table.done()
    return attack


def _exchange(root: _Reader) -> ExchangeRules:
    table = root.table_of("exchange")
    rules = ExchangeRules(
        reaction_fire_power=table.integer("reaction_fire_power", minimum=1),
        reaction_ties=table.choice("reaction_ties", REACTION_TIES),
        follow_up=table.choice("follow_up", FOLLOW_UPS),
        armor_piercing=table.choice("armor_piercing", ARMOR_PIERCING),
        wounds_per_hit=table.integer("wounds_per_hit", minimum=1),
        minimum_cards=table.integer("minimum_cards", minimum=1),
    )
    table.done()
    return rules


def _game(root: _Reader) -> GameRules | None:
    """How a game is kept at the table (onefinity.rules.game), when the file says."""
    if "game" not in root.table:
        return None
    table = root.table_of("game")
    states = {}
    for state_id, entry in table.entries("states"):
        states[state_id] = TrooperState(
            id=state_id,
            name=entry.text("name"),
            wounds=entry.choice("wounds", WOUND_LEVELS),
            acts=entry.flag("acts"),
            reacts=entry.flag("reacts"),
            restorable=entry.flag("restorable"),
            removed=entry.flag("removed"),
            description=entry.text("description", default=""),
        )
        entry.done()
    for level in WOUND_LEVELS:
        if sum(state.wounds == level for state in states.values()) != 1:
            raise table.fail("states", f"exactly one state must be for wounds {level!r}")
    restores_table = table.table_of("restores")
    restore_wounds = restores_table.integer("wounds", minimum=1)
    restores = {
        action: restores_table.choice(action, RESTORE_TARGETS)
        for action in restores_table.table
        if action not in ("wounds", "provisional")
    }
    restores_table.done()
    hacked_table = table.table_of("hacked")
    hacked = HackedRule(
        name=hacked_table.text("name"),
        by=hacked_table.text("by"),
        targets=hacked_table.choice("targets", RESTORE_TARGETS),
        forbids=hacked_table.texts("forbids"),
        ended_by=hacked_table.text("ended_by"),
    )
    hacked_table.done()
    rules = GameRules(
        enter_actions=table.texts("enter_actions"),
        states=frozen(states),
        restores=frozen(restores),
        restore_wounds=restore_wounds,
        hacked=hacked,
        vp_target=table.integer("vp_target", minimum=1),
    )
    if rules.vp_target > 99:
        raise table.fail("vp_target", "a game is played to 1 to 99 VP")
    table.done()
    return rules


def _check_game(ruleset: Ruleset) -> None:
    """Every action the [game] table names is one a trooper can take."""
    rules = ruleset.game
    if rules is None:
        return
    actions = set(ruleset.action_costs) - {"special"} | set(ruleset.special_actions)
    named = [
        *(("game.enter_actions", a) for a in rules.enter_actions),
        *((f"game.restores.{a}", a) for a in rules.restores),
        *(("game.hacked.forbids", a) for a in rules.hacked.forbids),
        ("game.hacked.by", rules.hacked.by),
        ("game.hacked.ended_by", rules.hacked.ended_by),
    ]
    for key, action in named:
        if action not in actions:
            raise RulesetError(ruleset.source, key, f"{action!r} is not an action")


def _discounts(entry: _Reader) -> tuple[Discount, ...]:
    discounts = []
    raw_discounts = entry._get("discounts", False) or []
    if not isinstance(raw_discounts, list):
        raise entry.fail("discounts", "expected a list of tables")
    for index, raw in enumerate(raw_discounts):
        if not isinstance(raw, dict):
            raise entry.fail(f"discounts[{index}]", "expected a table")
        discount = _Reader(entry.source, raw, entry.key(f"discounts[{index}]"))
        discounts.append(
            Discount(discount.text("unit_type"), discount.integer("points", minimum=1))
        )
        discount.done()
    return tuple(discounts)


def _factions(root: _Reader) -> Mapping[str, Faction]:
    factions: dict[str, Faction] = {}
    for faction_id, entry in root.entries("factions"):
        factions[faction_id] = Faction(
            id=faction_id,
            name=entry.text("name"),
            description=entry.text("description", default=""),
            discounts=_discounts(entry),
            provisional=entry.provisional(),
        )
        entry.done()
    return frozen(factions)


def _terrain(root: _Reader) -> Mapping[str, TerrainKind]:
    terrain = {}
    for kind_id, entry in root.entries("terrain"):
        terrain[kind_id] = TerrainKind(
            kind_id,
            entry.text("name"),
            entry.integer("height"),
            entry.integer("level"),
            entry.flag("enterable"),
        )
        entry.done()
    for required in ("blocking", "elevated", "cover"):
        if required not in terrain:
            raise RulesetError(
                root.source, f"terrain.{required}", "missing: the table rules use it"
            )
    return frozen(terrain)


def _table_rules(root: _Reader) -> TableRules:
    """The table: its standard size, terrain kinds, line-of-fire policy and validity."""
    table = root.table_of("table")
    lof = root.table_of("line_of_fire")
    validity = root.table_of("table_validity")
    table_rules = TableRules(
        rows=table.integer("rows", minimum=2),
        columns=table.integer("columns", minimum=1),
        terrain=_terrain(root),
        line_of_fire_version=lof.integer("version", minimum=1),
        line_of_fire_policy=lof.text("policy"),
        coverage_min=validity.number("coverage_min"),
        coverage_max=validity.number("coverage_max"),
        edge_lanes_max=validity.integer("edge_lanes_max"),
        cover_difference_max=validity.integer("cover_difference_max"),
        exposure_difference_max=validity.number("exposure_difference_max"),
        near_edge_depth=validity.integer("near_edge_depth"),
        connected=validity.flag("connected", default=True),
    )
    for reader in (table, lof, validity):
        reader.done()
    if not 0 <= table_rules.coverage_min <= table_rules.coverage_max <= 1:
        raise RulesetError(
            root.source,
            "table_validity.coverage_max",
            "coverage bounds must satisfy 0 <= min <= max <= 1",
        )
    return table_rules


def parse_ruleset(document: Mapping[str, Any], source: str) -> Ruleset:
    """Build a checked :class:`Ruleset` from a parsed ruleset document."""
    root = _Reader(source, document, "")
    if root.text("format") != RULESET_FORMAT:
        raise root.fail("format", f"expected {RULESET_FORMAT!r}")
    version = root.text("version")
    if not _VERSION.match(version):
        raise root.fail(
            "version", f"expected numbers joined by dots, like '2026.11', got {version!r}"
        )
    action_costs, repeat_multiplier = _actions(root)
    modifiers = root.table_of("modifiers")
    combat_modifiers = _modifiers(modifiers.table_of("combat"))
    defense_modifiers = _modifiers(modifiers.table_of("defense"))
    if any(m.target_downed for m in defense_modifiers.values()):
        raise RulesetError(
            source, "modifiers.defense", "only a combat modifier says the target is downed"
        )
    modifiers.done()
    force_limits = _force_limits(root)
    unit_types = _unit_types(root)
    ruleset = Ruleset(
        version=version,
        name=root.text("name"),
        released=root.text("released", default=""),
        notes=root.text("notes", default=""),
        source=source,
        cards=_cards(root),
        action_costs=action_costs,
        repeat_multiplier=repeat_multiplier,
        combat_modifiers=combat_modifiers,
        defense_modifiers=defense_modifiers,
        range_bands=_range_bands(root),
        force_limits=force_limits,
        constraints=_constraints(root, force_limits, unit_types),
        unit_types=unit_types,
        trooper_classes=_trooper_classes(root),
        special_actions=_special_actions(root, action_costs["special"]),
        factions=_factions(root),
        weapons=_catalogue(root, "weapons", "weapon"),
        abilities=_catalogue(root, "abilities", "ability", with_slots=True),
        equipment=_catalogue(root, "equipment", "equipment"),
        unit_skills=_catalogue(root, "unit_skills", "unit_skill"),
        table=_table_rules(root),
        exchange=_exchange(root),
        game=_game(root),
    )
    root.done()
    ruleset = replace(ruleset, provisional=frozenset(root.marks))
    _check_references(ruleset)
    _check_game(ruleset)
    return ruleset


def _check_references(ruleset: Ruleset) -> None:
    """Every id one entry names must exist: a dangling id is a broken file."""
    _check_default_weapons(ruleset)
    _check_classes_and_actions(ruleset)
    _check_discounts(ruleset)
    band_ids = {band.id: band for band in ruleset.range_bands}
    catalogues = {
        "weapons": ruleset.weapons,
        "abilities": ruleset.abilities,
        "equipment": ruleset.equipment,
        "unit_skills": ruleset.unit_skills,
    }
    for table_name, catalogue in catalogues.items():
        for entry_id, entry in catalogue.items():
            _check_entry(ruleset, f"{table_name}.{entry_id}", entry, band_ids)


def _expect(source: str, known: Mapping[str, object], value: str, key: str, what: str) -> None:
    if value not in known:
        raise RulesetError(source, key, f"{value!r} is not a known {what}")


def _check_default_weapons(ruleset: Ruleset) -> None:
    """Each unit type's default weapon is a weapon that lists the unit type."""
    for type_id, unit_type in ruleset.unit_types.items():
        key = f"unit_types.{type_id}.default_weapon"
        _expect(ruleset.source, ruleset.weapons, unit_type.default_weapon, key, "weapon")
        weapon = ruleset.weapons.get(unit_type.default_weapon)
        if weapon and not weapon.allowed_for_unit_type(type_id):
            raise RulesetError(
                ruleset.source, key, f"{weapon.id!r} does not list {type_id!r} in its unit_types"
            )


def _check_classes_and_actions(ruleset: Ruleset) -> None:
    """Each trooper class is for known unit types and factions and takes known special
    actions; each special action of a class names a known class."""
    source = ruleset.source
    for class_id, trooper_class in ruleset.trooper_classes.items():
        _check_availability(
            ruleset, f"trooper_classes.{class_id}", trooper_class.unit_types, trooper_class.factions
        )
        for index, action_id in enumerate(trooper_class.actions):
            key = f"trooper_classes.{class_id}.actions[{index}]"
            _expect(source, ruleset.special_actions, action_id, key, "special action")
    for action_id, special_action in ruleset.special_actions.items():
        if special_action.trooper_class is not None:
            key = f"special_actions.{action_id}.class"
            _expect(
                source, ruleset.trooper_classes, special_action.trooper_class, key, "trooper class"
            )


def _check_discounts(ruleset: Ruleset) -> None:
    """Each faction's discount is on a known unit type."""
    for faction_id, faction in ruleset.factions.items():
        for index, discount in enumerate(faction.discounts):
            key = f"factions.{faction_id}.discounts[{index}].unit_type"
            _expect(ruleset.source, ruleset.unit_types, discount.unit_type, key, "unit type")


def _check_entry(
    ruleset: Ruleset, key: str, entry: CatalogueEntry, band_ids: Mapping[str, object]
) -> None:
    """A catalogue entry: for known unit types and factions, its effects' ids known, and a
    weapon's fire power given at every range band and at no other."""
    _check_availability(ruleset, key, entry.unit_types, entry.factions)
    for number, effect in enumerate(entry.effects):
        _check_effect(ruleset, f"{key}.effects[{number}]", effect, band_ids)
    if entry.kind == "weapon":
        for band in entry.fire_power:
            _expect(ruleset.source, band_ids, band, f"{key}.fire_power.{band}", "range band")
        for band in band_ids:
            if band not in entry.fire_power:
                raise RulesetError(ruleset.source, f"{key}.fire_power.{band}", "missing")


def _check_effect(
    ruleset: Ruleset, key: str, effect: Effect, band_ids: Mapping[str, object]
) -> None:
    source = ruleset.source
    modifiers = {**ruleset.combat_modifiers, **ruleset.defense_modifiers}
    for index, band in enumerate(effect.bands):
        if band not in band_ids:
            raise RulesetError(
                source, f"{key}.bands[{index}]", f"{band!r} is not a known range band"
            )
    if effect.bands and effect.exchanges and SHOOTING not in effect.exchanges:
        raise RulesetError(source, f"{key}.bands", "range bands count only when shooting")
    for name, ids in (
        ("situation", effect.own_situation),
        ("enemy_situation", effect.enemy_situation),
    ):
        for index, modifier_id in enumerate(ids):
            if modifier_id not in modifiers:
                raise RulesetError(
                    source, f"{key}.{name}[{index}]", f"{modifier_id!r} is not a known modifier"
                )
    if (
        effect.change == CANCELS
        and effect.cancels not in modifiers
        and ruleset.entry(effect.cancels) is None
    ):
        raise RulesetError(
            source,
            f"{key}.cancels",
            f"{effect.cancels!r} is neither a situational modifier nor a catalogue entry",
        )


def _check_availability(
    ruleset: Ruleset, key: str, unit_types: tuple[str, ...], factions: tuple[str, ...]
) -> None:
    for index, type_id in enumerate(unit_types):
        if type_id != ALL and type_id not in ruleset.unit_types:
            raise RulesetError(
                ruleset.source,
                f"{key}.unit_types[{index}]",
                f"{type_id!r} is not a known unit type",
            )
    for index, faction_id in enumerate(factions):
        if faction_id != ALL and faction_id not in ruleset.factions:
            raise RulesetError(
                ruleset.source, f"{key}.factions[{index}]", f"{faction_id!r} is not a known faction"
            )


def load_ruleset_file(path: Path) -> Ruleset:
    source = _display_name(path)
    return parse_ruleset(load_toml(path, RulesetError, source), source)


def _display_name(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(RULESET_DIR.parent.parent.parent))
    except ValueError:
        return str(path)


def load_library(directory: Path = RULESET_DIR) -> RulesetLibrary:
    rulesets: dict[str, Ruleset] = {}
    for path in sorted(directory.glob("*.toml")):
        ruleset = load_ruleset_file(path)
        if ruleset.version in rulesets:
            raise RulesetError(
                ruleset.source,
                "version",
                f"{ruleset.version!r} is also the version of {rulesets[ruleset.version].source}",
            )
        rulesets[ruleset.version] = ruleset
    if not rulesets:
        raise RulesetError(str(directory), "", "holds no ruleset file (*.toml)")
    return RulesetLibrary(frozen(rulesets))


@functools.cache
def library() -> RulesetLibrary:
    """The shipped rulesets, read once per process."""
    return load_library()


def current_ruleset() -> Ruleset:
    return library().current
