"""Print the whole current ruleset, for organizers and other tools."""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandError, CommandParser

from onefinity.management.commands._output import EngineCommand, write_json
from onefinity.rules import library
from onefinity.rules.export import ruleset_document


class Command(EngineCommand):
    help = "Print the current ruleset (or --version V) as JSON or as a readable summary."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--json", action="store_true", help="print the ruleset as JSON")
        parser.add_argument(
            "--version-id", dest="version_id", help="a ruleset version, e.g. 2026.11"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        ruleset = library().get(options["version_id"])
        if ruleset is None:
            known = ", ".join(sorted(library().rulesets))
            raise CommandError(
                f"no ruleset {options['version_id']!r}; known: {known}", returncode=2
            )
        if options["json"]:
            write_json(self, ruleset_document(ruleset))
            return
        limits = ruleset.force_limits
        self.stdout.write(f"{ruleset.name} {ruleset.version} ({ruleset.source})")
        self.stdout.write(
            f"Force: {limits.points} points, {limits.unit_points} per unit, {limits.units} units, "
            f"{limits.troopers} troopers, {limits.tags} TAG, {limits.specialists_max} specialists "
            f"(at least {limits.specialists_min} advised)."
        )
        self.stdout.write("Unit types:")
        for unit_type in ruleset.unit_types.values():
            self.stdout.write(
                f"  {unit_type.id:<16} {unit_type.name}: move {unit_type.movement}, "
                f"armor {unit_type.armor}, wounds {unit_type.wounds}, "
                f"{unit_type.ability_slots} ability slot(s), {unit_type.cost} pts per trooper, "
                f"{unit_type.min_troopers}-{unit_type.max_troopers} troopers, "
                f"up to {unit_type.max_specialists} specialist(s)"
            )
        for title, catalogue in (
            ("Factions", ruleset.factions),
            ("Trooper classes", ruleset.trooper_classes),
            ("Weapons", ruleset.weapons),
            ("Special abilities", ruleset.abilities),
            ("Equipment", ruleset.equipment),
            ("Unit skills", ruleset.unit_skills),
        ):
            entries = ", ".join(
                entry.name + (" *" if getattr(entry, "provisional", False) else "")
                for entry in catalogue.values()
            )
            self.stdout.write(f"{title}: {entries}")
        self.stdout.write("* provisional: our starter catalogue, not official data.")
