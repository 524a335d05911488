"""A tournament pack made by the task worker while its page is closed: an organizer on a
phone asks for it, closes the page (a locked phone), comes back and finds it finished. The
site as `make serve` runs it (nginx, gunicorn, the worker), driven by Chromium."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.conftest import PHONE, screenshot
from tests.browser.quality import axe_violations
from tests.jobs.stack import Stack


@pytest.fixture(scope="module")
def served(tmp_path_factory) -> Iterator[Stack]:
    site = Stack(tmp_path_factory.mktemp("served")).start()
    try:
        yield site
    finally:
        site.close()


def test_a_pack_finishes_with_its_page_closed_and_reopened(browser: Browser, served: Stack):
    context = browser.new_context(viewport=PHONE, has_touch=True, bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(served.base + "/accounts/signup/")
    page.get_by_label("Username").fill("orga")
    page.get_by_label("Password", exact=True).fill("a-long-pass-phrase")
    page.get_by_label("Password confirmation").fill("a-long-pass-phrase")
    page.get_by_role("button", name="Create my account").click()
    page.goto(served.base + "/tables/packs/new/")
    page.get_by_label("Pack name").fill("Club night")
    page.get_by_label("Tables in the pack").fill("12")
    page.get_by_role("button", name="Generate the pack").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Club night")
    expect(page.get_by_text("you can close this page and come back")).to_be_visible()
    screenshot(page, "worker-pack-asked-phone")
    url = page.url
    page.close()  # the phone locks: nothing on the page asks for anything any more

    deadline = time.monotonic() + 120
    while served.django(
        "from tablegen.models import Pack; print(int(Pack.objects.get().pdf_ready))"
    ) != 1:
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
