"""The ownership walk for events: every events URL, walked by the organizer, a player,
another player, a stranger (signed in, not registered) and an anonymous visitor; each gets
only what it should. Before the lists are revealed a player reads only their own."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from events.models import Entry, Event, Pairing
from events.reading import swiss_of
from tests.events.conftest import signed_in

pytestmark = pytest.mark.django_db

PERSONAS = ("organizer", "player", "other player", "stranger", "anonymous")

# What each persona's GET gets, route by route (405: a POST-only route, refused before any
# lookup, so it reveals nothing). "login" is a redirect to the login page.
ORGANIZER_ONLY = {
    "organizer": {200},
    "player": {404},
    "other player": {404},
    "stranger": {404},
    "anonymous": {"login"},
}
ORGANIZER_ONLY_POST = {key: {405} for key in PERSONAS}
EXPECTED: dict[str, dict[str, set[object]]] = {
    "mine": {p: {200} for p in PERSONAS[:4]} | {"anonymous": {"login"}},
    "new": {p: {200} for p in PERSONAS[:4]} | {"anonymous": {"login"}},
    # Registered players are sent on to their entry; others see the event to join it.
    "join": {
        "organizer": {200},
        "player": {302},
        "other player": {302},
        "stranger": {200},
        "anonymous": {200},
    },
    "dashboard": ORGANIZER_ONLY,
    "edit": ORGANIZER_ONLY,
    "delete": ORGANIZER_ONLY,
    "join-qr": ORGANIZER_ONLY,
    "rosters-pdf": ORGANIZER_ONLY,
    # Nothing is locked in this world: the organizer is sent back to the print section.
    "event-pdf": ORGANIZER_ONLY | {"organizer": {302}},
    "lists-csv": ORGANIZER_ONLY,
    "lists-zip": ORGANIZER_ONLY,
    "pairings-import": ORGANIZER_ONLY,
    "round": ORGANIZER_ONLY,
    "round-sheets-pdf": ORGANIZER_ONLY,
    "join-link": ORGANIZER_ONLY_POST,
    "lock": ORGANIZER_ONLY_POST,
    "publish": ORGANIZER_ONLY_POST,
    "player-lock": ORGANIZER_ONLY_POST,
    "player-remove": ORGANIZER_ONLY_POST,
    "player-add": ORGANIZER_ONLY_POST,
    "round-tables": ORGANIZER_ONLY_POST,
    "round-pairings": ORGANIZER_ONLY_POST,
    "round-publish": ORGANIZER_ONLY_POST,
    # The Swiss system and the standings: the organizer's; a player's once published
    # (nothing is published in this world); the public link only once published, to anyone.
    "swiss": ORGANIZER_ONLY,
    "round-pair": ORGANIZER_ONLY_POST,
    "round-result": ORGANIZER_ONLY_POST,
    "round-result-clear": ORGANIZER_ONLY_POST,
    "round-swap": ORGANIZER_ONLY_POST,
    "player-drop": ORGANIZER_ONLY_POST,
    "player-check-in": ORGANIZER_ONLY_POST,
    "round-close": ORGANIZER_ONLY_POST,
    "round-clock": ORGANIZER_ONLY_POST,
    "round-check-in": ORGANIZER_ONLY_POST,
    "standings-publish": ORGANIZER_ONLY_POST,
    "round-report": {key: {405} for key in PERSONAS},
    "pairings-json": ORGANIZER_ONLY,
    "standings": ORGANIZER_ONLY,
    "standings-json": ORGANIZER_ONLY,
    "standings-csv": ORGANIZER_ONLY,
    "standings-pdf": ORGANIZER_ONLY,
    "standings-public": {key: {404} for key in PERSONAS},
    # Alice's history: the organizer and alice herself until the standings are published.
    "player-history": ORGANIZER_ONLY | {"player": {200}},
    # The players' own pages.
    "me": {
        "organizer": {404},
        "player": {200},
        "other player": {200},
        "stranger": {404},
        "anonymous": {"login"},
    },
    "submit": {key: {405} for key in PERSONAS},
    "new-list": {key: {405} for key in PERSONAS},
    "withdraw": {key: {405} for key in PERSONAS},
    "leave": {key: {405} for key in PERSONAS},
    # Reading lists: before the reveal, the organizer, and a player their own list.
    "rounds": {
        "organizer": {200},
        "player": {200},
        "other player": {200},
        "stranger": {404},
        "anonymous": {"login"},
    },
    "reveal": {
        "organizer": {200},
        "player": {404},
        "other player": {404},
        "stranger": {404},
        "anonymous": {"login"},
    },
    "snapshot": {
        "organizer": {200},
        "player": {200},
        "other player": {404},
        "stranger": {404},
        "anonymous": {"login"},
    },
}


PLAYER_ROUTES = {
    "round-report",
    "player-drop",  # alice's own entry: tests/events/test_day.py
    "player-check-in",
    "player-history",
    "mine",
    "new",
    "join",
    "me",
    "submit",
    "new-list",
    "withdraw",
    "leave",
    "rounds",
    "reveal",
    "snapshot",
}


def event_routes() -> list[URLPattern]:
    found = []
    for entry in get_resolver().url_patterns:
        if isinstance(entry, URLResolver) and entry.namespace == "events":
            found += [p for p in entry.url_patterns if isinstance(p, URLPattern)]
    return found


@pytest.fixture
def world(organizer, player, other_player, stranger, submitted, event):
    alice, bob = submitted
    Pairing.objects.create(round=event.rounds.get(number=1), table=1, player_a=alice, player_b=bob)
    clients = {
        "organizer": signed_in(organizer),
        "player": signed_in(player),
        "other player": signed_in(other_player),
        "stranger": signed_in(stranger),
        "anonymous": Client(),
    }
    return {"clients": clients, "event": event, "alice": alice, "bob": bob}


def url_of(pattern: URLPattern, world: dict) -> str:
    route = str(pattern.pattern)
    values = {
        "<int:event_id>": str(world["event"].pk),
        "<int:entry_id>": str(world["alice"].pk),
        "<int:round_number>": "1",
        "<code:join_code>": world["event"].join_code,
        "<code:list_code>": world["alice"].code,
        "<code:standings_code>": swiss_of(world["event"]).standings_code,
    }
    for placeholder, value in values.items():
        route = route.replace(placeholder, value)
    assert "<" not in route, route
    return "/" + route


def outcome(response) -> object:
    if response.status_code == 302 and response["Location"].startswith("/accounts/login/"):
        return "login"
    return response.status_code


def test_every_events_route_is_in_the_walk():
    assert {p.name for p in event_routes()} == set(EXPECTED)


def test_every_events_url_answers_each_persona_as_it_should(world):
    checked = 0
    for pattern in event_routes():
        url = url_of(pattern, world)
        for persona in PERSONAS:
            response = world["clients"][persona].get(url)
            assert outcome(response) in EXPECTED[pattern.name][persona], (
                persona,
                url,
                response.status_code,
            )
            checked += 1
    assert checked == len(EXPECTED) * len(PERSONAS)


def test_nobody_but_the_organizer_can_change_the_event(world):
    event, alice = world["event"], world["alice"]
    for pattern in event_routes():
        if EXPECTED[pattern.name]["player"] == {200} or pattern.name in PLAYER_ROUTES:
            continue
        url = url_of(pattern, world)
        for persona in ("player", "other player", "stranger"):
            response = world["clients"][persona].post(
                url,
                {
                    "change": "lock",
                    "source": "none",
                    "version": 0,
                    "rows": 0,
                    "pairings": "1,1,alice,bob",
                },
                headers={"HX-Request": "true"},
            )
            assert response.status_code in (404, 405), (persona, url, response.status_code)
        response = world["clients"]["anonymous"].post(url, {"change": "lock"})
        assert outcome(response) in ("login", 405), url
    event.refresh_from_db()
    alice.refresh_from_db()
    assert not event.locked and not alice.locked and Entry.objects.count() == 2
    assert Event.objects.filter(pk=event.pk).exists() and Pairing.objects.count() == 1


def test_a_player_cannot_act_on_another_players_entry(world):
    """The players' POSTs act on the sender's own entry only: a stranger has none."""
    for action in ("submit", "new-list", "withdraw", "leave"):
        response = world["clients"]["stranger"].post(f"/events/{world['event'].pk}/me/{action}/")
        assert response.status_code == 404
    assert Entry.objects.count() == 2


def test_after_the_reveal_every_player_reads_every_locked_list(world):
    event, alice = world["event"], world["alice"]
    event.lock_all()
    event.set_lists_published(True)
    for persona in ("player", "other player"):
        client = world["clients"][persona]
        assert client.get(f"/events/{event.pk}/lists/").status_code == 200
        assert client.get(alice.get_snapshot_url()).status_code == 200
    assert world["clients"]["stranger"].get(alice.get_snapshot_url()).status_code == 404
    assert world["clients"]["stranger"].get(f"/events/{event.pk}/lists/").status_code == 404


def test_an_unlocked_entry_stays_private_during_the_reveal(world):
    event, alice = world["event"], world["alice"]
    event.lock_all()
    event.set_lists_published(True)
    alice.unlock()
    assert world["clients"]["other player"].get(alice.get_snapshot_url()).status_code == 404
    reveal = world["clients"]["other player"].get(f"/events/{event.pk}/lists/").content.decode()
    assert "Alice&#x27;s wardens" not in reveal and "Bob&#x27;s wardens" in reveal


def test_publishing_before_the_lock_is_refused(world):
    event = world["event"]
    response = world["clients"]["organizer"].post(
        f"/events/{event.pk}/publish/", {"change": "publish"}
    )
    assert response.status_code == 302
    event.refresh_from_db()
    assert not event.lists_published


def test_another_organizers_event_is_not_found(world, django_user_model):
    rival = django_user_model.objects.create_user("rival", "r@example.com", "a-long-pass-phrase")
    client = signed_in(rival)
    event = world["event"]
    assert client.get(f"/events/{event.pk}/").status_code == 404
    assert client.post(f"/events/{event.pk}/delete/").status_code == 404
    assert Event.objects.filter(pk=event.pk).exists()
