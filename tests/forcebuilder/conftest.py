from __future__ import annotations

import pytest

from forcebuilder.models import Force
from onefinity.rules import read_force_document
from tests.factories import LEGAL_DOCUMENT, make_force

__all__ = ["LEGAL_DOCUMENT"]  # imported from here by older tests


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
    return make_force(owner)
