"""Two phones, one game, in a real browser at 390 px: Alice starts a game against Bob's
shared list, Bob joins from the link, and each phone sees the other's steps without a
reload (measured); the doubling cost and a refused action's reason are on the screen;
axe-core and the Nu HTML checker find nothing on the game's page."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import Error as PlaywrightError

from forcebuilder.models import Force
from games.models import Game
from onefinity.rules import read_force_document
from tests.browser.conftest import PHONE, patient, screenshot, settled
from tests.browser.quality import axe_violations, markup_errors
from tests.forcebuilder.conftest import LEGAL_DOCUMENT

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "a-long-pass-phrase"
# Each phone sees the other's step within this many seconds (the bound): it asks
# every second, so this is one poll and its answer. How long that takes is a speed, measured
# by benchmarks/games_load.py (200 games at once, against this target); here the test only
# checks that each phone polls often enough to meet it, and waits for the other's steps as
# long as a busy machine's server takes to answer (CI's two cores ran one poll late).
SYNC_SECONDS = 2.0
POLL_EVERY_SECONDS = 1
OTHER_PHONE_MS = 30_000
# How long the service worker may take to keep (or forget) a page: it fetches it again.
KEPT_SECONDS = 60


_CONTEXTS: list = []


@pytest.fixture(autouse=True)
def phones_closed():
    """Each phone's context is closed after its test: a page left open would go on polling
    the live server after the test's database is gone."""
    yield
    while _CONTEXTS:
        _CONTEXTS.pop().close()


def new_phone(browser: Browser, service_workers: str = "allow") -> Page:
    context = browser.new_context(
        viewport=PHONE,
        bypass_csp=True,
        service_workers=service_workers,  # type: ignore[arg-type]
    )
    _CONTEXTS.append(context)
    page = context.new_page()
    patient(page)
    return page


def sign_in(page: Page, base: str, name: str) -> Page:
    page.goto(base + "/games/")
    page.get_by_label("Username").fill(name)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    # The click returns once the next page has begun; its callers read it whole (its HTML,
    # axe-core, its fields), so it is waited for until it has loaded.
    page.wait_for_load_state()
    return page


def phone_of(browser: Browser, base: str, name: str) -> Page:
    return sign_in(new_phone(browser), base, name)


def fits_the_phone(page: Page) -> None:
    """No sideways scrolling, measured once the page has loaded: a page a click has just
    opened may still be waiting for its style sheets."""
    page.wait_for_load_state()
    overflow = page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0, f"{page.url} scrolls sideways by {overflow}px"


def seen_within(page: Page, text: str) -> float:
    """Seconds until the page's turn region says ``text``, without a reload."""
    started = time.monotonic()
    expect(page.locator("#turn .turn-status")).to_contain_text(text, timeout=OTHER_PHONE_MS)
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
    pages = {"games": a.content()}
    assert axe_violations(a) == []
    fits_the_phone(a)
    a.get_by_label("Your opponent's list").fill(base + raiders.get_share_url())
    a.get_by_label("Victory points to win").fill("2")
    a.get_by_role("button", name="Start the game").click()
    expect(a.get_by_role("heading", level=1)).to_contain_text("Alice's wardens")
    join_url = a.get_by_role("link", name="/join/").get_attribute("href")
    assert join_url and "/join/" in join_url
    expect(a.locator(".qr svg")).to_have_count(1)
    screenshot(a, "game-new-phone")
    fits_the_phone(a)

    # Bob opens the game's own address before joining: a 404 that says how to join.
    b = phone_of(browser, base, "bob")
    not_yet = b.goto(a.url)
    assert not_yet is not None and not_yet.status == 404
    expect(b.locator("main")).to_contain_text("open the join link the other player shares")
    pages["not-joined"] = b.content()
    assert axe_violations(b) == []
    fits_the_phone(b)
    b.goto(join_url)
    pages["join"] = b.content()
    assert axe_violations(b) == []
    b.get_by_role("button", name="Join as side B").click()
    expect(b.get_by_role("heading", level=1)).to_contain_text("Bob's raiders")

    # Alice records the draw-off; Bob's phone follows without a reload.
    b.evaluate("window.notReloaded = true")
    # Each phone asks for the other's steps often enough to see them within SYNC_SECONDS.
    poll = b.locator("#turn .sync").get_attribute("data-hx-trigger")
    assert poll == f"every {POLL_EVERY_SECONDS}s" and POLL_EVERY_SECONDS < SYNC_SECONDS, poll
    a.get_by_role("button", name="Side A won the draw-off").click()
    settled(a)
    delays = [seen_within(b, "Turn 1: side A")]
    a.get_by_label("Card drawn for AP").select_option("5")
    a.get_by_role("button", name="Take these AP").click()
    settled(a)
    delays.append(seen_within(b, "5 AP"))

    # Alice taps a trooper, then Move twice: 1 AP, then 2 (the doubling).
    # From the keyboard: Enter on a trooper opens its actions, and the focus stays on it
    # after the region is drawn again (htmx puts it back on the element of the same id).
    first = a.locator("#turn .side").first.get_by_role("link").first
    first.focus()
    a.keyboard.press("Enter")
    settled(a)
    expect(a.locator(".trooper-panel")).to_be_visible()
    assert a.evaluate("document.activeElement.id").startswith("trooper-a-")
    move = a.locator(".action-list form").filter(has=a.locator("input[value='move']"))
    expect(move.get_by_role("button")).to_contain_text("1 AP")
    # A trooper's actions, each with its cost on its button: readable there (axe-core's
    # contrast; the cost's muted grey was on the button's blue).
    expect(move.get_by_role("button")).to_be_enabled()
    assert axe_violations(a) == []
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

    # Tap a hex of the map, then Place: the trooper stands there on both phones, named as
    # the map names the hex.
    tapped = a.locator(".game-map svg a").nth(40)
    place = (tapped.locator("title").text_content() or "").split(":")[0]
    assert place.startswith("Row ")
    tapped.click()
    settled(a)
    expect(a.locator(".game-map + .note")).to_contain_text(f"{place} chosen")
    _place_here(a)
    expect(a.locator(".trooper.selected")).to_contain_text(place)
    fits_the_phone(a)
    screenshot(a, "game-turn-phone")

    # Bob passes for Alice (either phone records a step) once his phone shows the last step
    # (a tap on a page that is a step behind is refused as stale: tested below).
    version = a.locator("#turn").get_attribute("data-version")
    expect(b.locator("#turn")).to_have_attribute(
        "data-version", version or "", timeout=OTHER_PHONE_MS
    )
    b.get_by_role("button", name="Pass").click()
    settled(b)
    delays.append(seen_within(a, "Turn 2: side B"))
    assert b.evaluate("window.notReloaded") is True
    # How long each took is a figure (benchmarks/games_load.py measures it against
    # SYNC_SECONDS under load), not a bound for a test on a machine as busy as CI's.
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

    pages["game"] = a.content()
    assert axe_violations(a) == []
    assert markup_errors(pages, tmp_path) == {}


def csrf(page: Page) -> str:
    return next(c["value"] for c in page.context.cookies() if c["name"] == "csrftoken")


def begun(django_user_model, opened: bool = True):  # type: ignore[no-untyped-def]
    """A game between alice and bob, both signed in (Django test clients), side A first
    with 13 AP (unless not ``opened``: no step taken): its address, alice's list (both
    sides'), and the two clients."""
    from django.test import Client

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
    if opened:
        json_ = {"HTTP_ACCEPT": "application/json"}
        starter.post(game_url + "steps/", {"version": 0, "kind": "first", "side": "a"}, **json_)
        starter.post(game_url + "steps/", {"version": 1, "kind": "ap", "value": "13"}, **json_)
    return game_url, mine, starter, joiner


def test_steps_taken_offline_are_sent_once_in_order_and_a_stale_one_is_refused(
    browser: Browser, live_server, django_user_model
):
    base = live_server.url
    game_url, mine, starter, joiner = begun(django_user_model)
    json_ = {"HTTP_ACCEPT": "application/json"}
    trooper = Game.objects.get().game_state().troopers[1].id
    fields = {"version": 2, "kind": "act", "trooper": trooper, "action": "move"}
    assert starter.post(game_url + "steps/", fields, **json_).status_code == 200

    a = phone_of(browser, base, "alice")
    b = phone_of(browser, base, "bob")
    b.goto(base + game_url)
    # The page is kept by the service worker: it opens again without a connection.
    a.goto(f"{base}{game_url}?trooper={trooper}")
    # Until the worker controls it, as long as a busy machine's server takes to give the
    # worker what it keeps (50 tries with no check after them went on uncontrolled).
    deadline = time.monotonic() + KEPT_SECONDS
    while not a.evaluate("!!navigator.serviceWorker.controller"):
        assert time.monotonic() < deadline, "the service worker never took the page over"
        a.reload()
        a.wait_for_timeout(100)
    a.reload()
    a.goto(f"{base}/forces/{mine.pk}/roster/")  # a roster is kept too
    a.goto(f"{base}{game_url}?trooper={trooper}")
    a.context.set_offline(True)
    a.goto(f"{base}/forces/{mine.pk}/roster/")
    expect(a.get_by_role("heading", level=1)).to_contain_text("Alice's wardens")
    a.goto(f"{base}{game_url}?trooper={trooper}")
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
    expect(a.locator("#offline-queue")).to_be_hidden(timeout=OTHER_PHONE_MS)
    expect(b.locator("#turn")).to_have_attribute("data-version", "8", timeout=OTHER_PHONE_MS)
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
    expect(a.locator("#turn")).to_have_attribute("data-version", "8", timeout=OTHER_PHONE_MS)
    a.context.set_offline(True)
    a.get_by_role("button", name="Pass").click()
    expect(a.locator("#offline-queue")).to_contain_text("1 step waiting")
    joiner.post(game_url + "steps/", {"version": 8, "kind": "vp", "side": "b", "value": 1}, **json_)
    a.context.set_offline(False)
    expect(a.locator("#offline-queue")).to_contain_text("Not sent: This game was changed")
    expect(a.locator("#offline-queue li")).to_have_text(["Pass: side B becomes active"])
    assert Game.objects.get().version == 9
    screenshot(a, "game-offline-refused")


def _kept(page: Page, path: str, kept: bool = True) -> bool:
    """Whether the page's offline copy comes to be kept (or forgotten), within KEPT_SECONDS:
    the service worker writes its caches after the page has loaded, fetching it again from a
    server that a busy machine slows."""
    deadline = time.monotonic() + KEPT_SECONDS
    while True:
        found = page.evaluate("(path) => caches.match(path).then((found) => !!found)", path)
        if found == kept:
            return True
        if time.monotonic() > deadline:
            return False
        page.wait_for_timeout(100)


def test_a_page_the_worker_took_over_while_it_loaded_is_kept_too(
    browser: Browser, live_server, django_user_model
):
    """The race a busy machine found: the worker, registered by the page before, becomes
    active while the next page loads. That page's request went out before the worker could
    answer it (so the worker kept nothing), yet the worker controls the page by the time
    site.js runs: it is fetched again for the worker all the same. The worker's script and
    the second page's site.js are held back to make the race happen every time."""
    base = live_server.url
    alice = django_user_model.objects.create_user("alice", "a@example.com", PASSWORD)
    force = Force.create_from_spec(read_force_document(LEGAL_DOCUMENT), "2026.11", 75, owner=alice)
    roster = f"/forces/{force.pk}/roster/"
    phone = new_phone(browser)

    asked: list[str] = []
    phone.on("request", lambda request: request.url.endswith(roster) and asked.append(roster))

    def slow_worker(route):
        # Held until the roster's request has gone out, not for a fixed 1.5 s: a test slower
        # than that to ask for the roster (a busy machine) found the worker ready, no race.
        deadline = time.monotonic() + 60
        while not asked and time.monotonic() < deadline:
            phone.wait_for_timeout(50)
        route.continue_()

    def slow_script(route):
        if route.request.frame.url.endswith(roster):
            phone.wait_for_timeout(4_000)
        route.continue_()

    phone.context.route("**/games/sw.js", slow_worker)
    sign_in(phone, base, "alice")
    # The first signed-in page registers the worker; it arrives once the roster is asked for.
    expect(phone.locator("body[data-worker]")).to_be_attached()
    phone.route("**/js/site.js", slow_script)
    phone.goto(base + roster)
    expect(phone.get_by_role("heading", level=1)).to_contain_text(force.name)
    timing = phone.evaluate('performance.getEntriesByType("navigation")[0].workerStart')
    assert timing == 0, "the roster's request was answered by the worker: no race"
    expect(phone.locator("body")).to_have_attribute("data-worker", "/games/sw.js")
    assert _kept(phone, roster), "a page the worker took over while it loaded is not kept"


def test_a_roster_and_the_pairings_read_offline_without_a_game_page_first(
    browser: Browser, live_server, django_user_model
):
    """A fresh phone signs in and opens a roster and its event page (never a game page),
    goes offline and reads both again; signing out forgets them."""
    import datetime

    from events.models import Event, Pairing

    base = live_server.url
    organizer = django_user_model.objects.create_user("orga", "o@example.com", PASSWORD)
    alice = django_user_model.objects.create_user("alice", "a@example.com", PASSWORD)
    bob = django_user_model.objects.create_user("bob", "b@example.com", PASSWORD)
    event = Event.create(
        name="Hall Night",
        date=datetime.date(2026, 12, 5),
        points_limit=75,
        ruleset_version="2026.11",
        round_count=1,
        owner=organizer,
    )
    entries, forces = [], []
    for user, name in ((alice, "Alice's wardens"), (bob, "Bob's raiders")):
        document = LEGAL_DOCUMENT | {"name": name}
        forces.append(
            Force.create_from_spec(read_force_document(document), "2026.11", 75, owner=user)
        )
        entry = event.join(user)
        entry.submit(forces[-1], accept_problems=True)
        entries.append(entry)
    event.lock_all()
    round_ = event.rounds.get(number=1)
    Pairing.objects.create(round=round_, table=3, player_a=entries[0], player_b=entries[1])
    round_.published = True
    round_.save()

    phone = phone_of(browser, base, "alice")
    roster, pairings = f"/forces/{forces[0].pk}/roster/", f"/events/{event.pk}/me/"
    phone.goto(base + roster)
    expect(phone.get_by_role("heading", level=1)).to_contain_text("Alice's wardens")
    phone.goto(base + pairings)
    expect(phone.locator("#round-1")).to_contain_text("Table 3")
    # What the phone must have before the signal goes: both pages kept (the first page the
    # worker was registered from is fetched again for it).
    for path in (roster, pairings):
        assert _kept(phone, path), f"{path} is not kept for offline"
    assert Game.objects.count() == 0

    offline = phone.locator(".offline-notice")
    expect(offline).to_be_hidden()
    phone.context.set_offline(True)
    phone.reload()
    expect(phone.locator("#round-1")).to_contain_text("Table 3 against bob")
    # The kept copy says it is one: a form sent now would not reach the site.
    expect(offline).to_contain_text("You are offline")
    phone.goto(base + roster)
    expect(phone.get_by_role("heading", level=1)).to_contain_text("Alice's wardens")
    expect(offline).to_be_visible()
    phone.reload()
    expect(phone.get_by_role("heading", level=1)).to_contain_text("Alice's wardens")
    fits_the_phone(phone)

    # Back online, the player signs out: a shared phone keeps nothing of theirs.
    phone.context.set_offline(False)
    expect(offline).to_be_hidden()
    phone.goto(base + pairings)
    phone.get_by_role("button", name="Menu").click()
    phone.get_by_role("button", name="Log out alice").click()
    expect(phone.locator("body[data-signed-out]")).to_be_attached()
    for path in (roster, pairings):
        assert _kept(phone, path, kept=False), f"{path} is still kept after signing out"
    phone.context.set_offline(True)
    with pytest.raises(PlaywrightError):
        phone.goto(base + roster)


# --- A whole game of an event round ----------------------------------------------------------


def _tap_trooper(page: Page, side: int, name: str) -> None:
    page.locator("#turn .side").nth(side).get_by_role("link", name=name).click()
    settled(page)


def _act(page: Page, action: str) -> None:
    page.locator(".action-list form").filter(
        has=page.locator(f"input[value='{action}']")
    ).get_by_role("button").click()
    settled(page)


def _button(page: Page, name: str) -> None:
    page.get_by_role("button", name=name).click()
    settled(page)


def _draw(page: Page, ap: int) -> None:
    page.get_by_label("Card drawn for AP").select_option(str(ap))
    _button(page, "Take these AP")


def _place(page: Page, typed: str) -> None:
    """Type where the chosen trooper stands, as the players count it ("3,5"), and place it."""
    page.get_by_label("Hex (row from side A, column)").fill(typed)
    _place_here(page)


def _place_here(page: Page) -> None:
    # Exactly "Place": the Undo button after a placing says "… placed on …".
    page.get_by_role("button", name="Place", exact=True).click()
    settled(page)


def _same_version(mover: Page, follower: Page) -> None:
    version = mover.locator("#turn").get_attribute("data-version") or ""
    expect(follower.locator("#turn")).to_have_attribute(
        "data-version", version, timeout=OTHER_PHONE_MS
    )


def test_a_whole_game_of_an_event_round_on_two_phones(
    browser: Browser, live_server, django_user_model, tmp_path
):
    import datetime

    from events.models import Event, Pairing, Result
    from games.places import Places
    from games.table_odds import table_spec
    from onefinity.rules.combat import Situation, plan_exchange, resolve
    from onefinity.rules.effects import fighter
    from onefinity.rules.game import list_troopers
    from onefinity.rules.map_odds import attack_situation, read_map
    from onefinity.rules.reactions import Watch, may_react
    from tests.events.conftest import table_documents

    base = live_server.url
    organizer = django_user_model.objects.create_user("orga", "o@example.com", PASSWORD)
    alice = django_user_model.objects.create_user("alice", "a@example.com", PASSWORD)
    bob = django_user_model.objects.create_user("bob", "b@example.com", PASSWORD)
    wardens = LEGAL_DOCUMENT | {
        "name": "Alice's medics",
        "units": [
            {
                "type": "medium-infantry",
                "name": "Alpha",
                "troopers": [{"class": "hacker"}, {"class": "medic"}, {}],
            },
        ],
    }
    event = Event.create(
        name="Club Night",
        date=datetime.date(2026, 12, 5),
        points_limit=75,
        ruleset_version="2026.11",
        round_count=1,
        owner=organizer,
    )
    entries = []
    for user, document in ((alice, wardens), (bob, LEGAL_DOCUMENT | {"name": "Bob's TAG"})):
        force = Force.create_from_spec(read_force_document(document), "2026.11", 75, owner=user)
        entry = event.join(user)
        entry.submit(force, accept_problems=True)
        entries.append(entry)
    event.lock_all()
    round_ = event.rounds.get(number=1)
    round_.set_tables(round_.version, table_documents(1), "pack")
    Pairing.objects.create(round=round_, table=1, player_a=entries[0], player_b=entries[1])
    round_.published = True
    round_.save()

    # One tap on each phone's pairing: the same game, both locked lists, the round's table.
    phones = {}
    for name in ("bob", "alice"):
        phone = phone_of(browser, base, name)
        phone.goto(f"{base}/events/{event.pk}/me/")
        phone.get_by_role("button", name="Play this game on your phones").click()
        # An event's game is named by its players; each side's list is said under it.
        expect(phone.get_by_role("heading", level=1)).to_have_text("alice v bob")
        expect(phone).to_have_title("alice v bob · Onefinity builder")
        expect(phone.locator("#side-a")).to_have_text("Side A: alice, with Alice's medics")
        expect(phone.locator("#side-b")).to_have_text("Side B: bob, with Bob's TAG")
        phones[name] = phone
    a, b = phones["alice"], phones["bob"]
    assert axe_violations(a) == []
    assert markup_errors({"round-game": a.request.get(a.url).text()}, tmp_path) == {}
    fits_the_phone(a)
    game = Game.objects.get()
    assert game.pairing is not None and game.table_name == "Pack table 1"
    expect(a.locator(".note").first).to_contain_text("Pack table 1")

    # Where they stand: hexes a trooper may enter, an attack with a clear line between two.
    ruleset = game.ruleset()
    table = table_spec(game, ruleset)
    board = {tuple(h) for h in game.state["board"]}
    near = [h for h in sorted(board, key=lambda h: (h[1], h[0])) if h[1] == 1]
    far = [h for h in sorted(board, key=lambda h: (-h[1], h[0])) if 4 <= h[1] <= 8]
    shooter = near[len(near) // 2]
    readings = {h: read_map(table.board, table.terrain, ruleset, shooter, h) for h in far}
    target_hex = next(h for h, r in readings.items() if r.clear and r.band)
    tag_hex = next(h for h in far if h != target_hex)
    # Each typed and named the players' way (the row from side A, the column).
    places = Places(table.board)

    # Turn 1, side A: three troopers enter (the second move costs double) and stand.
    _button(a, "Side A won the draw-off")
    _draw(a, 13)
    for name, hex_ in (("Alpha 1", near[0]), ("Alpha 2", near[1]), ("Alpha 3", shooter)):
        _tap_trooper(a, 0, name)
        _act(a, "move")
        _place(a, places.typed(hex_))
    _tap_trooper(a, 0, "Alpha 3")
    expect(
        a.locator(".action-list form").filter(has=a.locator("input[value='move']"))
    ).to_contain_text("2 AP")
    _act(a, "move")
    expect(a.locator("#turn .turn-status")).to_contain_text("8 AP left")
    _same_version(a, b)
    _button(b, "Pass: side B becomes active")

    # Turn 2, side B: the TAG and a trooper enter.
    _same_version(b, a)
    _draw(b, 8)
    _tap_trooper(b, 1, "TAG")
    _act(b, "move")
    _place(b, places.typed(tag_hex))
    _tap_trooper(b, 1, "Alpha 2")
    _act(b, "move")
    _place(b, places.typed(target_hex))
    _button(b, "Pass: side A becomes active")

    # Turn 3, side A: the odds of Alpha 3 shooting at Bob's Alpha 2, read from the map.
    _same_version(b, a)
    _draw(a, 13)
    _tap_trooper(a, 0, "Alpha 3")
    a.get_by_label("Target (placed)").select_option(label=f"Alpha 2 ({places.name(target_hex)})")
    _button(a, "Show the odds")
    reading = readings[target_hex]
    panel = a.locator(".map-odds")
    expect(panel).to_contain_text(f"{reading.distance} hexes: {reading.band} range")
    expect(panel).to_contain_text("line of fire clear")
    state = Game.objects.get().game_state()
    ids = {(t.side, t.name): t.id for t in state.troopers}
    specs = list_troopers(read_force_document(game.list_a), "a") | list_troopers(
        read_force_document(game.list_b), "b"
    )
    mine, theirs = specs[ids[("a", "Alpha 3")]], specs[ids[("b", "Alpha 2")]]
    situation = attack_situation(reading, "shooting", ruleset)
    plan = plan_exchange(
        fighter(mine[0], mine[1], ruleset, "x").with_situation(
            situation.attacker_combat, situation.attacker_defense
        ),
        fighter(theirs[0], theirs[1], ruleset, "y").with_situation(
            situation.target_combat, situation.target_defense
        ),
        Situation(
            "shooting", reading.band, may_react(Watch(True, True, distance=reading.distance))
        ),
        ruleset,
    )
    exact = f"{float(resolve(plan, ruleset).attacker_hits) * 100:.1f}%"
    expect(panel.locator("tr").first).to_contain_text(exact)
    screenshot(a, "game-round-odds")
    fits_the_phone(a)

    # The hacker hacks the TAG; Alpha 3 is downed, and the medic heals it.
    _tap_trooper(a, 0, "Alpha 1")
    _act(a, "hack")
    _tap_trooper(a, 1, "TAG")
    _button(a, "Mark hacked")
    _tap_trooper(a, 0, "Alpha 3")
    _button(a, "Lose wounds")
    expect(a.locator("#turn .side").nth(0)).to_contain_text("Downed")
    shoot = a.locator(".action-list form").filter(has=a.locator("input[value='shoot']"))
    expect(shoot.get_by_role("button")).to_be_disabled()
    expect(shoot).to_contain_text("downed: it cannot act")
    _tap_trooper(a, 0, "Alpha 2")
    _act(a, "heal")
    _tap_trooper(a, 0, "Alpha 3")
    _button(a, "Healed: +1 wound")
    expect(a.locator(".trooper.selected")).to_contain_text("Active")
    _same_version(a, b)
    _button(b, "Pass: side B becomes active")

    # Turn 4, side B: the hacked TAG cannot move until its Emergency Recovery.
    _same_version(b, a)
    _draw(b, 6)
    _tap_trooper(b, 1, "TAG")
    move = b.locator(".action-list form").filter(has=b.locator("input[value='move']"))
    expect(move.get_by_role("button")).to_be_disabled()
    expect(move).to_contain_text("hacked: it cannot move")
    _act(b, "emergency-recovery")
    _button(b, "Recovered")
    expect(move.get_by_role("button")).to_be_enabled()

    # The VP: side A reaches the target, and the result is the round's.
    b.get_by_text("Victory points", exact=True).click()
    b.get_by_label("Side B's VP").fill("2")
    _button(b, "Set side B's VP")
    _same_version(b, a)
    a.get_by_text("Victory points", exact=True).click()
    a.get_by_label("Side A's VP").fill(str(game.vp_target))
    _button(a, "Set side A's VP")
    expect(a.locator("#turn .turn-status")).to_contain_text(f"Side A won, {game.vp_target} to 2")
    expect(b.locator("#turn .turn-status")).to_contain_text("Side A won", timeout=OTHER_PHONE_MS)
    result = Result.objects.get(pairing__round=round_)
    assert (result.a_vp, result.b_vp) == (game.vp_target, 2)
    a.goto(f"{base}/events/{event.pk}/me/")
    expect(a.locator(".my-result")).to_contain_text(f"You won {game.vp_target} to 2")
    screenshot(b, "game-round-ended")


def test_the_new_game_forms_fields_are_all_as_tall_on_a_phone(
    browser: Browser, live_server, django_user_model, tmp_path
):
    """The opponent's list (a share link) is a text field like the others: as tall as the
    page's other fields (44 px, a thumb's), and wide enough to read a link, within the
    screen (it was a bare 21 px box, with no type for the site's field style)."""
    alice = django_user_model.objects.create_user("alice", "a@example.com", PASSWORD)
    Force.create_from_spec(
        read_force_document(LEGAL_DOCUMENT | {"name": "Alice's wardens"}),
        "2026.11",
        75,
        owner=alice,
    )
    a = phone_of(browser, live_server.url, "alice")
    fields = a.locator("form.game-new :is(input:not([type=hidden]), select)")
    assert fields.count() == 4
    heights = {}
    for i in range(fields.count()):
        field = fields.nth(i)
        shown = field.bounding_box()
        assert shown is not None
        heights[field.get_attribute("id")] = shown["height"]
    assert min(heights.values()) >= 44, heights
    assert heights["list-b"] == heights["list-a"], heights
    link = a.locator("#list-b").bounding_box()
    assert link is not None
    assert link["width"] >= 240 and link["x"] + link["width"] <= PHONE["width"], link
    fits_the_phone(a)
    assert axe_violations(a) == []
    assert markup_errors({"games": a.request.get(a.url).text()}, tmp_path) == {}


def test_a_hex_is_named_one_way_on_the_map_the_place_field_the_target_and_the_log(
    browser: Browser, live_server, django_user_model, tmp_path
):
    """The walk's finding: the map named a hex "Row 3 from side A, column 5" while the
    place field took "q,r" and the target said "(hex 3,4)". Now the map's title for a hex,
    the note after a tap, the place field's label and value, the target select, the
    trooper's line and the log all name it the players' way, and a typed "row column"
    places there; a row past the board is refused with the rows there are."""
    import re

    base = live_server.url
    game_url, _, _, joiner = begun(django_user_model, opened=False)
    troopers = Game.objects.get().game_state().troopers
    shooter = next(t for t in troopers if t.side == "a")
    enemy = next(t for t in troopers if t.side == "b")
    json_ = {"HTTP_ACCEPT": "application/json"}
    for version, fields in enumerate(
        [
            {"kind": "first", "side": "b"},
            {"kind": "ap", "value": "13"},
            {"kind": "act", "trooper": enemy.id, "action": "move"},
            {"kind": "place", "trooper": enemy.id, "row_column": "9 4"},
            {"kind": "pass"},
            {"kind": "ap", "value": "13"},
            {"kind": "act", "trooper": shooter.id, "action": "move"},
        ]
    ):
        answer = joiner.post(game_url + "steps/", {"version": version, **fields}, **json_)
        assert answer.status_code == 200, answer.content

    a = phone_of(browser, base, "alice")
    a.goto(f"{base}{game_url}?trooper={shooter.id}")
    game_map = a.locator(".game-map")
    # The enemy's hex: its title on the map, and the target select's words for it.
    expect(
        game_map.get_by_role("link", name=re.compile(r"^Row 9 from side A, column 4: "))
    ).to_have_count(1)
    target = a.get_by_label("Target (placed)")
    expect(target.locator("option")).to_have_text([f"{enemy.name} (Row 9 from side A, column 4)"])
    expect(a.locator(f"#trooper-{enemy.id}")).to_contain_text("Row 9 from side A, column 4")
    # The axial coordinates the table editor draws on each hex are not on the game's map.
    expect(game_map.locator(".coord").first).to_be_hidden()

    # A tap on a hex: the note, and the field (its label says how it is typed), agree with
    # the hex's title.
    field = a.get_by_label("Hex (row from side A, column)")
    game_map.get_by_role("link", name=re.compile(r"^Row 2 from side A, column 3: ")).click()
    settled(a)
    expect(a.locator(".game-map + .note")).to_contain_text("Row 2 from side A, column 3 chosen")
    expect(field).to_have_value("2,3")
    assert axe_violations(a) == []
    _place_here(a)
    expect(a.locator(f"#trooper-{shooter.id}")).to_contain_text("Row 2 from side A, column 3")
    expect(a.locator(".log .steps li").first).to_contain_text(
        f"{shooter.name} placed on Row 2 from side A, column 3"
    )
    expect(field).to_have_value("2,3")

    # Typed with a space between the two numbers: placed there.
    field.fill("3 5")
    _place_here(a)
    expect(a.locator(f"#trooper-{shooter.id}")).to_contain_text("Row 3 from side A, column 5")
    expect(field).to_have_value("3,5")
    version = a.locator("#turn").get_attribute("data-version")

    # A row past side B's edge: the rows there are, and nothing moved.
    rows = Game.objects.get().ruleset().table.rows
    field.fill(f"{rows + 1},1")
    _place_here(a)
    expect(a.get_by_role("alert")).to_contain_text(
        f"Hex: there is no row {rows + 1}; the rows from side A are 1 to {rows}."
    )
    expect(a.locator("#turn")).to_have_attribute("data-version", version or "")
    expect(a.locator(f"#trooper-{shooter.id}")).to_contain_text("Row 3 from side A, column 5")
    fits_the_phone(a)
    screenshot(a, "game-hex-names-phone")
    assert markup_errors({"hex-names": a.request.get(a.url).text()}, tmp_path) == {}


def test_a_step_the_server_failed_to_take_is_sent_again_and_kept_once(
    browser: Browser, live_server, django_user_model
):
    """A 5xx to a step (the server's transaction undone, a proxy that gave up): the step
    waits on the phone and is sent again, instead of the tap being lost without a word."""
    base = live_server.url
    game_url = begun(django_user_model)[0]

    # Without the service worker, whose fetches a page's routes do not see.
    a = sign_in(new_phone(browser, service_workers="block"), base, "alice")
    a.goto(base + game_url)
    failed: list[str] = []

    def once_a_500(route):  # type: ignore[no-untyped-def]
        if route.request.method == "POST" and not failed:
            failed.append(route.request.url)
            route.fulfill(status=500, body="<h1>Server error</h1>", content_type="text/html")
        else:
            route.continue_()

    a.route("**/steps/", once_a_500)
    a.get_by_role("button", name="Pass").click()
    expect(a.locator("#turn")).to_have_attribute("data-version", "3", timeout=OTHER_PHONE_MS)
    expect(a.locator("#offline-queue")).to_be_hidden(timeout=OTHER_PHONE_MS)
    assert failed and Game.objects.get().version == 3  # sent again, kept once
    kinds = [step.step.get("kind") for step in Game.objects.get().steps.order_by("number")]
    assert kinds[-1] == "pass" and kinds.count("pass") == 1, kinds
