"""Records for tests, made through the models (the same checked write paths the views use),
not through HTTP: a test of the lists page should not depend on the import page."""

from __future__ import annotations

import copy
from typing import Any

from forcebuilder.models import Force
from onefinity.rules import current_ruleset, library, read_force_document
from onefinity.rules.hexgrid import standard_board
from tablegen.engine.generate import Parameters, generate_table
from tablegen.engine.tournament import PackState
from tablegen.models import Pack, Table, TerrainBox

# A legal list of the current ruleset: a Medium Infantry unit (a Hacker, a trooper with a
# Combi Rifle, a trooper) and a TAG with a Spitfire.
LEGAL_DOCUMENT: dict[str, Any] = {
    "format": "onefinity-force",
    "version": 1,
    "name": "Wardens",
    "faction": "solar-concord",
    "ruleset": "2026.11",
    "points_limit": 75,
    "units": [
        {
            "type": "medium-infantry",
            "name": "Alpha",
            "troopers": [{"class": "hacker"}, {"weapons": ["combi-rifle"]}, {}],
        },
        {"type": "tag", "troopers": [{"weapons": ["spitfire"]}]},
    ],
}


def make_force(
    owner: Any = None, anonymous_owner: str = "", shared: bool = True, **changes: Any
) -> Force:
    """A saved list: the legal Wardens, with any top-level keys of the document changed;
    shared by its owner (new lists are private until then) unless ``shared`` is False."""
    document = copy.deepcopy(LEGAL_DOCUMENT) | changes
    spec = read_force_document(document)
    ruleset = library().get_or_current(spec.ruleset)
    force = Force.create_from_spec(
        spec,
        ruleset.version,
        spec.points_limit or ruleset.force_limits.points,
        owner=owner,
        anonymous_owner=anonymous_owner,
    )
    if shared:
        force.set_sharing("on")
    return force


def make_table(
    owner: Any = None, seed: int = 5, symmetry: str = "point", name: str = "", shared: bool = True
) -> Table:
    """A saved generated table of the standard board, shared by its owner (new tables are
    private until then) unless ``shared`` is False."""
    rules = current_ruleset().table
    spec, report = generate_table(
        rules,
        Parameters(seed=seed, symmetry=symmetry),
        standard_board(rules.rows, rules.columns),
        name,
    )
    table = Table(owner=owner, sharing=shared)
    table.set_spec(spec, report)
    table.save()
    return table


def make_pack(owner: Any = None, count: int = 1, name: str = "Pack", seed: int = 1) -> Pack:
    """A pack about to be generated: its page makes the tables step by step."""
    params = {"seed": seed, "coverage": 0.45, "symmetry": "point", "mix": "balanced"}
    return Pack.objects.create(
        name=name, count=count, params=params, state=PackState(seed=seed).as_json(), owner=owner
    )


def make_box(
    owner: Any = None, name: str = "Club", pieces: dict[str, int] | None = None
) -> TerrainBox:
    """A terrain box: two large buildings, four walls, a hill and crates by default."""
    box = TerrainBox(owner=owner)
    box.name = name
    box.pieces = pieces or {"building-4": 2, "crates": 4, "hill-4": 1, "wall-3": 4}
    box.save()
    return box


def shown(record: Any) -> dict[str, int]:
    """The version field a record's page sends with a change: the record as stored now."""
    return {"version": type(record).objects.get(pk=record.pk).version}
