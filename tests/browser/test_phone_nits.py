"""What a player saw go wrong on a phone (390 x 844), judged there and on a wide screen: the
sign-up form's fields of unequal heights, a trooper's gear cut short in the list editor, the
event's join link cut at its field's edge with its copy button pressed against it. Each page
is also put before axe-core and the Nu HTML checker."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from playwright.sync_api import Browser, BrowserContext, Page

from tests.browser.conftest import PHONE, patient, screenshot
from tests.browser.quality import ROOT, axe_violations, markup_errors

pytestmark = pytest.mark.django_db(transaction=True)

WIDE = {"width": 1366, "height": 900}
PASSWORD = "a-long-pass-phrase"


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
        judged(page, f"{name} ({viewport['width']})")
        screenshot(page, f"phone-nits-{name}-{viewport['width']}")
        html[name] = sent(page)
    made.close()
    markup_is_valid(html, viewport, "phone-nits-forms")
