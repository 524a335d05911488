"""An organizer and two players through an event, in a real browser: create, join (one
player logs in, one signs up, without JavaScript), submit (one list legal, one not),
filter, lock, pairings, print, publish. Screenshots at 1280 px and 390 px."""

from __future__ import annotations

import copy
import io
import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from pypdf import PdfReader

from forcebuilder.models import Force
from onefinity.rules import read_force_document
from tablegen.models import Pack
from tests.browser.conftest import DESKTOP, PHONE, patient, screenshot, settled
from tests.events.conftest import table_documents
from tests.forcebuilder.conftest import LEGAL_DOCUMENT

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "a-long-pass-phrase"


def log_in(page: Page, name: str) -> None:
    page.get_by_label("Username").fill(name)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()


def fits_the_phone(page: Page) -> None:
    """No sideways scrolling, measured once the page has loaded: a page a click has just
    opened may still be waiting for its style sheets."""
    page.wait_for_load_state()
    overflow = page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0, f"{page.url} scrolls sideways by {overflow}px"


def pdf_pages(page: Page, link_name: str) -> list[str]:
    with page.expect_download() as download:
        page.get_by_role("link", name=link_name).click()
    data = Path(download.value.path()).read_bytes()
    return [p.extract_text() for p in PdfReader(io.BytesIO(data)).pages]


def test_an_organizer_and_two_players_run_an_event(
    browser: Browser, live_server, django_user_model
):
    base = live_server.url
    organizer = django_user_model.objects.create_user("orga", "o@example.com", PASSWORD)
    alice = django_user_model.objects.create_user("alice", "a@example.com", PASSWORD)
    Pack.objects.create(
        name="Club pack", count=2, params={}, tables=table_documents(2), owner=organizer
    )
    alice_list = Force.create_from_spec(
        read_force_document(LEGAL_DOCUMENT | {"name": "Alice's wardens"}),
        "2026.11",
        75,
        owner=alice,
    )

    # --- The organizer creates the event ------------------------------------------------
    org_context = browser.new_context(viewport=DESKTOP)
    org = org_context.new_page()
    patient(org)
    org.goto(base + "/events/")
    log_in(org, "orga")
    expect(org.get_by_role("heading", level=1)).to_have_text("Events")
    org.get_by_role("link", name="New event").click()
    org.get_by_label("Name").fill("Club Night")
    org.get_by_label("Date").fill("2026-12-05")
    org.get_by_label("Points limit").fill("75")
    org.get_by_label("Rounds").fill("2")
    org.get_by_label("Notes").fill("Doors open at 7.\nBring your own dice.")
    org.get_by_role("button", name="Create the event").click()
    expect(org.get_by_role("heading", level=1)).to_have_text("Club Night")
    join_url = org.get_by_label("Hand this link").input_value()
    assert "/events/join/" in join_url
    screenshot(org, "event-dashboard-empty")

    # --- Alice joins on her phone: logging in through the join link joins her; she submits -
    alice_context = browser.new_context(viewport=PHONE)
    phone = alice_context.new_page()
    patient(phone)
    phone.goto(join_url)
    expect(phone.get_by_role("heading", level=1)).to_have_text("Join Club Night")
    expect(phone.locator("main")).to_contain_text("Bring your own dice.")
    fits_the_phone(phone)
    screenshot(phone, "event-join-phone")
    phone.get_by_role("link", name="Log in to join").click()
    expect(phone.get_by_role("button", name="Log in and join Club Night")).to_be_visible()
    log_in(phone, "alice")
    expect(phone.get_by_role("heading", level=1)).to_have_text("Club Night")
    expect(phone.locator(".messages")).to_contain_text("You have joined Club Night")
    phone.get_by_label("Alice's wardens").check()
    phone.get_by_role("button", name="Submit the chosen list").click()
    expect(phone.locator(".messages")).to_contain_text("is submitted to Club Night")
    expect(phone.locator("#status")).to_contain_text("Legal")
    fits_the_phone(phone)
    screenshot(phone, "event-player-submitted-phone")

    # --- Bob signs up from the join link (which joins him), without JavaScript, and submits
    # an illegal list ----------------------------------------------------------------------
    bob_context = browser.new_context(viewport=DESKTOP, java_script_enabled=False)
    bob = bob_context.new_page()
    patient(bob)
    bob.goto(join_url)
    bob.get_by_role("link", name="No account? Sign up and join").click()
    bob.get_by_label("Username").fill("bob")
    bob.get_by_label("Email address").fill("b@example.com")
    bob.get_by_label("Password", exact=True).fill("bobs-long-pass-phrase")
    bob.get_by_label("Password confirmation").fill("bobs-long-pass-phrase")
    bob.get_by_role("button", name="Create my account and join Club Night").click()
    expect(bob.locator("#status")).to_contain_text("No list submitted yet")
    two_tags = copy.deepcopy(LEGAL_DOCUMENT) | {"name": "Two TAGs"}
    two_tags["units"].append({"type": "tag", "troopers": [{"weapons": ["spitfire"]}]})
    Force.create_from_spec(
        read_force_document(two_tags),
        "2026.11",
        75,
        owner=django_user_model.objects.get(username="bob"),
    )
    bob.reload()
    bob.get_by_label("Two TAGs").check()
    bob.get_by_role("button", name="Submit the chosen list").click()
    expect(bob.locator(".form-errors")).to_contain_text("is not legal for Club Night")
    screenshot(bob, "event-player-illegal-warning")
    bob.get_by_role("button", name="Submit Two TAGs anyway").click()
    expect(bob.locator("#status")).to_contain_text("Not legal")

    # --- The organizer filters, locks, and sees a change made after the lock -------------
    org.reload()
    players = org.locator("#players")
    expect(players).to_contain_text("alice")
    expect(players).to_contain_text("submitted with a warning")
    org.get_by_role("link", name="Not legal (1)").click()
    settled(org)
    expect(players.locator("tbody tr")).to_have_count(1)
    expect(players).to_contain_text("bob")
    # htmx pushes the address; Playwright hears of it apart from the page's content.
    expect(org).to_have_url(re.compile("show=illegal"))
    org.get_by_role("link", name="Everyone (2)").click()
    settled(org)
    org.get_by_role("button", name="Lock every list").click()
    settled(org)
    expect(players).to_contain_text("frozen")
    document = alice_list.document()
    document["name"] = "Alice's wardens, changed"
    alice_list.record(read_force_document(document))
    org.get_by_role("link", name="Everyone (2)").click()
    settled(org)
    expect(players).to_contain_text("changed since lock")
    screenshot(org, "event-dashboard-locked")

    # Alice can no longer replace her list.
    phone.reload()
    expect(phone.locator("#status")).to_contain_text("Locked")
    expect(phone.get_by_role("button", name="Submit the chosen list instead")).to_have_count(0)

    # --- Round 1: the pack, the pairing, the sheets, published ----------------------------
    org.get_by_role("link", name="Round 1", exact=True).click()
    org.get_by_role("button", name="Use this pack for round 1").click()
    expect(org.locator(".messages")).to_contain_text("Round 1 has 2 tables")
    org.get_by_label("Player A").first.fill("alice")
    org.get_by_label("Player B").first.fill("bob")
    org.get_by_role("button", name="Save the pairings of round 1").click()
    expect(org.locator(".messages")).to_contain_text("1 pairing saved")
    sheets = pdf_pages(org, "A sheet per table (PDF)")
    assert len(sheets) == 1 and "alice" in sheets[0] and "bob" in sheets[0]
    org.get_by_role("button", name="Publish round 1 to the players").click()
    screenshot(org, "event-round")

    org.get_by_role("link", name="Back to Club Night").click()
    everything = pdf_pages(org, "Everything: every locked roster, then every table sheet (PDF)")
    assert len(everything) == 3  # two rosters, one table sheet
    assert "Alice's wardens" in everything[0] and "changed" not in everything[0]
    org.get_by_role("button", name="Publish the locked lists to the players").click()

    # --- Alice sees her game and the lists -----------------------------------------------
    phone.reload()
    expect(phone.locator("#rounds")).to_contain_text("against bob")
    phone.get_by_role("link", name="Read every player's list").click()
    expect(phone.locator("main")).to_contain_text("Two TAGs")
    fits_the_phone(phone)
    screenshot(phone, "event-reveal-phone")
    phone.get_by_role("link", name="Two TAGs").click()
    expect(phone.get_by_role("heading", level=1)).to_have_text("bob's list for Club Night")
    fits_the_phone(phone)

    # --- The organizer's pages on a phone ---------------------------------------------------
    org_phone = browser.new_context(viewport=PHONE, storage_state=org_context.storage_state())
    small = org_phone.new_page()
    event_path = org.url.split("#")[0]
    for path, name in (
        (event_path, "event-dashboard-phone"),
        (event_path + "rounds/1/", "event-round-phone"),
    ):
        small.goto(path)
        fits_the_phone(small)
        screenshot(small, name)
    for context in (org_context, alice_context, bob_context, org_phone):
        context.close()


def test_the_dashboard_works_from_the_keyboard(page: Page, live_server, django_user_model):
    django_user_model.objects.create_user("orga", "o@example.com", PASSWORD)
    page.goto(live_server.url + "/events/new/")
    log_in(page, "orga")
    page.get_by_label("Name").fill("Keyboard Cup")
    page.get_by_label("Name").press("Enter")  # submits the form
    expect(page.get_by_role("heading", level=1)).to_have_text("Keyboard Cup")
    lock = page.get_by_role("button", name="Lock every list")
    lock.focus()
    # The outline is the site's style sheet's: read once the page Enter opened has loaded.
    page.wait_for_load_state()
    assert page.evaluate("getComputedStyle(document.activeElement).outlineStyle") == "solid"
    page.keyboard.press("Enter")
    settled(page)
    expect(page.get_by_role("button", name="Unlock every list")).to_be_visible()
