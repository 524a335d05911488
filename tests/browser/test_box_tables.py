"""A terrain box that makes no table, in a real browser (issue 24): the page says why and
what to add, shows the closest table it made with its problems marked, and keeps it as a
draft to finish in the editor; at desktop and phone widths, with axe."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.conftest import PHONE, patient, screenshot
from tests.browser.quality import axe_violations
from tests.browser.test_tables import open_controls, sideways

pytestmark = pytest.mark.django_db(transaction=True)

WIDE = {"width": 1366, "height": 900}
# The box of the issue (18 pieces, most one of a kind) in mirror symmetry: it has the hexes
# but its lanes stay open; the advice found by trying is two more Large hills.
ISSUE_BOX = (
    "barricade:2,building-4:1,building-6:1,bunker:1,container:2,crates:2,hill-7:1,"
    "scatter:2,shack-3:2,wall-2:2,wall-3:2"
)


@pytest.mark.parametrize(("viewport", "suffix"), [(WIDE, "desktop"), (PHONE, "phone")])
def test_a_box_that_makes_no_table_shows_its_draft_and_advice_and_keeps_the_draft(
    browser: Browser, live_server, viewport, suffix
):
    context = browser.new_context(viewport=viewport, bypass_csp=True)
    page = context.new_page()
    patient(page, 15_000)
    page.goto(
        f"{live_server.url}/tables/new/?seed=4&coverage=0.45&symmetry=mirror&mix=balanced"
        f"&box={ISSUE_BOX}"
    )
    alert = page.get_by_role("alert")
    # "cannot make a valid table", or on a busy machine "made no valid table within 4 s":
    # the same advice either way (it does not depend on the seed or the time left).
    expect(alert).to_contain_text("Seed 4: This terrain box ")
    expect(alert).to_contain_text("lanes from table edge to table edge stayed open")
    expect(alert).to_contain_text("To fix it, add to the box: 2 \u00d7 Large hill, 7 hexes")
    expect(page.locator(".meta")).to_contain_text("Draft, not valid · Seed 4")
    expect(page.locator(".verdict")).to_contain_text("Not valid")
    expect(page.locator("[data-table-map] a.problem")).not_to_have_count(0)
    assert sideways(page) <= 0
    assert axe_violations(page) == []
    screenshot(page, f"box-draft-and-advice-{suffix}")
    page.get_by_role("button", name="Keep as a draft to finish by hand").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Draft: ")
    expect(page.locator(".verdict")).to_contain_text("Not valid")
    expect(page.locator("body")).to_contain_text("kept as a draft: not valid yet")
    screenshot(page, f"box-draft-kept-{suffix}")
    context.close()


@pytest.mark.parametrize(("viewport", "suffix"), [(WIDE, "desktop"), (PHONE, "phone")])
def test_the_editor_of_a_table_from_a_box_lists_the_pieces_left(
    browser: Browser, live_server, viewport, suffix
):
    context = browser.new_context(viewport=viewport, bypass_csp=True)
    page = context.new_page()
    page.goto(
        f"{live_server.url}/tables/new/?seed=2&coverage=0.45&symmetry=point&mix=balanced"
        "&box=building-4:2,hill-4:2,wall-3:6,crates:6,shack-3:4"
    )
    page.get_by_role("button", name="Save this table").click()
    section = page.locator(".box-left")
    expect(section).to_contain_text("From its terrain box")
    expect(section).to_contain_text("of 2 left")
    open_controls(page)  # folded on a phone
    page.get_by_text("Library pieces: choose one to stamp").click()
    expect(page.locator("#role-box")).to_have_text("In this table's terrain box")
    assert sideways(page) <= 0
    found = axe_violations(page)
    assert found == [], found
    screenshot(page, f"box-table-editor-{suffix}")
    context.close()
