"""The editor's odds panel: pick an attacker and its weapon, a target and the situation, and
read the exact chance from the engine."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from django.http import HttpRequest

from forcebuilder.models import Force
from forcebuilder.sheets import ForceSheet, force_sheet
from onefinity.rules import ExchangeOdds, exchange_odds, library, validate_force
from onefinity.rules.combat import (
    CLOSE_COMBAT,
    SHOOTING,
    CombatError,
    Draws,
    Situation,
    Target,
    exchange_draws,
)

# Other lists offered as targets, most recently changed first.
MAX_TARGET_LISTS = 5


@dataclass
class Choice:
    value: str
    label: str
    group: str = ""


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
    def attacker_choices(self) -> list[Choice]:
        choices = []
        for unit in self.sheet.units:
            for trooper in unit.troopers:
                if trooper.profile is None:
                    continue
                for weapon in trooper.profile.weapons:
                    choices.append(
                        Choice(
                            f"{unit.index}:{trooper.index}:{weapon.id}",
                            f"{trooper.label} — {weapon.name}",
                            unit.label,
                        )
                    )
        return choices

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
            spec = other.to_spec()
            ruleset = library().get(other.ruleset_version) or library().current
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
        return [Choice(SHOOTING, "Shooting"), Choice(CLOSE_COMBAT, "Close combat")]

    @property
    def checked_combat(self) -> list[str]:
        return self.params.getlist("combat")

    @property
    def checked_defense(self) -> list[str]:
        return self.params.getlist("defense")

    def compute(self) -> None:
        try:
            unit_index, trooper_index, weapon = self.params.get("attacker", "").split(":", 2)
            attacker = self.sheet.units[int(unit_index)].troopers[int(trooper_index)]
        except (ValueError, IndexError):
            self.error = "Choose an attacker from the list."
            return
        target = self._targets.get(self.params.get("target", ""))
        if attacker.profile is None or target is None:
            self.error = "Choose an attacker and a target from the lists."
            return
        situation = Situation(
            mode=self.params.get("mode", SHOOTING),
            band=self.params.get("band", ""),
            combat_modifiers=tuple(self.params.getlist("combat")),
            defense_modifiers=tuple(self.params.getlist("defense")),
        )
        try:
            self.draws = exchange_draws(
                attacker.profile, weapon, target[1], situation, self.ruleset
            )
        except CombatError as error:
            self.error = str(error)
            return
        deck = self.ruleset.cards.deck_size
        if not (1 <= self.draws.attacker_cards <= deck and 1 <= self.draws.defender_cards <= deck):
            self.error = "That exchange needs more cards than a deck holds."
            return
        self.result = exchange_odds(
            self.draws.attacker_cards, self.draws.defender_cards, self.ruleset.cards
        )
