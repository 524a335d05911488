"""The force builder in a real browser, driven with the mouse as a player would."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from pypdf import PdfReader

from tests.browser.conftest import DESKTOP, PHONE, screenshot, settled

pytestmark = pytest.mark.django_db(transaction=True)


def build_legal_force(page: Page, base_url: str) -> None:
    page.goto(base_url + "/forces/new/")
    page.get_by_label("Name").fill("Browser Wardens")
    page.get_by_label("Faction").select_option("solar-concord")
    page.get_by_role("button", name="Create and start building").click()
    expect(page.get_by_text("No units yet")).to_be_visible()
    page.get_by_label("Add a unit").select_option("medium-infantry")
    page.get_by_role("button", name="Add unit", exact=True).click()
    settled(page)
    expect(page.locator("#unit-0")).to_be_visible()
    settled(page)
    # No specialist yet: a warning, not an error.
    expect(page.locator(".force-issues")).to_contain_text("should have at least 1")
    page.locator("#class-0-0").select_option("hacker")
    settled(page)
    expect(page.locator("#trooper-0-0")).to_contain_text("Hacker")
    expect(page.locator(".force-issues")).to_have_count(0)
    # Give the second trooper a Combi Rifle through the loadout picker (loaded on demand).
    page.locator("#trooper-0-1 summary").click()
    settled(page)
    page.locator("#trooper-0-1").get_by_label("Combi Rifle").check()
    page.locator("#trooper-0-1").get_by_role("button", name="Save loadout").click()
    settled(page)
    expect(page.locator("#trooper-0-1 table.weapons")).to_contain_text("Combi Rifle")
    expect(page.locator(".counter.verdict")).to_have_text("Legal")
    expect(page.locator(".tally")).to_contain_text("Points 15/75")


def test_a_player_builds_a_legal_force_with_the_mouse(page: Page, live_server):
    build_legal_force(page, live_server.url)
    screenshot(page, "builder-legal-force")


def test_an_error_appears_and_disappears_as_a_unit_changes_and_undo_restores(
    page: Page, live_server
):
    build_legal_force(page, live_server.url)
    page.get_by_role("button", name="Remove Trooper").last.click()
    settled(page)
    unit = page.locator("#unit-0")
    expect(unit.locator(".issue")).to_contain_text(
        "This Medium Infantry unit has 2 troopers; it needs at least 3."
    )
    expect(page.locator(".counter.verdict")).to_have_text("Not legal")
    screenshot(page, "builder-error-shown")
    page.get_by_role("button", name="Undo").click()
    settled(page)
    expect(unit.locator(".issue")).to_have_count(0)
    expect(page.locator(".counter.verdict")).to_have_text("Legal")
    page.get_by_role("button", name="Add trooper").click()
    settled(page)
    page.get_by_role("button", name="Add trooper").click()
    settled(page)
    page.get_by_role("button", name="Add trooper").click()
    settled(page)
    page.get_by_role("button", name="Add trooper").click()
    settled(page)
    expect(unit.locator('[data-code="unit.troopers.too-many"]')).to_contain_text(
        "it may have at most 6"
    )
    page.get_by_role("button", name="Remove Trooper").last.click()
    settled(page)
    expect(unit.locator('[data-code="unit.troopers.too-many"]')).to_have_count(0)
    # Six troopers with these loadouts cost 27: the points error rightly stays.
    expect(unit.locator('[data-code="unit.points.over-limit"]')).to_contain_text("costs 27 points")


def test_the_share_link_opens_read_only_in_a_fresh_browser(
    page: Page, browser: Browser, live_server
):
    build_legal_force(page, live_server.url)
    editor_url = page.url
    page.get_by_text("Share this list").click()
    expect(page.locator(".share-panel .qr svg")).to_be_visible()
    share_url = page.get_by_role("link", name="Share link").get_attribute("href")
    fresh = browser.new_context(viewport=PHONE).new_page()
    fresh.goto(live_server.url + share_url)
    expect(fresh.get_by_role("heading", level=1)).to_have_text("Browser Wardens")
    expect(fresh.get_by_role("button", name="Copy to my lists")).to_be_visible()
    expect(fresh.locator(".qr svg")).to_be_visible()
    overflow = fresh.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0
    screenshot(fresh, "shared-list-phone")
    assert fresh.goto(editor_url).status == 404
    fresh.goto(live_server.url + share_url)
    fresh.get_by_role("button", name="Copy to my lists").click()
    expect(fresh.get_by_role("heading", level=1)).to_have_text("Browser Wardens")
    assert "/forces/" in fresh.url and fresh.url != editor_url
    fresh.context.close()


def test_the_roster_pdf_downloads_with_the_list(page: Page, live_server):
    build_legal_force(page, live_server.url)
    with page.expect_download() as download_info:
        page.get_by_role("link", name="Roster PDF").click()
    download = download_info.value
    assert download.suggested_filename == "browser-wardens-roster.pdf"
    content = Path(download.path()).read_bytes()
    text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(content)).pages)
    assert "Browser Wardens" in text and "Combi Rifle" in text and "15/75 points" in text


def test_the_editor_fits_a_phone_and_works_from_the_keyboard(browser: Browser, live_server):
    page = browser.new_context(viewport=DESKTOP).new_page()
    build_legal_force(page, live_server.url)
    url = page.url
    phone = page.context.browser.new_context(viewport=PHONE)
    # The list belongs to the first browser; reach it there, resized to a phone.
    page.set_viewport_size(PHONE)
    page.goto(url)
    overflow = page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0, f"the editor scrolls sideways by {overflow}px on a phone"
    screenshot(page, "builder-phone")
    add = page.get_by_role("button", name="Add trooper")
    add.focus()
    page.keyboard.press("Enter")
    expect(page.locator(".tally")).to_contain_text("Troopers 4/12")
    phone.close()
    page.context.close()


def test_two_tabs_editing_one_list_lose_no_update(page: Page, live_server):
    build_legal_force(page, live_server.url)
    other = page.context.new_page()
    other.goto(page.url)
    settled(other)
    page.get_by_role("button", name="Add trooper").click()
    settled(page)
    expect(page.locator(".tally")).to_contain_text("Troopers 4/12")
    # The other tab still shows 3 troopers; its change is refused, with the latest list.
    other.get_by_role("button", name="Duplicate unit").click()
    settled(other)
    expect(other.locator(".messages")).to_contain_text("changed in another tab or window")
    expect(other.locator(".tally")).to_contain_text("Troopers 4/12")
    expect(other.locator(".tally")).to_contain_text("Units 1/4")
    screenshot(other, "builder-stale-tab")
    other.close()
