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


@pytest.fixture
def force(owner) -> Force:
    return Force.create_from_spec(read_force_document(LEGAL_DOCUMENT), "2026.11", 75, owner=owner)
