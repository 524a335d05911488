"""The table map with the keyboard and on a phone (issue 26): one Tab stop, the arrow keys
from hex to hex, Enter or Space to paint, a link past the map, each hex named in a player's
words; on a phone the generated table in view and the editor's map on the first screen, with
words that fit the device."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tablegen.models import Table
from tests.browser.conftest import NAVIGATION_MS, PHONE, patient, screenshot, settled
from tests.browser.quality import ROOT, axe_violations, markup_errors
from tests.browser.test_tables import an_empty_table, hex_at, palette, place

pytestmark = pytest.mark.django_db(transaction=True)

WIDE = {"width": 1366, "height": 900}
SCREENS = [pytest.param((PHONE, True), id="phone-touch"), pytest.param((WIDE, False), id="desktop")]
GENERATED = "/tables/new/?seed=5&coverage=0.45&symmetry=point&mix=balanced"


@pytest.fixture
def screen(browser: Browser, request) -> Iterator[Page]:
    """A page at the size (and with the touch screen) of the test's parameter; axe's script
    may be injected (bypass_csp)."""
    viewport, touch = request.param
    context = browser.new_context(
        viewport=viewport, has_touch=touch, is_mobile=touch, bypass_csp=True
    )
    page = context.new_page()
    patient(page)
    yield page
    context.close()


def focused_name(page: Page) -> str:
    """The focused element's name if it is a hex of the map, else ""."""
    return page.evaluate(
        "() => document.activeElement.closest('[data-table-map] svg > a')"
        "?.querySelector(':scope > title')?.textContent || ''"
    )


def tab_stops(page: Page) -> int:
    return page.evaluate(
        "() => [...document.querySelectorAll('[data-table-map] svg > a')]"
        ".filter((a) => a.tabIndex >= 0).length"
    )


def table_of(page: Page) -> Table:
    pk = int(re.search(r"/tables/(\d+)/", page.url)[1])  # type: ignore[index]
    return Table.objects.get(pk=pk)


@pytest.mark.parametrize("screen", SCREENS, indirect=True)
def test_the_map_is_one_tab_stop_walked_with_arrows_and_painted_with_enter(
    screen: Page, live_server
):
    page = screen
    an_empty_table(page, live_server.url)
    palette(page, "Cover (low walls, crates)").click()
    settled(page)
    before = table_of(page)
    # The link past the map, then the map in one press: its first hex.
    skip = page.get_by_role("link", name="Skip the map")
    skip.focus()
    expect(skip).to_be_in_viewport()
    page.keyboard.press("Tab")
    assert focused_name(page) == "Row 1 from side A, column 1: Open ground"
    assert tab_stops(page) == 1
    # Down twice (to the nearest hex of each next row), right three times: 2,2.
    for key in ("ArrowDown", "ArrowDown", "ArrowRight", "ArrowRight", "ArrowRight"):
        page.keyboard.press(key)
    assert focused_name(page) == f"{place('2,2')}: Open ground"
    page.keyboard.press("Enter")
    expect(hex_at(page, "2,2").locator("title")).to_have_text(
        f"{place('2,2')}: Cover (low walls, crates)"
    )
    settled(page)
    after = table_of(page)
    assert after.to_spec().kind_at((2, 2)) == "cover" and after.version > before.version
    # The redrawn hex keeps the focus and is still the one stop; Space paints as Enter does.
    assert focused_name(page) == f"{place('2,2')}: Cover (low walls, crates)"
    # Up: of the two hexes as near in the row above, the one in the same column.
    page.keyboard.press("ArrowUp")
    assert focused_name(page) == f"{place('2,1')}: Open ground"
    page.keyboard.press("Space")
    expect(hex_at(page, "2,1").locator("title")).to_have_text(
        f"{place('2,1')}: Cover (low walls, crates)"
    )
    settled(page)
    assert table_of(page).to_spec().kind_at((2, 1)) == "cover"
    assert table_of(page).version > after.version
    assert tab_stops(page) == 1 and focused_name(page).startswith(place("2,1"))
    # Home and End: the row's ends.
    page.keyboard.press("End")
    assert focused_name(page).startswith("Row 2 from side A, column 10:")
    page.keyboard.press("Home")
    assert focused_name(page).startswith("Row 2 from side A, column 1:")
    # One Tab leaves the map, one Shift+Tab comes back to the hex it left.
    page.keyboard.press("Tab")
    assert focused_name(page) == ""
    assert page.evaluate("() => !!document.activeElement.closest('.facts')"), page.evaluate(
        "() => document.activeElement.outerHTML.slice(0, 200)"
    )
    page.keyboard.press("Shift+Tab")
    assert focused_name(page).startswith("Row 2 from side A, column 1:")


@pytest.mark.parametrize("screen", SCREENS, indirect=True)
def test_the_skip_link_passes_the_map_and_each_hex_is_named_in_a_players_words(
    screen: Page, live_server
):
    page = screen
    page.goto(live_server.url + GENERATED)
    # From the top of the page: "Skip to content", then "Skip to the map", which leads to
    # the map's own stop (the map is 30-odd presses further on).
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    expect(page.get_by_role("link", name="Skip to the map")).to_be_focused()
    page.keyboard.press("Enter")
    assert focused_name(page).startswith("Row 1 from side A, column 1:")
    names = page.locator("[data-table-map] svg > a > title").all_text_contents()
    assert len(names) > 100
    assert all(re.fullmatch(r"Row \d+ from side A, column \d+: [A-Z][\w ,()]+", n) for n in names)
    expect(
        page.get_by_role("link", name=re.compile("^Row 3 from side A, column 5: [A-Z]"))
    ).to_have_count(1)
    skip = page.get_by_role("link", name="Skip the map")
    skip.focus()
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    assert focused_name(page) == ""
    assert page.evaluate("() => !!document.activeElement.closest('.facts')"), page.evaluate(
        "() => document.activeElement.outerHTML.slice(0, 200)"
    )


@pytest.mark.parametrize("screen", SCREENS, indirect=True)
def test_a_read_only_map_is_one_stop_and_enter_shows_what_a_hex_sees(screen: Page, live_server):
    page = screen
    page.goto(live_server.url + GENERATED)
    assert tab_stops(page) == 1
    page.locator("[data-table-map] svg > a[tabindex='0']").focus()
    for key in ("ArrowDown", "ArrowDown", "ArrowDown", "ArrowDown", "ArrowRight", "ArrowRight"):
        page.keyboard.press(key)
    name = focused_name(page)
    assert name.startswith("Row 5 from side A, column 3:")  # 0,4
    page.keyboard.press("Enter")
    expect(page.locator(".hint")).to_contain_text("Showing what Row 5 from side A, column 3")
    settled(page)
    # The map was drawn again whole (the line of fire view): the hex keeps the focus.
    assert focused_name(page).startswith("Row 5 from side A, column 3:")
    assert tab_stops(page) == 1


def test_on_a_phone_the_generated_table_and_the_editors_map_are_on_the_screen(
    browser: Browser, live_server
):
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, bypass_csp=True)
    page = context.new_page()
    page.goto(live_server.url + "/tables/new/")
    page.get_by_label("Seed", exact=True).fill("5")
    page.get_by_label("Keep this seed").check()
    page.get_by_role("button", name="Generate").click()
    expect(page.locator(".verdict")).to_have_text("Valid table")
    expect(page.get_by_role("button", name="Save this table")).to_be_in_viewport()
    # Where the map is and which words the hint shows are the style sheets' (by the pointer):
    # read once the page the click opened has loaded.
    page.wait_for_load_state()
    map_top = page.locator("[data-table-map] svg").bounding_box()
    assert map_top is not None and map_top["y"] < PHONE["height"]
    screenshot(page, "table-generated-phone", full_page=False)
    touch_hint = page.locator(".hint").inner_text().lower()
    assert "tap a hex" in touch_hint and "click" not in touch_hint
    assert axe_violations(page) == []

    page.get_by_role("button", name="Save this table").click()
    expect(page.locator("details.map-controls")).not_to_have_attribute("open", "")
    box = page.locator("[data-table-map] svg").bounding_box()
    assert box is not None and 0 < box["y"] < PHONE["height"] - 200  # the map's top third
    hint = page.locator(".hint").inner_text()
    assert "Tap a hex" in hint and "Click" not in hint and "Ctrl+Z" not in hint
    screenshot(page, "table-editor-phone", full_page=False)
    assert axe_violations(page) == []
    # The controls open with one tap, and stay open when the region is drawn again.
    page.locator("details.map-controls > summary").tap()
    brush = page.get_by_role("link", name="Blocking scenery", exact=True)
    brush.tap()
    # The tap's click comes after tap() returns: the redraw it asks for is waited for (the
    # brush chosen), else the controls were found open before the region was drawn again.
    expect(brush).to_have_attribute("aria-current", "true", timeout=NAVIGATION_MS)
    settled(page)
    expect(page.locator("details.map-controls")).to_have_attribute("open", "")
    screenshot(page, "table-editor-controls-phone", full_page=False)
    context.close()


def test_on_a_desktop_the_hints_say_click_and_the_keys(browser: Browser, live_server):
    context = browser.new_context(viewport=WIDE, bypass_csp=True)
    page = context.new_page()
    page.goto(live_server.url + GENERATED)
    page.get_by_role("button", name="Save this table").click()
    expect(page.locator("details.map-controls")).to_have_attribute("open", "")
    # The keys are in the hint once site.js has marked the page as scripted (.js): read once
    # the page has loaded (the controls come open from the server, before any script).
    page.wait_for_load_state()
    hint = page.locator(".hint").inner_text()
    assert "Click a hex" in hint and "Tap" not in hint and "Ctrl+Z" in hint
    assert "arrow keys" in hint
    page.locator("[data-table-map] svg > a[tabindex='0']").focus()
    page.keyboard.press("ArrowDown")
    screenshot(page, "table-editor-desktop", full_page=False)
    assert axe_violations(page) == []
    html = {"table-editor": page.request.get(page.url).text()}
    page.goto(live_server.url + "/tables/")
    expect(page.get_by_role("link", name="My terrain")).to_have_attribute("href", "/tables/boxes/")
    assert axe_violations(page) == []
    html["tables-list"] = page.request.get(page.url).text()
    context.close()
    errors = markup_errors(html, ROOT / "test-artifacts" / "markup" / "table-keyboard")
    assert errors == {}, errors
