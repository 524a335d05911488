"""The event personas: an organizer, a player, another player and a stranger, each signed
in; an event with both players registered; lists for the players."""

from __future__ import annotations

import copy
import datetime
from typing import Any

import pytest
from django.test import Client

from events.models import Event
from forcebuilder.models import Force
from onefinity.rules import current_ruleset, read_force_document
from onefinity.rules.hexgrid import standard_board
from tablegen.engine.generate import Parameters, generate_table
from tablegen.engine.tables import table_document
from tablegen.models import Pack
from tests.conftest import signed_in
from tests.forcebuilder.conftest import LEGAL_DOCUMENT

# LEGAL_DOCUMENT costs this many points (checked in test_submissions).
LEGAL_POINTS = 28


@pytest.fixture
def organizer(django_user_model):
    return django_user_model.objects.create_user("orga", "orga@example.com", "a-long-pass-phrase")


@pytest.fixture
def player(django_user_model):
    return django_user_model.objects.create_user("alice", "a@example.com", "a-long-pass-phrase")


@pytest.fixture
def other_player(django_user_model):
    return django_user_model.objects.create_user("bob", "b@example.com", "a-long-pass-phrase")


@pytest.fixture
def stranger(django_user_model):
    return django_user_model.objects.create_user("zed", "z@example.com", "a-long-pass-phrase")


@pytest.fixture
def organizer_client(organizer) -> Client:
    return signed_in(organizer)


@pytest.fixture
def player_client(player) -> Client:
    return signed_in(player)


@pytest.fixture
def other_client(other_player) -> Client:
    return signed_in(other_player)


@pytest.fixture
def stranger_client(stranger) -> Client:
    return signed_in(stranger)


def make_event(organizer: Any, **fields: Any) -> Event:
    values = {
        "name": "Spring Open",
        "date": datetime.date(2026, 12, 5),
        "points_limit": 75,
        "ruleset_version": "2026.11",
        "round_count": 3,
        "notes": "Bring dice.",
        "owner": organizer,
    }
    return Event.create(**(values | fields))


@pytest.fixture
def event(organizer) -> Event:
    return make_event(organizer)


def make_force(owner: Any, name: str = "Wardens", **changes: Any) -> Force:
    document = copy.deepcopy(LEGAL_DOCUMENT) | {"name": name} | changes
    return Force.create_from_spec(read_force_document(document), "2026.11", 75, owner=owner)


@pytest.fixture
def alice_list(player) -> Force:
    return make_force(player, "Alice's wardens")


@pytest.fixture
def bob_list(other_player) -> Force:
    return make_force(other_player, "Bob's wardens")


@pytest.fixture
def joined(event, player, other_player):
    """Both players registered, neither submitted."""
    return event.join(player), event.join(other_player)


@pytest.fixture
def submitted(joined, alice_list, bob_list):
    alice, bob = joined
    alice.submit(alice_list, accept_problems=False)
    bob.submit(bob_list, accept_problems=False)
    return alice, bob


def table_documents(count: int) -> list[dict[str, Any]]:
    rules = current_ruleset().table
    board = standard_board(rules.rows, rules.columns)
    documents = []
    for seed in range(1, count + 1):
        spec, _ = generate_table(rules, Parameters(seed=seed), board, name=f"Pack table {seed}")
        documents.append(table_document(spec))
    return documents


@pytest.fixture
def pack(organizer) -> Pack:
    return Pack.objects.create(
        name="Spring pack",
        count=2,
        params={"seed": 1, "coverage": 0.45, "symmetry": "point", "mix": "balanced"},
        tables=table_documents(2),
        owner=organizer,
    )


@pytest.fixture(autouse=True)
def no_printed_pdfs_kept():
    """Each test renders its own PDFs (they are kept per process under a hash of content)."""
    from django.core.cache import cache

    cache.clear()
