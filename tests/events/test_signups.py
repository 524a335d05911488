"""A hall full of new players: sign-ups through an open event's join link count against
the event's places, not against the one Wi-Fi address the hall shares; other sign-ups keep
the per-address limit; a locked event says so before anyone makes an account; and eight
simultaneous sign-ups of one new name make one account and seven clear refusals."""

from __future__ import annotations

import html
import re
import threading

import pytest
from django.db import connections
from django.test import Client

from events.models import Entry
from tests.events.conftest import make_event, signed_in
from tests.threads import thread_database as thread_database  # a fixture

pytestmark = pytest.mark.django_db

HALL = "192.0.2.60"


def sign_up(name: str, address: str = HALL, next_page: str = ""):
    fields = {
        "username": name,
        "email": f"{name}@example.com",
        "password1": "a-long-pass-phrase",
        "password2": "a-long-pass-phrase",
    }
    if next_page:
        fields["next"] = next_page
    return Client().post("/accounts/signup/", fields, REMOTE_ADDR=address)


def test_sixty_sign_ups_through_one_join_link_from_one_address_succeed(
    organizer, settings, django_user_model
):
    event = make_event(organizer)
    link, me = event.get_join_url(), f"/events/{event.pk}/me/"
    for i in range(60):
        response = sign_up(f"hall{i}", next_page=link)
        assert response.status_code == 302 and response["Location"] == me, i
    assert django_user_model.objects.filter(username__startswith="hall").count() == 60
    # Plain sign-ups from the hall's address stay limited (the hall's count past it).
    refused = sign_up("plain")
    assert refused.status_code == 429
    assert "accounts were made from your network" in refused.content.decode()
    assert sign_up("elsewhere", address="198.51.100.9").status_code == 302


def test_a_join_link_counts_against_its_events_places(organizer, settings, monkeypatch):
    monkeypatch.setattr("events.signups.MAX_ENTRIES", 3)
    event = make_event(organizer)
    link = event.get_join_url()
    for i in range(3):
        assert sign_up(f"p{i}", next_page=link).status_code == 302
    # Each joined (the sign-up joins): had they all left again, the link still made its
    # places' worth of accounts this hour.
    assert Entry.objects.filter(event=event).count() == 3
    Entry.objects.filter(event=event).delete()
    refused = sign_up("p3", next_page=link)
    assert refused.status_code == 429
    assert "through the join link of Spring Open" in refused.content.decode()


def test_a_locked_events_link_is_no_way_around_the_address_limit(organizer, settings):
    settings.SIGNUPS_PER_ADDRESS = 2
    event = make_event(organizer)
    event.lock_all()
    link = event.get_join_url()
    assert sign_up("a1", next_page=link).status_code == 302
    assert sign_up("a2", next_page=link).status_code == 302
    assert sign_up("a3", next_page=link).status_code == 429


def test_a_late_player_is_told_the_event_is_locked_before_making_an_account(organizer):
    event = make_event(organizer)
    event.lock_all()
    page = Client().get(event.get_join_url()).content.decode()
    assert "locked" in page and "ask the organizer to add you" in page
    assert "signup/?next=" not in page


def test_the_organizer_adds_a_late_player(organizer_client, organizer, django_user_model):
    event = make_event(organizer)
    event.lock_all()
    late = django_user_model.objects.create_user("late", "l@example.com", "a-long-pass-phrase")
    response = organizer_client.post(
        f"/events/{event.pk}/players/add/", {"username": "late"}, follow=True
    )
    assert "late is added" in response.content.decode()
    entry = Entry.objects.get(event=event, player=late)
    assert not entry.locked  # they submit their list; it is checked as everyone's
    response = organizer_client.post(f"/events/{event.pk}/players/add/", {"username": "nobody"})
    assert Entry.objects.filter(event=event).count() == 1


# --- Signing up or logging in through a join link joins the event ----------------------------

SIGN_UP = {
    "username": "neo",
    "email": "neo@example.com",
    "password1": "a-long-pass-phrase",
    "password2": "a-long-pass-phrase",
}


def link_to(page: str, text: str) -> str:
    """The address of the link ``text`` on ``page``."""
    found = re.search(rf'<a[^>]*href="([^"]+)"[^>]*>{re.escape(text)}</a>', page)
    assert found, text
    return html.unescape(found.group(1))


def test_signing_up_through_a_join_link_joins_the_event(organizer, django_user_model):
    """No second tap of Join: the sign-up's own POST (CSRF-checked, its button saying so)
    joins, and the player lands on their entry."""
    event = make_event(organizer)
    browser = Client(enforce_csrf_checks=True)
    join_page = browser.get(event.get_join_url()).content.decode()
    signup_url = link_to(join_page, "No account? Sign up and join")
    form = browser.get(signup_url).content.decode()
    assert "Create my account and join Spring Open</button>" in form
    hidden = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]+)"', form))
    assert hidden["next"] == event.get_join_url()
    fields = SIGN_UP | hidden  # the form's CSRF token and its way back
    response = browser.post("/accounts/signup/", fields)
    assert response.status_code == 302 and response["Location"] == f"/events/{event.pk}/me/"
    neo = django_user_model.objects.get(username="neo")
    assert Entry.objects.filter(event=event, player=neo).count() == 1
    page = browser.get(response["Location"]).content.decode()
    assert "You have joined Spring Open. Now submit a list." in page


def test_logging_in_through_a_join_link_joins_the_event(organizer, player):
    event = make_event(organizer)
    browser = Client()
    join_page = browser.get(event.get_join_url()).content.decode()
    login_url = link_to(join_page, "Log in to join")
    form = browser.get(login_url).content.decode()
    assert "Log in and join Spring Open</button>" in form
    # The login page's way to sign up keeps the join link (it used to drop it).
    assert link_to(form, "Sign up and join Spring Open") == (
        f"/accounts/signup/?next={event.get_join_url()}"
    )
    fields = {"username": "alice", "password": "a-long-pass-phrase", "next": event.get_join_url()}
    response = browser.post("/accounts/login/", fields)
    assert response.status_code == 302 and response["Location"] == f"/events/{event.pk}/me/"
    assert Entry.objects.filter(event=event, player=player).count() == 1
    # In already (another phone, the link again): the entry, and still one.
    again = Client().post("/accounts/login/", fields)
    assert again["Location"] == f"/events/{event.pk}/me/"
    assert Entry.objects.filter(event=event, player=player).count() == 1


def test_its_organizer_logging_in_through_the_join_link_does_not_join(organizer):
    event = make_event(organizer)
    fields = {"username": "orga", "password": "a-long-pass-phrase", "next": event.get_join_url()}
    response = Client().post("/accounts/login/", fields)
    assert response["Location"] == f"/events/{event.pk}/"
    assert not Entry.objects.filter(event=event).exists()


def test_only_a_post_joins(organizer, player):
    """Opening the join page, signed in, shows the Join button; it does not join."""
    event = make_event(organizer)
    page = signed_in(player).get(event.get_join_url()).content.decode()
    assert "Join Spring Open as alice</button>" in page
    assert not Entry.objects.filter(event=event).exists()


def test_a_sign_in_through_a_closed_join_link_joins_nothing(organizer, player):
    """A locked event's link (or a full one's) takes no one: the sign-in goes back to its
    page, which says so, and the button promises nothing."""
    event = make_event(organizer)
    event.lock_all()
    browser = Client()
    form = browser.get(f"/accounts/login/?next={event.get_join_url()}").content.decode()
    assert "Log in</button>" in form
    fields = {"username": "alice", "password": "a-long-pass-phrase", "next": event.get_join_url()}
    response = browser.post("/accounts/login/", fields)
    assert response["Location"] == event.get_join_url()
    assert not Entry.objects.filter(event=event).exists()


# --- Eight simultaneous sign-ups of one new name (issue 31) -------------------------------


@pytest.mark.django_db(transaction=True)
def test_eight_simultaneous_sign_ups_of_one_name_make_one_account(thread_database):
    start = threading.Barrier(8, timeout=60)
    answers: list[tuple[int, str]] = []

    def run(i: int) -> None:
        connections["default"] = type(connections["default"])(thread_database, "default")
        try:
            start.wait()
            response = sign_up("samename", address=f"203.0.113.{i}")
            answers.append((response.status_code, response.content.decode()))
        finally:
            connections["default"].close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    codes = sorted(code for code, _ in answers)
    assert codes == [302] + [400] * 7, codes
    # Each refusal says why: the form's own check, or the race's words.
    assert all(
        "taken a moment ago" in page or "already exists" in page
        for code, page in answers
        if code == 400
    )


def test_many_events_do_not_multiply_sign_ups_from_one_address(organizer, monkeypatch):
    monkeypatch.setattr("events.signups.MAX_ENTRIES", 3)
    first, second = make_event(organizer), make_event(organizer, name="Second Open")
    for i in range(3):
        assert sign_up(f"f{i}", next_page=first.get_join_url()).status_code == 302
    # Another event's places, but this address has made one event's worth this hour.
    assert sign_up("s0", next_page=second.get_join_url()).status_code == 429
    assert sign_up("s1", address="198.51.100.4", next_page=second.get_join_url()).status_code == 302
