"""Shared plumbing for the table commands."""

from __future__ import annotations

import re
from typing import Any

from django.core.management.base import CommandError

from onefinity.management.commands._output import EngineCommand, read_json_file
from onefinity.rules import current_ruleset
from onefinity.rules.hexgrid import Hex
from tablegen.engine.tables import TableDocumentError, TableSpec, read_table_document

HEX = re.compile(r"^\s*(-?\d+)\s*,\s*(-?\d+)\s*$")


def read_table_file(filename: str) -> TableSpec:
    document = read_json_file(filename, "table document")
    try:
        return read_table_document(document, current_ruleset().table)
    except TableDocumentError as error:
        raise CommandError(f"{filename}: not a table document: {error}", returncode=2) from None


def parse_hex(text: str) -> Hex:
    match = HEX.match(text)
    if not match:
        raise CommandError(
            f"{text!r} is not a hex: write it as Q,R (for example 2,4 or -3,5)", returncode=2
        )
    return int(match.group(1)), int(match.group(2))


class TableCommand(EngineCommand):
    def run_from_argv(self, argv: list[str]) -> None:
        # A hex such as -3,5 looks like an option to argparse: put the options first and
        # everything else after "--".
        head, rest = argv[:2], argv[2:]
        if any(HEX.match(a) and a.lstrip().startswith("-") for a in rest) and "--" not in rest:
            options = [a for a in rest if a.startswith("--")]
            others = [a for a in rest if not a.startswith("--")]
            argv = [*head, *options, "--", *others]
        super().run_from_argv(argv)

    def handle(self, *args: Any, **options: Any) -> None:  # pragma: no cover - abstract
        raise CommandError("not a command")
