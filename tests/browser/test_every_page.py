"""Every page of the site before the outside judges, at 1366 x 900 and 390 x 844: axe-core
(no serious or critical violation, nor any other) and the Nu HTML checker (no error), and no
sideways scrolling on a phone. Pages showing a message (after signing up, creating, deleting,
joining, locking) are judged as they show it.

Pages judged elsewhere are not repeated here: the rules and odds pages (test_site), the list
editor's main states (test_forcebuilder), the Swiss round pages (test_swiss). The table pages
(config/templates/tablegen) are judged by test_tables and test_packs."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from playwright.sync_api import Browser, BrowserContext, Page, expect

from events.models import Event
from forcebuilder.models import Force
from jobs.models import Job
from tests.browser.conftest import PHONE, patient, screenshot, settled
from tests.browser.quality import ROOT, axe_violations, markup_errors
from tests.events.conftest import make_event, make_force

pytestmark = pytest.mark.django_db(transaction=True)

WIDE = {"width": 1366, "height": 900}
PASSWORD = "a-long-pass-phrase"


def context_of(browser: Browser, base: str, viewport: dict[str, int], user: Any = None):
    """A browser signed in as ``user`` (or nobody), that lets axe-core's script in."""
    context = browser.new_context(viewport=viewport, bypass_csp=True)
    if user is not None:
        client = Client()
        client.force_login(user)
        cookie = client.cookies["sessionid"].value
        context.add_cookies([{"name": "sessionid", "value": cookie, "url": base}])
    return context


def new_page(context: BrowserContext) -> Page:
    page = context.new_page()
    patient(page)
    return page


class Judge:
    """What the judges found, by page, at both widths: reported together at the end."""

    def __init__(self) -> None:
        self.found: dict[str, Any] = {}
        self.html: dict[str, str] = {}

    def look(self, page: Page, name: str, suffix: str, html: str | None = None) -> None:
        if html is not None:
            self.html[name] = html
        violations = axe_violations(page)
        if violations:
            self.found[f"{name} ({suffix})"] = violations
        if suffix == "phone":
            sideways = page.evaluate(
                "document.documentElement.scrollWidth - document.documentElement.clientWidth"
            )
            if sideways > 0:
                self.found[f"{name} (phone)"] = f"scrolls sideways by {sideways}px"


@pytest.fixture
def site(django_user_model, live_server) -> dict[str, Any]:
    """An organizer's event with three players (two lists submitted, locked, published, its
    first Swiss round paired), a player's lists, a finished printing job."""
    users = {
        name: django_user_model.objects.create_user(name, f"{name}@example.com", PASSWORD)
        for name in ("orga", "alice", "bob", "carol")
    }
    alice_list = make_force(users["alice"], "Alice's wardens")
    alice_list.set_sharing("on")
    lists = {"alice": alice_list, "bob": make_force(users["bob"], "Bob's wardens")}
    event = make_event(users["orga"], name="Spring Open", round_count=3)
    for name in ("alice", "bob"):
        event.join(users[name]).submit(lists[name], accept_problems=False)
    event.join(users["carol"])  # registered, no list yet
    event.lock_all()
    event.set_lists_published(True)
    organizer = Client()
    organizer.force_login(users["orga"])
    assert organizer.get(f"/events/{event.pk}/rosters.pdf").status_code == 200
    job = Job.objects.filter(owner=users["orga"]).latest("pk")
    open_event = make_event(users["orga"], name="Autumn Cup", round_count=2)
    # A list saved in a form the reader no longer takes: shown as damaged, with a repair.
    damaged = make_force(users["alice"], "Old list")
    Force.objects.filter(pk=damaged.pk).update(units=[{"type": "medium-infantry", "troopers": 3}])
    return {
        "damaged": damaged,
        "users": users,
        "event": event,
        "open_event": open_event,
        "list": alice_list,
        "job": job,
        "unit": alice_list.to_spec().units[0].id,
    }


def pair_and_publish_round_one(browser: Browser, base: str, orga: Any, event: Event) -> str:
    """The organizer pairs round 1 by the Swiss system and publishes it and the standings;
    the standings' public address."""
    context = context_of(browser, base, WIDE, orga)
    page = new_page(context)
    page.goto(f"{base}/events/{event.pk}/rounds/1/")
    page.get_by_role("button", name="Pair round 1 by the Swiss system").click()
    expect(page.locator(".messages")).to_contain_text("Round 1 is paired")
    page.get_by_role("button", name="Publish round 1 to the players").click()
    page.goto(f"{base}/events/{event.pk}/standings/")
    page.get_by_role("button", name="Publish the standings").click()
    expect(page.locator(".messages")).to_contain_text("The standings are published")
    context.close()
    event.refresh_from_db()
    return event.swiss.get_standings_link()


@pytest.mark.parametrize(("viewport", "suffix"), [(WIDE, "desktop"), (PHONE, "phone")])
def test_every_page_passes_axe_and_the_nu_html_checker(
    browser: Browser, live_server, site, viewport, suffix
):
    base = live_server.url
    users, event, force = site["users"], site["event"], site["list"]
    standings = pair_and_publish_round_one(browser, base, users["orga"], event)
    e = f"/events/{event.pk}"
    pages: dict[str, dict[str, str]] = {
        "anonymous": {
            "signup": "/accounts/signup/",
            "login": "/accounts/login/",
            "password-reset": "/accounts/password_reset/",
            "password-reset-sent": "/accounts/password_reset/done/",
            "password-reset-bad-link": "/accounts/reset/MQ/set-password-bad/",
            "password-reset-complete": "/accounts/reset/done/",
            "ruleset-version": "/rules/2026.11/",
            "not-found": "/no-such-page/",
            "join-signed-out": site["open_event"].get_join_url(),
            # A late player is told the event is locked before making an account.
            "join-locked": event.get_join_url(),
            "standings-public": standings,
            "shared-roster": f"/s/{force.share_code}/roster/",
            "your-data-signed-out": "/account/",
        },
        "alice": {
            "your-data": "/account/",
            "account-import": "/account/import/",
            "account-delete": "/account/delete/",
            "password-change": "/accounts/password_change/",
            "password-change-done": "/accounts/password_change/done/",
            "unit-page": f"/forces/{force.pk}/units/{site['unit']}/",
            "list-delete": f"/forces/{force.pk}/delete/",
            "editor-odds": f"/forces/{force.pk}/odds/",
            "my-events": "/events/",
            "my-entry": f"{e}/me/",
            "published-rounds": f"{e}/rounds/",
            "lists-revealed": f"{e}/lists/",
            "submitted-list": event.entries.get(player=users["alice"]).get_snapshot_url(),
            "join-signed-in": site["open_event"].get_join_url(),
            "my-jobs": "/jobs/",
            "my-lists-with-a-damaged-one": "/forces/",
            "damaged-list": f"/forces/{site['damaged'].pk}/",
        },
        "orga": {
            "new-event": "/events/new/",
            "dashboard-locked": f"{e}/",
            "dashboard-open": f"/events/{site['open_event'].pk}/",
            "event-settings": f"{e}/edit/",
            "event-delete": f"{e}/delete/",
            "pairings-import": f"{e}/pairings/import/",
            "standings": f"{e}/standings/",
            "job": f"/jobs/{site['job'].pk}/",
        },
    }
    # The markup is the same at both widths: the Nu HTML checker reads it once.
    markup = suffix == "desktop"
    judge = Judge()
    for persona, paths in pages.items():
        context = context_of(browser, base, viewport, users.get(persona))
        page = new_page(context)
        for name, path in paths.items():
            page.goto(base + path)
            if name == "damaged-list":
                expect(page.get_by_role("heading", level=1)).to_contain_text("cannot be shown")
            judge.look(page, name, suffix, page.request.get(base + path).text() if markup else None)
        context.close()
    for name, page, html in pages_showing_a_message(browser, base, viewport, suffix, site):
        judge.look(page, name, suffix, html if markup else None)
    assert judge.found == {}, judge.found
    if markup:
        errors = markup_errors(judge.html, ROOT / "test-artifacts" / "markup" / "every-page")
        assert errors == {}, errors


def pages_showing_a_message(browser: Browser, base: str, viewport, suffix: str, site):
    """(name, page, its HTML) for pages as they show the message of what was just done."""
    users = site["users"]

    def shown(page: Page, text: str) -> str:
        expect(page.locator(".messages")).to_contain_text(text)
        # The message is near the top of a page a click has just opened: the rest of it is
        # read once the page has loaded, not as far as the browser has parsed it.
        page.wait_for_load_state()
        return page.content()  # before axe adds its script

    # Signing up.
    page = new_page(context_of(browser, base, viewport))
    page.goto(base + "/accounts/signup/")
    page.get_by_label("Username").fill(f"newcomer-{suffix}")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Create my account").click()
    yield "message-signed-up", page, shown(page, "Welcome")
    page.context.close()
    # A new list, then deleting it.
    page = new_page(context_of(browser, base, viewport, users["alice"]))
    page.goto(base + "/forces/new/")
    page.get_by_label("Name").fill(f"Scratch {suffix}")
    page.get_by_role("button", name="Create and start building").click()
    yield "message-list-created", page, shown(page, "created")
    page = new_page(page.context)
    page.goto(base + "/forces/")
    page.get_by_role("link", name=f"Delete Scratch {suffix}").click()
    page.get_by_role("button", name="Delete the list").click()
    yield "message-list-deleted", page, shown(page, "deleted")
    # Joining an event.
    cup = make_event(users["orga"], name=f"Cup {suffix}", round_count=2)
    page = new_page(page.context)
    page.goto(base + cup.get_join_url())
    page.get_by_role("button", name=f"Join Cup {suffix}").click()
    yield "message-joined", page, shown(page, "You have joined")
    page.context.close()
    # An organizer creates an event, then locks it (an htmx answer with its own message).
    page = new_page(context_of(browser, base, viewport, users["orga"]))
    page.goto(base + "/events/new/")
    page.get_by_label("Name").fill(f"Club night {suffix}")
    page.get_by_label("Date").fill("2026-12-05")
    page.get_by_label("Points limit").fill("75")
    page.get_by_label("Rounds").fill("2")
    page.get_by_role("button", name="Create the event").click()
    yield "message-event-created", page, shown(page, "Hand out the join link")
    page = new_page(page.context)
    page.goto(base + cup.get_absolute_url())
    page.get_by_role("button", name="Lock every list").click()
    settled(page)
    text = shown(page, "Locked. 0 lists frozen now; 1 player has submitted none.")
    expect(page.locator("#print")).to_contain_text("No submitted list is locked")
    screenshot(page, f"dashboard-locked-message-{suffix}")
    yield "message-event-locked", page, text
    page.context.close()
