"""Generate valid tables from a seed and parameters and write them as table documents."""

from __future__ import annotations

import json
import secrets
from pathlib import Path
from typing import Any

from django.core.management.base import CommandError, CommandParser

from onefinity.management.commands._output import read_json_file
from onefinity.rules import current_ruleset
from onefinity.rules.hexgrid import standard_board
from tablegen.engine.boxes import BoxError, read_box_document
from tablegen.engine.generate import (
    BUDGET_SECONDS,
    SYMMETRIES,
    GenerationError,
    Parameters,
    generate_table,
)
from tablegen.engine.library import terrain_library
from tablegen.engine.tables import table_document
from tablegen.management.commands._tables import TableCommand


class Command(TableCommand):
    help = "Generate valid hex tables (deterministic for a seed and its parameters)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--seed", type=int, help="a whole number; random when left out")
        parser.add_argument(
            "--coverage", type=float, default=0.45, help="share of terrain hexes (0.30 to 0.60)"
        )
        parser.add_argument("--symmetry", choices=SYMMETRIES, default="point")
        parser.add_argument(
            "--mix", default="balanced", help="piece mix: balanced, urban or industrial"
        )
        parser.add_argument(
            "--box",
            metavar="FILE",
            help="a terrain box document: use only the pieces it holds (the mix is not used)",
        )
        parser.add_argument(
            "--count", type=int, default=1, help="how many tables (seeds seed, seed+1, ...)"
        )
        parser.add_argument(
            "--out", required=True, help="a .json file, or a folder when --count > 1"
        )
        parser.add_argument(
            "--budget",
            type=float,
            default=BUDGET_SECONDS,
            metavar="SECONDS",
            help=f"the most one table may take, its advice included (the site's: "
            f"{BUDGET_SECONDS:g}); 0 for no bound",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        rules = current_ruleset().table
        board = standard_board(rules.rows, rules.columns)
        count = options["count"]
        if not 1 <= count <= 1000:
            raise CommandError("--count is from 1 to 1000", returncode=2)
        box = None
        if options["box"]:
            document = read_json_file(options["box"], "terrain box document")
            try:
                box = read_box_document(document, terrain_library(tuple(rules.terrain))).pieces
            except BoxError as error:
                raise CommandError(
                    f"{options['box']}: not a terrain box document: {error}", returncode=2
                ) from None
        budget = options["budget"]
        if not 0 <= budget <= 3600:
            raise CommandError("--budget is from 0 to 3600 seconds (0: no bound)", returncode=2)
        seed = options["seed"] if options["seed"] is not None else secrets.randbelow(2**31)
        out = Path(options["out"])
        if count > 1:
            out.mkdir(parents=True, exist_ok=True)
        written = []
        for n in range(count):
            params = Parameters(
                seed=seed + n,
                coverage=options["coverage"],
                symmetry=options["symmetry"],
                mix=options["mix"],
                box=box,
            )
            try:
                table, report = generate_table(rules, params, board, budget_seconds=budget or None)
            except GenerationError as error:
                raise CommandError(str(error), returncode=2) from None
            path = out / f"table-{params.seed}.json" if count > 1 else out
            try:
                path.write_text(
                    json.dumps(table_document(table), indent=2) + "\n", encoding="utf-8"
                )
            except OSError as error:
                raise CommandError(
                    f"{path}: cannot be written ({error.strerror})", returncode=2
                ) from None
            written.append(path)
            metrics = report.metrics
            self.stdout.write(
                f"{path}: seed {params.seed}, coverage {metrics['coverage']:.0%}, "
                f"exposure A {metrics['sides']['A']['exposure']:g} % / B {metrics['sides']['B']['exposure']:g} %: valid."
            )
