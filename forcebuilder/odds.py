"""The editor's odds panel: pick an attacker and its weapon, a target and the situation, and
read the exact chance from the engine.

Every value in the query string is looked up among the choices the panel offers, never
parsed into an index, so whatever a request sends the answer is the odds or a message
saying what to choose instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from django.http import HttpRequest

from accounts.ownership import DamagedRecord
from forcebuilder.models import Force
from forcebuilder.sheets import ForceSheet, force_sheet
from onefinity.rules import (
    CardOddsError,
    ExchangeOdds,
    exchange_odds,
    library,
    validate_force,
)
from onefinity.rules.combat import (
    EXCHANGE_NAMES,
    EXCHANGES,
    SHOOTING,
    CombatError,
    Draws,
    Situation,
    Target,
    exchange_draws,
)
from onefinity.rules.profile import TrooperProfile
from onefinity.rules.ruleset import Modifier

# Other lists offered as targets, most recently changed first.
MAX_TARGET_LISTS = 5


@dataclass
class Choice:
    value: str
    label: str
    group: str = ""


@dataclass(frozen=True)
class Attacker:
    profile: TrooperProfile
    weapon: str


class OddsPanel:
    def __init__(self, request: HttpRequest, force: Force, sheet: ForceSheet) -> None:
        self.request = request
        self.force = force
        self.sheet = sheet
        self.params = request.GET
        self.asked = "attacker" in self.params
        self.error = ""
        self.draws: Draws | None = None
        self.result: ExchangeOdds | None = None

    @classmethod
    def from_request(cls, request: HttpRequest, force: Force, sheet: ForceSheet) -> OddsPanel:
        panel = cls(request, force, sheet)
        if panel.asked:
            panel.compute()
        return panel

    @property
    def ruleset(self) -> Any:
        return self.sheet.ruleset

    @cached_property
    def _attackers(self) -> dict[str, tuple[Choice, Attacker]]:
        attackers = {}
        for unit in self.sheet.units:
            for trooper in unit.troopers:
                if trooper.profile is None:
                    continue
                for weapon in trooper.profile.weapons:
                    value = f"{unit.index}:{trooper.index}:{weapon.id}"
                    attackers[value] = (
                        Choice(value, f"{trooper.label} — {weapon.name}", unit.label),
                        Attacker(trooper.profile, weapon.id),
                    )
        return attackers

    @property
    def attacker_choices(self) -> list[Choice]:
        return [choice for choice, _ in self._attackers.values()]

    @cached_property
    def _targets(self) -> dict[str, tuple[Choice, Target]]:
        targets: dict[str, tuple[Choice, Target]] = {}
        for unit_type in self.ruleset.unit_types.values():
            label = f"Any {unit_type.name} (armor {unit_type.armor})"
            targets[f"type:{unit_type.id}"] = (
                Choice(f"type:{unit_type.id}", label, "Unit types"),
                Target(label, unit_type.armor),
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
                for trooper in unit.troopers:
                    if trooper.profile is None:
                        continue
                    value = f"list:{other.pk}:{unit.index}:{trooper.index}"
                    label = f"{trooper.label} ({unit.label})"
                    targets[value] = (
                        Choice(value, label, other.name),
                        Target(
                            label,
                            trooper.profile.defense_modifier,
                            trooper.profile.close_combat_modifier,
                        ),
                    )
        return targets

    @property
    def target_choices(self) -> list[Choice]:
        return [choice for choice, _ in self._targets.values()]

    @property
    def modes(self) -> list[Choice]:
        return [Choice(mode, EXCHANGE_NAMES[mode].capitalize()) for mode in EXCHANGES]

    @property
    def mode(self) -> str:
        """The exchange the form shows situations for: the one asked for, when known."""
        asked = self.params.get("mode", SHOOTING)
        return asked if asked in EXCHANGES else SHOOTING

    @property
    def combat_modifiers(self) -> list[Modifier]:
        """The attacker's situations that count in this kind of exchange (ruleset data)."""
        return [m for m in self.ruleset.combat_modifiers.values() if m.applies_to(self.mode)]

    @property
    def defense_modifiers(self) -> list[Modifier]:
        return [m for m in self.ruleset.defense_modifiers.values() if m.applies_to(self.mode)]

    @property
    def checked_combat(self) -> list[str]:
        return self.params.getlist("combat")

    @property
    def checked_defense(self) -> list[str]:
        return self.params.getlist("defense")

    def compute(self) -> None:
        self.error = self._compute()

    def _compute(self) -> str:
        """Fill in the draws and the odds, or return what to choose instead."""
        attacker = self._attackers.get(self.params.get("attacker", ""))
        if attacker is None:
            return "Choose an attacker and weapon from the list."
        target = self._targets.get(self.params.get("target", ""))
        if target is None:
            return "Choose a target from the list."
        mode = self.params.get("mode", SHOOTING)
        if mode not in EXCHANGES:
            return "Choose shooting or close combat."
        band = self.params.get("band", "")
        if mode == SHOOTING and band not in {b.id for b in self.ruleset.range_bands}:
            return "Choose a range band from the list."
        situation = Situation(
            mode=mode,
            band=band,
            combat_modifiers=tuple(self.checked_combat),
            defense_modifiers=tuple(self.checked_defense),
        )
        try:
            self.draws = exchange_draws(
                attacker[1].profile, attacker[1].weapon, target[1], situation, self.ruleset
            )
        except CombatError as error:
            return _sentence(str(error))
        deck = self.ruleset.cards.deck_size
        if not (1 <= self.draws.attacker_cards <= deck and 1 <= self.draws.defender_cards <= deck):
            return "That exchange needs more cards than a deck holds."
        try:
            self.result = exchange_odds(
                self.draws.attacker_cards, self.draws.defender_cards, self.ruleset.cards
            )
        except CardOddsError as error:
            return _sentence(str(error))
        return ""


def _sentence(message: str) -> str:
    message = message[:1].upper() + message[1:]
    return message if message.endswith(".") else f"{message}."
