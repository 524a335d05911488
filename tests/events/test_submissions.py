"""A player joins, submits, replaces and withdraws; the organizer locks and unlocks; the
snapshot follows the live list until the lock and is frozen after it."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from events.models import Entry, EventRefusal, Locked
from forcebuilder.models import Force
from onefinity.rules import read_force_document
from tests.events.conftest import LEGAL_POINTS, make_event, make_force

pytestmark = pytest.mark.django_db


def add_trooper(force: Force) -> None:
    """An edit of the live list through the editor's own model method."""
    spec = force.to_spec()
    document = force.document()
    document["units"][0]["troopers"].append({})
    force.record(read_force_document(document) if spec else spec)


# --- Joining -------------------------------------------------------------------------------


def test_an_anonymous_visitor_sees_the_event_and_is_sent_to_log_in_and_back(client, event):
    page = client.get(event.get_join_url())
    assert page.status_code == 200
    text = page.content.decode()
    assert "Spring Open" in text and "Bring dice." in text
    assert f"/accounts/login/?next={event.get_join_url()}" in text
    response = client.post(event.get_join_url())
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    assert not Entry.objects.exists()


def test_a_signed_in_player_joins_once_and_joining_twice_leads_to_the_entry(
    player_client, event, player
):
    assert player_client.post(event.get_join_url()).status_code == 302
    again = player_client.post(event.get_join_url())
    assert again.status_code == 302 and again["Location"] == f"/events/{event.pk}/me/"
    assert event.entries.filter(player=player).count() == 1
    # Opening the link again leads to the entry.
    assert player_client.get(event.get_join_url())["Location"] == f"/events/{event.pk}/me/"


def test_a_wrong_or_replaced_join_code_is_not_found(player_client, organizer_client, event):
    old = event.get_join_url()
    assert player_client.get("/events/join/not-a-code/").status_code == 404
    assert player_client.get("/events/join/" + "x" * 40 + "/").status_code == 404
    organizer_client.post(f"/events/{event.pk}/join-link/")
    event.refresh_from_db()
    assert player_client.get(old).status_code == 404
    assert player_client.get(event.get_join_url()).status_code == 200


def test_a_locked_event_takes_no_new_players(player_client, event):
    event.lock_all()
    response = player_client.post(event.get_join_url())
    assert response.status_code == 400 and "locked" in response.content.decode()
    assert not event.entries.exists()


def test_a_full_event_takes_no_more_players(event, player, monkeypatch):
    monkeypatch.setattr("events.models.MAX_ENTRIES", 0)
    with pytest.raises(EventRefusal, match="full"):
        event.join(player)


# --- Submitting ----------------------------------------------------------------------------


def test_a_legal_list_is_submitted_with_its_snapshot(player_client, joined, alice_list, event):
    response = player_client.post(f"/events/{event.pk}/me/submit/", {"force": alice_list.pk})
    assert response.status_code == 302
    entry = joined[0]
    entry.refresh_from_db()
    assert entry.submitted and entry.legal and entry.points == LEGAL_POINTS
    assert entry.force == alice_list and entry.list_name == "Alice's wardens"
    assert read_force_document(entry.document).name == "Alice's wardens"
    page = player_client.get(f"/events/{event.pk}/me/").content.decode()
    assert "Alice&#x27;s wardens" in page and "Legal" in page


def test_a_list_over_the_events_limit_is_refused_and_nothing_is_saved(
    player_client, organizer, player, alice_list
):
    small = make_event(organizer, name="Small game", points_limit=LEGAL_POINTS - 1)
    small.join(player)
    response = player_client.post(f"/events/{small.pk}/me/submit/", {"force": alice_list.pk})
    assert response.status_code == 400
    text = response.content.decode()
    assert f"costs {LEGAL_POINTS} points" in text and f"allows {LEGAL_POINTS - 1}" in text
    assert "anyway" not in text  # over the limit cannot be accepted
    entry = small.entries.get()
    assert not entry.submitted
    # Even when the player insists.
    player_client.post(
        f"/events/{small.pk}/me/submit/", {"force": alice_list.pk, "accept_problems": "yes"}
    )
    entry.refresh_from_db()
    assert not entry.submitted


def test_the_events_limit_overrides_the_lists_own(player_client, organizer, player):
    # A list built at 20 points is checked at the event's 75: legal there.
    force = make_force(player, "Built small", points_limit=20)
    big = make_event(organizer, name="Big game", points_limit=75)
    entry = big.join(player)
    entry.submit(force, accept_problems=False)
    assert entry.legal and entry.document["points_limit"] == 75


def test_an_illegal_list_needs_the_players_consent_and_the_organizer_sees_it(
    player_client, organizer_client, joined, player, event
):
    illegal = make_force(player, "Two TAGs")
    document = illegal.document()
    document["units"].append({"type": "tag", "troopers": [{"weapons": ["spitfire"]}]})
    illegal.record(read_force_document(document))
    response = player_client.post(f"/events/{event.pk}/me/submit/", {"force": illegal.pk})
    assert response.status_code == 400
    text = response.content.decode()
    assert "not legal" in text and "TAG" in text and "anyway" in text
    # Fixing it is the big button; submitting anyway the small link-styled one after it.
    fix = f'<a class="button" href="/forces/{illegal.pk}/">Open Two TAGs to fix it</a>'
    anyway = '<button type="submit" class="link">Or submit Two TAGs anyway'
    assert fix in text and anyway in text and text.index(fix) < text.index(anyway)
    entry = joined[0]
    entry.refresh_from_db()
    assert not entry.submitted
    response = player_client.post(
        f"/events/{event.pk}/me/submit/", {"force": illegal.pk, "accept_problems": "yes"}
    )
    assert response.status_code == 302
    entry.refresh_from_db()
    assert entry.submitted and entry.legal is False and entry.accepted_problems
    dashboard = organizer_client.get(f"/events/{event.pk}/").content.decode()
    assert "submitted with a warning" in dashboard and "TAG" in dashboard


def test_a_player_cannot_submit_someone_elses_list(player_client, joined, bob_list, event):
    response = player_client.post(f"/events/{event.pk}/me/submit/", {"force": bob_list.pk})
    assert response.status_code == 400
    assert "Choose one of your lists" in response.content.decode()
    joined[0].refresh_from_db()
    assert not joined[0].submitted


def test_a_player_replaces_and_withdraws_until_the_lock(player_client, submitted, player, event):
    alice = submitted[0]
    second = make_force(player, "Second thoughts")
    player_client.post(f"/events/{event.pk}/me/submit/", {"force": second.pk})
    alice.refresh_from_db()
    assert alice.force == second and alice.list_name == "Second thoughts"
    player_client.post(f"/events/{event.pk}/me/withdraw/")
    alice.refresh_from_db()
    assert not alice.submitted and alice.force is None


def test_the_snapshot_follows_the_live_list_until_the_lock(
    organizer_client, submitted, alice_list, event
):
    alice = submitted[0]
    add_trooper(alice_list)
    organizer_client.get(f"/events/{event.pk}/")  # the dashboard checks it again
    alice.refresh_from_db()
    assert len(alice.document["units"][0]["troopers"]) == 4
    assert alice.points > LEGAL_POINTS


def test_at_lock_the_snapshot_is_frozen_and_later_edits_do_not_change_it(
    organizer_client, player_client, submitted, alice_list, event
):
    alice = submitted[0]
    response = organizer_client.post(f"/events/{event.pk}/lock/", {"change": "lock"})
    assert response.status_code == 302
    alice.refresh_from_db()
    frozen = alice.document
    assert alice.locked and frozen is not None
    add_trooper(alice_list)
    dashboard = organizer_client.get(f"/events/{event.pk}/").content.decode()
    alice.refresh_from_db()
    assert alice.document == frozen
    assert "changed since lock" in dashboard
    # The player's page says the list is frozen, and the snapshot page shows the old list.
    mine = player_client.get(f"/events/{event.pk}/me/").content.decode()
    assert "frozen" in mine
    # Undoing the change makes the live list equal to the snapshot again.
    alice_list.step(-1)
    dashboard = organizer_client.get(f"/events/{event.pk}/").content.decode()
    assert "changed since lock" not in dashboard


def test_locking_counts_the_lists_it_froze_apart_from_players_without_one(
    organizer_client, submitted, stranger, event
):
    event.join(stranger)  # registered, no list
    response = organizer_client.post(f"/events/{event.pk}/lock/", {"change": "lock"}, follow=True)
    assert "Locked. 2 lists frozen now; 1 player has submitted none." in response.content.decode()
    # Locking again freezes nothing new, and says so.
    response = organizer_client.post(f"/events/{event.pk}/lock/", {"change": "lock"}, follow=True)
    assert "Locked. 0 lists frozen now." in response.content.decode()


def test_the_lock_message_says_one_list_and_players_in_the_plural():
    assert str(Locked(1, 0)) == "1 list frozen now"
    assert str(Locked(3, 2)) == "3 lists frozen now; 2 players have submitted none"


def test_submitting_after_the_lock_is_refused_and_nothing_changes(
    player_client, submitted, player, event
):
    event.lock_all()
    second = make_force(player, "Too late")
    response = player_client.post(f"/events/{event.pk}/me/submit/", {"force": second.pk})
    assert response.status_code == 400 and "locked" in response.content.decode()
    alice = submitted[0]
    alice.refresh_from_db()
    assert alice.list_name == "Alice's wardens"
    assert player_client.post(f"/events/{event.pk}/me/withdraw/").status_code == 302
    alice.refresh_from_db()
    assert alice.submitted  # withdrawing is refused too
    player_client.post(f"/events/{event.pk}/me/leave/")
    assert Entry.objects.filter(pk=alice.pk).exists()


def test_one_player_is_locked_and_unlocked_on_their_own(
    organizer_client, player_client, submitted, player, event
):
    alice, bob = submitted
    organizer_client.post(
        f"/events/{event.pk}/players/{alice.pk}/lock/", {"change": "lock", "version": alice.version}
    )
    alice.refresh_from_db()
    bob.refresh_from_db()
    assert alice.locked and not bob.locked
    second = make_force(player, "Second")
    assert (
        player_client.post(f"/events/{event.pk}/me/submit/", {"force": second.pk}).status_code
        == 400
    )
    # While the whole event is locked, one player can be let back in.
    event.lock_all()
    alice.refresh_from_db()
    organizer_client.post(
        f"/events/{event.pk}/players/{alice.pk}/lock/",
        {"change": "unlock", "version": alice.version},
    )
    assert (
        player_client.post(f"/events/{event.pk}/me/submit/", {"force": second.pk}).status_code
        == 302
    )
    alice.refresh_from_db()
    bob.refresh_from_db()
    assert alice.list_name == "Second" and not alice.locked and bob.locked


def test_unlocking_the_event_opens_every_list_and_closes_the_reveal(
    organizer_client, submitted, event
):
    event.lock_all()
    event.set_lists_published(True)
    organizer_client.post(f"/events/{event.pk}/lock/", {"change": "unlock"})
    event.refresh_from_db()
    assert not event.locked and not event.lists_published
    assert not event.entries.filter(locked_at__isnull=False).exists()


def _lock_form_version(page: str, entry: Entry) -> int:
    """The version the dashboard's Lock/Unlock form of ``entry`` sends."""
    action = f'action="/events/{entry.event_id}/players/{entry.pk}/lock/"'
    form = page[page.index(action) :]
    found = re.search(r'name="version" value="(\d+)"', form)
    assert found is not None
    return int(found.group(1))


def test_unlocking_every_list_moves_every_entrys_version_on_the_shared_swap(
    organizer_client, submitted, event, stranger
):
    late = event.join(stranger)  # registered, no list: locked and unlocked all the same
    event.lock_all()
    before = dict(Entry.objects.values_list("pk", "version"))
    response = organizer_client.post(f"/events/{event.pk}/lock/", {"change": "unlock"})
    assert response.status_code == 302
    after = dict(Entry.objects.values_list("pk", "version"))
    assert set(after) == {submitted[0].pk, submitted[1].pk, late.pk}
    assert all(after[pk] == before[pk] + 1 for pk in after)  # one swap each, every entry
    assert not Entry.objects.filter(locked_at__isnull=False).exists()


def test_unlocking_every_list_is_one_transaction(submitted, event, monkeypatch):
    from accounts.history import Versioned

    event.lock_all()
    before = dict(Entry.objects.values_list("pk", "version"))
    swap = Versioned.swap
    written: list[int] = []

    def swap_then_fail(self, expected, **fields):
        swap(self, expected, **fields)
        written.append(self.pk)
        if len(written) == 2:
            raise RuntimeError("the database went away")

    monkeypatch.setattr(Versioned, "swap", swap_then_fail)
    with pytest.raises(RuntimeError):
        event.unlock_all()
    event.refresh_from_db()
    assert event.locked and len(written) == 2
    assert dict(Entry.objects.values_list("pk", "version")) == before  # none kept
    assert Entry.objects.filter(locked_at__isnull=True).count() == 0


def test_a_dashboard_drawn_before_unlocking_every_list_is_refused(
    organizer_client, submitted, event
):
    alice = submitted[0]
    old_page = organizer_client.get(f"/events/{event.pk}/").content.decode()
    old_version = _lock_form_version(old_page, alice)
    assert old_version == alice.version
    # Another tab locks every list and unlocks them again: alice's entry moved twice.
    organizer_client.post(f"/events/{event.pk}/lock/", {"change": "lock"})
    organizer_client.post(f"/events/{event.pk}/lock/", {"change": "unlock"})
    url = f"/events/{event.pk}/players/{alice.pk}/lock/"
    response = organizer_client.post(url, {"change": "lock", "version": old_version})
    assert response.status_code == 409
    page = response.content.decode()
    assert "alice&#x27;s entry was changed in another tab or window" in page
    alice.refresh_from_db()
    assert not alice.locked and alice.version == old_version + 2
    # A form without a version is a stale page too; the latest page's form is taken.
    assert organizer_client.post(url, {"change": "lock"}).status_code == 409
    htmx = organizer_client.post(
        url, {"change": "lock", "version": "x"}, headers={"HX-Request": "true"}
    )
    assert htmx.status_code == 409 and htmx.content.decode().lstrip().startswith("<div")
    fresh = _lock_form_version(organizer_client.get(f"/events/{event.pk}/").content.decode(), alice)
    assert organizer_client.post(url, {"change": "lock", "version": fresh}).status_code == 302
    alice.refresh_from_db()
    assert alice.locked


def test_lock_and_unlock_answer_htmx_with_the_players_region(organizer_client, submitted, event):
    alice = submitted[0]
    response = organizer_client.post(
        f"/events/{event.pk}/players/{alice.pk}/lock/",
        {"change": "lock", "version": alice.version},
        headers={"HX-Request": "true"},
    )
    text = response.content.decode()
    assert response.status_code == 200
    assert text.lstrip().startswith('<div id="event-state"')
    assert "alice&#x27;s list is locked" in text.lower() or "list is locked" in text


def test_a_list_deleted_after_submitting_keeps_its_snapshot(
    organizer_client, player_client, submitted, alice_list, event
):
    alice = submitted[0]
    alice_list.delete()
    alice.refresh_from_db()
    assert alice.force is None and alice.submitted
    assert "list deleted" in organizer_client.get(f"/events/{event.pk}/").content.decode()
    assert "You deleted this list" in player_client.get(f"/events/{event.pk}/me/").content.decode()
    event.lock_all()
    alice.refresh_from_db()
    assert alice.locked and alice.list_name == "Alice's wardens"


def test_a_damaged_snapshot_is_shown_as_damaged_never_as_a_server_error(
    organizer_client, submitted, event
):
    alice = submitted[0]
    Entry.objects.filter(pk=alice.pk).update(document={"format": "onefinity-force", "version": 9})
    event.lock_all()
    Entry.objects.filter(pk=alice.pk).update(document={"format": "onefinity-force", "version": 9})
    assert organizer_client.get(f"/events/{event.pk}/").status_code == 200
    page = organizer_client.get(alice.get_snapshot_url())
    assert page.status_code == 409 and "no longer reads" in page.content.decode()
    for url in ("rosters.pdf", "lists.csv", "lists.zip"):
        assert organizer_client.get(f"/events/{event.pk}/{url}").status_code == 200


def test_building_a_new_list_starts_it_at_the_events_limit(
    player_client, joined, player, organizer
):
    small = make_event(organizer, name="Small", points_limit=50)
    small.join(player)
    response = player_client.post(
        f"/events/{small.pk}/me/new-list/",
        {"name": "For the small game", "faction": "solar-concord"},
    )
    assert response.status_code == 302
    force = Force.objects.get(name="For the small game")
    assert force.owner == player and force.points_limit == 50
    assert response["Location"] == force.get_absolute_url()


def test_leaving_before_the_lock_removes_the_entry(player_client, joined, event):
    assert player_client.post(f"/events/{event.pk}/me/leave/")["Location"] == "/events/"
    assert not event.entries.filter(pk=joined[0].pk).exists()


def test_a_lock_and_a_submission_cannot_both_win(submitted, player, event):
    """The submit re-reads the entry under the event's row lock: an entry locked by a lock
    that got there first refuses a submission made from a stale object."""
    alice = submitted[0]
    stale = Entry.objects.get(pk=alice.pk)  # loaded before the lock
    event.lock_all()
    with pytest.raises(EventRefusal, match="locked"):
        stale.submit(make_force(player, "Sneaky"), accept_problems=True)
    alice.refresh_from_db()
    assert alice.list_name == "Alice's wardens"


def test_a_stale_snapshot_check_never_overwrites_a_newer_write(
    submitted, alice_list, player, event
):
    alice = submitted[0]
    stale = Entry.objects.select_related("force").get(pk=alice.pk)
    add_trooper(alice_list)
    alice.submit(make_force(player, "Newer"), accept_problems=False)
    stale.force.refresh_from_db()
    stale.follow_live_list(event)  # its version is old: nothing written
    alice.refresh_from_db()
    assert alice.list_name == "Newer"


def test_the_organizer_can_remove_a_player(organizer_client, submitted, event):
    bob = submitted[1]
    organizer_client.post(f"/events/{event.pk}/players/{bob.pk}/remove/")
    assert not Entry.objects.filter(pk=bob.pk).exists()


def test_an_anonymous_client_is_sent_to_log_in_for_event_pages(client: Client, event):
    response = client.get(f"/events/{event.pk}/me/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
