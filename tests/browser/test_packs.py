"""A tournament pack in a real browser: a thumbnail and the key metrics per table, a table
opened large and copied into the editor; on a desktop and a 390 px phone, judged by axe-core
and the Nu HTML checker. (Its making, with its progress bar, by a real worker:
tests/browser/test_worker_pack.py.)"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import DESKTOP, NAVIGATION_MS, PHONE, patient, screenshot, settled
from tests.browser.quality import ROOT, axe_violations, markup_errors
from tests.conftest import OWNER_PASSWORD

pytestmark = pytest.mark.django_db(transaction=True)


def signed_in(browser: Browser, base: str, viewport: dict[str, int], javascript: bool = True):
    # bypass_csp: axe-core is injected as a script, which the site's policy rightly forbids.
    context = browser.new_context(
        viewport=viewport, java_script_enabled=javascript, bypass_csp=True
    )
    page = context.new_page()
    patient(page)
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
    # The pack is made inside this request (the immediate backend): a minute on a busy machine.
    page.get_by_role("button", name="Generate the pack").click(timeout=NAVIGATION_MS)
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


def test_a_pack_table_opens_large_and_is_edited_as_a_copy(browser: Browser, live_server, owner):
    base = live_server.url
    page = signed_in(browser, base, DESKTOP)
    start_pack(page, base, 3, 40, "League round")
    expect(page.locator(".pack-card")).to_have_count(3, timeout=60_000)
    page.locator("#pack-table-2").get_by_role("link", name="Open").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(re.compile("^League round 2 "))
    expect(page.get_by_text("Table 2 of 3")).to_be_visible()
    expect(page.locator(".verdict")).to_have_text("Valid table")
    # The page's scripts have run (the clicks below go through htmx and tables.js, and the
    # page read after them is whole, not as far as it was parsed after a plain click).
    page.wait_for_load_state()
    # What does a hex see? The read-only map answers as a shared table's does.
    page.get_by_role("link", name="Line of fire").click()
    settled(page)
    page.get_by_role("link", name=re.compile("^Row 5 from side A, column 5: ")).click()  # 2,4
    settled(page)
    expect(page.locator(".hint")).to_contain_text("Showing what Row 5 from side A, column 5")
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
