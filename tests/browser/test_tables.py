"""The table generator in a real browser: generate, edit hexes, watch the verdict, share,
download the PNG and the setup sheet."""

from __future__ import annotations

import io
import itertools
import re
import threading
import time
from pathlib import Path

import pytest
from PIL import Image
from playwright.sync_api import Browser, Page, expect
from pypdf import PdfReader

from tablegen.models import Table
from tests.browser.conftest import (
    DESKTOP,
    NAVIGATION_MS,
    PHONE,
    HeldAnswers,
    heard,
    screenshot,
    settled,
)
from tests.browser.quality import ROOT, axe_violations, markup_errors

pytestmark = pytest.mark.django_db(transaction=True)


def test_generate_edit_share_and_download_a_table(page: Page, browser: Browser, live_server):
    page.goto(live_server.url + "/tables/new/")
    page.get_by_label("Seed", exact=True).fill("5")
    page.get_by_label("Keep this seed").check()  # else each press draws a new seed
    page.get_by_role("button", name="Generate").click()
    expect(page.locator(".verdict")).to_have_text("Valid table")
    expect(page.locator("#permalink")).to_have_value(
        f"{live_server.url}/tables/new/?seed=5&coverage=0.45&symmetry=point&mix=balanced"
    )

    # What does 0,4 see? And why can it not see -2,9?
    page.get_by_role("link", name="Line of fire").click()
    settled(page)
    hex_at(page, "0,4").click()
    settled(page)
    expect(page.locator(".hint")).to_contain_text("Showing what Row 5 from side A, column 3")
    hex_at(page, "-2,9").click()
    settled(page)
    expect(page.locator(".lof-result")).to_contain_text("blocked")
    screenshot(page, "table-line-of-fire")

    page.get_by_role("button", name="Save this table").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Table 5")
    editor_ready(page)
    # Three more terrain hexes along side A's edge give it more cover than side B's.
    for hex_ in ("0,0", "1,0", "4,0"):
        hex_at(page, hex_).click()
        settled(page)
    expect(page.locator(".verdict")).to_contain_text("Not valid")
    expect(page.locator(".issues")).to_contain_text("table.cover.unbalanced")
    assert sides_scroll(page) <= 0  # the four columns fit beside the map
    screenshot(page, "table-edited-invalid")

    with page.expect_download() as png_download:
        page.get_by_role("link", name="Download PNG").click()
    image = Image.open(Path(png_download.value.path()))
    assert image.format == "PNG"
    with page.expect_download() as pdf_download:
        page.get_by_role("link", name="Setup sheet PDF").click()
    text = (
        PdfReader(io.BytesIO(Path(pdf_download.value.path()).read_bytes())).pages[0].extract_text()
    )
    assert "Table 5" in text and "piece by piece" in text

    page.get_by_text("Rename or share").click()
    # A new table is private until its owner shares it.
    expect(page.get_by_text("Only you can see this table")).to_be_visible()
    page.get_by_role("button", name="Turn sharing on").click()
    page.get_by_text("Rename or share").click()
    share_url = page.locator(".share-body a").get_attribute("href")
    fresh = browser.new_context(viewport=PHONE).new_page()
    fresh.goto(live_server.url + share_url)
    expect(fresh.get_by_role("heading", level=1)).to_have_text("Table 5")
    expect(fresh.get_by_role("button", name="Copy to my tables")).to_be_visible()
    assert "/terrain/" not in fresh.content()  # read-only
    overflow = fresh.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0
    assert sides_scroll(fresh) <= 0
    screenshot(fresh, "table-shared-phone")
    fresh.context.close()


def test_a_keyboard_user_can_cycle_a_hex(page: Page, live_server):
    page.goto(live_server.url + "/tables/new/?seed=5&coverage=0.45&symmetry=point&mix=balanced")
    page.get_by_role("button", name="Save this table").click()
    expect(page.locator("#undo")).to_be_attached()  # the editor's page
    editor_ready(page)
    hex_link = hex_at(page, "0,0")
    hex_link.focus()
    page.keyboard.press("Enter")
    settled(page)
    expect(hex_at(page, "0,0").locator("title")).to_have_text(
        "Row 1 from side A, column 1: Cover (low walls, crates)"
    )


def test_a_tournament_pack_shows_progress_and_finishes(page: Page, live_server):
    page.goto(live_server.url + "/tables/packs/new/")
    page.get_by_label("Tables in the pack").fill("6")
    page.get_by_label("Seed").fill("40")
    # The pack is made inside this request (the immediate backend): a minute on a busy machine.
    page.get_by_role("button", name="Generate the pack").click(timeout=NAVIGATION_MS)
    expect(page.get_by_text("Ready: 6 tables.")).to_be_visible(timeout=NAVIGATION_MS)
    # The PDF is made after the tables, three sheets per request, then put together.
    expect(page.get_by_role("link", name="Download the pack PDF")).to_be_visible(
        timeout=NAVIGATION_MS
    )


# --- The editor: palette, strokes, pieces ------------------------------------------------------


def an_empty_table(page: Page, base: str, name: str = "Garage") -> None:
    """A standard-sized empty board, opened in the editor."""
    page.goto(base + "/tables/new/")
    page.get_by_text("Or build your own on an empty board").click()
    page.get_by_label("Name").fill(name)
    page.get_by_role("button", name="Start building").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(name)
    editor_ready(page)


def editor_ready(page: Page) -> None:
    """Until the page a click opened has loaded, its deferred scripts run: the heading and the
    map can be read before tables.js and htmx have run, and a click or a key on a hex then is
    a plain link's (a page load, not an edit), a press and drag nothing at all."""
    page.wait_for_load_state()


def open_controls(page: Page) -> None:
    """Open the view and brush controls if they are folded (as they are on a phone)."""
    # tables.js folds them on a narrow screen once it runs: read after it has.
    editor_ready(page)
    controls = page.locator("details.map-controls")
    if not controls.evaluate("details => details.open"):
        controls.locator("> summary").click()
        expect(controls).to_have_attribute("open", "")


def palette(page: Page, name: str):
    """A link of the editor's palette (a brush, a piece, Rotate, a symmetry), its controls
    opened."""
    open_controls(page)
    return page.locator(".map-controls, .chosen-piece").get_by_role("link", name=name, exact=True)


def place(spot: str) -> str:
    """The name of the hex "q,r" of a standard board, in a player's words: its row from
    side A's edge, its column from the left of that row (the long rows start one further
    left)."""
    q, r = (int(part) for part in spot.split(","))
    return f"Row {r + 1} from side A, column {q + (r + 1) // 2 + 1}"


def named(name: str) -> str:
    """A selector of the map's hex whose name (its title) starts with `name`."""
    return (
        "xpath=//*[@data-table-map]//*[local-name()='a']"
        f"[*[local-name()='title'][starts-with(., '{name}')]]"
    )


def hex_at(page: Page, spot: str):
    """The map's hex "q,r" (its name starts with its place)."""
    return page.locator(named(f"{place(spot)}: "))


def kind_of(page: Page, spot: str) -> str:
    label = hex_at(page, spot).locator("title").text_content() or ""
    return label.split(": ", 1)[1]


def centre(page: Page, spot: str) -> tuple[float, float]:
    """Where the hex is in the window (for the mouse: the map is scrolled into view)."""
    page.locator("[data-table-map] svg").scroll_into_view_if_needed()
    # A hex an answer is drawing again is out of the page for a moment: ask until it is
    # back (a busy machine draws slowly), rather than reading a box of nothing.
    deadline = time.monotonic() + 30
    while (box := hex_at(page, spot).bounding_box()) is None:
        assert time.monotonic() < deadline, f"hex {spot} is not back on the page"
        page.wait_for_timeout(25)
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def terrain_posts(page: Page) -> list[str]:
    sent: list[str] = []
    page.on(
        "request",
        lambda r: (
            sent.append(r.post_data or "")
            if r.method == "POST" and r.url.split("?")[0].endswith("/terrain/")
            else None
        ),
    )
    return sent


def the_next_paint_slowed(monkeypatch, seconds: float = 1.5) -> threading.Event:
    """Table.paint made `seconds` slower the next time after the event is set (as a large
    board's edit is): an edit whose answer comes late."""
    paint = Table.paint
    slow = threading.Event()

    def slow_paint(self, *args, **kwargs):
        if slow.is_set():
            slow.clear()
            time.sleep(seconds)
        return paint(self, *args, **kwargs)

    monkeypatch.setattr(Table, "paint", slow_paint)
    return slow


def sides_scroll(page: Page) -> int:
    """How far the "Each side" table scrolls sideways in its region (0: it fits)."""
    region = page.get_by_role("region", name="Each side")
    return region.evaluate("e => e.scrollWidth - e.clientWidth")


def sideways(page: Page) -> int:
    return page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )


def test_a_press_drag_and_release_paints_a_stroke_as_one_change(page: Page, live_server):
    an_empty_table(page, live_server.url)
    palette(page, "Blocking scenery").click()
    settled(page)
    expect(page.locator("#table-view")).to_have_attribute("data-drag", "paint")
    posts = terrain_posts(page)
    path = ["0,3", "1,3", "2,3", "3,3", "3,4", "3,5"]
    page.mouse.move(*centre(page, path[0]))
    page.mouse.down()
    for spot in path[1:]:
        page.mouse.move(*centre(page, spot), steps=4)
    expect(page.locator("[data-table-map] a.stroke")).to_have_count(len(path))
    screenshot(page, "table-editor-stroke-desktop")
    page.mouse.up()
    settled(page)
    expect(hex_at(page, "3,5").locator("title")).to_have_text(f"{place('3,5')}: Blocking scenery")
    assert [kind_of(page, spot) for spot in path] == ["Blocking scenery"] * len(path)
    assert len(posts) == 1 and posts[0].count("%2C") == len(path)  # one edit, every hex
    expect(page.locator("[data-table-map] a.stroke")).to_have_count(0)
    screenshot(page, "table-editor-stroke-painted-desktop")

    # Enter on a focused hex paints that hex, for keyboard users.
    hex_at(page, "4,6").focus()
    page.keyboard.press("Enter")
    settled(page)
    assert kind_of(page, "4,6") == "Blocking scenery" and len(posts) == 2
    page.get_by_role("button", name="Undo").click()
    settled(page)
    assert kind_of(page, "4,6") == "Open ground"

    # A plain click still paints one hex; undo takes the whole stroke back at once.
    hex_at(page, "5,6").click()
    settled(page)
    assert kind_of(page, "5,6") == "Blocking scenery" and len(posts) == 3
    # Ctrl+Z and Ctrl+Shift+Z undo and redo from the keyboard, as in the list editor.
    page.keyboard.press("Control+z")
    settled(page)
    assert kind_of(page, "5,6") == "Open ground" and kind_of(page, "0,3") == "Blocking scenery"
    page.keyboard.press("Control+Shift+Z")
    settled(page)
    assert kind_of(page, "5,6") == "Blocking scenery"
    page.keyboard.press("Control+z")
    settled(page)
    assert kind_of(page, "5,6") == "Open ground"
    page.get_by_role("button", name="Undo").click()
    settled(page)
    assert {kind_of(page, spot) for spot in path} == {"Open ground"}


def test_stamping_turning_and_removing_library_pieces(page: Page, live_server):
    an_empty_table(page, live_server.url)
    page.get_by_text("Library pieces: choose one to stamp").click()
    expect(palette(page, "Large hill, 7 hexes")).to_be_visible()
    screenshot(page, "table-editor-palette-desktop")
    palette(page, "L-shaped building, 5 hexes").click()
    settled(page)
    expect(page.locator(".chosen-piece")).to_contain_text("Turned 0°")
    # Chosen, the piece shows above the map and the list of pieces closes, as a menu does.
    expect(palette(page, "Large hill, 7 hexes")).to_be_hidden()
    palette(page, "Rotate 60°").click()
    settled(page)
    expect(page.locator(".chosen-piece")).to_contain_text("Turned 60°")
    page.keyboard.press("r")
    settled(page)
    expect(page.locator(".chosen-piece")).to_contain_text("Turned 120°")

    # Under the pointer, the hexes it would cover; then a click sets it down there.
    hex_at(page, "4,3").hover()
    expect(page.locator("[data-table-map] a.ghost")).to_have_count(5)
    expect(page.locator("[data-table-map] a.ghost.misfit")).to_have_count(0)
    screenshot(page, "table-editor-piece-hover-desktop")
    hex_at(page, "4,3").click()
    settled(page)
    expect(page.locator("#table-view .messages")).to_contain_text(
        "L-shaped building, 5 hexes set down at 4,3"
    )
    labels = page.locator("[data-table-map] a.hex.blocking")
    expect(labels).to_have_count(5)
    # The edit's answer did not draw the palette again: the page kept its own, as it was.
    expect(page.locator(".palette")).to_have_count(1)
    expect(page.locator(".chosen-piece")).to_contain_text("Turned 120°")
    expect(palette(page, "Rotate 60°")).to_be_visible()
    screenshot(page, "table-editor-stamped-desktop")

    # Where it would hang off the table the outline is red, and the click is refused.
    hex_at(page, "0,10").hover()
    expect(page.locator("[data-table-map] a.ghost.misfit")).to_have_count(3)  # 2 hang off
    expect(page.locator("[data-table-map] a.ghost:not(.misfit)")).to_have_count(0)
    hex_at(page, "0,10").click()
    settled(page)
    expect(page.locator("#table-view .messages")).to_contain_text(
        "L-shaped building, 5 hexes does not fit there: part of it is off the table."
    )
    expect(labels).to_have_count(5)

    # With point symmetry the piece's image is set down with it, unless they would overlap.
    palette(page, "Point").click()
    settled(page)
    # Under the pointer, the piece and its point image.
    hex_at(page, "1,1").hover()
    expect(page.locator("[data-table-map] a.ghost")).to_have_count(10)
    expect(page.locator("[data-table-map] a.ghost.image")).to_have_count(5)
    expect(page.locator("[data-table-map] a.ghost.misfit")).to_have_count(0)
    screenshot(page, "table-editor-piece-hover-symmetric-desktop")
    hex_at(page, "1,1").click()
    settled(page)
    expect(page.locator("#table-view .messages")).to_contain_text(
        "set down at 1,1 (and its point image)"
    )
    expect(labels).to_have_count(15)
    hex_at(page, "1,1").hover()
    screenshot(page, "table-editor-stamped-desktop")
    hex_at(page, "2,5").hover()  # at the centre: the piece would overlap its image, in red
    expect(page.locator("[data-table-map] a.ghost.misfit").first).to_be_visible()
    hex_at(page, "2,5").click()
    settled(page)
    expect(page.locator("#table-view .messages")).to_contain_text("would overlap its own image")
    expect(labels).to_have_count(15)

    # Remove piece takes the whole piece (and its image) away; Undo puts them back.
    palette(page, "Remove piece").click()
    settled(page)
    hex_at(page, "0,2").click()
    settled(page)
    expect(labels).to_have_count(5)
    assert kind_of(page, "4,3") == "Blocking scenery"
    page.get_by_role("button", name="Undo").click()
    settled(page)
    expect(labels).to_have_count(15)


def test_without_javascript_a_piece_is_previewed_then_set_down(
    page_without_javascript: Page, live_server
):
    page = page_without_javascript
    an_empty_table(page, live_server.url)
    page.get_by_text("Library pieces: choose one to stamp").click()
    palette(page, "Hill, 4 hexes").click()
    hex_at(page, "3,3").click()
    # The hexes it would cover are outlined first; nothing is saved by looking.
    expect(page.locator("[data-table-map] a.highlighted")).to_have_count(4)
    assert kind_of(page, "3,3") == "Open ground"
    page.get_by_role("button", name="Set the piece down here").click()
    expect(page.locator(".messages")).to_contain_text("Hill, 4 hexes set down at 3,3")
    expect(page.locator("[data-table-map] a.hex.elevated")).to_have_count(4)
    # A hex where it cannot go says why, with no button.
    hex_at(page, "3,10").click()
    expect(page.locator(".hex-form .refusal")).to_contain_text("does not fit there")
    expect(page.get_by_role("button", name="Set the piece down here")).to_have_count(0)


def test_a_phone_gets_the_palette_without_sideways_scrolling(phone: Page, live_server):
    an_empty_table(phone, live_server.url)
    open_controls(phone)
    phone.get_by_text("Library pieces: choose one to stamp").click()
    assert sideways(phone) <= 0
    screenshot(phone, "table-editor-palette-phone")
    palette(phone, "Large building, 4 hexes").click()
    settled(phone)
    assert sideways(phone) <= 0
    hex_at(phone, "2,2").click()
    settled(phone)
    expect(phone.locator("[data-table-map] a.hex.blocking")).to_have_count(4)
    palette(phone, "Cover (low walls, crates)").click()
    settled(phone)
    path = ["0,6", "1,6", "2,6", "3,6"]
    phone.mouse.move(*centre(phone, path[0]))
    phone.mouse.down()
    for spot in path[1:]:
        phone.mouse.move(*centre(phone, spot), steps=3)
    expect(phone.locator("[data-table-map] a.stroke")).to_have_count(len(path))
    screenshot(phone, "table-editor-stroke-phone")
    phone.mouse.up()
    settled(phone)
    assert [kind_of(phone, spot) for spot in path] == ["Cover (low walls, crates)"] * len(path)
    assert sideways(phone) <= 0
    screenshot(phone, "table-editor-stamped-phone")


@pytest.mark.parametrize(("viewport", "suffix"), [(DESKTOP, "desktop"), (PHONE, "phone")])
def test_the_problem_highlights_show_on_the_map(browser: Browser, live_server, viewport, suffix):
    page = browser.new_context(viewport=viewport).new_page()
    page.goto(live_server.url + "/tables/new/?seed=5&coverage=0.45&symmetry=point&mix=balanced")
    page.get_by_role("button", name="Save this table").click()
    expect(page.locator(".verdict")).to_have_text("Valid table")
    # Taking away a platform and its image opens lanes from edge to edge.
    open_controls(page)
    page.get_by_text("Library pieces: choose one to stamp").click()
    palette(page, "Remove piece").click()
    settled(page)
    palette(page, "Point").click()
    settled(page)
    hex_at(page, "2,4").click()
    settled(page)
    expect(page.locator(".issues")).to_contain_text("table.edge-lanes")
    expect(page.locator("[data-table-map] a.problem")).to_have_count(8)
    expect(page.locator("[data-table-map] .lane")).not_to_have_count(0)
    assert sideways(page) <= 0
    screenshot(page, f"table-editor-problems-{suffix}")
    page.context.close()


@pytest.mark.parametrize(("viewport", "suffix"), [(DESKTOP, "desktop"), (PHONE, "phone")])
def test_the_editor_passes_axe_and_the_nu_html_checker(
    browser: Browser, live_server, viewport, suffix
):
    # bypass_csp: axe-core is injected as a script, which the site's policy rightly forbids.
    context = browser.new_context(viewport=viewport, bypass_csp=True)
    page = context.new_page()
    an_empty_table(page, live_server.url)
    editor = page.url.split("?")[0]
    page.goto(editor + "?brush=piece:hill-4")
    hex_at(page, "3,3").click()
    settled(page)
    views = {
        "paint": "?brush=blocking&sym=point",
        "piece": "?brush=piece:building-5-l&turn=2",
        "piece-hex": "?mode=terrain&hex=2,6&brush=piece:hill-4&sym=mirror",
        "piece-refused": "?mode=terrain&hex=3,10&brush=piece:hill-4",
        "remove-hex": "?mode=terrain&hex=3,3&brush=remove",
    }
    html = {}
    for name, query in views.items():
        page.goto(editor + query)
        if name == "piece":
            open_controls(page)
            page.get_by_text("Choose another library piece").click()
        found = axe_violations(page)
        assert found == [], f"{name}: {found}"
        assert sideways(page) <= 0, name
        html[f"table-editor-{name}"] = page.request.get(editor + query).text()
    context.close()
    errors = markup_errors(html, ROOT / "test-artifacts" / "markup" / f"table-editor-{suffix}")
    assert errors == {}, errors


def test_on_a_touch_screen_a_tap_paints_once_and_a_finger_drag_paints_a_stroke(
    browser: Browser, live_server
):
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    an_empty_table(page, live_server.url)
    palette(page, "Elevated (platform, hill)").click()
    settled(page)
    posts = terrain_posts(page)
    x, y = centre(page, "2,2")
    page.touchscreen.tap(x, y)
    # A touch is answered (and tap() returns) before the page has handled it: settled()
    # alone could look before the edit was sent. The hex's new kind is waited for.
    expect(hex_at(page, "2,2").locator("title")).to_have_text(
        f"{place('2,2')}: Elevated (platform, hill)", timeout=NAVIGATION_MS
    )
    settled(page)
    assert len(posts) == 1
    # A finger dragged along a row (Chromium's own touch events, as a phone sends them).
    path = ["-1,5", "0,5", "1,5", "2,5", "3,5"]
    points = [centre(page, spot) for spot in path]
    touch = context.new_cdp_session(page)

    def finger(kind: str, x: float, y: float) -> None:
        points_now = [] if kind == "touchEnd" else [{"x": x, "y": y}]
        touch.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points_now})

    finger("touchStart", *points[0])
    for (x0, y0), (x1, y1) in itertools.pairwise(points):
        for step in range(1, 5):
            finger("touchMove", x0 + (x1 - x0) * step / 4, y0 + (y1 - y0) * step / 4)
    finger("touchEnd", *points[-1])
    # As with the tap: the release is handled after the touch event is answered.
    for spot in path:
        expect(hex_at(page, spot).locator("title")).to_have_text(
            f"{place(spot)}: Elevated (platform, hill)", timeout=NAVIGATION_MS
        )
    settled(page)
    assert len(posts) == 2 and sideways(page) <= 0
    context.close()


def test_a_slow_edit_neither_takes_the_palette_away_nor_refuses_an_undo(
    page: Page, live_server, monkeypatch
):
    """While an edit is being saved (slowed here to 1.5 s, as on a large board), a brush
    chosen redraws the region: the edit's late answer is dropped, never swapped in with the
    page's palette taken away; and Ctrl+Z waits behind the edit instead of being refused as
    coming from another tab."""
    slow = the_next_paint_slowed(monkeypatch)
    an_empty_table(page, live_server.url)
    palette(page, "Blocking scenery").click()
    settled(page)

    slow.set()
    with page.expect_response(lambda r: "/terrain/" in r.url, timeout=NAVIGATION_MS):
        with page.expect_request(lambda r: "/terrain/" in r.url):
            hex_at(page, "2,3").click()  # the edit is on its way...
        palette(page, "Elevated (platform, hill)").click()
    # ...and its answer came back after the brush had redrawn the region.
    settled(page)
    expect(page.locator("#palette")).to_have_count(1)
    expect(palette(page, "Elevated (platform, hill)")).to_have_attribute("aria-current", "true")
    expect(palette(page, "Remove piece")).to_be_visible()
    assert page.url.split("?")[0].endswith(f"/tables/{Table.objects.get().pk}/")

    page.reload()  # the region drawn before the slow edit was saved: start from the latest
    before = kind_of(page, "4,4")
    slow.set()
    with page.expect_response(lambda r: "/undo/" in r.url, timeout=NAVIGATION_MS):
        with page.expect_request(lambda r: "/terrain/" in r.url):
            hex_at(page, "4,4").click()
        page.keyboard.press("Control+z")  # waits behind the edit, then goes
    settled(page)
    expect(page.locator("#table-view .messages")).to_have_count(0)
    assert kind_of(page, "4,4") == before  # painted, then undone, in that order
    assert "/undo/" not in page.url and "/terrain/" not in page.url


def back(page: Page) -> None:
    """The back button, then wait until htmx has drawn the page again (it keeps no
    snapshot of the editor, so it asks the server)."""
    page.evaluate(
        "window.restored = false;"
        "document.addEventListener('htmx:historyRestore', () => { window.restored = true; })"
    )
    page.go_back()
    page.wait_for_function("() => window.restored === true")
    settled(page)


def whole_map(page: Page) -> str:
    """The map as the server drew it (without the roving Tab stop the script keeps)."""
    return page.locator("[data-table-map] svg.table-map").evaluate(
        "svg => svg.outerHTML.replace(/ tabindex=\"-?[01]\"/g, '')"
    )


def test_an_edit_redraws_only_what_changed_and_the_map_is_the_whole_one(page: Page, live_server):
    """An edit's answer names the map the page shows and carries only what changed on it
    (hexes, outlines, marks): the page keeps its map element, and after clicks, a stroke,
    a piece, undo and redo it is exactly the map a fresh page draws."""
    an_empty_table(page, live_server.url)
    palette(page, "Blocking scenery").click()
    settled(page)
    answers: list[str] = []
    page.on(
        "response",
        lambda r: answers.append(r.text()) if r.request.method == "POST" else None,
    )
    page.evaluate("document.querySelector('[data-table-map] svg').dataset.kept = 'yes'")
    for spot in ("3,2", "4,2", "0,9"):
        hex_at(page, spot).click()
        settled(page)
    page.mouse.move(*centre(page, "0,5"))
    page.mouse.down()
    for spot in ("1,5", "2,5", "3,5"):
        page.mouse.move(*centre(page, spot), steps=4)
    page.mouse.up()
    settled(page)
    # Enter on a focused hex: drawn again, the hex keeps the keyboard's focus.
    hex_at(page, "4,6").focus()
    page.keyboard.press("Enter")
    settled(page)
    assert page.evaluate("document.activeElement.querySelector('title').textContent").startswith(
        place("4,6") + ": "
    )
    page.keyboard.press("Control+z")
    settled(page)
    page.keyboard.press("Control+Shift+Z")
    settled(page)
    page.mouse.move(0, 0)
    assert kind_of(page, "3,5") == "Blocking scenery" and kind_of(page, "4,6") == "Blocking scenery"
    heard(page, answers, 7)  # the listener reads each body after the page has it
    assert len(answers) == 7 and all("data-map-patch" in answer for answer in answers)
    assert all(len(answer) < 40_000 for answer in answers)  # the whole map is 180 KB
    assert page.evaluate("document.querySelector('[data-table-map] svg').dataset.kept") == "yes"
    expect(page.locator("template[data-map-patch]")).to_have_count(0)
    patched = whole_map(page).replace(' data-kept="yes"', "")
    page.reload()
    assert patched == whole_map(page)

    # A library piece stamped: the outline is new, the map again the whole one.
    page.locator(".piece-palette summary").click()
    page.locator(".piece-groups a").first.click()
    settled(page)
    hex_at(page, "1,7").click()
    settled(page)
    page.mouse.move(0, 0)
    heard(page, answers, 8)  # else answers[-1] could be the redo's, read before the stamp's
    assert len(answers) == 8 and "data-map-patch" in answers[-1]
    patched = whole_map(page)
    page.reload()
    assert patched == whole_map(page)


def test_no_outline_is_left_on_the_map_by_a_redraw_or_the_back_button(page: Page, live_server):
    """The outline under the pointer goes when the pointer leaves the map, also after a
    piece is set down (its hexes drawn again under the pointer); a page the back button
    brings back, left while an outline showed, gets no outline stuck on it by later edits."""
    an_empty_table(page, live_server.url)
    page.locator(".piece-palette summary").click()
    page.locator(".piece-groups a").first.click()
    settled(page)
    page.mouse.move(*centre(page, "2,5"))
    expect(page.locator("[data-table-map] a.ghost").first).to_be_visible()
    page.keyboard.press("r")  # a GET that pushes the address: htmx saves the page first
    settled(page)
    page.mouse.move(0, 0)
    back(page)
    page.mouse.move(*centre(page, "1,1"))
    page.mouse.down()
    page.mouse.up()
    settled(page)
    page.mouse.move(0, 0)
    expect(page.locator("[data-table-map] .ghost")).to_have_count(0)
    patched = whole_map(page)
    page.reload()
    assert patched == whole_map(page)


def test_undo_keeps_the_keyboard_focus_and_a_late_page_is_asked_again(
    page: Page, live_server, monkeypatch
):
    """Undo pressed from the keyboard keeps the focus on Undo (the answer is put in around
    the map, not swapped by htmx); a brush chosen while an edit is saved, whose page comes
    back after the edit's answer, is asked again rather than showing the table without the
    edit (the next edit would be refused as if another tab had changed the table)."""
    import time

    from tablegen import pages

    an_empty_table(page, live_server.url)
    palette(page, "Blocking scenery").click()
    settled(page)
    for spot in ("2,3", "3,3", "4,3"):
        hex_at(page, spot).click()
        settled(page)
    page.locator("#undo").focus()
    page.keyboard.press("Enter")
    settled(page)
    assert page.evaluate("document.activeElement.id") == "undo"
    page.keyboard.press("Enter")
    settled(page)
    assert page.evaluate("document.activeElement.id") == "undo"
    assert kind_of(page, "3,3") == "Open ground" and kind_of(page, "2,3") == "Blocking scenery"
    # Nothing left to undo: Undo is disabled, and the focus goes to Redo.
    page.keyboard.press("Enter")
    settled(page)
    assert page.evaluate("document.activeElement.id") == "redo"

    # The edit is saved 0.3 s late; the brush's page, drawn at once (before the edit is
    # saved), is answered 0.8 s late: after the edit's answer was put in.
    paint, render_editor = Table.paint, pages.render_editor

    def slow_paint(self, *args, **kwargs):
        time.sleep(0.3)
        return paint(self, *args, **kwargs)

    def late_page(request, *args, **kwargs):
        response = render_editor(request, *args, **kwargs)
        if request.method == "GET" and request.GET.get("brush") == "cover":
            time.sleep(0.8)
        return response

    monkeypatch.setattr(Table, "paint", slow_paint)
    monkeypatch.setattr(pages, "render_editor", late_page)
    with page.expect_response(lambda r: "brush=cover" in r.url, timeout=NAVIGATION_MS):
        with page.expect_request(lambda r: "/terrain/" in r.url):
            hex_at(page, "4,4").click()
        palette(page, "Cover (low walls, crates)").click()
    settled(page)
    expect(palette(page, "Cover (low walls, crates)")).to_have_attribute("aria-current", "true")
    version = page.locator("#table-view").get_attribute("data-version")
    assert kind_of(page, "4,4") == "Blocking scenery"
    page.reload()
    assert page.locator("#table-view").get_attribute("data-version") == version


def test_the_back_button_brings_the_editor_back_as_the_table_is_now(page: Page, live_server):
    """htmx keeps no snapshot of the editor (it would show the table before later edits, and
    the next edit would be refused as if another tab had changed it): the back button asks
    for the page again, as a whole page."""
    an_empty_table(page, live_server.url)
    palette(page, "Blocking scenery").click()
    settled(page)
    page.get_by_role("link", name="Line of fire", exact=True).click()
    settled(page)
    page.get_by_role("link", name="Terrain", exact=True).click()
    settled(page)
    palette(page, "Blocking scenery").click()
    settled(page)
    hex_at(page, "2,3").click()
    settled(page)
    version = page.locator("#table-view").get_attribute("data-version")
    back(page)
    expect(page.locator("#table-view")).to_have_attribute("data-version", version)
    expect(page.locator("header, nav").first).to_be_visible()  # the whole page, not a region
    assert kind_of(page, "2,3") == "Blocking scenery"
    hex_at(page, "3,3").click()
    settled(page)
    expect(page.locator("#table-view .messages")).to_have_count(0)
    assert kind_of(page, "3,3") != "Open ground"


def test_a_stroke_dragged_while_an_edit_answers_keeps_its_hexes_marked(
    page: Page, live_server, monkeypatch
):
    """An earlier edit's answer (slowed to 1.5 s) redraws hexes under a stroke still being
    dragged: the stroke's hexes stay marked, and its release paints every one of them."""
    slow = the_next_paint_slowed(monkeypatch)
    an_empty_table(page, live_server.url)
    palette(page, "Cover (low walls, crates)").click()
    settled(page)
    posts = terrain_posts(page)
    slow.set()
    hex_at(page, "2,3").click()  # a one-hex stroke, sent on release and answered late
    path = ["1,3", "2,3", "3,3", "3,4"]  # through the hex the late answer draws again
    page.mouse.move(*centre(page, path[0]))
    page.mouse.down()
    for spot in path[1:]:
        page.mouse.move(*centre(page, spot), steps=4)
    painted = f"{place('2,3')}: Cover (low walls, crates)"
    page.wait_for_function(
        "(name) => [...document.querySelectorAll('[data-table-map] a > title')]"
        ".some((title) => title.textContent === name)",
        arg=painted,
    )  # the first edit's answer is in, the mouse still down
    expect(page.locator("[data-table-map] a.stroke")).to_have_count(len(path))
    assert len(posts) == 1
    page.mouse.up()
    settled(page)
    assert len(posts) == 2 and posts[1].count("%2C") == len(path)
    assert {kind_of(page, spot) for spot in path} == {"Cover (low walls, crates)"}
    expect(page.locator("[data-table-map] a.stroke")).to_have_count(0)


def test_r_held_down_turns_the_piece_one_answer_at_a_time_without_reloading_the_page(
    page: Page, live_server
):
    an_empty_table(page, live_server.url)
    page.get_by_text("Library pieces: choose one to stamp").click()
    palette(page, "L-shaped building, 5 hexes").click()
    settled(page)
    page.evaluate("window.kept = true")  # gone if the page were loaded again
    gets = []
    page.on("request", lambda r: gets.append(r.url) if "turn=" in r.url else None)
    # A held key repeats: R as fast as a key repeats, before the first answer is in. The
    # answers are held until the four presses are made (on a busy machine the first came
    # back between two presses).
    with HeldAnswers(page, lambda url: "turn=" in url, settled):
        for _ in range(4):
            page.keyboard.press("r")
    turns = len(gets)
    assert 1 <= turns < 4, gets  # presses while a turn was on its way were not sent
    expect(page.locator(".chosen-piece")).to_contain_text(f"Turned {60 * turns}°")
    # Right after an answer is drawn (its Rotate link maybe not yet taken up by htmx), R
    # turns the piece by htmx still: the page is not loaded again.
    for more in (1, 2):
        page.keyboard.press("r")
        settled(page)
        expect(page.locator(".chosen-piece")).to_contain_text(f"Turned {60 * (turns + more)}°")
    assert page.evaluate("window.kept") is True
    expect(page).to_have_url(re.compile(f"turn={turns + 2}(&|$)"))


@pytest.mark.parametrize(("viewport", "suffix"), [(DESKTOP, "desktop"), (PHONE, "phone")])
def test_a_club_describes_its_terrain_box_on_one_screenful_of_small_pictures(
    browser: Browser, live_server, viewport, suffix
):
    """Each piece's picture was drawn as wide as the page: the form was 18,000 px tall on a
    desktop, 7,000 on a phone (a browser walk as a new organizer, 2026-11-24)."""
    context = browser.new_context(viewport=viewport, bypass_csp=True)
    page = context.new_page()
    page.goto(live_server.url + "/tables/boxes/new/")
    widths = page.locator(".piece-counts .piece-picture").evaluate_all(
        "pictures => pictures.map(p => p.getBoundingClientRect().width)"
    )
    assert widths and max(widths) <= 64, widths
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height <= (1_600 if suffix == "desktop" else 2_600), height
    assert sideways(page) <= 0
    assert axe_violations(page) == []
    screenshot(page, f"terrain-box-form-{suffix}")
    page.get_by_label("Name").fill("Club terrain")
    for piece, count in (
        ("Large building, 4 hexes", 2),
        ("Low wall, 3 hexes", 4),
        ("Hill, 4 hexes", 1),
        ("Crate, 1 hex", 6),
    ):
        page.get_by_label(piece, exact=True).fill(str(count))
    page.get_by_role("button", name="Save the box").click()
    expect(page.locator("main table")).to_contain_text("13 pieces, 4 kinds")
    # The list of boxes, with the box just saved (each link's name begins with its words).
    assert axe_violations(page) == []
    context.close()
