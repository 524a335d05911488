"""An event's round in a real browser at phone width: the organizer pairs it by the Swiss
system and publishes it, both players report their game from their phones and disagree, the
organizer settles the dispute on the round page, and the standings page a third player
watches updates by itself. The pages pass axe and the Nu HTML checker at 390 and 1366 px."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from events.models import Pairing
from tests.browser.conftest import PHONE, patient, screenshot, settled
from tests.browser.quality import ROOT, axe_violations, markup_errors
from tests.browser.test_events import PASSWORD, fits_the_phone, log_in
from tests.events.conftest import make_event

pytestmark = pytest.mark.django_db(transaction=True)

WIDE = {"width": 1366, "height": 900}
# The standings page polls every 5 s (events.live.POLL_SECONDS), and a loaded machine's margin.
LIVE_MS = 15_000


def phone_of(browser: Browser, base: str, path: str, name: str) -> Page:
    context = browser.new_context(viewport=PHONE, bypass_csp=True)
    page = context.new_page()
    patient(page)
    page.goto(base + path)
    log_in(page, name)
    return page


def no_axe_violations(page: Page, what: str) -> None:
    """axe on the page as it is, with the message of what was just done if it shows one."""
    found = axe_violations(page)
    assert found == [], f"{what}: {found}"


def test_players_report_from_their_phones_and_the_organizer_settles_a_dispute(
    browser: Browser, live_server, django_user_model
):
    base = live_server.url
    organizer = django_user_model.objects.create_user("orga", "o@example.com", PASSWORD)
    event = make_event(organizer, name="Club Swiss", round_count=3)
    for name in ("alice", "bob", "carol", "dave", "erin"):
        event.join(django_user_model.objects.create_user(name, f"{name}@example.com", PASSWORD))
    round_path = f"/events/{event.pk}/rounds/1/"
    standings_path = f"/events/{event.pk}/standings/"
    me_path = f"/events/{event.pk}/me/"

    # --- The organizer pairs and publishes round 1, then publishes the standings -----------
    org = phone_of(browser, base, round_path, "orga")
    org.get_by_role("button", name="Pair round 1 by the Swiss system").click()
    expect(org.locator(".messages")).to_contain_text("Round 1 is paired: 2 games.")
    expect(org.locator(".messages")).to_contain_text("has the bye")
    org.get_by_role("button", name="Publish round 1 to the players").click()
    org.goto(base + standings_path)
    org.get_by_role("button", name="Publish the standings").click()
    expect(org.locator(".messages")).to_contain_text("The standings are published")

    game = Pairing.objects.select_related("player_a__player", "player_b__player").get(table=1)
    a, b = game.player_a.player_name, game.player_b.player_name
    watcher_name = next(n for n in ("alice", "bob", "carol", "dave", "erin") if n not in (a, b))

    # --- A third player watches the standings ---------------------------------------------
    watcher = phone_of(browser, base, standings_path, watcher_name)
    row_a = watcher.locator(f"#player-{game.player_a_id}")
    expect(row_a).to_contain_text(a)
    expect(row_a.locator("td").nth(1)).to_have_text("0")  # score

    # --- Side A reports on the phone: 12 to 7 ------------------------------------------------
    phone_a = phone_of(browser, base, me_path, a)
    form = phone_a.locator("#round-1")
    form.get_by_label("Your VP").fill("12")
    form.get_by_label(f"{b}'s VP").fill("7")
    form.get_by_role("button", name="Send the result of round 1").click()
    expect(phone_a.locator(".messages")).to_contain_text(f"It counts once {b} reports the same")
    expect(phone_a.locator("#round-1")).to_contain_text("You sent 12 to 7")
    fits_the_phone(phone_a)
    screenshot(phone_a, "swiss-report-phone")
    no_axe_violations(phone_a, "the player's result form (phone)")

    # --- Side B reports something else: the game is disputed ------------------------------
    phone_b = phone_of(browser, base, me_path, b)
    expect(phone_b.locator("#round-1")).to_contain_text(f"{a} reported: you 7, {a} 12")
    phone_b.get_by_label("Your VP").fill("12")
    phone_b.get_by_label(f"{a}'s VP").fill("7")
    phone_b.get_by_role("button", name="Send the result of round 1").click()
    expect(phone_b.locator(".messages")).to_contain_text("the organizer will settle it")
    expect(phone_b.locator("#round-1")).to_contain_text("Your reports differ")

    # --- The organizer settles it on the round page ----------------------------------------
    org.goto(base + round_path)
    game_card = org.locator("#game-1")
    expect(game_card).to_contain_text("Disputed")
    expect(game_card).to_contain_text(f"{b} reported {a} 7, {b} 12")
    fits_the_phone(org)
    screenshot(org, "swiss-round-disputed-phone")
    no_axe_violations(org, "the organizer's round page (phone)")
    game_card.get_by_role("button", name=f"{a}'s report is right").click()
    expect(org.locator("#game-1")).to_contain_text("Entered by you")
    expect(org.locator("#game-1 .vp").first).to_have_text("12")

    # --- The watcher's standings update without a reload ----------------------------------
    watcher.evaluate(
        "document.getElementById('standings-live').dispatchEvent(new Event('refresh'))"
    )
    settled(watcher)
    # The refresh is dropped by htmx when a poll of the region was on its way (its answer
    # replaces the element the refresh was queued on): the next poll, POLL_SECONDS later,
    # brings the standings then.
    expect(row_a.locator("td").nth(1)).to_have_text("1", timeout=LIVE_MS)
    expect(row_a.locator("td").nth(0)).to_have_text("1")
    fits_the_phone(watcher)
    screenshot(watcher, "swiss-standings-phone")
    no_axe_violations(watcher, "the standings (phone)")
    phone_a.reload()
    expect(phone_a.locator("#round-1")).to_contain_text("You won 12 to 7")

    # --- The same pages at 1366 px, and the markup of every page -----------------------------
    html = {}
    pages = {
        "swiss-report": (phone_a, me_path),
        "swiss-round": (org, round_path),
        "swiss-standings": (watcher, standings_path),
        "swiss-history": (org, f"/events/{event.pk}/players/{game.player_a_id}/history/"),
        "swiss-settings": (org, f"/events/{event.pk}/swiss/"),
        "swiss-dashboard": (org, f"/events/{event.pk}/"),
    }
    for name, (small, path) in pages.items():
        wide = browser.new_context(
            viewport=WIDE, bypass_csp=True, storage_state=small.context.storage_state()
        )
        page = wide.new_page()
        page.goto(base + path)
        screenshot(page, f"{name}-desktop")
        no_axe_violations(page, f"{name} (desktop)")
        html[name] = page.request.get(base + path).text()
        if name not in ("swiss-report", "swiss-round", "swiss-standings"):
            small.goto(base + path)
            fits_the_phone(small)
            no_axe_violations(small, f"{name} (phone)")
        wide.close()
    errors = markup_errors(html, ROOT / "test-artifacts" / "markup" / "swiss")
    assert errors == {}, errors
    for page in (org, watcher, phone_a, phone_b):
        page.context.close()
