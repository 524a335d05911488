from __future__ import annotations

import pytest
from django.test import Client

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
def owner(django_user_model):
    return django_user_model.objects.create_user("owner", "owner@example.com", "a-long-pass-phrase")


@pytest.fixture
def stranger(django_user_model):
    return django_user_model.objects.create_user("stranger", "s@example.com", "another-long-phrase")


@pytest.fixture
def owner_client(owner) -> Client:
    client = Client()
    client.force_login(owner)
    return client


@pytest.fixture
def stranger_client(stranger) -> Client:
    client = Client()
    client.force_login(stranger)
    return client


@pytest.fixture
def force(owner) -> Force:
    return Force.create_from_spec(read_force_document(LEGAL_DOCUMENT), "2026.11", 75, owner=owner)
