from __future__ import annotations

import pytest

from forcebuilder.models import Force
from onefinity.rules import read_force_document

LEGAL_DOCUMENT = {
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


# The same list with ids on its units and troopers (as the editor saves every list), for
# tests that name a trooper.
KEYED_DOCUMENT = LEGAL_DOCUMENT | {
    "units": [
        {
            "id": "alpha",
            "type": "medium-infantry",
            "name": "Alpha",
            "troopers": [
                {"id": "hck", "class": "hacker"},
                {"id": "cmb", "weapons": ["combi-rifle"]},
                {"id": "trp"},
            ],
        },
        {"id": "tagu", "type": "tag", "troopers": [{"id": "tag1", "weapons": ["spitfire"]}]},
    ]
}


@pytest.fixture
def keyed_force(owner) -> Force:
    return Force.create_from_spec(read_force_document(KEYED_DOCUMENT), "2026.11", 75, owner=owner)


@pytest.fixture
def force(owner) -> Force:
    return Force.create_from_spec(read_force_document(LEGAL_DOCUMENT), "2026.11", 75, owner=owner)
