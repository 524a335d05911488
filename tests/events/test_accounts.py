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
        "Your entry in Spring Open stays with its organizer under a neutral name (its locked "
        "list, pairings and results; nothing that names you)."
    ]
    assert deletion_summary(stranger) == []


def test_a_player_who_deletes_their_account_leaves_their_locked_list_with_the_event(
    paired, player, event, organizer_client
):
    """It used to go with the account: the organizer's event lost the locked list and the
    published pairing against it."""
    delete_account_data(player)
    player.delete()
    alice = event.entries.get(departed_name="Departed player 1")
    assert alice.player is None and alice.force is None and alice.departed
    assert alice.locked and alice.points is not None
    # Nothing that names them: not the account, not the list's own name.
    assert alice.list_name == "List of departed player 1"
    assert read_force_document(alice.document).name == "List of departed player 1"
    assert "alice" not in json.dumps(alice.document).lower()
    pairing = Pairing.objects.get()
    assert (pairing.player_a, pairing.player_b.player_name) == (alice, "bob")
    page = organizer_client.get(f"/events/{event.pk}/").content.decode()
    assert "Departed player 1" in page and "account deleted" in page
    for url in (f"/events/{event.pk}/rounds/1/", f"/events/{event.pk}/rosters.pdf"):
        assert organizer_client.get(url).status_code == 200


def test_a_player_not_yet_locked_or_paired_is_withdrawn(submitted, player, event):
    delete_account_data(player)
    assert list(event.entries.values_list("player__username", flat=True)) == ["bob"]


def test_deleting_an_organizers_data_deletes_their_events(paired, organizer, player):
    delete_account_data(organizer)
    assert not Event.objects.exists() and not Entry.objects.exists()
    assert player.forces.count() == 1  # players keep their own lists


def test_deleting_the_account_through_the_site_keeps_the_locked_entry(
    paired, player, player_client, event
):
    response = player_client.post("/account/delete/", {"password": "a-long-pass-phrase"})
    assert response.status_code == 302
    assert not type(player).objects.filter(pk=player.pk).exists()
    assert event.entries.filter(departed_name="Departed player 1", player=None).exists()
    assert Pairing.objects.count() == 1
