"""Two phones, one game, in a real browser at 390 px: Alice starts a game against Bob's
shared list, Bob joins from the link, and each phone sees the other's steps without a
reload (measured); the doubling cost and a refused action's reason are on the screen;
axe-core and the Nu HTML checker find nothing on the game's page."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Browser, Page, expect

from forcebuilder.models import Force
from games.models import Game
from onefinity.rules import read_force_document
from tests.browser.conftest import PHONE, screenshot, settled
from tests.browser.quality import axe_violations, markup_errors
from tests.forcebuilder.conftest import LEGAL_DOCUMENT

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "a-long-pass-phrase"
# Each phone sees the other's step within this many seconds (the bound).
SYNC_SECONDS = 2.0


def phone_of(browser: Browser, base: str, name: str) -> Page:
    context = browser.new_context(viewport=PHONE, bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(base + "/games/")
    page.get_by_label("Username").fill(name)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    return page


def fits_the_phone(page: Page) -> None:
    overflow = page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0, f"{page.url} scrolls sideways by {overflow}px"


def seen_within(page: Page, text: str) -> float:
    """Seconds until the page's turn region says ``text``, without a reload."""
    started = time.monotonic()
    expect(page.locator("#turn .turn-status")).to_contain_text(text, timeout=5_000)
    return time.monotonic() - started


def test_two_phones_play_one_game_and_each_sees_the_others_steps(
    browser: Browser, live_server, django_user_model, tmp_path
):
    base = live_server.url
    alice = django_user_model.objects.create_user("alice", "a@example.com", PASSWORD)
    bob = django_user_model.objects.create_user("bob", "b@example.com", PASSWORD)
    Force.create_from_spec(
        read_force_document(LEGAL_DOCUMENT | {"name": "Alice's wardens"}),
        "2026.11",
        75,
        owner=alice,
    )
    raiders = Force.create_from_spec(
        read_force_document(LEGAL_DOCUMENT | {"name": "Bob's raiders"}), "2026.11", 75, owner=bob
    )
    raiders.set_sharing("on")

    a = phone_of(browser, base, "alice")
    a.get_by_label("Your opponent's list").fill(base + raiders.get_share_url())
    a.get_by_label("Victory points to win").fill("2")
    a.get_by_role("button", name="Start the game").click()
    expect(a.get_by_role("heading", level=1)).to_contain_text("Alice's wardens")
    join_url = a.get_by_role("link", name="/join/").get_attribute("href")
    assert join_url and "/join/" in join_url
    assert a.locator(".qr svg").count() == 1
    screenshot(a, "game-new-phone")
    fits_the_phone(a)

    b = phone_of(browser, base, "bob")
    b.goto(join_url)
    b.get_by_role("button", name="Join as side B").click()
    expect(b.get_by_role("heading", level=1)).to_contain_text("Bob's raiders")

    # Alice records the draw-off; Bob's phone follows without a reload.
    b.evaluate("window.notReloaded = true")
    a.get_by_role("button", name="Side A won the draw-off").click()
    settled(a)
    delays = [seen_within(b, "Turn 1: side A")]
    a.get_by_label("Card drawn for AP").select_option("5")
    a.get_by_role("button", name="Take these AP").click()
    settled(a)
    delays.append(seen_within(b, "5 AP"))

    # Alice taps a trooper, then Move twice: 1 AP, then 2 (the doubling).
    a.locator("#turn .side").first.get_by_role("link").first.click()
    settled(a)
    move = a.locator(".action-list form").filter(has=a.locator("input[value='move']"))
    expect(move.get_by_role("button")).to_contain_text("1 AP")
    move.get_by_role("button").click()
    settled(a)
    expect(move.get_by_role("button")).to_contain_text("2 AP")
    move.get_by_role("button").click()
    settled(a)
    expect(a.locator("#turn .turn-status")).to_contain_text("2 AP left")
    jump = a.locator(".action-list form").filter(has=a.locator("input[value='jump-climb']"))
    expect(jump.get_by_role("button")).to_be_disabled()
    expect(jump.locator(".reason")).to_contain_text("costs 3 AP and 2 AP are left")
    delays.append(seen_within(b, "2 AP left"))

    # Tap a hex of the map, then Place: the trooper stands there on both phones.
    a.locator(".game-map svg a").nth(40).click()
    settled(a)
    expect(a.locator(".game-map + .note")).to_contain_text("chosen")
    a.get_by_role("button", name="Place").click()
    settled(a)
    expect(a.locator(".trooper.selected")).to_contain_text("hex")
    fits_the_phone(a)
    screenshot(a, "game-turn-phone")

    # Bob passes for Alice (either phone records a step) once his phone shows the last step
    # (a tap on a page that is a step behind is refused as stale: tested below).
    version = a.locator("#turn").get_attribute("data-version")
    expect(b.locator("#turn")).to_have_attribute("data-version", version or "", timeout=5_000)
    b.get_by_role("button", name="Pass").click()
    settled(b)
    delays.append(seen_within(a, "Turn 2: side B"))
    assert b.evaluate("window.notReloaded") is True
    assert max(delays) < SYNC_SECONDS, delays
    print(f"\nsync delays (s): {[round(d, 2) for d in delays]}")

    # A stale page is refused with the message; the game did not move.
    game = Game.objects.get()
    version = game.version
    stale = a.request.post(
        f"{base}/games/{game.code}/steps/",
        form={"version": str(version - 1), "kind": "pass"},
        headers={"Accept": "application/json", "X-CSRFToken": csrf(a)},
    )
    assert stale.status == 409
    assert Game.objects.get().version == version

    html = a.content()
    assert axe_violations(a) == []
    assert markup_errors({"game": html}, tmp_path) == {}


def csrf(page: Page) -> str:
    return next(c["value"] for c in page.context.cookies() if c["name"] == "csrftoken")


def test_steps_taken_offline_are_sent_once_in_order_and_a_stale_one_is_refused(
    browser: Browser, live_server, django_user_model
):
    from django.test import Client

    base = live_server.url
    alice = django_user_model.objects.create_user("alice", "a@example.com", PASSWORD)
    bob = django_user_model.objects.create_user("bob", "b@example.com", PASSWORD)
    mine = Force.create_from_spec(
        read_force_document(LEGAL_DOCUMENT | {"name": "Alice's wardens"}),
        "2026.11",
        75,
        owner=alice,
    )
    starter, joiner = Client(), Client()
    starter.force_login(alice)
    joiner.force_login(bob)
    fields = {"list_a": mine.pk, "list_b": mine.pk, "vp_target": 9}
    game_url = starter.post("/games/new/", fields)["Location"]
    assert joiner.post(game_url + "join/").status_code == 302
    json_ = {"HTTP_ACCEPT": "application/json"}
    starter.post(game_url + "steps/", {"version": 0, "kind": "first", "side": "a"}, **json_)
    starter.post(game_url + "steps/", {"version": 1, "kind": "ap", "value": "13"}, **json_)
    trooper = Game.objects.get().game_state().troopers[1].id
    fields = {"version": 2, "kind": "act", "trooper": trooper, "action": "move"}
    assert starter.post(game_url + "steps/", fields, **json_).status_code == 200

    a = phone_of(browser, base, "alice")
    b = phone_of(browser, base, "bob")
    b.goto(base + game_url)
    # The page is kept by the service worker: it opens again without a connection.
    a.goto(f"{base}{game_url}?trooper={trooper}")
    for _ in range(50):
        if a.evaluate("!!navigator.serviceWorker.controller"):
            break
        a.reload()
        a.wait_for_timeout(100)
    a.reload()
    a.context.set_offline(True)
    a.reload()
    expect(a.get_by_role("heading", level=1)).to_contain_text("Alice's wardens")

    # Five steps offline: they wait on the phone.
    move = a.locator(".action-list form").filter(has=a.locator("input[value='move']"))
    shoot = a.locator(".action-list form").filter(has=a.locator("input[value='shoot']"))
    for form in (move, move, shoot, shoot):
        form.get_by_role("button").click()
    a.get_by_text("Victory points", exact=True).click()
    a.get_by_label("Side A's VP").fill("1")
    a.get_by_role("button", name="Set side A's VP").click()
    expect(a.locator("#offline-queue")).to_contain_text("5 steps waiting")
    assert Game.objects.get().version == 3

    # Back online: each is applied once, in order, and the other phone shows them.
    a.context.set_offline(False)
    expect(a.locator("#offline-queue")).to_be_hidden(timeout=10_000)
    expect(b.locator("#turn")).to_have_attribute("data-version", "8", timeout=5_000)
    log = b.locator(".log .steps li").all_inner_texts()
    name = Game.objects.get().game_state().troopers[1].name
    assert [line.split(" · side A ")[1] for line in log[:5]] == [
        "Side A has 1 VP",
        f"{name}: Shoot (2 AP)",
        f"{name}: Shoot (1 AP)",
        f"{name}: Move (4 AP)",
        f"{name}: Move (2 AP)",
    ]
    assert Game.objects.get().game_state().ap == 13 - 1 - 9

    # Offline again; meanwhile the other phone moves the game on: the waiting step is
    # refused with the reason, and kept on the screen.
    expect(a.locator("#turn")).to_have_attribute("data-version", "8", timeout=5_000)
    a.context.set_offline(True)
    a.get_by_role("button", name="Pass").click()
    expect(a.locator("#offline-queue")).to_contain_text("1 step waiting")
    joiner.post(game_url + "steps/", {"version": 8, "kind": "vp", "side": "b", "value": 1}, **json_)
    a.context.set_offline(False)
    expect(a.locator("#offline-queue")).to_contain_text("Not sent: This game was changed")
    expect(a.locator("#offline-queue li")).to_have_text(["Pass: side B becomes active"])
    assert Game.objects.get().version == 9
    screenshot(a, "game-offline-refused")
