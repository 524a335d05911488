"""The table generator in a real browser: generate, edit hexes, watch the verdict, share,
download the PNG and the setup sheet."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image
from playwright.sync_api import Browser, Page, expect
from pypdf import PdfReader

from tests.browser.conftest import PHONE, screenshot, settled

pytestmark = pytest.mark.django_db(transaction=True)


def test_generate_edit_share_and_download_a_table(page: Page, browser: Browser, live_server):
    page.goto(live_server.url + "/tables/new/")
    page.get_by_label("Seed").fill("5")
    page.get_by_role("button", name="Generate").click()
    expect(page.locator(".verdict")).to_have_text("Valid table")
    expect(page.locator("#permalink")).to_have_value(
        f"{live_server.url}/tables/new/?seed=5&coverage=0.45&symmetry=point&mix=balanced"
    )

    # What does 2,4 see? And why can it not see -3,9?
    page.get_by_role("link", name="Line of fire").click()
    settled(page)
    page.locator('a[aria-label^="2,4 "]').click()
    settled(page)
    expect(page.locator(".hint")).to_contain_text("Showing what 2,4 sees")
    page.locator('a[aria-label^="-3,9 "]').click()
    settled(page)
    expect(page.locator(".lof-result")).to_contain_text("blocked")
    screenshot(page, "table-line-of-fire")

    page.get_by_role("button", name="Save this table").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Table 5")
    # Three more terrain hexes along side A's edge give it more cover than side B's.
    for hex_ in ("0,0", "1,0", "4,0"):
        page.locator(f'a[aria-label="{hex_} Open ground"]').click()
        settled(page)
    expect(page.locator(".verdict")).to_contain_text("Not valid")
    expect(page.locator(".issues")).to_contain_text("table.cover.unbalanced")
    screenshot(page, "table-edited-invalid")

    with page.expect_download() as png_download:
        page.get_by_role("link", name="Download PNG").click()
    image = Image.open(Path(png_download.value.path()))
    assert image.format == "PNG"
    with page.expect_download() as pdf_download:
        page.get_by_role("link", name="Setup sheet PDF").click()
    text = (
        PdfReader(io.BytesIO(Path(pdf_download.value.path()).read_bytes())).pages[0].extract_text()
    )
    assert "Table 5" in text and "piece by piece" in text

    page.get_by_text("Rename or share").click()
    share_url = page.locator(".share-body a").get_attribute("href")
    fresh = browser.new_context(viewport=PHONE).new_page()
    fresh.goto(live_server.url + share_url)
    expect(fresh.get_by_role("heading", level=1)).to_have_text("Table 5")
    expect(fresh.get_by_role("button", name="Copy to my tables")).to_be_visible()
    assert "/terrain/" not in fresh.content()  # read-only
    overflow = fresh.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0
    screenshot(fresh, "table-shared-phone")
    fresh.context.close()


def test_a_keyboard_user_can_cycle_a_hex(page: Page, live_server):
    page.goto(live_server.url + "/tables/new/?seed=5&coverage=0.45&symmetry=point&mix=balanced")
    page.get_by_role("button", name="Save this table").click()
    hex_link = page.locator('a[aria-label="0,0 Open ground"]')
    hex_link.focus()
    page.keyboard.press("Enter")
    settled(page)
    expect(page.locator('a[aria-label="0,0 Cover (low walls, crates)"]')).to_have_count(1)


def test_a_tournament_pack_shows_progress_and_finishes(page: Page, live_server):
    page.goto(live_server.url + "/tables/packs/new/")
    page.get_by_label("Tables in the pack").fill("6")
    page.get_by_label("Seed").fill("40")
    page.get_by_role("button", name="Generate the pack").click()
    expect(page.get_by_text("Ready: 6 tables.")).to_be_visible(timeout=30_000)
    # The PDF is made after the tables, three sheets per request, then put together.
    expect(page.get_by_role("link", name="Download the pack PDF")).to_be_visible(timeout=30_000)
