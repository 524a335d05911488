"""Exact odds of an exchange, from card counts or from troopers of force documents.

By counts: the attacker draws N cards, the defender M (and, with --reaction, the defender
shoots back). By troopers: the same choices as the builder's odds panel, every effect of
what they carry applied from the ruleset. Both print the whole exchange (README: "The
card_odds JSON").
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django.core.management.base import CommandError, CommandParser

from onefinity.management.commands._output import EngineCommand, read_json_file, write_json
from onefinity.rules import (
    CardOddsError,
    ForceDocumentError,
    ForceSpec,
    current_ruleset,
    exchange_odds,
    read_force_document,
)
from onefinity.rules.cards import ASSUMPTION
from onefinity.rules.combat import (
    CLOSE_COMBAT,
    SHOOTING,
    ExchangeResult,
    Situation,
    plan_exchange,
    plan_from_cards,
    resolve,
)
from onefinity.rules.effects import CombatError, fighter
from onefinity.rules.force import TrooperSpec, UnitSpec
from onefinity.rules.ruleset import Ruleset


def _trooper(spec: ForceSpec, key: str, what: str) -> tuple[TrooperSpec, UnitSpec]:
    """A trooper by its id, or by "unit.trooper" positions counted from 1."""
    for unit in spec.units:
        for trooper in unit.troopers:
            if trooper.id and trooper.id == key:
                return trooper, unit
    unit_number, _, trooper_number = key.partition(".")
    if unit_number.isdigit() and trooper_number.isdigit():
        u, t = int(unit_number) - 1, int(trooper_number) - 1
        if 0 <= u < len(spec.units) and 0 <= t < len(spec.units[u].troopers):
            return spec.units[u].troopers[t], spec.units[u]
    raise CommandError(
        f"{what}: no trooper {key!r} (give its id, or its unit and place like 2.1)", returncode=2
    )


def _read_force(filename: str) -> ForceSpec:
    try:
        return read_force_document(read_json_file(filename, "force document"))
    except ForceDocumentError as error:
        raise CommandError(f"{filename}: not a force document: {error}", returncode=2) from None


class Command(EngineCommand):
    help = "Exact chances of an exchange (no simulation), from card counts or troopers."

    def add_arguments(self, parser: CommandParser) -> None:
        counts = parser.add_argument_group("by card counts")
        counts.add_argument("--attacker", type=int, help="cards the attacker draws")
        counts.add_argument(
            "--defender", type=int, help="cards the defender draws (its own pile in close combat)"
        )
        counts.add_argument(
            "--reaction-cards",
            type=int,
            default=1,
            help="with --reaction: cards it shoots back with",
        )
        counts.add_argument(
            "--attacker-defense-cards",
            type=int,
            default=1,
            help="with --reaction: cards the attacker draws to defend",
        )
        counts.add_argument("--burst", type=int, default=1, help="shots at the target (B)")
        counts.add_argument("--attacker-wounds", type=int, default=1)
        counts.add_argument("--target-wounds", type=int, default=1)
        troopers = parser.add_argument_group("by troopers (as the odds panel)")
        troopers.add_argument("--force", help="the attacker's force document (JSON)")
        troopers.add_argument(
            "--trooper", help="the attacker: a trooper id, or unit.place like 1.2"
        )
        troopers.add_argument("--weapon", help="the weapon it uses (default: its first)")
        troopers.add_argument("--target-type", help="the target: any trooper of a unit type")
        troopers.add_argument("--target-force", help="the target's force document (JSON)")
        troopers.add_argument("--target-trooper", help="the target trooper in --target-force")
        troopers.add_argument("--target-weapon", help="the weapon it reacts with")
        troopers.add_argument("--band", help="the range band (shooting, or a reaction)")
        for flag, who in (
            ("--combat", "the attacker's combat modifier"),
            ("--defense", "the target's defense modifier"),
            ("--target-combat", "the target's combat modifier"),
            ("--attacker-defense", "the attacker's defense modifier, against a reaction"),
        ):
            troopers.add_argument(flag, action="append", default=[], metavar="ID", help=who)
        parser.add_argument(
            "--close-combat", action="store_true", help="close combat, not shooting"
        )
        parser.add_argument(
            "--reaction",
            action="store_true",
            help="the target reacts with fire (at once when shooting, first in close combat)",
        )
        parser.add_argument(
            "--ties-fail",
            action="store_true",
            help="play-test variant: ties are not broken by suit and fail both sides",
        )
        parser.add_argument("--json", action="store_true", help="print the odds as JSON")

    def handle(self, *args: Any, **options: Any) -> None:
        ruleset = current_ruleset()
        ties_fail = True if options["ties_fail"] else None
        mode = CLOSE_COMBAT if options["close_combat"] else SHOOTING
        by_troopers = options["force"] is not None
        if by_troopers == (options["attacker"] is not None):
            raise CommandError(
                "give card counts (--attacker N --defender M) or troopers (--force FILE "
                "--trooper ID with --target-type or --target-force), not both",
                returncode=2,
            )
        document: dict[str, Any] = {"ruleset": ruleset.version, "assumption": ASSUMPTION}
        odds = None
        try:
            if by_troopers:
                result = self._by_troopers(options, mode, ruleset, ties_fail)
            else:
                if options["defender"] is None:
                    raise CommandError("--attacker needs --defender", returncode=2)
                odds = exchange_odds(
                    options["attacker"], options["defender"], ruleset.cards, ties_fail=ties_fail
                )
                document |= odds.as_dict()
                reaction = (
                    (options["reaction_cards"], options["attacker_defense_cards"])
                    if options["reaction"]
                    else None
                )
                plan = plan_from_cards(
                    Situation(mode, "", options["reaction"]),
                    options["attacker"],
                    options["defender"],
                    ruleset,
                    reaction,
                    options["burst"],
                    options["attacker_wounds"],
                    options["target_wounds"],
                )
                result = resolve(plan, ruleset, ties_fail)
        except (CardOddsError, CombatError) as error:
            raise CommandError(str(error), returncode=2) from None
        document["exchange"] = result.as_dict()
        if options["json"]:
            write_json(self, document)
            return
        if odds is not None:
            self.stdout.write(
                f"Attacker draws {odds.attacker_cards}, defender draws {odds.defender_cards} "
                f"(ruleset {ruleset.version})."
            )
            self.stdout.write(f"  Attacker wins: {float(odds.attacker_wins):7.2%}")
            self.stdout.write(f"  Defender wins: {float(odds.defender_wins):7.2%}")
            if odds.ties_fail:
                self.stdout.write(f"  Both fail (tie): {float(odds.both_fail):5.2%}")
            else:
                self.stdout.write(
                    f"  (Ties are re-drawn: {float(odds.redraw):.2%} of exchanges; "
                    "the figures above are after re-draws.)"
                )
        self._write(result, ruleset)

    def _by_troopers(
        self, options: dict[str, Any], mode: str, ruleset: Ruleset, ties_fail: bool | None
    ) -> ExchangeResult:
        if options["trooper"] is None:
            raise CommandError("--force needs --trooper", returncode=2)
        trooper, unit = _trooper(_read_force(options["force"]), options["trooper"], "--trooper")
        attacker = fighter(trooper, unit, ruleset, options["trooper"], options["weapon"])
        if (options["target_type"] is None) == (options["target_force"] is None):
            raise CommandError("give the target: --target-type or --target-force", returncode=2)
        if options["target_type"] is not None:
            bare = TrooperSpec()
            target_unit = UnitSpec(type=options["target_type"], troopers=(bare,))
            name = f"any {options['target_type']}"
            target = fighter(bare, target_unit, ruleset, name, options["target_weapon"])
        else:
            if options["target_trooper"] is None:
                raise CommandError("--target-force needs --target-trooper", returncode=2)
            spec = _read_force(options["target_force"])
            found, target_unit = _trooper(spec, options["target_trooper"], "--target-trooper")
            # Two files may name their troopers alike (1.1 and 1.1): the sides' names tell
            # them apart, or every line and effect of one would be read as the other's.
            name = options["target_trooper"]
            if name == options["trooper"]:
                name = f"{name} (target)"
                if attacker is not None:
                    attacker = replace(attacker, name=f"{options['trooper']} (attacker)")
            target = fighter(found, target_unit, ruleset, name, options["target_weapon"])
        if attacker is None or target is None:
            raise CommandError(
                f"a unit type that ruleset {ruleset.version} does not have", returncode=2
            )
        attacker = attacker.with_situation(options["combat"], options["attacker_defense"])
        target = target.with_situation(options["target_combat"], options["defense"])
        band = options["band"] or ""
        plan = plan_exchange(attacker, target, Situation(mode, band, options["reaction"]), ruleset)
        return resolve(plan, ruleset, ties_fail)

    def _write(self, result: ExchangeResult, ruleset: Ruleset) -> None:
        plan = result.plan
        mode = "Close combat" if plan.situation.mode == CLOSE_COMBAT else "Shooting"
        if plan.situation.reaction:
            mode += ", the target reacts with fire"
        self.stdout.write(f"{mode} (ruleset {ruleset.version}).")
        for (name, matchup), (_, odds) in zip(plan.matchups, result.comparisons, strict=True):
            self.stdout.write(
                f"  {name}: {matchup[0].side} draws {matchup[0].cards}, "
                f"{matchup[1].side} {matchup[1].cards}: wins {float(odds.attacker_wins):.2%}"
            )
            for pile in matchup:
                for line in pile.lines:
                    mark = f"{line.cards:+d}" if line.applied else "left out"
                    self.stdout.write(f"      {pile.side}: {line.source}: {line.text} ({mark})")
        if plan.burst > 1:
            self.stdout.write(f"  Up to {plan.burst} shots at the target (B {plan.burst}).")
        self.stdout.write("  Over the whole action:")
        for label, value in (
            ("only the attacker hits", result.attacker_hits),
            ("only the target hits", result.target_hits),
            ("both hit", result.both_hit),
            ("neither hits", result.neither_hits),
        ):
            self.stdout.write(f"    {label}: {float(value):7.2%}  ({value})")
        for who, fate in (("target", result.target), ("attacker", result.attacker)):
            ends = ", ".join(
                f"{name} {float(value):.2%}"
                for name, value in (
                    ("unhurt", fate.unhurt),
                    ("wounded", fate.wounded),
                    ("downed", fate.downed),
                    ("killed", fate.killed),
                )
                if value
            )
            self.stdout.write(f"  The {who} ends: {ends}.")
        for use in plan.effects:
            state = "applied" if use.applied else "left out"
            self.stdout.write(f"  {use.side}: {use.entry.name} {state}: {use.reason}")
        ties = "a tie fails both" if result.ties_fail else "ties are re-drawn"
        self.stdout.write(f"  {ASSUMPTION} Exact, not simulated; {ties}.")
