"""Moments the server keeps in UTC are read in the reader's own time on their phone, with
the UTC kept in the tooltip (onefinity_tags.utc_time and the site's script)."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from playwright.sync_api import expect

from events.models import Entry
from tests.browser.conftest import PHONE, patient
from tests.events.conftest import make_event, make_force

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "a-long-pass-phrase"
SUBMITTED = datetime.datetime(2026, 11, 27, 17, 58, tzinfo=datetime.UTC)


def test_a_players_submission_time_reads_in_the_phones_own_time(
    browser, live_server, django_user_model
):
    organizer = django_user_model.objects.create_user("orga", "o@example.com", PASSWORD)
    alice = django_user_model.objects.create_user("alice", "a@example.com", PASSWORD)
    event = make_event(organizer)
    entry = event.join(alice)
    entry.submit(make_force(alice, "Alice's wardens"), accept_problems=False)
    Entry.objects.filter(pk=entry.pk).update(submitted_at=SUBMITTED)
    client = Client()
    client.force_login(alice)
    html = client.get(f"/events/{event.pk}/me/").content.decode()
    # Without the script: the moment in UTC, said so.
    assert '<time datetime="2026-11-27T17:58:00Z" data-local>27 Nov 2026 17:58 UTC</time>' in html

    context = browser.new_context(
        viewport=PHONE, has_touch=True, is_mobile=True, locale="en-GB", timezone_id="Europe/Berlin"
    )
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    page = patient(context.new_page())
    page.goto(f"{live_server.url}/events/{event.pk}/me/")
    shown = page.locator('time[datetime="2026-11-27T17:58:00Z"]')
    # Berlin is an hour ahead of UTC in November.
    expect(shown).to_have_text("27 Nov 2026, 18:58")
    expect(shown).to_have_attribute("title", "27 Nov 2026 17:58 UTC")
    context.close()
