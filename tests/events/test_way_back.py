"""The way back to the event after a list is copied (or started, or imported) outside the
event's own "Build a new list": the list's editor shows, above the list, a link to every
event whose entry still takes it (forcebuilder.destinations, events.destinations), and that
page offers the new list for submission. The message greeting the list says what happened,
once; the way back is the editor's, whenever it opens."""

from __future__ import annotations

import copy
import json

import pytest
from django.utils import timezone

from events import commands
from tests.events.conftest import make_event, make_force, signed_in
from tests.forcebuilder.conftest import LEGAL_DOCUMENT

pytestmark = pytest.mark.django_db


def _link(event) -> str:
    return f'<a href="/events/{event.pk}/me/#submit">go back to {event.name}</a>'


def _panel(*events) -> str:
    """The way back above the list, to each event (the latest first)."""
    links = " or ".join(_link(event) for event in events)
    return f'<p class="way-back">When this list is ready, {links} to submit it.</p>'


def _greeting(response) -> str:
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def test_copying_a_shared_list_leads_back_to_the_event_and_it_is_offered_there(
    event, player, player_client, other_player
):
    event.join(player)
    shared = make_force(other_player, "Bob's shared wardens")
    shared.set_sharing("on")
    response = player_client.post(f"/s/{shared.share_code}/copy/", follow=True)
    page = _greeting(response)
    copied = player.forces.get()
    assert response.redirect_chain[-1][0] == copied.get_absolute_url()
    assert "Bob&#x27;s shared wardens copied to your lists." in page
    assert _panel(event) in page
    # The way back is followed: the copy is offered there, and submitting it works.
    me = player_client.get(f"/events/{event.pk}/me/").content.decode()
    assert f'name="force" value="{copied.pk}"' in me
    submit = player_client.post(f"/events/{event.pk}/me/submit/", {"force": copied.pk})
    assert submit.status_code == 302
    assert event.entries.get(player=player).force_id == copied.pk


def test_copying_one_of_my_lists_leads_back_to_the_event(event, player, player_client, alice_list):
    event.join(player)
    page = _greeting(player_client.post(f"/forces/{alice_list.pk}/duplicate/", follow=True))
    assert "Copied as Alice&#x27;s wardens (copy)." in page and _panel(event) in page


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("/examples/solar-concord-line/copy/", "copied to your lists: change anything you like."),
        ("/forces/new/", "My new list created."),
        ("/forces/import/", "Imported wardens imported."),
    ],
)
def test_every_other_way_of_making_a_list_leads_back_too(event, player, player_client, url, said):
    event.join(player)
    fields = {
        "/forces/new/": {"name": "My new list", "faction": "solar-concord", "points_limit": 75},
        "/forces/import/": {
            "document": json.dumps(copy.deepcopy(LEGAL_DOCUMENT) | {"name": "Imported wardens"}),
            "confirm": "save",
        },
    }.get(url, {})
    page = _greeting(player_client.post(url, fields, follow=True))
    assert said in page and _panel(event) in page


def test_a_player_in_two_events_is_offered_both_and_the_names_are_escaped(
    event, organizer, player, player_client, alice_list
):
    other = make_event(organizer, name="<b>Night</b> cup")
    event.join(player)
    other.join(player)
    page = _greeting(player_client.post(f"/forces/{alice_list.pk}/duplicate/", follow=True))
    assert f"go back to &lt;b&gt;Night&lt;/b&gt; cup</a> or {_link(event)}" in page
    assert "<b>Night</b>" not in page


def test_no_way_back_where_no_entry_takes_a_list(
    event, organizer, player, player_client, other_player, alice_list
):
    # Not in any event: the plain message.
    page = _greeting(player_client.post(f"/forces/{alice_list.pk}/duplicate/", follow=True))
    assert "Copied as Alice&#x27;s wardens (copy)." in page and "go back to" not in page
    # A locked entry and a finished event take no list: no link to either.
    entry = event.join(player)
    entry.lock()
    finished = make_event(organizer, name="Autumn Open")
    finished.join(player)
    finished.finished_at = timezone.now()
    finished.save(update_fields=["finished_at"])
    page = _greeting(player_client.post(f"/forces/{alice_list.pk}/duplicate/", follow=True))
    assert "go back to" not in page
    # The organizer unlocks the entry: the way back is offered again.
    entry.unlock()
    page = _greeting(player_client.post(f"/forces/{alice_list.pk}/duplicate/", follow=True))
    assert _link(event) in page and "Autumn Open" not in page
    # Someone else's event is never offered.
    bobs = make_force(other_player, "Bob's list")
    page = _greeting(signed_in(other_player).post(f"/forces/{bobs.pk}/duplicate/", follow=True))
    assert "go back to" not in page


def test_a_player_who_left_is_not_led_back(event, player, player_client, alice_list):
    entry = event.join(player)
    commands.leave(entry)
    page = _greeting(player_client.post(f"/forces/{alice_list.pk}/duplicate/", follow=True))
    assert "go back to" not in page


def test_a_list_copied_in_a_browser_without_an_account_has_no_way_back(
    client, event, player, other_player
):
    event.join(player)
    shared = make_force(other_player, "Bob's shared wardens")
    shared.set_sharing("on")
    page = _greeting(client.post(f"/s/{shared.share_code}/copy/", follow=True))
    assert "copied to your lists." in page and "go back to" not in page


def test_the_editor_keeps_the_way_back_until_the_list_is_submitted_as_it_is(
    event, player, player_client, alice_list
):
    event.join(player)
    editor = alice_list.get_absolute_url()
    way_back = _panel(event)
    # Every time the list's editor is opened, not only in the message that greets a new list.
    assert way_back in _greeting(player_client.get(editor))
    assert way_back in _greeting(player_client.get(editor))
    # Submitted as it is: nothing to go back for.
    submit = player_client.post(f"/events/{event.pk}/me/submit/", {"force": alice_list.pk})
    assert submit.status_code == 302
    assert "way-back" not in _greeting(player_client.get(editor))
    # Changed since: the entry holds the list as it was, and the way back is offered again.
    changed = player_client.post(
        f"/forces/{alice_list.pk}/edit/",
        {
            "action": "settings",
            "name": "Alice's vanguard",
            "faction": alice_list.faction,
            "points_limit": 75,
            "version": alice_list.version,
        },
        headers={"HX-Request": "true"},
    )
    assert changed.status_code == 200
    assert "way-back" not in changed.content.decode()  # a change redraws the list alone
    assert way_back in _greeting(player_client.get(editor))
