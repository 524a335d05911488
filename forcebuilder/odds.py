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

from django.http import HttpRequest, QueryDict

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
    label: str = ""


class OddsPanel:
    """Attackers and targets are named by trooper keys (ids), never by position: a choice
    made before a trooper was removed still means the same trooper, or nothing."""

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
        self.error = ""
        self.draws: Draws | None = None
        self.result: ExchangeOdds | None = None

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

    @property
    def ruleset(self) -> Any:
        return self.sheet.ruleset

    @cached_property
    def _attackers(self) -> dict[str, tuple[Choice, Attacker]]:
        """Every trooper's every weapon by "trooper key:weapon id"; troopers alike share
        one choice (the first one's), so the menu names each kind once."""
        attackers = {}
        for unit in self.sheet.units:
            group_name = f"{unit.short_label} ({unit.type_name})" if unit.name else unit.short_label
            for group in unit.groups:
                profile = group.first.profile
                if profile is None:
                    continue
                count = f" \N{MULTIPLICATION SIGN}{group.count}" if group.count > 1 else ""
                for weapon in profile.weapons:
                    choice = Choice(
                        f"{group.key}:{weapon.id}",
                        f"{group.label}{count}: {weapon.name}",
                        group_name,
                    )
                    for member in group.members:
                        attackers[f"{member.key}:{weapon.id}"] = (
                            choice,
                            Attacker(
                                profile,
                                weapon.id,
                                f"{group.label} ({unit.short_label}) with {weapon.name}",
                            ),
                        )
        return attackers

    @property
    def attacker_choices(self) -> list[Choice]:
        return list({choice.value: choice for choice, _ in self._attackers.values()}.values())

    @property
    def attacker_value(self) -> str:
        """The menu's value for the attacker asked for (a trooper alike shares its choice)."""
        found = self._attackers.get(self.params.get("attacker", ""))
        return found[0].value if found else ""

    @property
    def attacker_label(self) -> str:
        found = self._attackers.get(self.params.get("attacker", ""))
        return found[1].label if found else ""

    @property
    def target_label(self) -> str:
        found = self._targets.get(self.params.get("target", ""))
        return found[1].name if found else ""

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
                for group in unit.groups:
                    profile = group.first.profile
                    if profile is None:
                        continue
                    count = f" \N{MULTIPLICATION SIGN}{group.count}" if group.count > 1 else ""
                    label = f"{group.label}{count} ({unit.short_label})"
                    choice = Choice(f"list:{other.pk}:{group.key}", label, other.name)
                    target = Target(
                        f"{group.label} ({unit.short_label}, {other.name})",
                        profile.defense_modifier,
                        profile.close_combat_modifier,
                    )
                    for member in group.members:
                        targets[f"list:{other.pk}:{member.key}"] = (choice, target)
        return targets

    @property
    def target_choices(self) -> list[Choice]:
        return list({choice.value: choice for choice, _ in self._targets.values()}.values())

    @property
    def modes(self) -> list[Choice]:
        return [Choice(mode, EXCHANGE_NAMES[mode].capitalize()) for mode in EXCHANGES]

    @property
    def mode_name(self) -> str:
        return EXCHANGE_NAMES[self.mode]

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
