"""The example force documents shipped with the ruleset (shown on the home page, loaded as
demo data, and used by the documentation)."""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from onefinity.rules import ForceSpec, Report, check_force, library, read_force_document

EXAMPLES_DIR = Path(__file__).resolve().parent / "data" / "examples"


@dataclass(frozen=True)
class ExampleForce:
    slug: str
    document: dict[str, Any]
    force: ForceSpec
    report: Report

    @property
    def faction_name(self) -> str:
        faction = library().current.factions.get(self.force.faction)
        return faction.name if faction else self.force.faction


@functools.cache
def example_forces() -> tuple[ExampleForce, ...]:
    examples = []
    for path in sorted(EXAMPLES_DIR.glob("*.json")):
        document = json.loads(path.read_text(encoding="utf-8"))
        force = read_force_document(document)
        examples.append(ExampleForce(path.stem, document, force, check_force(force, library())))
    return tuple(examples)
