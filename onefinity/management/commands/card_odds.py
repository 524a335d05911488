"""Exact odds of a card exchange: the attacker draws N cards, the defender M."""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandError, CommandParser

from onefinity.management.commands._output import EngineCommand, write_json
from onefinity.rules import CardOddsError, current_ruleset, exchange_odds


class Command(EngineCommand):
    help = "Exact chances of winning a card exchange (no simulation)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--attacker", type=int, required=True, help="cards the attacker draws")
        parser.add_argument("--defender", type=int, required=True, help="cards the defender draws")
        parser.add_argument(
            "--ties-fail",
            action="store_true",
            help="play-test variant: ties are not broken by suit and fail both sides",
        )
        parser.add_argument("--json", action="store_true", help="print the odds as JSON")

    def handle(self, *args: Any, **options: Any) -> None:
        ruleset = current_ruleset()
        try:
            odds = exchange_odds(
                options["attacker"],
                options["defender"],
                ruleset.cards,
                ties_fail=True if options["ties_fail"] else None,
            )
        except CardOddsError as error:
            raise CommandError(str(error), returncode=2) from None
        if options["json"]:
            write_json(self, odds.as_dict() | {"ruleset": ruleset.version})
            return
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
        self.stdout.write("  Assumes each player draws from a fresh, full, shuffled deck.")
