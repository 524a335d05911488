"""What a player saw go wrong on a phone (390 x 844), judged there and on a wide screen: the
sign-up form's fields of unequal heights, a trooper's gear cut short in the list editor, the
event's join link cut at its field's edge with its copy button pressed against it. Each page
is also put before axe-core and the Nu HTML checker."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from django.test import Client
from playwright.sync_api import Browser, BrowserContext, Page, expect

from forcebuilder.models import Force
from onefinity.rules import read_force_document
from tests.browser.conftest import PHONE, patient, screenshot
from tests.browser.quality import ROOT, axe_violations, markup_errors
from tests.events.conftest import make_event
from tests.factories import LEGAL_DOCUMENT

pytestmark = pytest.mark.django_db(transaction=True)

WIDE = {"width": 1366, "height": 900}
PASSWORD = "a-long-pass-phrase"
# A TAG carrying as much as the catalogue lets a row show: its gear is longer than a
# phone's row is wide.
LOADED_TAG = {
    "type": "tag",
    "name": "Heavy Lifter",
    "troopers": [
        {
            "weapons": ["tag-autocannon", "spitfire", "missile-launcher"],
            "equipment": ["multispectral-visor", "smoke-grenades", "motion-sensor"],
            "abilities": ["reactive-fire-plus"],
        }
    ],
}
GEAR = ["TAG Autocannon", "Spitfire", "Missile Launcher", "Multispectral Visor", "Motion Sensor"]


def context(browser: Browser, base: str, viewport: dict[str, int], user: Any = None):
    """A browser context (signed in as ``user``, or nobody) that lets axe-core's script in."""
    made = browser.new_context(viewport=viewport, bypass_csp=True)
    if user is not None:
        client = Client()
        client.force_login(user)
        made.add_cookies(
            [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": base}]
        )
    return made


def opened(made: BrowserContext, url: str) -> Page:
    page = patient(made.new_page())
    page.goto(url)
    return page


def box(page: Page, selector: str) -> dict[str, float]:
    found = page.locator(selector).bounding_box()
    assert found is not None, f"{selector} is not shown"
    return found


def judged(page: Page, what: str) -> None:
    """No axe-core violation, and no sideways scrolling on a phone."""
    assert axe_violations(page) == [], what
    sideways = page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert sideways <= 0, f"{what} scrolls sideways by {sideways}px"


def markup_is_valid(pages: dict[str, str], viewport: dict[str, int], folder: str) -> None:
    """The Nu HTML checker finds no error in the pages as the server sent them (the same at
    both widths: read once, with the wide screen's run)."""
    if viewport == WIDE:
        errors = markup_errors(pages, ROOT / "test-artifacts" / "markup" / folder)
        assert errors == {}, errors


def sent(page: Page) -> str:
    """The page's HTML as the server sends it (page.content() would hold axe's script)."""
    return page.request.get(page.url).text()


def cut(page: Page, selector: str) -> list[str]:
    """The elements under ``selector`` whose content does not fit them (clipped or hidden
    behind an ellipsis), by their text."""
    return page.eval_on_selector_all(
        selector,
        "els => els.filter(e => e.scrollWidth > e.clientWidth + 1"
        " || e.scrollHeight > e.clientHeight + 1).map(e => e.value || e.textContent)",
    )


def read_whole_beside_the_steppers(page: Page, part: str) -> None:
    """No editor row's ``part`` (its gear, its name) is cut, no row is wider than its list,
    and each row's ``part`` ends before the row's minus and plus buttons begin."""
    assert cut(page, f"a.row {part}") == []
    assert cut(page, "a.row") == []
    for i in range(page.locator(".row-item").count()):
        item = page.locator(".row-item").nth(i)
        shown = item.locator(part).bounding_box()
        stepper = item.locator(".stepper").bounding_box()
        assert shown is not None and stepper is not None
        assert shown["x"] + shown["width"] <= stepper["x"], item.inner_text()


@pytest.mark.parametrize("viewport", [PHONE, WIDE], ids=["phone", "wide"])
def test_the_sign_up_and_log_in_fields_are_alike(browser, live_server, viewport):
    made = context(browser, live_server.url, viewport)
    html = {}
    for name, path in (("signup", "/accounts/signup/"), ("login", "/accounts/login/")):
        page = opened(made, live_server.url + path)
        fields = page.locator("main form input:not([type=hidden])")
        assert fields.count() == (4 if name == "signup" else 2)
        boxes = [fields.nth(i).bounding_box() for i in range(fields.count())]
        kinds = [fields.nth(i).get_attribute("type") for i in range(fields.count())]
        # Text, e-mail and password fields one under another, each as tall and wide as the
        # first, and tall enough for a thumb.
        assert {box["height"] for box in boxes} == {boxes[0]["height"]}, (name, kinds, boxes)
        assert boxes[0]["height"] >= 44
        assert {box["width"] for box in boxes} == {boxes[0]["width"]}, (name, kinds, boxes)
        assert {box["x"] for box in boxes} == {boxes[0]["x"]}
        if name == "signup":
            # Under the password, its rules (a list) leave no wider gap before the next
            # field than the username's sentence of help does.
            gaps = page.eval_on_selector_all(
                "main form .field",
                "fields => fields.slice(0, -1).map((f, i) => {"
                " const help = f.querySelector('.help');"
                " const last = help ? help.querySelector('li:last-child') || help"
                " : f.querySelector('input');"
                " return fields[i + 1].getBoundingClientRect().top"
                " - last.getBoundingClientRect().bottom; })",
            )
            assert gaps[2] <= gaps[0] + 1, gaps
        judged(page, f"{name} ({viewport['width']})")
        screenshot(page, f"phone-nits-{name}-{viewport['width']}")
        html[name] = sent(page)
    made.close()
    markup_is_valid(html, viewport, "phone-nits-forms")


@pytest.mark.parametrize("viewport", [PHONE, WIDE], ids=["phone", "wide"])
def test_a_troopers_gear_is_read_whole_in_the_editor(
    browser, live_server, django_user_model, viewport
):
    player = django_user_model.objects.create_user("player", "p@example.com", PASSWORD)
    document = copy.deepcopy(LEGAL_DOCUMENT)
    document["units"] = [document["units"][0], LOADED_TAG]
    force = Force.create_from_spec(read_force_document(document), "2026.11", 75, owner=player)
    made = context(browser, live_server.url, viewport, player)
    page = opened(made, live_server.url + force.get_absolute_url())

    row = page.locator("a.row", has_text="Missile Launcher")
    expect(row).to_be_visible()
    for item in GEAR:
        expect(row.locator(".gear")).to_contain_text(item)
    # Nothing of any row's gear is cut off, no row is wider than its list, and the gear
    # stays clear of the row's minus and plus buttons.
    read_whole_beside_the_steppers(page, ".gear")
    if viewport == PHONE:
        # Wrapped over more than one line: read whole, not cut at the screen's edge.
        line = float(
            row.locator(".gear").evaluate("e => parseFloat(getComputedStyle(e).lineHeight)")
        )
        assert row.locator(".gear").bounding_box()["height"] > 1.5 * line
    judged(page, f"the editor ({viewport['width']})")
    screenshot(page, f"phone-nits-editor-{viewport['width']}")
    html = {"editor": sent(page)}
    made.close()
    markup_is_valid(html, viewport, "phone-nits-editor")


# Names as long as a trooper's may be (onefinity.rules.force.MAX_NAME_LENGTH): one of words,
# one a single word, as a player pasting a call sign might leave it.
LONG_NAMES = [
    "Sergeant Major Ekaterina Volkova-Brandt of the Third Orbital Pathfinder Detachment, "
    "Second Company",
    "Ekaterina" * 13,
]


@pytest.mark.parametrize("viewport", [PHONE, WIDE], ids=["phone", "wide"])
def test_a_troopers_long_name_is_read_whole_in_the_editor(
    browser, live_server, django_user_model, viewport
):
    player = django_user_model.objects.create_user("player", "p@example.com", PASSWORD)
    document = copy.deepcopy(LEGAL_DOCUMENT)
    troopers = document["units"][0]["troopers"]
    troopers[1]["name"], troopers[2]["name"] = LONG_NAMES
    force = Force.create_from_spec(read_force_document(document), "2026.11", 75, owner=player)
    made = context(browser, live_server.url, viewport, player)
    page = opened(made, live_server.url + force.get_absolute_url())
    for name in LONG_NAMES:
        expect(page.locator("a.row .row-name", has_text=name[:40])).to_have_text(name)
    # No name is cut, no row is wider than its list, and the names stay clear of the
    # rows' minus and plus buttons.
    read_whole_beside_the_steppers(page, ".row-name")
    # A short name keeps to one line.
    short = page.locator("a.row .row-name", has_text="Hacker")
    line = float(short.evaluate("e => parseFloat(getComputedStyle(e).lineHeight)"))
    assert box(page, "a.row .row-name >> text=Hacker")["height"] < 1.5 * line
    judged(page, f"the editor with long names ({viewport['width']})")
    screenshot(page, f"phone-nits-long-names-{viewport['width']}")
    made.close()


@pytest.mark.parametrize("viewport", [PHONE, WIDE], ids=["phone", "wide"])
def test_the_join_link_is_read_whole_and_copied_with_one_tap(
    browser, live_server, django_user_model, viewport
):
    organizer = django_user_model.objects.create_user("orga", "o@example.com", PASSWORD)
    event = make_event(organizer)
    made = context(browser, live_server.url, viewport, organizer)
    made.grant_permissions(["clipboard-read", "clipboard-write"])
    page = opened(made, f"{live_server.url}/events/{event.pk}/")
    link = live_server.url + event.get_join_url()

    field = page.get_by_label("Hand this link")
    assert field.input_value() == link
    # The whole link is shown, within the screen.
    assert cut(page, "#join-url") == []
    shown = box(page, "#join-url")
    assert shown["x"] >= 0 and shown["x"] + shown["width"] <= viewport["width"]

    button = page.get_by_role("button", name="Copy the join link")
    expect(button).to_be_visible()
    pressed = button.bounding_box()
    assert pressed is not None
    assert pressed["height"] >= 44 and pressed["width"] >= 44
    # Clear of the field above it, and of the actions beside or below it.
    assert pressed["y"] >= shown["y"] + shown["height"] + 4
    for other in (
        page.get_by_role("link", name="Download the QR code (SVG)"),
        page.get_by_role("button", name="Make a new link"),
    ):
        beside = other.bounding_box()
        assert beside is not None and beside["height"] >= 44
        apart = (
            beside["x"] >= pressed["x"] + pressed["width"]
            or beside["y"] >= pressed["y"] + pressed["height"]
        )
        assert apart, (pressed, beside)

    button.click()
    expect(page.locator("#join .copied")).to_have_text("Copied.")
    assert page.evaluate("navigator.clipboard.readText()") == link
    judged(page, f"the event's dashboard ({viewport['width']})")
    screenshot(page, f"phone-nits-dashboard-{viewport['width']}")
    html = {"dashboard": sent(page)}
    made.close()
    markup_is_valid(html, viewport, "phone-nits-dashboard")


def too_small(page: Page, selectors: list[str]) -> list[str]:
    """The visible controls under ``selectors`` less than a finger's 44 px tall, by text."""
    return page.eval_on_selector_all(
        ", ".join(selectors),
        "els => els.filter(e => e.offsetParent !== null && e.getBoundingClientRect().height < 44)"
        ".map(e => `${e.textContent.trim().slice(0, 40)}: ${e.getBoundingClientRect().height}`)",
    )


def test_on_a_phone_the_controls_a_player_taps_are_a_fingers_width_tall(
    browser, live_server, django_user_model
):
    """What a tester found under 44 px at 390 px: the list's actions (Print, Roster PDF,
    More...), Undo, the dashboard's Lock and Remove, a player's disclosures on the event page,
    the home page's Open."""
    organizer = django_user_model.objects.create_user("orga", "o@example.com", PASSWORD)
    player = django_user_model.objects.create_user("player", "p@example.com", PASSWORD)
    event = make_event(organizer)
    event.join(player)
    document = copy.deepcopy(LEGAL_DOCUMENT)
    force = Force.create_from_spec(read_force_document(document), "2026.11", 75, owner=player)
    made = context(browser, live_server.url, PHONE, player)
    page = opened(made, live_server.url + force.get_absolute_url())
    assert too_small(page, [".page-head .actions > a", ".page-head summary", "#undo"]) == []
    # The way back to the event whose entry still takes a list, above the list.
    way_back = page.locator(".way-back a")
    expect(way_back).to_have_attribute("href", f"/events/{event.pk}/me/#submit")
    judged(page, "the editor with its way back (390)")
    screenshot(page, "phone-nits-way-back-390")
    page.goto(f"{live_server.url}/events/{event.pk}/me/")
    assert page.locator("main details > summary").count() > 0
    assert too_small(page, ["main details > summary"]) == []
    screenshot(page, "phone-nits-player-event-390")
    page.goto(live_server.url + "/")
    assert too_small(page, [".example-actions a", ".example-actions button"]) == []
    made.close()
    made = context(browser, live_server.url, PHONE, organizer)
    page = opened(made, f"{live_server.url}/events/{event.pk}/")
    assert page.locator(".row-actions button").count() >= 2
    assert too_small(page, [".row-actions button"]) == []
    judged(page, "the dashboard on a phone")
    made.close()
