"""Validate a force document: every problem at once, exit 0 legal, 1 illegal, 2 unreadable."""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import CommandError, CommandParser

from onefinity.management.commands._output import EngineCommand, read_json_file, write_json
from onefinity.rules import ForceDocumentError, check_force, library, read_force_document


class Command(EngineCommand):
    help = "Validate a force list (a JSON force document) against its ruleset."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="path to a force document (JSON)")
        parser.add_argument("--json", action="store_true", help="print the report as JSON")

    def handle(self, *args: Any, **options: Any) -> None:
        document = read_json_file(options["file"], "force document")
        try:
            force = read_force_document(document)
        except ForceDocumentError as error:
            raise CommandError(
                f"{options['file']}: not a force document: {error}", returncode=2
            ) from None
        report = check_force(force, library())
        if options["json"]:
            write_json(self, report.as_dict())
        else:
            self.print_report(force.name, report)
        if not report.legal:
            sys.exit(1)

    def print_report(self, name: str, report: Any) -> None:
        tally = report.tally
        head = f"{name}: "
        if tally is not None:
            head += f"{tally.points}/{tally.points_limit} points, ruleset {report.ruleset}. "
        errors, warnings = len(report.errors), len(report.warnings)
        verdict = "LEGAL" if report.legal else "ILLEGAL"
        self.stdout.write(f"{head}{verdict}: {errors} error(s), {warnings} warning(s).")
        for issue in report.issues:
            where = issue.path or "force"
            self.stdout.write(f"  {issue.severity:<7} {where}  [{issue.code}]")
            self.stdout.write(f"          {issue.message}")
            self.stdout.write(f"          Fix: {issue.fix}")
