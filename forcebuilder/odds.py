"""The editor's odds panel: pick an attacker and its weapon, a target (a unit type, or a
trooper of another of the owner's lists), the exchange (shooting or close combat, the
target reacting with fire or not), each side's situation, and read the exact odds of the
whole exchange from the engine, with every effect it counted or left out and why.

Every value in the query string is looked up among the choices the panel offers, never
parsed into an index, so whatever a request sends the answer is the odds or a message
saying what to choose instead.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

from django.http import HttpRequest, QueryDict

from accounts.ownership import DamagedRecord
from forcebuilder.models import Force
from forcebuilder.sheets import ForceSheet, force_sheet
from onefinity.rules import CardOddsError, library, validate_force
from onefinity.rules.combat import (
    CLOSE_COMBAT,
    EXCHANGE_NAMES,
    EXCHANGES,
    SHOOTING,
    ExchangeResult,
    Fate,
    Situation,
    plan_exchange,
    resolve,
)
from onefinity.rules.effects import (
    KIND_NAMES,
    CombatError,
    EffectUse,
    Fighter,
    describe,
    fighter,
)
from onefinity.rules.force import TrooperSpec, UnitSpec
from onefinity.rules.ruleset import Modifier, Ruleset

# Other lists offered as targets, most recently changed first.
MAX_TARGET_LISTS = 5


@dataclass
class Choice:
    value: str
    label: str
    group: str = ""


@dataclass(frozen=True)
class Candidate:
    """A trooper the panel offers, as the engine needs it: its list's trooper and unit."""

    trooper: TrooperSpec
    unit: UnitSpec
    label: str
    weapons: tuple[tuple[str, str], ...]  # (id, name) of each weapon it carries


@dataclass(frozen=True)
class Figure:
    """A probability as the page shows it: the exact fraction beside the percentage."""

    label: str
    value: Fraction
    css: str = ""


@dataclass(frozen=True)
class EffectRow:
    side: str
    entry: str
    kind: str
    words: str
    applied: bool
    reason: str


def _fate_figures(fate: Fate) -> list[Figure]:
    return [
        Figure(label, value, css)
        for label, value, css in (
            ("unhurt", fate.unhurt, "unhurt"),
            ("loses a wound, fights on", fate.wounded, "wounded"),
            ("downed", fate.downed, "downed"),
            ("killed", fate.killed, "killed"),
        )
        if value
    ]


class OddsForm:
    """What the panel offers and what was asked of it: attackers and targets are named by
    trooper keys (ids), never by position, so a choice made before a trooper was removed
    still means the same trooper, or nothing."""

    def __init__(
        self,
        request: HttpRequest,
        force: Force,
        sheet: ForceSheet,
        params: QueryDict | None = None,
    ) -> None:
        self.request = request
        self.force = force
        self.sheet = sheet
        self.params = request.GET if params is None else params
        self.asked = "attacker" in self.params

    @property
    def ruleset(self) -> Ruleset:
        return self.sheet.ruleset

    # --- The attacker: every trooper's every weapon ------------------------------------

    @cached_property
    def _attackers(self) -> dict[str, tuple[Choice, Candidate, str]]:
        """Every trooper's every weapon by "trooper key:weapon id"; troopers alike share
        one choice (the first one's), so the menu names each kind once."""
        attackers = {}
        for unit in self.sheet.units:
            group_name = f"{unit.short_label} ({unit.type_name})" if unit.name else unit.short_label
            unit_spec = self.sheet.spec.units[unit.index]
            for group in unit.groups:
                profile = group.first.profile
                if profile is None:
                    continue
                count = f" \N{MULTIPLICATION SIGN}{group.count}" if group.count > 1 else ""
                candidate = Candidate(
                    group.first.spec,
                    unit_spec,
                    f"{group.label} ({unit.short_label})",
                    tuple((w.id, w.name) for w in profile.weapons),
                )
                for weapon in profile.weapons:
                    choice = Choice(
                        f"{group.key}:{weapon.id}",
                        f"{group.label}{count}: {weapon.name}",
                        group_name,
                    )
                    for member in group.members:
                        attackers[f"{member.key}:{weapon.id}"] = (choice, candidate, weapon.id)
        return attackers

    @property
    def attacker_choices(self) -> list[Choice]:
        return list({choice.value: choice for choice, _, _ in self._attackers.values()}.values())

    @property
    def attacker_value(self) -> str:
        """The menu's value for the attacker asked for (a trooper alike shares its choice)."""
        found = self._attackers.get(self.params.get("attacker", ""))
        return found[0].value if found else ""

    # --- The target: a unit type, or a trooper of another list -------------------------

    @cached_property
    def _targets(self) -> dict[str, tuple[Choice, Candidate]]:
        targets: dict[str, tuple[Choice, Candidate]] = {}
        for unit_type in self.ruleset.unit_types.values():
            label = f"Any {unit_type.name} (armor {unit_type.armor})"
            bare = TrooperSpec()
            weapon = self.ruleset.weapons.get(unit_type.default_weapon)
            weapons = ((weapon.id, weapon.name),) if weapon else ()
            targets[f"type:{unit_type.id}"] = (
                Choice(f"type:{unit_type.id}", label, "Unit types"),
                Candidate(bare, UnitSpec(type=unit_type.id, troopers=(bare,)), label, weapons),
            )
        owner = self.force.owner if self.force.owner_id else None
        others = Force.objects.owned_by(owner, self.force.anonymous_owner or None).exclude(
            pk=self.force.pk
        )
        for other in others[:MAX_TARGET_LISTS]:
            try:
                spec = other.to_spec()
            except DamagedRecord:
                # A damaged stored list is shown as such in the list of lists; it has no
                # troopers to offer here, and the rest of the panel still works.
                continue
            ruleset = library().get_or_current(other.ruleset_version)
            other_sheet = force_sheet(spec, validate_force(spec, ruleset))
            for unit in other_sheet.units:
                for group in unit.groups:
                    profile = group.first.profile
                    if profile is None:
                        continue
                    count = f" \N{MULTIPLICATION SIGN}{group.count}" if group.count > 1 else ""
                    label = f"{group.label}{count} ({unit.short_label})"
                    choice = Choice(f"list:{other.pk}:{group.key}", label, other.name)
                    candidate = Candidate(
                        group.first.spec,
                        spec.units[unit.index],
                        f"{group.label} ({unit.short_label}, {other.name})",
                        tuple((w.id, w.name) for w in profile.weapons),
                    )
                    for member in group.members:
                        targets[f"list:{other.pk}:{member.key}"] = (choice, candidate)
        return targets

    def _target(self) -> tuple[Choice, Candidate, str] | None:
        """The target asked for, and the weapon it reacts with: "…:weapon id" names one
        of its weapons; without one, its first."""
        value = self.params.get("target", "")
        found = self._targets.get(value)
        weapon = ""
        if found is None and value.count(":") >= 2:
            key, _, weapon = value.rpartition(":")
            found = self._targets.get(key)
            if found is None or weapon not in dict(found[1].weapons):
                return None
        if found is None:
            return None
        return found[0], found[1], weapon or (found[1].weapons[0][0] if found[1].weapons else "")

    @property
    def target_choices(self) -> list[Choice]:
        """One choice per trooper, or in a reaction one per trooper and weapon (the
        weapon it reacts with)."""
        choices: dict[str, Choice] = {}
        for choice, candidate in self._targets.values():
            if self.reaction and len(candidate.weapons) > 1:
                for weapon_id, name in candidate.weapons:
                    value = f"{choice.value}:{weapon_id}"
                    choices[value] = Choice(value, f"{choice.label}: {name}", choice.group)
            else:
                choices[choice.value] = choice
        return list(choices.values())

    @property
    def target_value(self) -> str:
        found = self._target()
        if found is None:
            return ""
        choice, candidate, weapon = found
        if self.reaction and len(candidate.weapons) > 1:
            return f"{choice.value}:{weapon}"
        return choice.value

    # --- The exchange and the situations it offers -----------------------------------------

    @property
    def modes(self) -> list[Choice]:
        return [Choice(mode, EXCHANGE_NAMES[mode].capitalize()) for mode in EXCHANGES]

    @property
    def mode(self) -> str:
        """The exchange the form shows situations for: the one asked for, when known."""
        asked = self.params.get("mode", SHOOTING)
        return asked if asked in EXCHANGES else SHOOTING

    @property
    def mode_name(self) -> str:
        return EXCHANGE_NAMES[self.mode]

    @property
    def reaction(self) -> bool:
        return self.params.get("reaction", "") == "1"

    @property
    def band_used(self) -> bool:
        return self.mode == SHOOTING or self.reaction

    @staticmethod
    def _offered(known: Mapping[str, Modifier], side: str, mode: str) -> list[Modifier]:
        return [m for m in known.values() if m.applies_to(mode) and side in m.sides]

    @property
    def attacker_situations(self) -> list[tuple[str, Modifier]]:
        """(field name, modifier) the attacker may claim in this exchange: its combat
        modifiers, and its defense against a reaction's shot."""
        offered = [
            ("combat", m) for m in self._offered(self.ruleset.combat_modifiers, "active", self.mode)
        ]
        if self.reaction:
            offered += [
                ("attacker_defense", m)
                for m in self._offered(self.ruleset.defense_modifiers, "active", SHOOTING)
            ]
        return offered

    @property
    def target_situations(self) -> list[tuple[str, Modifier]]:
        """What the target may claim: its defense against shots, and its combat modifiers
        when it attacks too (close combat, or a reaction)."""
        offered = []
        if self.mode == SHOOTING:
            offered += [
                ("defense", m)
                for m in self._offered(self.ruleset.defense_modifiers, "reactive", SHOOTING)
            ]
        if self.mode == CLOSE_COMBAT or self.reaction:
            offered += [
                ("target_combat", m)
                for m in self._offered(self.ruleset.combat_modifiers, "reactive", self.mode)
            ]
        return offered

    def checked(self, name: str) -> list[str]:
        return self.params.getlist(name)

    @property
    def checked_combat(self) -> list[str]:
        return self.checked("combat")

    @property
    def checked_defense(self) -> list[str]:
        return self.checked("defense")

    @property
    def checked_target_combat(self) -> list[str]:
        return self.checked("target_combat")

    @property
    def checked_attacker_defense(self) -> list[str]:
        return self.checked("attacker_defense")

    # --- The exchange asked, planned and resolved by the engine --------------------------

    def exchange(self) -> ExchangeResult:
        """The exact odds of the exchange asked for; OddsRefused says what to choose
        instead."""
        attacker = self._attackers.get(self.params.get("attacker", ""))
        if attacker is None:
            raise OddsRefused("Choose an attacker and weapon from the list.")
        target = self._target()
        if target is None:
            raise OddsRefused("Choose a target from the list.")
        mode = self.params.get("mode", SHOOTING)
        if mode not in EXCHANGES:
            raise OddsRefused("Choose shooting or close combat.")
        band = self.params.get("band", "")
        if self.band_used and band not in {b.id for b in self.ruleset.range_bands}:
            raise OddsRefused("Choose a range band from the list.")
        try:
            mine = fighter(
                attacker[1].trooper, attacker[1].unit, self.ruleset, attacker[1].label, attacker[2]
            )
            theirs = fighter(
                target[1].trooper, target[1].unit, self.ruleset, target[1].label, target[2] or None
            )
            if mine is None or theirs is None:
                raise OddsRefused("That trooper's unit type is not in this ruleset.")
            plan = plan_exchange(
                mine.with_situation(self.checked("combat"), self.checked("attacker_defense")),
                theirs.with_situation(self.checked("target_combat"), self.checked("defense")),
                Situation(mode, band, self.reaction),
                self.ruleset,
            )
            return resolve(plan, self.ruleset)
        except (CombatError, CardOddsError) as error:
            raise OddsRefused(_sentence(str(error))) from None


class OddsRefused(ValueError):
    """The exchange asked for cannot be worked out: the message says what to choose."""


class OddsAnswer:
    """The odds of one exchange as the page shows them: the outcomes, each side's fate, the
    comparisons, the effects counted and left out, and the provisional choices used."""

    def __init__(self, result: ExchangeResult, ruleset: Ruleset, band_used: bool) -> None:
        self.result = result
        self.ruleset = ruleset
        self.band_used = band_used

    @property
    def outcomes(self) -> list[Figure]:
        result = self.result
        # An outcome the exchange cannot have (both hitting, when the target does not
        # shoot back) is exactly 0: left out rather than shown as 0.0 %.
        return [
            figure
            for figure in (
                Figure("Only the attacker hits", result.attacker_hits, "attacker"),
                Figure("Only the target hits", result.target_hits, "defender"),
                Figure("Both hit", result.both_hit, "both"),
                Figure("Neither hits", result.neither_hits, "neither"),
            )
            if figure.value
        ]

    @property
    def target_fate(self) -> list[Figure]:
        return _fate_figures(self.result.target)

    @property
    def attacker_fate(self) -> list[Figure]:
        """Shown only when the attacker can be hurt (a reaction, close combat)."""
        if self.result.attacker.unhurt == 1:
            return []
        return _fate_figures(self.result.attacker)

    @property
    def comparisons(self) -> list[tuple[str, object, object]]:
        """Each comparison: its name, its two piles, and its odds on its own."""
        return [
            (name, matchup, odds)
            for (name, matchup), (_, odds) in zip(
                self.result.plan.matchups, self.result.comparisons, strict=True
            )
        ]

    def rows(self, applied: bool) -> list[EffectRow]:
        return [
            _row(use, self.ruleset) for use in self.result.plan.effects if use.applied == applied
        ]

    @property
    def decisions(self) -> list[str]:
        """The provisional choices of the ruleset this exchange leaned on, in words."""
        plan, rules = self.result.plan, self.ruleset.exchange
        notes = []
        if plan.situation.reaction and self.ruleset.is_provisional("exchange.reaction_ties"):
            notes.append(
                "a tied comparison in a reaction is drawn again on its own"
                if rules.reaction_ties == "redraw-comparison"
                else "a tie in a reaction draws both comparisons again"
            )
        if plan.burst > 1 and self.ruleset.is_provisional("exchange.follow_up"):
            notes.append(
                "a burst's following shots stop once the target is downed"
                if rules.follow_up == "until-downed"
                else "a burst's following shots go on at a downed target"
            )
        if self.ruleset.bands_provisional and self.band_used:
            notes.append("the range bands")
        if self.ruleset.is_provisional("exchange.wounds_per_hit"):
            notes.append(f"each hit costs {rules.wounds_per_hit} wound")
        leaned_on = {
            line.choice for _, matchup in plan.matchups for pile in matchup for line in pile.lines
        }
        if "exchange.armor_piercing" in leaned_on and self.ruleset.is_provisional(
            "exchange.armor_piercing"
        ):
            notes.append(
                "armour piercing takes cards off the target's armor only"
                if rules.armor_piercing == "armor"
                else "armour piercing takes cards off the target's whole defense"
            )
        if "exchange.minimum_cards" in leaned_on and self.ruleset.is_provisional(
            "exchange.minimum_cards"
        ):
            notes.append(
                f"a side that draws at all draws at least {rules.minimum_cards} card, whatever "
                "lowers it (Mimetism)"
            )
        return notes


class OddsPanel(OddsForm):
    """The editor's odds panel: its form, and once an exchange is asked for, its answer
    (`result` and what the page shows of it) or what to choose instead (`error`)."""

    def __init__(
        self,
        request: HttpRequest,
        force: Force,
        sheet: ForceSheet,
        params: QueryDict | None = None,
    ) -> None:
        super().__init__(request, force, sheet, params)
        self.error = ""
        self.result: ExchangeResult | None = None
        self.answer: OddsAnswer | None = None

    @classmethod
    def from_request(
        cls,
        request: HttpRequest,
        force: Force,
        sheet: ForceSheet,
        params: QueryDict | None = None,
    ) -> OddsPanel:
        panel = cls(request, force, sheet, params)
        if panel.asked:
            panel.compute()
        return panel

    def compute(self) -> None:
        try:
            self.result = self.exchange()
        except OddsRefused as refused:
            self.error, self.result, self.answer = str(refused), None, None
            return
        self.error = ""
        self.answer = OddsAnswer(self.result, self.ruleset, self.band_used)

    @property
    def attacker(self) -> Fighter | None:
        return self.result.plan.attacker if self.result else None

    @property
    def target(self) -> Fighter | None:
        return self.result.plan.target if self.result else None

    @property
    def outcomes(self) -> list[Figure]:
        return self.answer.outcomes if self.answer else []

    @property
    def target_fate(self) -> list[Figure]:
        return self.answer.target_fate if self.answer else []

    @property
    def attacker_fate(self) -> list[Figure]:
        return self.answer.attacker_fate if self.answer else []

    @property
    def comparisons(self) -> list[tuple[str, object, object]]:
        return self.answer.comparisons if self.answer else []

    @property
    def effects_applied(self) -> list[EffectRow]:
        return self.answer.rows(True) if self.answer else []

    @property
    def effects_left_out(self) -> list[EffectRow]:
        return self.answer.rows(False) if self.answer else []

    @property
    def decisions(self) -> list[str]:
        return self.answer.decisions if self.answer else []


def _row(use: EffectUse, ruleset: Ruleset) -> EffectRow:
    return EffectRow(
        use.side,
        use.entry.name,
        KIND_NAMES.get(use.entry.kind, use.entry.kind),
        describe(use.effect, ruleset),
        use.applied,
        use.reason,
    )


def _sentence(message: str) -> str:
    message = message[:1].upper() + message[1:]
    return message if message.endswith(".") else f"{message}."
