"""Check a table: metrics and every validity problem; exit 0 valid, 1 invalid, 2 unreadable."""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import CommandParser

from onefinity.management.commands._output import write_json
from onefinity.rules import current_ruleset
from tablegen.engine.metrics import check_table
from tablegen.management.commands._tables import TableCommand, read_table_file


class Command(TableCommand):
    help = "Check a hex table: line of fire, cover, lanes, balance and connectivity."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="path to a table document (JSON)")
        parser.add_argument("--json", action="store_true", help="print the report as JSON")

    def handle(self, *args: Any, **options: Any) -> None:
        table = read_table_file(options["file"])
        report = check_table(table, current_ruleset().table)
        if options["json"]:
            write_json(self, report.as_dict())
        else:
            m = report.metrics
            verdict = "VALID" if report.valid else f"INVALID: {len(report.problems)} problem(s)"
            self.stdout.write(
                f"{table.name}: {m['hexes']} hexes, coverage {m['coverage']:.0%}. {verdict}."
            )
            self.stdout.write(
                f"  Edge lanes {m['edge_lanes']}, longest sightline {m['longest_sightline']} hexes, "
                f"dominance {m['dominance']:.0%}, connected {'yes' if m['connected'] else 'no'}."
            )
            for side, values in m["sides"].items():
                self.stdout.write(
                    f"  Side {side}: {values['cover_near_edge']} hexes in cover near its edge, "
                    f"exposure {values['exposure']:g} %, high ground {values['high_ground']}."
                )
            for problem in report.problems:
                hexes = " ".join(f"{q},{r}" for q, r in problem.hexes[:12])
                more = f" (+{len(problem.hexes) - 12} more)" if len(problem.hexes) > 12 else ""
                self.stdout.write(
                    f"  [{problem.code}] {problem.message}"
                    + (f" Hexes: {hexes}{more}" if hexes else "")
                )
        if not report.valid:
            sys.exit(1)
