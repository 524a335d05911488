"""Line of fire on a table: between two hexes (with what blocks it), or every clear pair."""

from __future__ import annotations

from typing import Any

import numpy as np
from django.core.management.base import CommandError, CommandParser

from onefinity.management.commands._output import write_json
from onefinity.rules import current_ruleset
from onefinity.rules.lineoffire import Terrain, line_of_fire
from onefinity.rules.visibility import board_visibility
from tablegen.management.commands._tables import TableCommand, parse_hex, read_table_file


class Command(TableCommand):
    help = "Line of fire between two hexes (Q,R Q,R), or every clear pair of standable hexes."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="path to a table document (JSON)")
        parser.add_argument("hexes", nargs="*", help="two hexes as Q,R")
        parser.add_argument("--json", action="store_true", help="print JSON")

    def handle(self, *args: Any, **options: Any) -> None:
        table = read_table_file(options["file"])
        rules = current_ruleset().table
        terrain = Terrain.of(table.board, table.terrain, rules)
        if options["hexes"]:
            if len(options["hexes"]) != 2:
                raise CommandError("give two hexes, or none for every clear pair", returncode=2)
            a, b = (parse_hex(h) for h in options["hexes"])
            for hex_ in (a, b):
                if hex_ not in table.board:
                    raise CommandError(
                        f"{hex_[0]},{hex_[1]} is not on this table's board", returncode=2
                    )
            result = line_of_fire(table.board, terrain, a, b)
            blocked_by = [list(h) for h in result.blocked_by] + [
                [list(h), list(k)] for h, k in result.blocked_along
            ]
            if options["json"]:
                write_json(self, {"clear": result.clear, "blocked_by": blocked_by})
            else:
                verdict = "clear" if result.clear else "blocked"
                self.stdout.write(f"{a[0]},{a[1]} to {b[0]},{b[1]}: {verdict}.")
                for h in result.blocked_by:
                    self.stdout.write(f"  blocked by the hex {h[0]},{h[1]}")
                for h, k in result.blocked_along:
                    self.stdout.write(
                        f"  blocked along the side between {h[0]},{h[1]} and {k[0]},{k[1]}"
                    )
            return
        # The same entry point as check_table: per-pair geometry only where it is cheap.
        clear = board_visibility(table.board, terrain)
        standable = terrain.standable
        pairs = np.argwhere(np.triu(clear & standable[:, None] & standable[None, :], 1))
        hexes = table.board.hexes
        listing = [[list(hexes[i]), list(hexes[j])] for i, j in pairs]
        if options["json"]:
            write_json(self, {"clear": listing})
        else:
            self.stdout.write(f"{len(listing)} clear pairs of standable hexes.")
            for first, second in listing:
                self.stdout.write(f"  {first[0]},{first[1]} - {second[0]},{second[1]}")
