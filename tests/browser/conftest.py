"""Playwright driving Debian's Chromium (/usr/bin/chromium); never a downloaded browser.

Screenshots are kept in test-artifacts/screenshots/.
"""

from __future__ import annotations

import os
import time
import warnings
from collections.abc import Callable, Iterator, Sized
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, Route, expect, sync_playwright
from playwright.sync_api import Error as PlaywrightError

CHROMIUM = "/usr/bin/chromium"
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}

# Playwright's sync API runs an event loop in this thread; the live server's database
# access happens in its own thread, so Django's async-safety guard does not apply.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/browser" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: `make test` installs Debian's chromium")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
            ],
        )
        yield browser
        browser.close()


# A page's load is the server's work: on a busy machine (CI's, or two suites side by side at
# load 15) a page that a quiet machine serves in 0.1 s took over 15 s, and the test failed
# on the machine, not the site. Navigations get a minute; an action's wait stays short.
NAVIGATION_MS = 60_000


# Every expect(...) waits this long for what it expects (Playwright's default is 5 s): a
# page on CI's busy machine can take longer to show the server's answer, and a check that
# holds returns as soon as it does.
expect.set_options(timeout=20_000)


def patient(page: Page, action_ms: int = 10_000) -> Page:
    """The page's waits: `action_ms` for an element, a minute for a page to load."""
    page.set_default_timeout(action_ms)
    page.set_default_navigation_timeout(NAVIGATION_MS)
    return page


def _page(browser: Browser, viewport: dict[str, int], javascript: bool = True) -> Iterator[Page]:
    context = browser.new_context(viewport=viewport, java_script_enabled=javascript)
    page = context.new_page()
    patient(page)
    yield page
    context.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    yield from _page(browser, DESKTOP)


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    yield from _page(browser, PHONE)


@pytest.fixture
def page_without_javascript(browser: Browser) -> Iterator[Page]:
    yield from _page(browser, DESKTOP, javascript=False)


def screenshot(page: Page, name: str, full_page: bool = True) -> None:
    """The whole page, or (full_page=False) the screen as the player sees it: a sheet fixed
    to the bottom of the screen is drawn where it is."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    # A picture is the test's artifact, not what it checks: Chromium can refuse a capture on
    # a busy machine ("Unable to capture screenshot", seen once in a fresh clone's make
    # test), so it is tried again, then left out with a warning rather than failing a test
    # whose page passed every check.
    for attempt in range(3):
        try:
            page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=full_page)
            return
        except PlaywrightError as refused:
            if "screenshot" not in str(refused).lower():
                raise
            page.wait_for_timeout(200 * (attempt + 1))
    warnings.warn(f"no screenshot {name}: Chromium would not capture the page", stacklevel=2)


def wait_until(page: Page, condition: str, timeout_ms: int = 10_000) -> None:
    """Poll a JavaScript condition. (page.wait_for_function evaluates strings with eval in
    the page, which the site's Content-Security-Policy rightly forbids.)"""
    waited = 0
    while not page.evaluate(condition):
        if waited >= timeout_ms:
            raise AssertionError(f"timed out waiting for {condition}")
        page.wait_for_timeout(20)
        waited += 20


def heard(page: Page, events: Sized, count: int, timeout_ms: int = NAVIGATION_MS) -> None:
    """Until a list filled by a listener of the page's events holds ``count`` of them. A
    listener may finish after the page has moved on: one that reads a response's body, say,
    runs in a greenlet of its own that resumes only when the body has come."""
    deadline = time.monotonic() + timeout_ms / 1000
    while len(events) < count:
        if time.monotonic() > deadline:
            raise AssertionError(f"heard {len(events)} of {count} events: {events}")
        page.wait_for_timeout(20)


def settled(page: Page) -> None:
    """Wait until htmx has finished swapping and settling the last response: as long as a
    navigation, since it waits for the server's answer (10 s was short of a busy machine's)."""
    wait_until(
        page,
        "!document.querySelector('.htmx-request, .htmx-settling, .htmx-swapping')",
        NAVIGATION_MS,
    )


class HeldAnswers:
    """The page's requests to ``url`` held back, as on a slow connection, until ``release()``
    (or the end of the ``with``). The route stays until the page has settled (``settle``),
    and lets through at once what it sees after the release: the page may send the next
    request as soon as the first is answered, and a request caught while a route is being
    taken away goes unreported by Playwright (CI once counted 7 of 8 posts)."""

    def __init__(
        self, page: Page, url: str | Callable[[str], bool], settle: Callable[[Page], None]
    ) -> None:
        self.page, self.url, self.settle = page, url, settle
        self.routes: list[Route] = []
        self.released = False

    def __enter__(self) -> HeldAnswers:
        self.page.route(self.url, self._hold)
        return self

    def _hold(self, route: Route) -> None:
        if self.released:
            route.continue_()
        else:
            self.routes.append(route)

    def release(self) -> None:
        self.released = True
        waiting, self.routes = self.routes, []
        for route in waiting:
            route.continue_()

    def __exit__(self, *exc: object) -> None:
        self.release()
        if exc[0] is None:
            self.settle(self.page)
        self.page.unroute(self.url)
