"""A tournament pack made by the task worker, in a real browser against the site as `make
serve` runs it (nginx, gunicorn, the worker): its progress bar moving while the page is
open, on a desktop and a phone; its page closed (a locked phone) and reopened finished; and
without JavaScript, a page that refreshes itself until the pack is made. Judged by axe-core
and the Nu HTML checker."""

from __future__ import annotations

import time
from collections.abc import Iterator
from itertools import count

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import DESKTOP, PHONE, patient, screenshot
from tests.browser.quality import ROOT, axe_violations, markup_errors
from tests.jobs.stack import Stack

# One worker runs this module's tests (make pytest: --dist loadgroup), so they share its server.
pytestmark = pytest.mark.xdist_group("worker-pack-stack")

_accounts = count()


@pytest.fixture(scope="module")
def served(tmp_path_factory) -> Iterator[Stack]:
    site = Stack(tmp_path_factory.mktemp("served")).start()
    try:
        yield site
    finally:
        site.close()


def signed_up(browser: Browser, served: Stack, viewport: dict, javascript: bool = True) -> Page:
    """A new organizer's page (a new account each time: its own packs)."""
    context = browser.new_context(
        viewport=viewport,
        has_touch=viewport == PHONE,
        java_script_enabled=javascript,
        bypass_csp=True,  # axe-core is injected as a script
    )
    page = context.new_page()
    patient(page, 15_000)
    page.goto(served.base + "/accounts/signup/")
    page.get_by_label("Username").fill(f"orga{next(_accounts)}")
    page.get_by_label("Password", exact=True).fill("a-long-pass-phrase")
    page.get_by_label("Password confirmation").fill("a-long-pass-phrase")
    page.get_by_role("button", name="Create my account").click()
    return page


def ask_for_a_pack(page: Page, served: Stack, tables: int, name: str) -> None:
    page.goto(served.base + "/tables/packs/new/")
    page.get_by_label("Pack name").fill(name)
    page.get_by_label("Tables in the pack").fill(str(tables))
    page.get_by_role("button", name="Generate the pack").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(name)


# The stages a pack goes through, in order (the bar's label says which).
STAGES = ("Generating the tables", "Measuring the tables", "Making the PDF")

# What the page shows at one moment, read at once (the region may be swapped between two
# separate reads): the stage's words and the bar's value, or null once the bar is gone.
READ_BAR = """() => {
  const bar = document.querySelector('#pack-bar');
  const label = document.querySelector('label[for=pack-bar]');
  return bar ? [label ? label.textContent : '', bar.value, bar.max] : null;
}"""


def stage_of(label: str) -> int:
    return next(i for i, words in enumerate(STAGES) if label.strip().startswith(words))


def test_the_progress_bar_moves_as_the_worker_makes_the_pack(browser: Browser, served: Stack):
    """What the user must see, however fast the worker is: the bar on the first page, then
    only forward (stages in order, the count never going back within a stage), and the
    download at the end, all without a reload. How many polls fall between two states is
    the machine's business (a fast worker makes the tables between two), so it is not
    counted."""
    html = {}
    for viewport, suffix in ((DESKTOP, "desktop"), (PHONE, "phone")):
        page = signed_up(browser, served, viewport)
        ask_for_a_pack(page, served, 16, f"League {suffix}")
        done = page.get_by_role("link", name="Download the pack PDF")
        # Gone after a reload: the page must move on by itself.
        page.evaluate("window.notReloaded = true")
        # The page as first drawn is read whole: once it has loaded, not as far as it was
        # parsed when its heading could be read (a bar not parsed yet went unjudged).
        page.wait_for_load_state()
        first = page.evaluate(READ_BAR)
        seen = []
        if first is not None:
            # The page as it was first drawn, before any poll: judged while it shows the bar.
            screenshot(page, f"worker-pack-progress-{suffix}")
            html[f"progress-{suffix}"] = page.content()
            assert axe_violations(page) == []
        deadline = time.monotonic() + 180
        while not done.count():
            assert time.monotonic() < deadline, f"the pack was not made: {seen}"
            state = page.evaluate(READ_BAR)
            if state is not None and (not seen or seen[-1] != state):
                seen.append(state)
            page.wait_for_timeout(50)
        # Never backwards: the stages in order, and within one stage the count only grows.
        steps = [(stage_of(label), value) for label, value, _ in seen]
        assert steps == sorted(steps), seen
        # The bar gave way to the download by itself (polled, never reloaded by hand).
        assert page.evaluate("window.notReloaded === true")
        expect(page.locator(".pack-card")).to_have_count(16)
        expect(page.locator("#pack-bar")).to_have_count(0)
        screenshot(page, f"worker-pack-made-{suffix}")
        assert axe_violations(page) == []
        html[f"made-{suffix}"] = page.request.get(page.url).text()
        page.context.close()
    errors = markup_errors(html, ROOT / "test-artifacts" / "markup" / "worker-pack")
    assert errors == {}, errors


def test_without_javascript_the_page_refreshes_itself_until_the_pack_is_made(
    browser: Browser, served: Stack
):
    page = signed_up(browser, served, DESKTOP, javascript=False)
    ask_for_a_pack(page, served, 4, "No script")
    assert 'http-equiv="refresh"' in page.content()
    # Nothing is clicked: the page asks again by itself every 3 seconds.
    expect(page.get_by_role("link", name="Download the pack PDF")).to_be_visible(timeout=120_000)
    assert 'http-equiv="refresh"' not in page.content()
    expect(page.locator(".pack-card")).to_have_count(4)
    page.context.close()


def test_a_pack_finishes_with_its_page_closed_and_reopened(browser: Browser, served: Stack):
    page = signed_up(browser, served, PHONE)
    context = page.context
    ask_for_a_pack(page, served, 12, "Club night")
    expect(page.get_by_text("you can close this page and come back")).to_be_visible()
    screenshot(page, "worker-pack-asked-phone")
    url = page.url
    page.close()  # the phone locks: nothing on the page asks for anything any more

    deadline = time.monotonic() + 120
    while (
        served.django(
            "from tablegen.models import Pack; "
            "print(int(Pack.objects.get(name='Club night').pdf_ready))"
        )
        != 1
    ):
        assert time.monotonic() < deadline, "the worker did not finish the pack"
        time.sleep(1)

    again = context.new_page()
    again.goto(url)
    expect(again.get_by_role("link", name="Download the pack PDF")).to_be_visible()
    expect(again.locator("progress")).to_have_count(0)
    assert again.locator(".pack-card").count() == 12
    screenshot(again, "worker-pack-finished-phone")
    assert axe_violations(again) == []
    jobs = context.new_page()
    jobs.goto(served.base + "/jobs/")
    expect(jobs.get_by_text("Tournament pack Club night: ready.")).to_be_visible()
    screenshot(jobs, "worker-jobs-phone")
    assert axe_violations(jobs) == []
    context.close()
