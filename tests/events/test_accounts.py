"""Events in the account's export and deletion (events/account_parts.py, registered with the account
pages by onefinity/account_data.py)."""

from __future__ import annotations

import json

import pytest

from events.account_parts import delete_account_data, deletion_summary, export_account
from events.models import Entry, Event, Pairing
from onefinity.rules import read_force_document

pytestmark = pytest.mark.django_db


@pytest.fixture
def paired(submitted, event):
    alice, bob = submitted
    Pairing.objects.create(round=event.rounds.get(number=1), table=1, player_a=alice, player_b=bob)
    event.lock_all()
    return submitted


def test_the_organizers_export_holds_the_event_its_entries_and_pairings(paired, organizer):
    document = export_account(organizer)
    json.dumps(document)  # plain JSON
    assert document["format"] == "onefinity-events" and document["entries"] == []
    (event,) = document["organized"]
    assert event["name"] == "Spring Open" and event["points_limit"] == 75
    assert [e["player"] for e in event["entries"]] == ["alice", "bob"]
    assert read_force_document(event["entries"][0]["list"]).name == "Alice's wardens"
    assert event["round_tables"][0]["pairings"] == [
        {"table": 1, "player_a": "alice", "player_b": "bob"}
    ]


def test_a_players_export_holds_their_entries_with_their_submitted_lists(paired, player):
    document = export_account(player)
    assert document["organized"] == []
    (entry,) = document["entries"]
    assert entry["event"] == "Spring Open" and entry["locked"] is not None
    assert read_force_document(entry["list"]).name == "Alice's wardens"


def test_the_deletion_summary_says_what_goes(paired, organizer, player, stranger):
    assert deletion_summary(organizer) == [
        "Your event Spring Open (05 Dec 2026) is deleted, with the entries and lists of its 2 other players."
    ]
    assert deletion_summary(player) == [
        "Your entry in Spring Open is withdrawn (its organizer loses your locked list)."
    ]
    assert deletion_summary(stranger) == []


def test_deleting_a_players_data_withdraws_their_entries_only(paired, player, event):
    delete_account_data(player)
    assert list(event.entries.values_list("player__username", flat=True)) == ["bob"]
    assert Event.objects.filter(pk=event.pk).exists()
    assert not Pairing.objects.exists()  # the game against bob is gone with the entry


def test_deleting_an_organizers_data_deletes_their_events(paired, organizer, player):
    delete_account_data(organizer)
    assert not Event.objects.exists() and not Entry.objects.exists()
    assert player.forces.count() == 1  # players keep their own lists


def test_deleting_the_user_cascades_the_same_way(paired, player, organizer, event):
    player.delete()
    assert list(event.entries.values_list("player__username", flat=True)) == ["bob"]
    organizer.delete()
    assert not Event.objects.exists()
