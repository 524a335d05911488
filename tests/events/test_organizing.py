"""The organizer creates an event, changes its settings, hands out the join link and reads
the dashboard: who submitted, legal or not, filters and reminders."""

from __future__ import annotations

import pytest

from events.models import Event, Round
from tests.events.conftest import make_event, make_force

pytestmark = pytest.mark.django_db

GOOD = {
    "name": "  Winter   Cup ",
    "date": "2026-12-12",
    "points_limit": 60,
    "ruleset_version": "2026.11",
    "round_count": 3,
    "notes": "Doors open at 9.\r\n\r\nBring   your  own dice.",
}


def test_an_organizer_creates_an_event_with_its_rounds(organizer_client, organizer):
    response = organizer_client.post("/events/new/", GOOD)
    event = Event.objects.get()
    assert response["Location"] == f"/events/{event.pk}/"
    assert event.owner == organizer and event.name == "Winter Cup"
    assert event.notes == "Doors open at 9.\n\nBring your own dice."
    assert list(event.rounds.values_list("number", flat=True)) == [1, 2, 3]
    assert len(event.join_code) >= 22


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("name", "", "required"),
        ("name", "a\x01b", "control characters"),
        ("name", "a\x00b", "Null characters"),
        ("name", "x" * 121, "at most 120"),
        ("points_limit", 0, "greater than or equal to 1"),
        ("points_limit", 10_001, "less than or equal to 10000"),
        ("round_count", 0, "greater than or equal to 1"),
        ("round_count", 11, "less than or equal to 10"),
        ("ruleset_version", "1999.1", "not one of the available choices"),
        ("date", "1999-12-31", "from 2000 to 2100"),
        ("notes", "line\x07bell", "line 1"),
        ("notes", "x" * 4001, "at most 4000"),
    ],
)
def test_bad_settings_are_refused_with_a_clear_message_and_nothing_is_saved(
    organizer_client, field, value, words
):
    response = organizer_client.post("/events/new/", GOOD | {field: value})
    assert response.status_code == 400
    assert words in response.content.decode().replace("4,000", "4000")
    assert not Event.objects.exists()


def test_a_browser_without_an_account_cannot_create_events(client):
    response = client.post("/events/new/", GOOD)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert not Event.objects.exists()


def test_an_account_organizes_at_most_its_quota_of_events(organizer_client, organizer, monkeypatch):
    monkeypatch.setattr(Event, "quota", Event.quota.__class__("events", 0, 1))
    make_event(organizer)
    response = organizer_client.post("/events/new/", GOOD)
    assert response.status_code == 403 and "at most 1" in response.content.decode()
    assert Event.objects.count() == 1


def test_settings_change_and_rounds_follow(organizer_client, event):
    response = organizer_client.post(
        f"/events/{event.pk}/edit/", GOOD | {"round_count": 5, "version": event.version}
    )
    assert response.status_code == 302
    event.refresh_from_db()
    assert event.name == "Winter Cup" and event.points_limit == 60
    assert event.rounds.count() == 5


def test_a_second_tab_with_old_settings_is_refused(organizer_client, event):
    old = event.version
    organizer_client.post(f"/events/{event.pk}/edit/", GOOD | {"version": old})
    response = organizer_client.post(
        f"/events/{event.pk}/edit/", GOOD | {"name": "Other", "version": old}
    )
    assert response.status_code == 400 and "another tab" in response.content.decode()
    event.refresh_from_db()
    assert event.name == "Winter Cup"


def test_the_rules_cannot_change_under_locked_lists(organizer_client, submitted, event):
    event.lock_all()
    response = organizer_client.post(
        f"/events/{event.pk}/edit/", GOOD | {"points_limit": 50, "version": event.version}
    )
    assert response.status_code == 400 and "unlock every list" in response.content.decode()
    event.refresh_from_db()
    assert event.points_limit == 75


def test_a_new_points_limit_checks_every_open_list_again(organizer_client, submitted, event):
    organizer_client.post(
        f"/events/{event.pk}/edit/", GOOD | {"points_limit": 20, "version": event.version}
    )
    page = organizer_client.get(f"/events/{event.pk}/").content.decode()
    alice = submitted[0]
    alice.refresh_from_db()
    assert alice.legal is False and "the limit is 20" in page


def test_a_round_with_pairings_cannot_be_dropped(organizer_client, submitted, event):
    alice, bob = submitted
    round_3 = event.rounds.get(number=3)
    round_3.pairings.create(table=1, player_a=alice, player_b=bob)
    response = organizer_client.post(
        f"/events/{event.pk}/edit/", GOOD | {"round_count": 2, "version": event.version}
    )
    assert (
        response.status_code == 400
        and "Round 3 has tables or pairings" in response.content.decode()
    )
    assert Round.objects.filter(event=event).count() == 3


def test_the_dashboard_shows_every_player_and_their_state(
    organizer_client, joined, alice_list, event
):
    joined[0].submit(alice_list, accept_problems=False)
    page = organizer_client.get(f"/events/{event.pk}/").content.decode()
    assert "alice" in page and "bob" in page
    assert "Alice&#x27;s wardens" in page and "Solar Concord" in page
    assert "28/75" in page and "Legal" in page
    assert "1 player has not submitted a list: bob" in page
    assert "The lists are not locked yet" in page
    assert "Round 1 has no tables yet" in page and "Round 1 has no pairings yet" in page
    assert event.get_join_url() in page and "<svg" in page  # the join link and its QR code


@pytest.mark.parametrize(
    ("show", "present", "absent"),
    [("missing", "bob", "alice"), ("open", "bob", None), ("all", "alice", None)],
)
def test_the_dashboard_filters_players(
    organizer_client, joined, alice_list, event, show, present, absent
):
    joined[0].submit(alice_list, accept_problems=False)
    response = organizer_client.get(
        f"/events/{event.pk}/?show={show}", headers={"HX-Request": "true"}
    )
    text = response.content.decode()
    assert text.lstrip().startswith('<div id="event-state"')  # only the region, for htmx
    assert f'<th scope="row">{present}</th>' in text
    if absent:
        assert f'<th scope="row">{absent}</th>' not in text


def test_an_unknown_filter_shows_everyone(organizer_client, joined, event):
    assert organizer_client.get(f"/events/{event.pk}/?show=%00nonsense").status_code == 200


def test_the_join_qr_code_downloads_as_svg(organizer_client, event):
    response = organizer_client.get(f"/events/{event.pk}/join-qr.svg")
    assert response["Content-Type"] == "image/svg+xml"
    assert "attachment" in response["Content-Disposition"] and b"<svg" in response.content


def test_deleting_an_event_asks_first_and_leaves_players_lists_alone(
    organizer_client, submitted, alice_list, event
):
    page = organizer_client.get(f"/events/{event.pk}/delete/").content.decode()
    assert "2 player entries" in page
    organizer_client.post(f"/events/{event.pk}/delete/")
    assert not Event.objects.exists()
    alice_list.refresh_from_db()  # still there


def test_my_events_lists_what_i_organize_and_what_i_play(
    organizer_client, player_client, joined, event, player
):
    assert "Spring Open" in organizer_client.get("/events/").content.decode()
    mine = player_client.get("/events/").content.decode()
    assert "Spring Open" in mine and "no list submitted yet" in mine
    make_force(player)
