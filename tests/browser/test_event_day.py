"""An event's three-round day on phones and a desktop (issue 32): players check in from
their phones (the organizer ticks another), the organizer pairs, publishes and starts the
clock, and the players' open pages show their table and the time left without a reload (and
a background page notifies); a player drops themself; the organizer adds a late player, who
submits a checked list and is paired in round 2; a dispute shows on the organizer's open
round page and is settled there; round 3's pairing settles round 2 and the final standings
finish the day; a player's late change is refused (a closed round, a settled one, a finished
event); the standings show every deciding column at 390 px and nothing is clipped at 1366 px.
axe and the Nu HTML checker on the pages at both widths. One server, few loads."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

import pytest
from django.db import OperationalError
from django.test import Client
from playwright.sync_api import Browser, BrowserContext, Page, expect

from events.models import Drop, Entry, Pairing, Result
from tests.browser.conftest import PHONE, patient, screenshot
from tests.browser.quality import ROOT, axe_violations, markup_errors
from tests.browser.test_events import PASSWORD, fits_the_phone
from tests.events.conftest import make_event, make_force

pytestmark = pytest.mark.django_db(transaction=True)

WIDE = {"width": 1366, "height": 900}
# A live page polls every 5 s: an update shows within 10 s (and a loaded machine's margin).
LIVE_MS = 15_000
T = TypeVar("T")
# The browser's Notifications API as a phone has it: the permission is asked for (counted),
# kept for the session, and what is shown is recorded.
NOTIFICATIONS = """
    window.notified = [];
    window.Notification = function (text) { window.notified.push(text); };
    window.Notification.permission = sessionStorage.getItem("permission") || "default";
    window.Notification.requestPermission = () => {
        sessionStorage.setItem("asked", String(Number(sessionStorage.getItem("asked") || 0) + 1));
        sessionStorage.setItem("permission", "granted");
        window.Notification.permission = "granted";
        return Promise.resolve("granted");
    };
"""


def signed_in(browser: Browser, base: str, user, viewport) -> BrowserContext:  # type: ignore[no-untyped-def]
    """A browser context already signed in as ``user`` (no login page to load)."""
    client = Client()
    unlocked(lambda: client.force_login(user))
    context = browser.new_context(viewport=viewport, bypass_csp=True)
    host = base.split("//", 1)[1].split(":", 1)[0]
    context.add_cookies(
        [
            {
                "name": "sessionid",
                "value": client.cookies["sessionid"].value,
                "domain": host,
                "path": "/",
            }
        ]
    )
    return context


def opened(context: BrowserContext, url: str) -> Page:
    page = context.new_page()
    patient(page)
    page.goto(url)
    return page


def clean(page: Page, what: str) -> None:
    found = axe_violations(page)
    assert found == [], f"{what}: {found}"


def columns_on_the_phone(row, labels) -> None:  # type: ignore[no-untyped-def]
    """Each cell of ``row`` named by ``labels`` is shown, whole, within the phone's width."""
    for label in labels:
        cell = row.locator(f'td[data-label="{label}"]')
        expect(cell).to_be_visible()
        box = cell.bounding_box()
        assert box is not None and box["x"] + box["width"] <= PHONE["width"], label


def report(event, number: int, player, mine: int, theirs: int) -> int:  # type: ignore[no-untyped-def]
    """A player's result sent from their phone's form (the page's own post): its status."""
    client = Client()
    unlocked(lambda: client.force_login(player))
    url = f"/events/{event.pk}/rounds/{number}/report/"
    return unlocked(lambda: client.post(url, {"my_vp": mine, "their_vp": theirs}).status_code)


def unlocked(write: Callable[[], T]) -> T:
    """``write`` from the test's own thread, again while the test database says "table is
    locked": in memory with a shared cache, SQLite fails at once where the site's file
    database waits its turn (tests/tablegen/test_concurrency.py), and the live pages' polls
    read the same tables from the server's threads. A failed write saved nothing (its
    transaction is rolled back), so it is simply made again."""
    # Tried for 30 s, not 100 times (2 s): a busy machine keeps a poll's read going longer.
    deadline = time.monotonic() + 30
    while True:
        try:
            return write()
        except OperationalError as locked:
            if "locked" not in str(locked):
                raise
            assert time.monotonic() < deadline, "the test database stayed locked"
            time.sleep(0.02)


def test_a_day_with_check_in_the_clock_live_pages_a_drop_and_a_refused_late_change(
    browser: Browser, live_server, django_user_model
):
    base = live_server.url
    users = {
        name: django_user_model.objects.create_user(name, f"{name}@example.com", PASSWORD)
        for name in ("orga", "alice", "bob", "carol", "dave", "erin")
    }
    event = make_event(users["orga"], name="Hall Open", round_count=3)
    for name in ("alice", "bob", "carol", "dave"):
        event.join(users[name])
    event.lock_all()
    entries = {e.player.username: e for e in Entry.objects.filter(event=event)}
    me = f"{base}/events/{event.pk}/me/"
    round_url = f"{base}/events/{event.pk}/rounds/1/"

    # --- The organizer opens check-in; alice's open page offers it without a reload; she
    # checks in from her phone, and the organizer ticks bob and carol -----------------------
    phone = signed_in(browser, base, users["alice"], PHONE)
    phone.add_init_script(NOTIFICATIONS)
    alice = opened(phone, me)
    expect(alice.locator("#check-in")).to_contain_text("Check-in is not open yet")
    screenshot(alice, "event-day-check-in-not-open-phone")
    org = opened(signed_in(browser, base, users["orga"], WIDE), round_url)
    expect(org.locator("#check-in summary")).to_contain_text("Check-in for round 1: not open")
    clean(org, "the round page before check-in opens (desktop)")
    screenshot(org, "event-day-check-in-not-open-round")
    org.get_by_role("button", name="Open check-in for round 1").click()
    expect(org.locator(".messages")).to_contain_text("Check-in for round 1 is open")
    alice.get_by_role("button", name="Check in for round 1").click(timeout=LIVE_MS)
    expect(alice.locator("#check-in")).to_contain_text("Checked in")
    # Before round 1 she is offered notifications, allows them once, and is not asked again.
    alice.get_by_role("button", name="Tell me when my next round is up").click()
    expect(alice.locator("[data-notify-ask]")).to_be_hidden()
    assert alice.evaluate("sessionStorage.getItem('asked')") == "1"
    alice.reload()
    expect(alice.locator("#check-in")).to_contain_text("Checked in")
    expect(alice.locator("[data-notify-ask]")).to_be_hidden()
    # The page goes to the background.
    alice.evaluate('Object.defineProperty(document, "hidden", { get: () => true })')
    org.reload()
    for name in ("bob", "carol"):
        org.get_by_role("button", name=f"Check in {name}").click()
    expect(org.locator("#check-in summary")).to_contain_text("3 of 4 checked in")
    clean(org, "the round page with check-in (desktop)")

    # --- Pair (dave is not checked in: not paired), publish, start the clock ----------------------
    org.get_by_role("button", name="Pair round 1 by the Swiss system").click()
    expect(org.locator(".messages")).to_contain_text("Round 1 is paired: 1 game.")
    seated = Pairing.objects.get(round__event=event, round__number=1)
    assert entries["dave"].pk not in (seated.player_a_id, seated.player_b_id)
    org.get_by_role("button", name="Publish round 1 now").click()
    org.get_by_label("Round length (minutes)").fill("75")
    org.get_by_role("button", name="Start round 1's clock").click()
    expect(org.locator(".round-clock")).to_contain_text("minutes left")

    # --- Alice's open page shows her round and the clock, without a reload --------------------
    mine = alice.locator("#live-day")
    if entries["alice"].pk in (seated.player_a_id, seated.player_b_id):
        expect(mine).to_contain_text("Table 1 against", timeout=LIVE_MS)
    else:
        expect(mine).to_contain_text("You have the bye", timeout=LIVE_MS)
    expect(mine.locator(".round-clock")).to_contain_text("minutes left", timeout=LIVE_MS)
    # The background page told her, once, through the browser's notifications.
    told = alice.evaluate("window.notified")
    assert len(told) == 1 and told[0].startswith("Round 1 is up"), told
    fits_the_phone(alice)
    screenshot(alice, "event-day-player-phone")
    clean(alice, "the player's page, live (phone)")

    # --- The game's two players report the same: confirmed; the organizer closes the round -----
    a, b = seated.player_a.player, seated.player_b.player
    assert report(event, 1, a, 9, 4) == 302 and report(event, 1, b, 4, 9) == 302
    expect(org.locator("#game-1")).to_contain_text("Confirmed", timeout=LIVE_MS)
    org.get_by_role("button", name="Close round 1").click()
    expect(org.locator(".messages")).to_contain_text("Round 1 is closed")

    # --- A player's late change is refused and changes nothing ----------------------------------
    late = opened(signed_in(browser, base, a, PHONE), me)
    expect(late.locator("#round-1")).to_contain_text("this result is settled")
    assert late.get_by_role("button", name="Send the result of round 1").count() == 0
    token = late.evaluate("document.cookie.match(/csrftoken=([^;]+)/)[1]")
    answer = late.request.post(
        f"{me.rsplit('/me/', 1)[0]}/rounds/1/report/",
        form={"my_vp": "0", "their_vp": "15", "csrfmiddlewaretoken": token},
        headers={"Referer": me},
    )
    assert answer.status == 400 and "settled" in answer.text()
    result = Result.objects.get(pairing=seated)
    assert (result.a_vp, result.b_vp) == (9, 4)
    clean(late, "the player's page after the close (phone)")

    # --- Bob drops himself after round 1; the dashboard tells the organizer -------------------
    bob = opened(signed_in(browser, base, users["bob"], PHONE), me)
    bob.locator("details.drop-out summary").click()
    bob.get_by_role("button", name="Drop out after round 1").click()
    expect(bob.locator(".messages")).to_contain_text("You have dropped out")
    assert Drop.objects.get(entry=entries["bob"]).by_player

    # --- The organizer adds a late player on the dashboard (a phone) ---------------------------
    org_phone = opened(signed_in(browser, base, users["orga"], PHONE), f"{base}/events/{event.pk}/")
    expect(org_phone.locator(".next-steps")).to_contain_text("bob dropped out after round 1")
    # The join link is copied in one tap (for the hall's chat).
    org_phone.context.grant_permissions(["clipboard-read", "clipboard-write"])
    org_phone.get_by_role("button", name="Copy the join link").click()
    expect(org_phone.locator("#join .copied")).to_have_text("Copied.")
    assert org_phone.evaluate("navigator.clipboard.readText()") == base + event.get_join_url()
    org_phone.get_by_label("Add a late player").fill("erin")
    org_phone.get_by_role("button", name="Add the player").click()
    expect(org_phone.locator(".messages")).to_contain_text("erin is added")
    fits_the_phone(org_phone)
    clean(org_phone, "the dashboard (phone)")
    screenshot(org_phone, "event-day-dashboard-phone")

    # --- Erin, the late player, submits a list from her phone: it is checked ------------------
    unlocked(lambda: make_force(users["erin"], "Erin's wardens"))
    erin = opened(signed_in(browser, base, users["erin"], PHONE), me)
    erin.locator('input[name="force"]').first.check()
    erin.get_by_role("button", name="Submit the chosen list").click()
    expect(erin.locator("#status")).to_contain_text("Legal")
    erin.context.close()

    # --- Round 2: bob is not paired, erin is; alice's page and the clock follow live --------
    org.goto(f"{base}/events/{event.pk}/rounds/2/")
    org.get_by_role("button", name="Pair round 2 by the Swiss system").click()
    expect(org.locator(".messages")).to_contain_text("Round 2 is paired: 2 games.")
    second = list(Pairing.objects.filter(round__event=event, round__number=2).order_by("table"))
    seated_two = {p.player_a_id for p in second} | {p.player_b_id for p in second}
    assert entries["bob"].pk not in seated_two
    assert Entry.objects.get(event=event, player=users["erin"]).pk in seated_two
    org.get_by_role("button", name="Publish round 2 now").click()
    org.get_by_role("button", name="Start round 2's clock").click()
    expect(org.locator(".round-clock")).to_contain_text("minutes left")
    expect(alice.locator("#round-2")).to_contain_text("against", timeout=LIVE_MS)
    # (A poll may have caught the round published before its clock: the next one has it.)
    expect(alice.locator("#round-2 .round-clock")).to_contain_text("minutes left", timeout=LIVE_MS)
    told = alice.evaluate("window.notified")
    assert len(told) == 2 and told[1].startswith("Round 2 is up"), told

    # --- A dispute at table 1 shows on the organizer's open page, and is settled there -------
    disputed, agreed = second
    sent = [
        report(event, 2, disputed.player_a.player, 10, 5),
        report(event, 2, disputed.player_b.player, 12, 5),  # B says B won 12 to 5
        report(event, 2, agreed.player_a.player, 7, 7),
        report(event, 2, agreed.player_b.player, 7, 7),
    ]
    assert sent == [302] * 4
    game = org.locator("#game-1")
    expect(game).to_contain_text("Disputed", timeout=LIVE_MS)
    expect(org.locator("#game-2")).to_contain_text("Confirmed", timeout=LIVE_MS)
    a_name = disputed.player_a.player_name
    game.get_by_role("button", name=f"{a_name}'s report is right").click()
    expect(org.locator("#game-1")).to_contain_text("Entered by you")
    settled_result = Result.objects.get(pairing=disputed)
    assert (settled_result.a_vp, settled_result.b_vp) == (10, 5)
    clean(org, "the round page after a dispute (desktop)")

    # --- Round 3 closes round 2; its results, then the final standings finish the day --------
    org.goto(f"{base}/events/{event.pk}/rounds/3/")
    org.get_by_role("button", name="Pair round 3 by the Swiss system").click()
    expect(org.locator(".messages")).to_contain_text("Round 3 is paired: 2 games.")
    org.get_by_role("button", name="Publish round 3 now").click()
    expect(alice.locator("#round-3")).to_contain_text("against", timeout=LIVE_MS)
    told = alice.evaluate("window.notified")
    assert len(told) == 3 and told[2].startswith("Round 3 is up"), told
    for pairing in Pairing.objects.filter(round__event=event, round__number=3):
        assert report(event, 3, pairing.player_a.player, 8, 3) == 302
        assert report(event, 3, pairing.player_b.player, 3, 8) == 302
    # Round 2 is settled by round 3's pairing: the loser of the dispute cannot change it.
    assert report(event, 2, disputed.player_b.player, 15, 0) in (400, 403)
    assert (Result.objects.get(pk=settled_result.pk).a_vp, settled_result.b_vp) == (10, 5)
    org.goto(f"{base}/events/{event.pk}/standings/")
    org.get_by_role("button", name="Publish the final standings and finish the event").click()
    expect(org.locator(".messages")).to_contain_text("Hall Open is finished")
    last = Pairing.objects.filter(round__event=event, round__number=3).first()
    assert last is not None
    assert report(event, 3, last.player_a.player, 0, 15) in (400, 403)
    assert Result.objects.get(pairing=last).a_vp == 8

    # --- The standings: every deciding column on a phone, nothing clipped at 1366 -------------
    standings = f"{base}/events/{event.pk}/standings/"
    org_phone.goto(standings)
    first = org_phone.locator("table.standings tbody tr").first
    columns_on_the_phone(first, ("Score", "W-D-L", "SoS", "VP"))
    fits_the_phone(org_phone)
    clean(org_phone, "the standings (phone)")
    screenshot(org_phone, "event-day-standings-phone")
    # The pairings overview keeps side B and the result; the players table what decides.
    org_phone.goto(f"{base}/events/{event.pk}/rounds/")
    columns_on_the_phone(
        org_phone.locator("table.stack tbody tr").first, ("Side A", "Side B", "Result")
    )
    fits_the_phone(org_phone)
    clean(org_phone, "every table (phone)")
    org_phone.goto(f"{base}/events/{event.pk}/")
    erin_row = org_phone.locator(f"#player-{Entry.objects.get(player=users['erin']).pk}")
    columns_on_the_phone(erin_row, ("Legal", "Points", "List"))
    expect(erin_row.get_by_role("button", name="Lock erin")).to_be_visible()
    html = {}
    for name, url in (
        ("dashboard", f"{base}/events/{event.pk}/"),
        ("standings", standings),
        ("round", round_url),
        ("rounds", f"{base}/events/{event.pk}/rounds/"),
    ):
        org.goto(url)
        clipped = org.evaluate(
            "[...document.querySelectorAll('.table-scroll')]"
            ".filter(e => e.scrollWidth > e.clientWidth + 1).length"
        )
        assert clipped == 0, f"{name}: a table is wider than its box at 1366 px"
        clean(org, f"{name} (desktop)")
        html[name] = org.request.get(url).text()
    html["player"] = late.request.get(me).text()
    errors = markup_errors(html, ROOT / "test-artifacts" / "markup" / "event-day")
    assert errors == {}, errors
    for page in (alice, org, late, bob, org_phone):
        page.context.close()
