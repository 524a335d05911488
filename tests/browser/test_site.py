"""Home, rules and odds pages in a real browser: keyboard only, phone-sized, with and
without JavaScript."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import PHONE, screenshot, wait_until
from tests.browser.quality import ROOT, axe_violations, markup_errors

pytestmark = pytest.mark.django_db(transaction=True)

PAGES = ["/", "/rules/", "/odds/?attacker=3&defender=2", "/rules/units/"]
WIDE = {"width": 1366, "height": 900}


def test_a_keyboard_user_can_skip_to_content_and_reach_the_rules(page: Page, live_server):
    page.goto(live_server.url + "/")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent.trim()") == "Skip to content"
    page.keyboard.press("Enter")
    wait_until(page, "location.hash === '#content'")
    # The next Tab lands in the main content, past the navigation.
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.closest('main') !== null")
    # From the top of the page: skip link, brand, Home, then Rules.
    page.goto(live_server.url + "/")
    for _ in range(4):
        page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent.trim()") == "Rules"
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Onefinity standard rules")
    screenshot(page, "rules-desktop")


def test_card_odds_update_in_place_with_htmx_from_the_keyboard(page: Page, live_server):
    page.goto(live_server.url + "/odds/")
    page.evaluate("window.notReloaded = true")
    page.get_by_label("Attacker draws").focus()
    page.keyboard.press("Control+A")
    page.keyboard.type("3")
    page.keyboard.press("Tab")
    page.keyboard.press("Control+A")
    page.keyboard.type("2")
    page.keyboard.press("Enter")
    result = page.locator("#odds-result")
    expect(result).to_contain_text("Attacker wins")
    expect(result).to_contain_text("60.6 %")
    assert page.evaluate("window.notReloaded") is True  # swapped in place, no page load
    expect(page).to_have_url(re.compile(r"attacker=3"))  # the result has a shareable address
    # An impossible number is stopped by the browser before any request is sent
    # (the server's own message for it is tested in tests/site).
    attacker = page.get_by_label("Attacker draws")
    attacker.fill("0")
    page.get_by_role("button", name="Work out the odds").click()
    assert attacker.evaluate("el => el.validity.rangeUnderflow") is True
    expect(result).to_contain_text("60.6 %")
    screenshot(page, "odds-desktop")


def test_card_odds_work_out_a_whole_exchange_with_a_reaction(page: Page, live_server):
    page.goto(live_server.url + "/odds/")
    page.get_by_label("Attacker draws").fill("3")
    page.get_by_label("Defender draws").fill("3")
    page.get_by_label("Shots at the target (burst)").fill("2")
    page.get_by_label("The defender reacts with fire (at once; first in close combat)").check()
    page.get_by_role("button", name="Work out the odds").click()
    result = page.locator("#odds-result")
    expect(result).to_contain_text("The whole exchange")
    expect(result).to_contain_text("The attacker ends")
    screenshot(page, "odds-whole-exchange-desktop")
    page.set_viewport_size(PHONE)
    assert (
        page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        <= 0
    )
    screenshot(page, "odds-whole-exchange-phone")


def test_card_odds_work_without_javascript(page_without_javascript: Page, live_server):
    page = page_without_javascript
    page.goto(live_server.url + "/odds/")
    page.get_by_label("Attacker draws").fill("1")
    page.get_by_label("Defender draws").fill("1")
    page.get_by_role("button", name="Work out the odds").click()
    expect(page.locator("#odds-result")).to_contain_text("50.0 %")


@pytest.mark.parametrize("path", PAGES)
def test_pages_fit_a_phone_screen(phone: Page, live_server, path: str):
    phone.goto(live_server.url + path)
    overflow = phone.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0, f"{path} scrolls sideways by {overflow}px on a phone"
    # Touch targets in the main navigation (behind the menu button) are at least 44px tall.
    phone.get_by_role("button", name="Menu").click()
    heights = phone.eval_on_selector_all(
        "header nav a", "links => links.map(a => a.getBoundingClientRect().height)"
    )
    assert min(heights) >= 44
    name = path.split("?")[0].strip("/") or "home"
    screenshot(phone, f"{name}-phone")


MAIN_LINKS = [
    "Home",
    "Rules",
    "Card odds",
    "Tables",
    "Events",
    "Games",
    "My lists",
    "Your data",
    "Log in",
]


def header_height(page: Page) -> float:
    return page.evaluate("document.querySelector('.site-header').getBoundingClientRect().height")


def test_on_a_phone_the_header_is_one_row_with_a_menu_the_keyboard_opens_and_escape_closes(
    browser: Browser, live_server
):
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.goto(live_server.url + "/rules/")
    assert header_height(page) <= 64
    nav = page.get_by_role("navigation", name="Main")
    menu = page.get_by_role("button", name="Menu")
    expect(menu).to_have_attribute("aria-expanded", "false")
    expect(nav.get_by_role("link", name="Home")).to_be_hidden()
    screenshot(page, "header-menu-closed-phone", full_page=False)
    # Skip link, brand, then the menu button; Enter shows every link, in order.
    for _ in range(3):
        page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.getAttribute('aria-controls')") == "main-nav"
    page.keyboard.press("Enter")
    expect(menu).to_have_attribute("aria-expanded", "true")
    reached = []
    for _ in MAIN_LINKS:
        page.keyboard.press("Tab")
        reached.append(page.evaluate("document.activeElement.textContent.trim()"))
    assert reached == MAIN_LINKS
    assert header_height(page) <= 64  # the links drop over the page, the header stays
    screenshot(page, "header-menu-open-phone", full_page=False)
    # Escape closes it and gives focus back to the button.
    page.keyboard.press("Escape")
    expect(menu).to_have_attribute("aria-expanded", "false")
    expect(nav.get_by_role("link", name="Home")).to_be_hidden()
    assert page.evaluate("document.activeElement.getAttribute('aria-controls')") == "main-nav"
    # A tap opens it, a tap on a link follows it.
    menu.tap()
    nav.get_by_role("link", name="Card odds").tap()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Card odds")
    context.close()


def test_on_a_wide_screen_the_header_shows_every_link_in_one_row(page: Page, live_server):
    page.set_viewport_size(WIDE)
    page.goto(live_server.url + "/rules/")
    assert header_height(page) <= 80
    expect(page.get_by_role("button", name="Menu")).to_be_hidden()
    nav = page.get_by_role("navigation", name="Main")
    tops = {
        round(nav.get_by_role("link", name=n, exact=True).bounding_box()["y"]) for n in MAIN_LINKS
    }
    assert len(tops) == 1


def test_without_javascript_the_phone_menu_is_a_link_to_the_links(browser: Browser, live_server):
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    page = context.new_page()
    page.goto(live_server.url + "/rules/")
    assert header_height(page) <= 64
    page.get_by_role("link", name="Menu").click()
    for name in MAIN_LINKS:
        expect(page.get_by_role("link", name=name, exact=True)).to_be_visible()
    context.close()


def test_focus_is_visible(page: Page, live_server):
    page.goto(live_server.url + "/odds/")
    page.get_by_label("Attacker draws").focus()
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline == "solid"


def test_the_home_page_starts_a_list_in_one_click(page: Page, live_server):
    page.goto(live_server.url + "/")
    page.get_by_role("link", name="Build a list").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("New force list")


def test_the_unit_catalogue_filters_by_faction(page: Page, live_server):
    page.goto(live_server.url + "/rules/units/")
    expect(page.locator("#type-light-infantry")).to_contain_text("Spore Projector")
    page.get_by_label("Show what this faction may take").select_option("solar-concord")
    page.get_by_role("button", name="Show").click()
    expect(page.locator("#type-light-infantry")).not_to_contain_text("Spore Projector")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Solar Concord")
    screenshot(page, "unit-catalogue-desktop")


@pytest.mark.parametrize(("viewport", "suffix"), [(WIDE, "desktop"), (PHONE, "phone")])
def test_the_site_pages_pass_axe_and_the_nu_html_checker(
    browser: Browser, live_server, viewport, suffix
):
    context = browser.new_context(viewport=viewport, bypass_csp=True)
    page = context.new_page()
    html = {}
    for path in PAGES:
        page.goto(live_server.url + path)
        name = path.split("?")[0].strip("/").replace("/", "-") or "home"
        html[name] = page.request.get(live_server.url + path).text()
        screenshot(page, f"{name}-{suffix}")
        found = axe_violations(page)
        assert found == [], f"{path}: {found}"
    context.close()
    errors = markup_errors(html, ROOT / "test-artifacts" / "markup" / f"site-{suffix}")
    assert errors == {}, errors
