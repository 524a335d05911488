"""A refusal drawn at the address its form was sent to: the address bar says the page's own
address, so a reload asks for the page, not to send the form again."""

from __future__ import annotations

import pytest
from django.test import Client
from playwright.sync_api import expect

from events.models import Pairing
from tests.browser.conftest import PHONE, patient
from tests.browser.quality import axe_violations
from tests.events.conftest import make_event, make_force, table_documents

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "a-long-pass-phrase"


def test_a_stale_report_is_refused_at_the_pages_own_address(
    browser, live_server, django_user_model
):
    organizer = django_user_model.objects.create_user("orga", "o@example.com", PASSWORD)
    alice = django_user_model.objects.create_user("alice", "a@example.com", PASSWORD)
    bob = django_user_model.objects.create_user("bob", "b@example.com", PASSWORD)
    event = make_event(organizer)
    entry_a, entry_b = event.join(alice), event.join(bob)
    entry_a.submit(make_force(alice, "Alice's wardens"), accept_problems=False)
    entry_b.submit(make_force(bob, "Bob's wardens"), accept_problems=False)
    event.lock_all()
    round_ = event.rounds.get(number=1)
    round_.set_tables(round_.version, table_documents(1), "pack")
    Pairing.objects.create(round=round_, table=1, player_a=entry_a, player_b=entry_b)
    round_.published = True
    round_.save()

    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, bypass_csp=True)
    client = Client()
    client.force_login(alice)
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    page = patient(context.new_page())
    me = f"{live_server.url}/events/{event.pk}/me/"
    page.goto(me)
    page.get_by_label("Your VP").fill("9")
    page.get_by_label("bob's VP").fill("4")
    # Meanwhile Bob reports: Alice's page is a step behind, and her report is refused.
    other = Client()
    other.force_login(bob)
    sent = other.post(
        f"/events/{event.pk}/rounds/1/report/", {"my_vp": 5, "their_vp": 5, "version": 0}
    )
    assert sent.status_code == 302
    page.get_by_role("button", name="Send the result of round 1").click()
    expect(page.locator("#round-1 [role=alert], .form-errors")).to_contain_text("changed")
    # Drawn by the POST, yet at the page's own address (set by site.js once it runs).
    expect(page).to_have_url(me)
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    page.reload()
    expect(page.get_by_role("heading", level=1)).to_have_text(event.name)
    assert posts == [] and page.url == me
    assert axe_violations(page) == []
    context.close()
