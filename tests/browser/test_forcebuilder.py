"""The force builder in a real browser, tried as a new player would, on a 1366 x 900 desktop
and a 390 x 844 phone: building, problems and their fixes, the picker, fast input, undo,
odds, sharing, printing, no JavaScript, and the outside judges (axe-core, the Nu HTML
checker). Screenshots go to test-artifacts/screenshots/."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from pypdf import PdfReader

from forcebuilder.models import Force
from onefinity.rules import read_force_document
from tests.browser.conftest import (
    NAVIGATION_MS,
    PHONE,
    SCREENSHOTS,
    HeldAnswers,
    patient,
    screenshot,
    wait_until,
)
from tests.browser.quality import ROOT, axe_violations, markup_errors

pytestmark = pytest.mark.django_db(transaction=True)

WIDE = {"width": 1366, "height": 900}
PASSWORD = "a-long-pass-phrase"

# A legal list of 12 troopers in 4 units, as players build them: a few specialists, some
# weapons, a TAG.
LEGAL_12 = {
    "format": "onefinity-force",
    "version": 1,
    "name": "Concord Vanguard",
    "faction": "solar-concord",
    "ruleset": "2026.11",
    "points_limit": 75,
    "units": [
        {
            "type": "medium-infantry",
            "name": "Alpha",
            "skills": ["fireteam"],
            "troopers": [
                {"class": "hacker", "weapons": ["combi-rifle"]},
                {"weapons": ["combi-rifle"]},
                {},
            ],
        },
        {
            "type": "medium-infantry",
            "name": "Bravo",
            "troopers": [{"class": "medic"}, {"weapons": ["submachine-gun"]}, {}],
        },
        {
            "type": "light-infantry",
            "name": "Outriders",
            "troopers": [{"class": "scout", "weapons": ["sniper-rifle"]}, {}, {}, {}, {}],
        },
        {"type": "tag", "troopers": [{"weapons": ["spitfire"], "abilities": ["veteran"]}]},
    ],
}

# A list with a problem of each kind that has one obvious fix.
WITH_PROBLEMS = {
    "format": "onefinity-force",
    "version": 1,
    "name": "Too much of everything",
    "faction": "solar-concord",
    "units": [
        {
            "id": "big",
            "type": "medium-infantry",
            "name": "Big",
            "troopers": [
                {"id": "h1", "class": "hacker"},
                {"id": "h2", "class": "medic"},
                {"id": "h3", "class": "engineer", "weapons": ["spore-projector"]},
                {"id": "p1"},
                {"id": "p2"},
                {"id": "p3"},
                {"id": "p4"},
            ],
        },
        {"id": "tag-a", "type": "tag", "troopers": [{"id": "ta"}]},
        {"id": "tag-b", "type": "tag", "name": "Second", "troopers": [{"id": "tb"}]},
    ],
}


@pytest.fixture
def player(django_user_model):
    return django_user_model.objects.create_user("player", "p@example.com", PASSWORD)


def open_page(browser: Browser, viewport=WIDE, javascript: bool = True) -> Page:
    # bypass_csp: axe-core is injected as a script, which the site's policy rightly forbids.
    context = browser.new_context(
        viewport=viewport, java_script_enabled=javascript, bypass_csp=True
    )
    page = context.new_page()
    patient(page)
    return page


def signed_in(browser: Browser, base: str, viewport=WIDE, javascript: bool = True) -> Page:
    page = open_page(browser, viewport, javascript)
    page.goto(base + "/accounts/login/")
    page.get_by_label("Username").fill("player")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    return page


def make(owner, document, shared: bool = False) -> Force:
    """A saved list: private, as new lists are, unless ``shared``."""
    force = Force.create_from_spec(read_force_document(document), "2026.11", 75, owner=owner)
    if shared:
        force.set_sharing("on")
    return force


def settled(page: Page) -> None:
    """Until htmx has swapped the last answer and nothing waits in the editor's queue: as
    long as a navigation (tests.browser.conftest.settled), since the queue waits for the
    server's answers, several of them after quick clicks."""
    wait_until(
        page,
        "!document.querySelector('.htmx-request, .htmx-settling, .htmx-swapping, "
        "#editor[aria-busy]')",
        NAVIGATION_MS,
    )


def shot(page: Page, name: str) -> None:
    """A full-page screenshot from the top (a sticky bar is drawn where the page stood)."""
    page.evaluate("window.scrollTo(0, 0)")
    screenshot(page, name)


def panel_shot(page: Page, name: str) -> None:
    """The odds panel alone (the editor above it makes a full-page picture very tall)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("#odds").screenshot(path=str(SCREENSHOTS / f"{name}.png"))


def screens(page: Page) -> float:
    return page.evaluate("document.documentElement.scrollHeight / window.innerHeight")


def sideways(page: Page) -> int:
    """How far the page scrolls sideways, once it has loaded (a page a click has just opened
    may still be waiting for its style sheets)."""
    page.wait_for_load_state()
    return page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )


def no_axe_violations(page: Page, name: str) -> None:
    found = axe_violations(page)
    assert found == [], f"{name}: {found}"


def edit_posts(page: Page) -> list[str]:
    sent: list[str] = []
    page.on(
        "request",
        lambda r: (
            sent.append(r.post_data or "")
            if r.method == "POST" and re.search(r"/(edit|undo|redo)/$", r.url)
            else None
        ),
    )
    return sent


# --- Building a list --------------------------------------------------------------------------


def test_a_new_player_builds_a_legal_list_with_the_mouse(browser: Browser, live_server):
    page = open_page(browser)
    page.goto(live_server.url + "/")
    page.get_by_role("link", name="Build a list").click()
    page.get_by_label("Name").fill("Browser Wardens")
    page.get_by_label("Faction").select_option("solar-concord")
    page.get_by_role("button", name="Create and start building").click()
    # A new list opens neutral: nothing is wrong yet, there is just nothing in it.
    expect(page.get_by_role("heading", name="Add your first unit")).to_be_visible()
    expect(page.locator(".counter.verdict")).to_have_text("Empty")
    expect(page.get_by_text("Browser Wardens created.")).to_have_count(1)
    shot(page, "editor-empty-desktop")

    page.get_by_role("button", name=re.compile(r"^\+ Medium Infantry")).click()
    settled(page)
    expect(page.locator(".unit")).to_have_count(1)
    expect(page.locator(".group .count")).to_have_text("3\N{MULTIPLICATION SIGN}")
    # No specialist yet: a suggestion, not a problem.
    expect(page.locator(".problems")).to_contain_text("This force has 0 specialists")
    expect(page.locator(".counter.verdict")).to_have_text("Legal")

    # One tap on the troopers' row opens the first one's class, stat line and loadout.
    page.locator(".group > a.row").click()
    panel = page.locator("#loadout")
    expect(panel.get_by_label("Class")).to_be_visible()
    panel.get_by_label("Class").select_option("hacker")
    settled(page)
    expect(page.locator(".problems")).to_have_count(0)
    expect(panel.locator(".loadout-name")).to_have_text("Hacker")
    # The loadout applies at once, like every other control.
    panel.get_by_label("Combi Rifle").check()
    settled(page)
    expect(panel.locator("table.weapons")).to_contain_text("Combi Rifle")
    expect(page.locator(".counter").first).to_contain_text("15/75")
    expect(page.locator("#undo")).to_contain_text(
        "Undo: give Hacker in Medium Infantry Combi Rifle"
    )
    shot(page, "editor-building-desktop")
    # Renamed, the list's tab says its new name as its heading does; undone, the old one.
    expect(page).to_have_title("Browser Wardens · Onefinity builder")
    page.locator("#settings-summary").click()
    page.get_by_label("List name").fill("Browser Vanguard")
    page.get_by_label("List name").press("Enter")
    settled(page)
    expect(page.get_by_role("heading", level=1)).to_have_text("Browser Vanguard")
    expect(page).to_have_title("Browser Vanguard · Onefinity builder")
    page.locator("#undo").click()
    settled(page)
    expect(page).to_have_title("Browser Wardens · Onefinity builder")


def test_a_legal_12_trooper_list_fits_two_and_a_half_desktop_screens_and_six_phone_screens(
    browser: Browser, live_server, player
):
    force = make(player, LEGAL_12)
    page = signed_in(browser, live_server.url)
    page.goto(f"{live_server.url}/forces/{force.pk}/")
    expect(page.locator(".counter.verdict")).to_have_text("Legal")
    desktop = screens(page)
    shot(page, "editor-legal-12-desktop")
    page.set_viewport_size(PHONE)
    page.reload()
    phone = screens(page)
    assert sideways(page) <= 0, "the editor scrolls sideways on a phone"
    # The counters stay one row on a phone.
    heights = page.eval_on_selector_all(
        ".counter", "cs => cs.map(c => c.getBoundingClientRect().top)"
    )
    assert len(set(heights)) == 1
    shot(page, "editor-legal-12-phone")
    print(f"legal 12-trooper list: {desktop:.2f} desktop screens, {phone:.2f} phone screens")
    assert desktop <= 2.5 and phone <= 6


def test_problems_say_what_and_where_and_fix_in_one_click(browser: Browser, live_server, player):
    force = make(player, WITH_PROBLEMS)
    page = signed_in(browser, live_server.url)
    page.goto(f"{live_server.url}/forces/{force.pk}/")
    problems = page.locator(".problems .issue")
    # Errors first, in the player's words; no code in sight until asked for.
    expect(problems.first).to_have_class(re.compile("error"))
    expect(page.locator(".problems .issues")).not_to_contain_text("force.tags.too-many")
    expect(page.locator(".codes ul")).not_to_be_visible()
    page.get_by_text("Rule codes (for organizers)").click()
    expect(page.locator(".codes")).to_contain_text("force.tags.too-many")
    tags = page.locator('.problems [data-code="force.tags.too-many"]')
    expect(tags).to_contain_text("This force has 2 TAGs; at most 1 is allowed.")
    expect(tags.get_by_role("link", name="Second")).to_have_attribute("href", "#unit-tag-b")
    shot(page, "editor-problems-desktop")
    tags.get_by_role("button", name="Remove Second").click()
    settled(page)
    expect(page.locator('[data-code="force.tags.too-many"]')).to_have_count(0)
    expect(page.locator("#undo")).to_contain_text("Undo: remove Second")
    page.locator('.problems [data-code="unit.troopers.too-many"]').get_by_role(
        "button", name="Split Big in two"
    ).click()
    settled(page)
    expect(page.locator(".unit")).to_have_count(3)
    page.get_by_role("button", name=re.compile("^Undo")).click()
    settled(page)
    expect(page.locator(".unit")).to_have_count(2)
    page.set_viewport_size(PHONE)
    shot(page, "editor-problems-phone")
    assert sideways(page) <= 0


def test_choices_the_rules_forbid_are_disabled_and_say_why(browser: Browser, live_server, player):
    force = make(player, LEGAL_12)
    page = signed_in(browser, live_server.url)
    page.goto(f"{live_server.url}/forces/{force.pk}/")
    add_tag = page.get_by_role("button", name=re.compile(r"^\+ TAG"))
    expect(add_tag).to_have_attribute("aria-disabled", "true")
    add_tag.focus()
    expect(page.locator("#why-add-tag")).to_be_visible()
    expect(page.locator("#why-add-tag")).to_have_text("A list has at most 4 units.")
    shot(page, "editor-disabled-reason-desktop")
    add_tag.click(force=True)  # says why, adds nothing
    expect(page.locator(".unit")).to_have_count(4)
    # A TAG takes no specialist: its class menu says so.
    page.locator(".unit").last.locator("a.row").click()
    tag = page.locator("#loadout")
    expect(tag.locator("option[value=hacker]")).to_be_disabled()
    expect(tag).to_contain_text("No specialist here: This unit type takes no specialist.")


def test_the_picker_shows_every_profile_applies_at_once_and_keeps_an_illegal_item_removable(
    browser: Browser, live_server, player
):
    force = make(player, WITH_PROBLEMS)
    page = signed_in(browser, live_server.url)
    page.goto(f"{live_server.url}/forces/{force.pk}/")
    page.locator("#row-h3").click()
    engineer = page.locator("#loadout")
    spore = engineer.get_by_label("Spore Projector")
    expect(spore).to_be_checked()
    expect(engineer).to_contain_text("Spore Projector is not available to the Solar Concord.")
    expect(engineer.locator(".pick").first).to_contain_text("Multi Rifle")  # every weapon...
    expect(engineer).to_contain_text("Not available to this trooper")  # ...and why not
    shot(page, "editor-picker-open-desktop")
    spore.uncheck()
    settled(page)
    expect(engineer).to_have_attribute("data-key", "h3")  # still open after the change
    expect(engineer.get_by_label("Spore Projector")).to_have_count(0)
    expect(page.locator("#undo")).to_contain_text("take Spore Projector from Engineer")
    page.set_viewport_size(PHONE)
    assert sideways(page) <= 0
    shot(page, "editor-picker-open-phone")


@pytest.mark.parametrize(("viewport", "touch"), [(PHONE, True), (WIDE, False)])
def test_a_troopers_loadout_is_one_tap_from_the_list_and_fits_one_screen(
    browser: Browser, live_server, player, viewport, touch
):
    force = make(player, LEGAL_12)
    context = browser.new_context(viewport=viewport, has_touch=touch, is_mobile=touch)
    page = context.new_page()
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill("player")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.goto(f"{live_server.url}/forces/{force.pk}/")
    list_height = page.evaluate("document.documentElement.scrollHeight")
    # The fourth unit's troopers, alike: one row, one tap.
    outriders = force.to_spec().units[2]
    row = page.locator(f"#row-{outriders.troopers[1].id}")
    expect(row).to_contain_text("4\N{MULTIPLICATION SIGN}")
    row.tap() if touch else row.click()
    panel = page.locator("#loadout")
    expect(panel.locator(".picker")).to_be_visible()
    expect(panel).to_contain_text("One of 4 alike")
    assert page.evaluate("document.activeElement.id") == "loadout-title"
    # At most one screen tall, all of it on the screen; the page hardly longer for it (the
    # list beside it wraps a little on a desktop).
    box = panel.bounding_box()
    assert box is not None
    assert box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"]
    grown = page.evaluate("document.documentElement.scrollHeight") - list_height
    assert grown < viewport["height"] / 5
    screenshot(page, f"editor-loadout-{'phone' if touch else 'desktop'}", full_page=False)
    # A change in the panel keeps it open on the same trooper, now a row of its own.
    panel.get_by_label("Sniper Rifle").check()
    settled(page)
    expect(panel).to_have_attribute("data-key", outriders.troopers[1].id)
    expect(panel.locator("table.weapons")).to_contain_text("Sniper Rifle")
    expect(panel).not_to_contain_text("alike")
    # Escape closes it; focus goes back to the trooper's line.
    page.keyboard.press("Escape")
    expect(panel).to_have_count(0)
    assert page.evaluate("document.activeElement.id") == f"row-{outriders.troopers[1].id}"
    # So does its Close button.
    page.keyboard.press("Enter")
    expect(panel.get_by_role("link", name="Close")).to_be_visible()
    panel.get_by_role("link", name="Close").click()
    expect(panel).to_have_count(0)
    assert page.evaluate("document.activeElement.id") == f"row-{outriders.troopers[1].id}"
    # The panel never hides the row it belongs to (on a phone, a sheet over the bottom of
    # the screen): the list's first row, and its last, near the end of the page.
    rows = page.locator("#editor a.row")
    for line in (rows.first, rows.last):
        row_id = line.get_attribute("id")
        line.tap() if touch else line.click()
        expect(panel.locator(".picker")).to_be_visible()
        assert row_in_view(page, row_id), screenshot(page, "loadout-covers-row")
        panel.get_by_role("link", name="Close").click()
        expect(panel).to_have_count(0)
    context.close()


def row_in_view(page: Page, row_id: str) -> bool:
    """Is the trooper's row wholly on the screen, clear of the loadout and the counters?"""
    return page.evaluate(
        """(id) => {
          const row = document.getElementById(id).closest('.row-item').getBoundingClientRect();
          const sheet = document.getElementById('loadout').getBoundingClientRect();
          const bar = document.querySelector('.counters-bar').getBoundingClientRect();
          const apart = (a, b) => a.bottom <= b.top || b.bottom <= a.top
            || a.right <= b.left || b.right <= a.left;
          return row.top >= bar.bottom && row.bottom <= innerHeight && apart(row, sheet);
        }""",
        row_id,
    )


# --- Fast input, the keyboard, focus -------------------------------------------------------------


def test_fast_input_is_neither_lost_nor_doubled(browser: Browser, live_server, player):
    force = make(player, {**LEGAL_12, "units": LEGAL_12["units"][:2]})
    page = signed_in(browser, live_server.url)
    page.goto(f"{live_server.url}/forces/{force.pk}/")
    posts = edit_posts(page)
    # A double click on an adding button is two clicks: two units, in one undo step each.
    page.get_by_role("button", name=re.compile(r"^\+ Light Infantry")).dblclick()
    settled(page)
    expect(page.locator(".unit")).to_have_count(4)
    assert len(posts) == 2
    # Five quick arrow presses on a class menu: one change, one undo step, the last class.
    page.locator(".unit").first.locator("a.row").last.click()
    panel = page.locator("#loadout")
    menu = panel.locator("select[name=class]")
    menu.focus()
    for _ in range(5):
        page.keyboard.press("ArrowDown")
    settled(page)
    assert len(posts) == 3
    expect(menu).to_have_value("scout")
    expect(page.locator("#undo")).to_contain_text("a Scout")
    # Focus stayed on the menu through the redraw.
    assert page.evaluate("document.activeElement.name") == "class"
    # Quick ticks in the picker all land.
    for item in ("Pistol", "Medkit", "Smoke Grenades"):
        panel.get_by_label(item).check()
    settled(page)
    for item in ("Pistol", "Medkit", "Smoke Grenades"):
        expect(panel.get_by_label(item)).to_be_checked()
    # Ctrl+Z and Ctrl+Shift+Z.
    page.locator("body").click(position={"x": 5, "y": 300})
    page.keyboard.press("Control+z")
    settled(page)
    expect(page.locator("#redo")).to_contain_text("Redo:")
    page.keyboard.press("Control+Shift+z")
    settled(page)
    expect(page.locator("#redo")).to_be_disabled()


def quick_clicks(page: Page, selector: str, times: int, touch: bool) -> None:
    """Click (or tap) the middle of a control as fast as a player's finger would, without
    waiting for any answer: the page must keep the control where it is as the list grows."""
    # In the middle of the screen, clear of the sticky counters, as a player would have it.
    page.locator(selector).evaluate("e => e.scrollIntoView({block: 'center'})")
    box = page.locator(selector).bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    for _ in range(times):
        if touch:
            page.touchscreen.tap(x, y)
        else:
            page.mouse.click(x, y)


@pytest.mark.parametrize(("viewport", "touch"), [(PHONE, True), (WIDE, False)])
def test_eight_quick_clicks_make_eight_changes(
    browser: Browser, live_server, player, viewport, touch
):
    force = make(player, {**LEGAL_12, "name": "Quick", "units": []})
    context = browser.new_context(viewport=viewport, has_touch=touch, is_mobile=touch)
    page = context.new_page()
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill("player")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.goto(f"{live_server.url}/forces/{force.pk}/")
    posts = edit_posts(page)
    # Four quick clicks on "+ Light Infantry": four units of two. Each answer grows the list
    # above the button; the button stays under the finger.
    quick_clicks(page, "#add-light-infantry", 4, touch)
    settled(page)
    # (settled() may look before the last tap's click is made: its answer is waited for.)
    expect(page.locator(".unit")).to_have_count(4, timeout=NAVIGATION_MS)
    # Two on the first unit's "+ Add a trooper", their answers held back a moment as on a
    # slow connection: the page says it is saving while they are on their way.
    with HeldAnswers(page, "**/edit/", settled):
        quick_clicks(page, ".unit:first-child .unit-foot button.add", 2, touch)
        wait_until(page, "document.querySelector('#editor[aria-busy]') !== null")
        verdict = page.locator(".counter.verdict")
        saying = verdict.evaluate("v => getComputedStyle(v, '::after').content")
        assert saying.startswith('"Saving')
    # Two on its stepper's "+". The last click may reach the page after quick_clicks returns
    # (a tap's click is made from its touches once they are answered; a click whose button
    # was redrawn under it is made again a moment later): the twelfth trooper is waited for
    # on the page before the list is read from the database.
    quick_clicks(page, ".unit:first-child .stepper button[value=duplicate-trooper]", 2, touch)
    expect(page.locator(".counter").nth(2)).to_contain_text("12/12", timeout=NAVIGATION_MS)
    settled(page)
    force.refresh_from_db()
    spec = force.to_spec()
    assert [len(u.troopers) for u in spec.units] == [6, 2, 2, 2]
    # One change a POST, none sent twice (the request events may trail the page a moment).
    for _ in range(200):
        if len(posts) >= 8:
            break
        page.wait_for_timeout(50)
    assert len(posts) == 8, posts
    expect(page.locator(".counter").nth(2)).to_contain_text("12/12")
    expect(page.locator("#editor-status")).to_have_text("Saved.")
    name = "phone" if touch else "desktop"
    shot(page, f"editor-after-quick-clicks-{name}")
    context.close()


def test_a_change_queued_behind_another_reaches_the_trooper_it_was_made_for(
    browser: Browser, live_server, player
):
    force = make(player, {**LEGAL_12, "units": LEGAL_12["units"][:1]})
    page = signed_in(browser, live_server.url)
    page.goto(f"{live_server.url}/forces/{force.pk}/")
    # Remove the first trooper and, before the answer, rename the last one.
    last = force.to_spec().units[0].troopers[2].id
    page.locator(f"#row-{last}").click()
    name = page.locator(f"#trooper-name-{last}")
    expect(name).to_be_visible()
    name.fill("Rearguard")
    page.evaluate(
        """(last) => {
            document.querySelector('.row-item .stepper button[value=remove-trooper]').click();
            document.getElementById('trooper-name-' + last).form.requestSubmit();
        }""",
        last,
    )
    settled(page)
    force.refresh_from_db()
    names = [t.get("name", "") for t in force.units[0]["troopers"]]
    assert names == ["", "Rearguard"]


def test_the_keyboard_adds_a_trooper_and_focus_stays_on_the_button(
    browser: Browser, live_server, player
):
    force = make(player, {**LEGAL_12, "units": LEGAL_12["units"][:1]})
    page = signed_in(browser, live_server.url, PHONE)
    page.goto(f"{live_server.url}/forces/{force.pk}/")
    key = force.to_spec().units[0].id
    add = page.locator(f"#add-trooper-{key}")
    add.focus()
    page.keyboard.press("Enter")
    settled(page)
    expect(page.locator(".counter").nth(2)).to_contain_text("4/12")
    assert page.evaluate("document.activeElement.id") == f"add-trooper-{key}"


def test_two_tabs_editing_one_list_lose_no_update(browser: Browser, live_server, player):
    force = make(player, {**LEGAL_12, "units": LEGAL_12["units"][:1]})
    page = signed_in(browser, live_server.url)
    page.goto(f"{live_server.url}/forces/{force.pk}/")
    other = page.context.new_page()
    other.goto(page.url)
    key = force.to_spec().units[0].id
    page.locator(f"#add-trooper-{key}").click()
    settled(page)
    expect(page.locator(".counter").nth(2)).to_contain_text("4/12")
    other.get_by_role("button", name=re.compile(r"^\+ Light Infantry")).click()
    settled(other)
    expect(other.locator(".messages")).to_contain_text("changed in another tab or window")
    expect(other.locator(".counter").nth(2)).to_contain_text("4/12")
    expect(other.locator(".counter").nth(1)).to_contain_text("1/4")
    shot(other, "editor-stale-tab-desktop")


# --- The odds panel -----------------------------------------------------------------------------


def test_the_odds_panel_follows_the_list_and_names_troopers_by_unit(
    browser: Browser, live_server, player
):
    force = make(player, {**LEGAL_12, "units": LEGAL_12["units"][:1]})
    page = signed_in(browser, live_server.url)
    page.goto(f"{live_server.url}/forces/{force.pk}/")
    page.get_by_role("heading", name="Card odds for this list").click()
    attacker = page.get_by_label("Attacker and weapon")
    attacker.select_option(label="Hacker: Combi Rifle")
    page.get_by_label("Target", exact=True).select_option("type:heavy-infantry")
    page.get_by_role("button", name="Work out the odds").click()
    expect(page.locator("#force-odds")).to_contain_text("Hacker (Alpha) with Combi Rifle")
    # Adding a unit redraws the panel: the new troopers are offered at once, and the
    # question and its answer stay.
    page.get_by_role("button", name=re.compile(r"^\+ Light Infantry")).click()
    settled(page)
    expect(page.locator("#odds-attacker optgroup[label='Light Infantry']")).to_have_count(1)
    expect(page.get_by_label("Attacker and weapon")).to_have_value(re.compile(r":combi-rifle$"))
    expect(page.locator("#force-odds")).to_contain_text("Only the attacker hits")
    # Close combat offers only close-combat situations.
    page.get_by_label("Exchange").select_option("close-combat")
    settled(page)
    expect(page.locator("#odds-form")).not_to_contain_text("Cover")
    expect(page.locator("#odds-panel")).to_contain_text("Charging")
    shot(page, "editor-odds-desktop")


# A list to shoot at: a mimetic, armored trooper of the owner's other list.
GHOSTS = {
    "format": "onefinity-force",
    "version": 1,
    "name": "Ghosts",
    "faction": "nomad-syndicate",
    "units": [
        {
            "id": "gh",
            "type": "medium-infantry",
            "name": "Shade",
            "skills": ["mimetism"],
            "troopers": [
                {
                    "id": "g1",
                    "weapons": ["combi-rifle", "pistol"],
                    "abilities": ["agile", "sixth-sense"],
                    "equipment": ["light-armor-plate", "medkit"],
                },
                {"id": "g2"},
                {"id": "g3"},
            ],
        }
    ],
}
SNIPERS = {
    "format": "onefinity-force",
    "version": 1,
    "name": "Long watch",
    "faction": "solar-concord",
    "units": [
        {
            "id": "sn",
            "type": "light-infantry",
            "name": "Eyes",
            "troopers": [
                {"id": "s1", "weapons": ["sniper-rifle"], "equipment": ["multispectral-visor"]},
                {"id": "s2", "weapons": ["combi-rifle"], "abilities": ["cc-specialist"]},
            ],
        }
    ],
}


@pytest.mark.parametrize(("viewport", "suffix"), [(WIDE, "desktop"), (PHONE, "phone")])
def test_the_odds_panel_shows_the_whole_exchange_and_every_effect_at_both_widths(
    browser: Browser, live_server, player, viewport, suffix
):
    snipers = make(player, SNIPERS)
    ghosts = make(player, GHOSTS)
    page = signed_in(browser, live_server.url, viewport)
    page.goto(f"{live_server.url}/forces/{snipers.pk}/")
    page.get_by_role("heading", name="Card odds for this list").click()
    page.get_by_label("Attacker and weapon").select_option("s1:sniper-rifle")
    page.get_by_label("Range").select_option("extreme")
    page.get_by_label("Target", exact=True).select_option(f"list:{ghosts.pk}:g1")
    page.get_by_role("checkbox", name="Cover (+1 to defend)").check()
    page.get_by_role("button", name="Work out the odds").click()
    answer = page.locator("#force-odds")
    # The example: 3 - 1 (Mimetism) against 1 + 1 + 1 + 1, the cover cancelled.
    expect(answer.locator(".matchup h3").first).to_contain_text("2 cards against 4")
    expect(answer).to_contain_text("cancelled by Multispectral Visor")
    expect(answer.locator(".odds-effects")).to_contain_text("Medkit")
    expect(answer.locator(".odds-effects")).to_contain_text("not part of the odds (healing)")
    # The target reacts: the panel is drawn again with the reaction's choices.
    page.get_by_label("The target reacts with fire at once").check()
    settled(page)
    page.get_by_label("Target and the weapon it reacts with").select_option(
        f"list:{ghosts.pk}:g1:combi-rifle"
    )
    page.get_by_label("Range").select_option("medium")
    page.get_by_role("button", name="Work out the odds").click()
    expect(answer).to_contain_text("the target reacts with Combi Rifle")
    expect(answer.locator(".matchup")).to_have_count(2)
    expect(answer).to_contain_text("The attacker ends")
    no_axe_violations(page, f"odds panel, reaction ({suffix})")
    if suffix == "phone":
        assert sideways(page) <= 0
    shot(page, f"editor-odds-reaction-{suffix}")
    panel_shot(page, f"odds-panel-reaction-{suffix}")
    # Close combat both ways: the defender's own situation is chosen like the attacker's.
    page.get_by_label("The target reacts with fire at once").uncheck()
    settled(page)
    page.get_by_label("Exchange").select_option("close-combat")
    settled(page)
    page.get_by_label("Attacker and weapon").select_option("s2:combi-rifle")
    page.get_by_label("Target", exact=True).select_option(f"list:{ghosts.pk}:g1")
    page.locator("input[name=target_combat][value=higher-ground]").check()
    page.locator("input[name=combat][value=charging]").check()
    page.get_by_role("button", name="Work out the odds").click()
    # 1 + CC Specialist + charging against 1 + pistol's close combat + higher ground.
    expect(answer.locator(".matchup h3")).to_contain_text("3 cards against 3")
    expect(answer).to_contain_text("The attacker ends")
    no_axe_violations(page, f"odds panel, close combat ({suffix})")
    panel_shot(page, f"odds-panel-close-combat-{suffix}")


# --- Sharing and printing ---------------------------------------------------------------------


def test_sharing_copies_the_link_shares_on_a_phone_and_previews_in_chat_apps(
    browser: Browser, live_server, player
):
    force = make(player, LEGAL_12)
    page = signed_in(browser, live_server.url)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.goto(f"{live_server.url}/forces/{force.pk}/#share")
    # A new list is private until its owner shares it.
    expect(page.get_by_text("Only you can see this list")).to_be_visible()
    expect(page.get_by_role("button", name="Copy link")).to_have_count(0)
    page.get_by_role("button", name="Turn sharing on").click()
    page.get_by_role("button", name="Copy link").click()
    expect(page.locator(".share-link .copied")).to_have_text("Copied.")
    share_url = page.evaluate("navigator.clipboard.readText()")
    assert share_url == f"{live_server.url}/s/{force.share_code}/"
    page.evaluate("document.querySelector('.share-link .copied').textContent = ''")
    page.get_by_role("link", name="Copy as text for chat").click()
    expect(page.locator(".share-link .copied")).to_have_text("Copied.")
    assert page.evaluate("navigator.clipboard.readText()").startswith(
        "Concord Vanguard — Solar Concord\n63/75 points"
    )
    shot(page, "editor-share-desktop")

    # On a phone with the Web Share API, a Share button hands the link to the share sheet.
    phone = open_page(browser, PHONE)
    phone.add_init_script(
        "navigator.share = (data) => { window.shared = data; return Promise.resolve(); }"
    )
    phone.goto(share_url)
    expect(phone.get_by_role("heading", level=1)).to_have_text("Concord Vanguard")
    phone.get_by_role("button", name="Share…").click()
    assert phone.evaluate("window.shared.url") == share_url
    assert sideways(phone) <= 0
    head = phone.locator("head")
    expect(head.locator('meta[property="og:title"]')).to_have_attribute(
        "content", "Concord Vanguard"
    )
    expect(head.locator('meta[property="og:description"]')).to_have_attribute(
        "content", re.compile("63/75 points · 4 units, 12 troopers · legal")
    )
    shot(phone, "shared-list-phone")
    # Anyone may copy it to their own lists.
    phone.get_by_role("button", name="Copy to my lists").click()
    # The copy's own page (the shared page's heading is the same: the address tells them
    # apart, and is waited for rather than read once).
    expect(phone).to_have_url(re.compile("/forces/"))
    expect(phone.get_by_role("heading", level=1)).to_have_text("Concord Vanguard")


def test_the_print_view_has_margins_a_heading_an_unclipped_qr_code_and_a_glossary(
    browser: Browser, live_server, player
):
    force = make(player, LEGAL_12, shared=True)
    page = signed_in(browser, live_server.url)
    page.goto(f"{live_server.url}/forces/{force.pk}/roster/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Concord Vanguard")
    expect(page.get_by_role("heading", name="Rules of this list")).to_be_visible()
    qr = page.locator(".qr svg").bounding_box()
    main = page.locator("main").bounding_box()
    assert qr and main and qr["x"] + qr["width"] <= main["x"] + main["width"]
    assert main["x"] >= 16  # a margin around the page
    shot(page, "roster-print-view-desktop")
    page.set_viewport_size(PHONE)
    assert sideways(page) <= 0, "the print view scrolls sideways on a phone"
    shot(page, "roster-print-view-phone")
    with page.expect_download() as download:
        page.goto(f"{live_server.url}/forces/{force.pk}/")
        page.get_by_role("link", name="Trooper cards PDF").click()
    pdf = PdfReader(io.BytesIO(Path(download.value.path()).read_bytes()))
    text = "\n".join(p.extract_text() for p in pdf.pages)
    assert "Hack (2 AP)" in text and "Fireteam (unit)" in text  # rule text on the cards


# --- Home, examples, lists ---------------------------------------------------------------------


def test_the_home_page_starts_a_list_and_its_examples_open_and_copy(browser: Browser, live_server):
    page = open_page(browser, PHONE)
    page.goto(live_server.url + "/")
    expect(page.get_by_role("link", name="Build a list")).to_be_visible()
    page.get_by_role("link", name="Open Solar Concord Line").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Solar Concord Line")
    assert sideways(page) <= 0
    shot(page, "example-list-phone")
    page.get_by_role("button", name="Copy to my lists").click()
    expect(page.locator(".counter.verdict")).to_have_text("Legal")
    expect(page.get_by_text("Solar Concord Line copied to your lists")).to_be_visible()
    page.goto(live_server.url + "/forces/")
    assert sideways(page) <= 0, "My lists scrolls sideways on a phone"
    shot(page, "my-lists-phone")


# --- Without JavaScript -------------------------------------------------------------------------


def test_the_editor_works_without_javascript(browser: Browser, live_server, player):
    force = make(player, {**LEGAL_12, "units": LEGAL_12["units"][:1]})
    page = signed_in(browser, live_server.url, javascript=False)
    page.goto(f"{live_server.url}/forces/{force.pk}/")
    page.get_by_role("button", name=re.compile(r"^\+ TAG")).click()
    expect(page.locator(".unit")).to_have_count(2)
    page.locator(".unit").last.locator("a.row").click()
    page.get_by_label("Heavy Machine Gun").check()
    page.get_by_role("button", name="Save loadout").click()
    expect(page.get_by_label("Heavy Machine Gun")).to_be_checked()
    page.get_by_role("link", name=re.compile("^Back to")).click()
    expect(page.locator(".unit").last).to_contain_text("Heavy Machine Gun")
    page.get_by_role("button", name=re.compile("^Undo")).click()
    expect(page.locator(".unit").last).not_to_contain_text("Heavy Machine Gun")


# --- The outside judges ---------------------------------------------------------------------------


def test_the_force_builder_pages_pass_axe_and_the_nu_html_checker(
    browser: Browser, live_server, player
):
    legal = make(player, LEGAL_12, shared=True)
    # Units without names, two of one type: the printouts still name each unit's table apart.
    unnamed = make(
        player,
        {**LEGAL_12, "units": [{**unit, "name": ""} for unit in LEGAL_12["units"]]},
        shared=True,
    )
    broken = make(player, WITH_PROBLEMS)
    empty = make(player, {**LEGAL_12, "name": "Empty", "units": []})
    base = live_server.url
    engineer = f"/forces/{broken.pk}/?open=h3"
    hacker = legal.to_spec().units[0].troopers[0].id
    odds = f"/forces/{legal.pk}/odds/?attacker={hacker}:combi-rifle&target=type:heavy-infantry"
    pages = {
        "editor-odds-reaction": f"{odds}&mode=shooting&band=medium&reaction=1&defense=cover",
        "editor-odds-close-combat": f"{odds}&mode=close-combat&combat=charging&target_combat=rear",
        "my-lists": "/forces/",
        "new-list": "/forces/new/",
        "import": "/forces/import/",
        "editor-empty": f"/forces/{empty.pk}/",
        "editor-legal-12": f"/forces/{legal.pk}/",
        "editor-problems": f"/forces/{broken.pk}/",
        "editor-picker-open": engineer,
        "share": f"/s/{unnamed.share_code}/",
        "roster": f"/forces/{unnamed.pk}/roster/",
        "example": "/examples/solar-concord-line/",
        "trooper-page": f"/forces/{broken.pk}/troopers/h3/",
    }
    html = {}
    for viewport, suffix in ((WIDE, "desktop"), (PHONE, "phone")):
        page = signed_in(browser, base, viewport)
        for name, path in pages.items():
            page.goto(base + path)
            no_axe_violations(page, f"{name} ({suffix})")
            if suffix == "phone":
                assert sideways(page) <= 0, f"{name} scrolls sideways on a phone"
            html[name] = page.request.get(base + path).text()
        # The import preview, and the editor with its picker opened in the page.
        page.goto(base + "/forces/import/")
        page.locator("textarea").fill(json.dumps(LEGAL_12))
        page.get_by_role("button", name="Check the list").click()
        expect(page.get_by_role("button", name="Save to my lists")).to_be_visible()
        page.wait_for_load_state()  # the whole preview, not what is parsed of it so far
        html["import-preview"] = page.content()  # before axe adds its own script
        no_axe_violations(page, f"import preview ({suffix})")
        shot(page, f"import-preview-{suffix}")
        page.goto(base + f"/forces/{broken.pk}/")
        page.locator("#opts-big > summary").click()
        expect(page.locator("#opts-big .menu-body form")).to_have_count(4)
        page.locator("#row-h3").click()
        expect(page.locator("#loadout .picker")).to_be_visible()
        no_axe_violations(page, f"editor with picker and unit options open ({suffix})")
        page.context.close()
    errors = markup_errors(html, ROOT / "test-artifacts" / "markup" / "forcebuilder")
    assert errors == {}, errors
