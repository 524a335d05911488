"""A tournament pack in a real browser: its making with a progress bar, a thumbnail and the
key metrics per table, a table opened large and copied into the editor; on a desktop and a
390 px phone, judged by axe-core and the Nu HTML checker."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import DESKTOP, PHONE, screenshot, settled, wait_until
from tests.browser.quality import ROOT, axe_violations, markup_errors
from tests.conftest import OWNER_PASSWORD

pytestmark = pytest.mark.django_db(transaction=True)


def signed_in(browser: Browser, base: str, viewport: dict[str, int], javascript: bool = True):
    # bypass_csp: axe-core is injected as a script, which the site's policy rightly forbids.
    context = browser.new_context(
        viewport=viewport, java_script_enabled=javascript, bypass_csp=True
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(base + "/accounts/login/")
    page.get_by_label("Username").fill("owner")
    page.get_by_label("Password").fill(OWNER_PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    return page


def start_pack(page: Page, base: str, count: int, seed: int, name: str) -> None:
    page.goto(base + "/tables/packs/new/")
    page.get_by_label("Pack name").fill(name)
    page.get_by_label("Tables in the pack").fill(str(count))
    page.get_by_label("Seed").fill(str(seed))
    page.get_by_role("button", name="Generate the pack").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(name)


def sideways(page: Page) -> int:
    return page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )


def shot(page: Page, name: str) -> None:
    page.evaluate("window.scrollTo(0, 0)")
    screenshot(page, name)


def no_axe_violations(page: Page, name: str) -> None:
    found = axe_violations(page)
    assert found == [], f"{name}: {found}"


@pytest.fixture
def slow_pdf(monkeypatch):
    """One setup sheet per request, so the PDF's progress is seen in steps."""
    monkeypatch.setattr("tablegen.packwork.SHEETS_PER_PART", 1)


def test_a_pack_shows_its_progress_then_each_table_with_its_metrics(
    browser: Browser, live_server, owner, slow_pdf
):
    base = live_server.url
    html: dict[str, str] = {}
    for viewport, suffix in ((DESKTOP, "desktop"), (PHONE, "phone")):
        page = signed_in(browser, base, viewport)
        start_pack(page, base, 5, 40, f"Club night {suffix}")
        bar = page.locator("#pack-bar")
        # The PDF is made a sheet per request after the tables: the bar moves on its own.
        expect(page.get_by_label(re.compile("^Making the PDF"))).to_be_visible(timeout=60_000)
        assert bar.get_attribute("max") == "6"  # five sheets, then putting them together
        wait_until(page, "+(document.querySelector('#pack-bar')?.value ?? 9) >= 2", 30_000)
        first = int(bar.get_attribute("value") or 0)
        assert first < 6, "the PDF was made before its progress could be seen"
        expect(page.locator(".pack-card")).to_have_count(5)
        shot(page, f"pack-progress-{suffix}")
        html[f"progress-{suffix}"] = page.content()
        if suffix == "phone":
            assert sideways(page) <= 0, "the pack's progress scrolls sideways on a phone"
        no_axe_violations(page, f"pack in progress ({suffix})")
        wait_until(
            page,
            f"!document.querySelector('#pack-bar') || "
            f"+document.querySelector('#pack-bar').value > {first}",
            30_000,
        )
        expect(page.get_by_role("link", name="Download the pack PDF")).to_be_visible(timeout=60_000)
        expect(page.locator("#pack-bar")).to_have_count(0)
        expect(page.locator(".pack-balance")).to_be_visible()
        cards = page.locator(".pack-card")
        expect(cards).to_have_count(5)
        for number in range(5):
            card = cards.nth(number)
            expect(card.get_by_role("img", name=re.compile("^Map of Club night"))).to_be_visible()
            expect(card.locator(".pack-figures dt")).to_have_count(6)
            expect(card.get_by_role("button", name="Edit a copy")).to_be_visible()
            box = card.locator(".table-thumbnail").bounding_box()
            assert box is not None and box["width"] >= 80 and box["height"] >= 70
        shot(page, f"pack-tables-{suffix}")
        if suffix == "phone":
            assert sideways(page) <= 0, "the pack's page scrolls sideways on a phone"
        no_axe_violations(page, f"pack made ({suffix})")
        html[f"pack-{suffix}"] = page.request.get(page.url).text()
        page.context.close()
    errors = markup_errors(html, ROOT / "test-artifacts" / "markup" / "packs")
    assert errors == {}, errors


def test_a_pack_table_opens_large_and_is_edited_as_a_copy(browser: Browser, live_server, owner):
    base = live_server.url
    page = signed_in(browser, base, DESKTOP)
    start_pack(page, base, 3, 40, "League round")
    expect(page.locator(".pack-card")).to_have_count(3, timeout=60_000)
    page.locator("#pack-table-2").get_by_role("link", name="Open").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(re.compile("^League round 2 "))
    expect(page.get_by_text("Table 2 of 3")).to_be_visible()
    expect(page.locator(".verdict")).to_have_text("Valid table")
    # What does a hex see? The read-only map answers as a shared table's does.
    page.get_by_role("link", name="Line of fire").click()
    settled(page)
    page.locator('a[aria-label^="2,4 "]').click()
    settled(page)
    expect(page.locator(".hint")).to_contain_text("Showing what 2,4 sees")
    shot(page, "pack-table-line-of-fire-desktop")
    html = {"pack-table": page.content()}
    no_axe_violations(page, "a pack's table")

    page.get_by_role("button", name="Edit a copy").click()
    expect(page.get_by_text("The pack keeps its own table 2")).to_be_visible()
    expect(page.locator("[data-edit-url]")).to_have_count(1)  # the table editor
    page.go_back()
    page.reload()
    expect(page.locator("#your-copy")).to_contain_text("It has the same terrain as this table")
    html["pack-table-with-copy"] = page.content()
    phone = signed_in(browser, base, PHONE)
    phone.goto(page.url)
    expect(phone.locator("#your-copy")).to_be_visible()
    assert sideways(phone) <= 0, "a pack's table scrolls sideways on a phone"
    no_axe_violations(phone, "a pack's table (phone)")
    shot(phone, "pack-table-phone")
    phone.context.close()
    page.context.close()
    errors = markup_errors(html, ROOT / "test-artifacts" / "markup" / "packs-table")
    assert errors == {}, errors


def test_without_javascript_a_plain_link_moves_the_pack_on(browser: Browser, live_server, owner):
    base = live_server.url
    page = signed_in(browser, base, DESKTOP, javascript=False)
    start_pack(page, base, 2, 40, "No script")
    assert 'http-equiv="refresh"' not in page.content()
    made = []
    for _ in range(40):
        link = page.get_by_role("link", name="Continue making the pack")
        if not link.count():
            break
        link.click()
        bar = page.locator("#pack-bar")
        if bar.count():
            made.append((bar.get_attribute("max"), bar.get_attribute("value")))
    expect(page.get_by_role("link", name="Download the pack PDF")).to_be_visible()
    expect(page.locator(".pack-card")).to_have_count(2)
    assert made, "no progress was shown"
    page.context.close()
