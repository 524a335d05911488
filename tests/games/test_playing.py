"""A game between two phones, through the contract: starting it, joining it, its state,
its steps (200 / 400 / 409), undo, the log, and everyone else's 404."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.models import Game
from tests.conftest import examples, signed_in
from tests.factories import make_force, make_table

pytestmark = pytest.mark.django_db
JSON = {"HTTP_ACCEPT": "application/json"}


@pytest.fixture
def alice(django_user_model):
    return django_user_model.objects.create_user("alice", "a@example.com", "a-long-pass-phrase")


@pytest.fixture
def bob(django_user_model):
    return django_user_model.objects.create_user("bob", "b@example.com", "a-long-pass-phrase")


@pytest.fixture
def zed(django_user_model):
    return django_user_model.objects.create_user("zed", "z@example.com", "a-long-pass-phrase")


@pytest.fixture
def game(alice, bob) -> Game:
    """Alice's Wardens against Bob's (by its share link), on Alice's table, to 3 VP; Bob
    has joined."""
    mine, theirs = make_force(owner=alice), make_force(owner=bob, name="Raiders")
    table = make_table(owner=alice)
    response = signed_in(alice).post(
        "/games/new/",
        {
            "list_a": mine.pk,
            "list_b": f"https://example.com{theirs.get_share_url()}",
            "table": table.pk,
            "vp_target": "3",
        },
    )
    assert response.status_code == 302
    found = Game.objects.get()
    assert response["Location"] == f"/games/{found.code}/"
    assert signed_in(bob).post(f"/games/{found.code}/join/").status_code == 302
    found.refresh_from_db()
    return found


def state(client: Client, game: Game) -> dict[str, Any]:
    response = client.get(f"/games/{game.code}/state.json")
    assert response.status_code == 200
    return json.loads(response.content)


def step(client: Client, game: Game, version: int | None = None, **fields: Any):
    if version is None:
        version = Game.objects.get(pk=game.pk).version
    return client.post(f"/games/{game.code}/steps/", {"version": version, **fields}, **JSON)


def ids(current: dict[str, Any], side: str, kind: str) -> list[str]:
    return [t["id"] for t in current["troopers"] if t["side"] == side and t["type"] == kind]


def test_a_new_game_has_both_lists_off_the_table_and_no_side_active(game, alice, bob):
    current = state(signed_in(bob), game)
    assert current == state(signed_in(alice), game)
    assert current["version"] == 0 and current["turn"] == 0 and current["active"] is None
    assert current["vp"] == {"a": 0, "b": 0} and current["vp_target"] == 3
    assert current["ended"] is False and current["winner"] is None
    assert len(current["troopers"]) == 8
    assert {t["state"] for t in current["troopers"]} == {"off-table"}
    assert {t["wounds"] for t in current["troopers"] if t["type"] == "tag"} == {2}
    assert set(current["troopers"][0]) == {
        "id",
        "side",
        "name",
        "type",
        "state",
        "wounds",
        "hacked",
    }
    assert game.table_name != "Standard board"


def test_the_players_take_a_turn_with_the_doubling_and_pass(game, alice, bob):
    a, b = signed_in(alice), signed_in(bob)
    trooper = ids(state(a, game), "a", "medium-infantry")[0]
    assert step(b, game, kind="first", side="a").status_code == 200
    assert step(a, game, kind="ap", value="joker").status_code == 400
    assert step(a, game, kind="ap", value="5").json()["ap"] == 5
    assert step(a, game, kind="act", trooper=trooper, action="move").json()["ap"] == 4
    moved = step(a, game, kind="act", trooper=trooper, action="move").json()
    assert moved["ap"] == 2
    refused = step(a, game, kind="act", trooper=trooper, action="move")
    assert refused.status_code == 400 and "costs 4 AP" in refused.json()["error"]
    passed = step(b, game, kind="pass").json()
    assert passed["active"] == "b" and passed["turn"] == 2 and passed["ap"] == 0
    assert [t["state"] for t in passed["troopers"] if t["id"] == trooper] == ["active"]


def test_an_older_version_is_409_and_changes_nothing(game, alice, bob):
    a, b = signed_in(alice), signed_in(bob)
    assert step(a, game, version=0, kind="first", side="a").status_code == 200
    racing = step(b, game, version=0, kind="first", side="b")
    assert racing.status_code == 409 and "another tab" in racing.json()["error"]
    assert state(b, game)["active"] == "a"
    no_version = b.post(f"/games/{game.code}/steps/", {"kind": "pass"}, **JSON)
    assert no_version.status_code == 409


def test_forged_and_huge_input_is_400_and_changes_nothing(game, alice):
    a = signed_in(alice)
    step(a, game, kind="first", side="a")
    step(a, game, kind="ap", value="13")
    before = state(a, game)
    for fields in (
        {"kind": "act", "trooper": "a-forged", "action": "move"},
        {"kind": "act", "trooper": "x" * 5000, "action": "move"},
        {"kind": "act", "trooper": before["troopers"][0]["id"], "action": "teleport"},
        {"kind": "wound", "trooper": before["troopers"][0]["id"], "count": "9" * 100},
        {"kind": "ap", "value": "99999999999999999999"},
        {"kind": "vp", "side": "a", "value": "1000"},
        {"kind": "place", "trooper": before["troopers"][0]["id"], "hex": "1" * 400},
        {"kind": "explode"},
    ):
        response = step(a, game, **fields)
        assert response.status_code == 400, fields
        assert response.json()["error"]
    assert state(a, game) == before


def test_a_stranger_and_a_third_account_get_404(game, zed):
    z = signed_in(zed)
    for url in ("", "state.json", "log.json", "live/?since=0"):
        assert z.get(f"/games/{game.code}/{url}").status_code == 404
    assert step(z, game, kind="first", side="a").status_code == 404
    assert z.post(f"/games/{game.code}/undo/", {"version": 0}).status_code == 404
    assert z.post(f"/games/{game.code}/join/").status_code == 404
    assert Client().get(f"/games/{game.code}/state.json").status_code == 404
    assert Client().get("/games/not-a-game/state.json").status_code == 404
    # Its join page too, signed in or out, once side B is taken: who plays is not shown,
    # alike for a game that exists and one that does not.
    assert z.get(f"/games/{game.code}/join/").status_code == 404
    assert Client().get(f"/games/{game.code}/join/").status_code == 404
    assert Client().post(f"/games/{game.code}/join/").status_code == 404
    assert Client().get("/games/not-a-game/join/").status_code == 404


def main_of(response) -> str:
    """The page's main region (the header's forms carry a token of their own each time)."""
    html = response.content.decode()
    return html[html.index("<main") : html.index("</main>")]


def test_a_games_404_tells_how_a_game_is_joined_and_not_whether_it_exists(game, zed):
    """A second phone that opens a game's page (not yet a player, or signed out) reads how a
    game is joined; the page is the same for a game that does not exist."""
    pages = {
        "stranger": signed_in(zed).get(f"/games/{game.code}/"),
        "unknown code": signed_in(zed).get("/games/not-a-game/"),
        "signed out": Client().get(f"/games/{game.code}/"),
        "unknown, signed out": Client().get("/games/not-a-game/"),
        "its state": signed_in(zed).get(f"/games/{game.code}/state.json"),
    }
    for who, response in pages.items():
        assert response.status_code == 404, who
        text = main_of(response)
        assert "opened by its two players" in text, who
        assert "/join/" in text and "QR code" in text, who
        assert "a list or a table is private" not in text, who
    assert main_of(pages["stranger"]) == main_of(pages["unknown code"])
    # Signed out, it offers to log in and come back to the address asked for.
    signed_out = main_of(pages["signed out"])
    assert f"?next=%2Fgames%2F{game.code}%2F" in signed_out
    assert signed_out.replace(game.code, "not-a-game") == main_of(pages["unknown, signed out"])
    # Other addresses keep the site's own 404.
    for path in ("/forces/999999/", "/no-such-page/"):
        response = signed_in(zed).get(path)
        assert response.status_code == 404, path
        assert "a list or a table is private" in main_of(response), path
        assert "QR code" not in main_of(response), path


def test_undo_takes_back_the_last_step_and_the_log_reads_back(game, alice, bob):
    a, b = signed_in(alice), signed_in(bob)
    step(a, game, kind="first", side="b")
    step(b, game, kind="ap", value="3")
    version = state(a, game)["version"]
    response = a.post(f"/games/{game.code}/undo/", {"version": version}, **JSON)
    assert response.status_code == 200
    assert response.json()["ap"] == 0 and response.json()["active"] == "b"
    log = json.loads(b.get(f"/games/{game.code}/log.json").content)
    assert [s["step"] for s in log["steps"]] == [{"kind": "first", "side": "b"}]
    assert log["steps"][0]["player"] == "alice" and log["steps"][0]["side"] == "a"


def test_the_live_region_answers_204_until_the_game_moves(game, alice, bob):
    b = signed_in(bob)
    assert b.get(f"/games/{game.code}/live/?since=0", HTTP_HX_REQUEST="true").status_code == 204
    step(signed_in(alice), game, kind="first", side="a")
    moved = b.get(f"/games/{game.code}/live/?since=0", HTTP_HX_REQUEST="true")
    assert moved.status_code == 200 and moved["HX-Retarget"] == "#turn"
    assert b"Turn 1: side A" in moved.content


def test_without_javascript_a_step_is_a_page_and_a_refusal_shows_its_reason(game, alice):
    a = signed_in(alice)
    page = a.get(f"/games/{game.code}/")
    assert page.status_code == 200 and b"won the draw-off" in page.content
    response = a.post(f"/games/{game.code}/steps/", {"version": 0, "kind": "first", "side": "a"})
    assert response.status_code == 302
    refused = a.post(f"/games/{game.code}/steps/", {"version": 1, "kind": "ap", "value": "joker"})
    assert refused.status_code == 400 and b"Joker has no value" in refused.content


def test_the_game_page_offers_each_action_with_its_cost_or_its_reason(game, alice):
    a = signed_in(alice)
    trooper = ids(state(a, game), "a", "medium-infantry")[0]
    step(a, game, kind="first", side="a")
    step(a, game, kind="ap", value="2")
    page = a.get(f"/games/{game.code}/?trooper={trooper}").content.decode()
    assert "Jump climb" in page and "it costs 3 AP and 2 AP are left" in page
    assert "it enters with its first action" in page  # shooting from off the table
    # Either phone may record a step for either side: the page says so.
    assert "Either phone records any step, for either side" in page


def test_starting_refuses_what_is_not_mine_or_not_a_number(alice, bob):
    mine, theirs = make_force(owner=alice), make_force(owner=bob, shared=False)
    a = signed_in(alice)
    cases = [
        ({"list_a": theirs.pk, "list_b": mine.pk, "vp_target": "5"}, "list_a"),
        ({"list_a": mine.pk, "list_b": theirs.share_code, "vp_target": "5"}, "no list is shared"),
        ({"list_a": mine.pk, "list_b": theirs.pk, "vp_target": "5"}, "list_b"),
        ({"list_a": mine.pk, "list_b": mine.pk, "vp_target": "100"}, "vp_target"),
        ({"list_a": mine.pk, "list_b": mine.pk, "vp_target": "5", "table": "7"}, "table"),
    ]
    for fields, words in cases:
        response = a.post("/games/new/", fields)
        assert response.status_code == 400 and words in response.content.decode(), fields
    assert not Game.objects.exists()
    assert (
        a.post("/games/new/", {"list_a": mine.pk, "list_b": mine.pk, "vp_target": "1"}).status_code
        == 302
    )


def test_the_account_export_and_deletion_know_the_games(game, alice, bob, zed):
    from games.account_parts import delete_account_data, export_account

    assert export_account(bob)["games"][0]["side"] == "b"
    delete_account_data(bob)
    game.refresh_from_db()
    assert game.player_b is None and game.b_left
    assert signed_in(zed).post(f"/games/{game.code}/join/").status_code == 404
    delete_account_data(alice)
    assert not Game.objects.exists()


def test_the_odds_of_an_attack_come_from_the_placed_troopers_on_the_map(game, alice, bob):
    """Blocked and clear lines of fire: the page says what the engine's exact line of fire
    says, and the odds it shows are the engine's for the situation the map gives."""
    from games.table_odds import table_spec
    from onefinity.rules import read_force_document
    from onefinity.rules.combat import Situation, plan_exchange, resolve
    from onefinity.rules.effects import fighter
    from onefinity.rules.game import list_troopers
    from onefinity.rules.map_odds import attack_situation, read_map
    from onefinity.rules.reactions import Watch, may_react

    a, b = signed_in(alice), signed_in(bob)
    mine = ids(state(a, game), "a", "medium-infantry")[1]
    theirs = ids(state(a, game), "b", "medium-infantry")[1]
    ruleset = game.ruleset()
    table = table_spec(game, ruleset)
    standable = sorted(tuple(h) for h in game.state["board"])
    board = set(standable)
    source = standable[len(standable) // 3]
    readings = {h: read_map(table.board, table.terrain, ruleset, source, h) for h in standable}
    clear = next(h for h, r in readings.items() if r.clear and r.band and r.distance > 2)
    blocked = next(h for h, r in readings.items() if not r.clear)
    step(a, game, kind="first", side="a")
    step(a, game, kind="ap", value="13")
    step(a, game, kind="act", trooper=mine, action="move")
    step(a, game, kind="place", trooper=mine, hex=f"{source[0]},{source[1]}")
    step(b, game, kind="pass")
    step(b, game, kind="ap", value="13")
    step(b, game, kind="act", trooper=theirs, action="move")
    refused = step(b, game, kind="place", trooper=theirs, hex=f"{source[0]},{source[1]}")
    assert refused.status_code == 400
    specs = list_troopers(read_force_document(game.list_a), "a") | list_troopers(
        read_force_document(game.list_b), "b"
    )
    for where in (blocked, clear):
        step(b, game, kind="place", trooper=theirs, hex=f"{where[0]},{where[1]}")
        query = {"trooper": mine, "target": theirs, "mode": "shooting"}
        html = a.get(f"/games/{game.code}/", query).content.decode()
        reading = readings[where]
        assert f"{reading.distance} hex" in html
        assert ("line of fire clear" in html) is reading.clear
        assert ("No line of fire" in html) is not reading.clear
        if not reading.clear:
            continue
        assert f"{reading.band} range" in html
        situation = attack_situation(reading, "shooting", ruleset)
        attacker = fighter(specs[mine][0], specs[mine][1], ruleset, "x")
        target = fighter(specs[theirs][0], specs[theirs][1], ruleset, "y")
        reaction = may_react(Watch(True, True, distance=reading.distance))
        plan = plan_exchange(
            attacker.with_situation(situation.attacker_combat, situation.attacker_defense),
            target.with_situation(situation.target_combat, situation.target_defense),
            Situation("shooting", reading.band, reaction),
            ruleset,
        )
        expected = f"{float(resolve(plan, ruleset).attacker_hits) * 100:.1f}%"
        assert f"<td>{expected}</td>" in html
        # From the rear arc the target does not react, and the odds are still read.
        rear = a.get(f"/games/{game.code}/", {**query, "rear": "on"}).content.decode()
        assert "No reaction: the active trooper is in its rear arc" in rear
        assert "Exact odds of the whole exchange" in rear
    # Every choice the panel offers, at a few places: odds, or what the map says against.
    expected = ("Exact odds of the whole exchange", "No line of fire", "base contact")
    for where in [h for h, r in readings.items() if r.band][:: max(1, len(readings) // 6)]:
        if (
            step(b, game, kind="place", trooper=theirs, hex=f"{where[0]},{where[1]}").status_code
            != 200
        ):
            continue
        for mode in ("shooting", "close-combat"):
            for extra in ({}, {"rear": "on"}, {"charge": "on"}, {"rear": "on", "charge": "on"}):
                query = {"trooper": mine, "target": theirs, "mode": mode, **extra}
                html = a.get(f"/games/{game.code}/", query).content.decode()
                assert any(words in html for words in expected), (where, query)
    # In base contact, close combat (and a charge) has its odds.
    q, r = source
    contact = next(h for h in ((q + 1, r), (q - 1, r), (q, r + 1), (q, r - 1)) if h in board)
    assert (
        step(b, game, kind="place", trooper=theirs, hex=f"{contact[0]},{contact[1]}").status_code
        == 200
    )
    for extra in ({}, {"charge": "on"}):
        query = {"trooper": mine, "target": theirs, "mode": "close-combat", **extra}
        assert (
            "Exact odds of the whole exchange"
            in a.get(f"/games/{game.code}/", query).content.decode()
        )


_junk = st.one_of(
    st.text(max_size=12),
    st.sampled_from(["a", "b", "joker", "0", "13", "99", "-1", "1,2", "move", "heal", "x" * 300]),
)


@settings(max_examples=examples(25), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(
        st.dictionaries(
            st.sampled_from(["kind", "side", "trooper", "action", "value", "count", "hex"]),
            _junk,
            max_size=5,
        ),
        max_size=6,
    )
)
def test_any_steps_answer_200_400_or_409_and_the_state_and_log_read_back(game, alice, steps):
    a = signed_in(alice)
    for fields in steps:
        response = step(a, game, **fields)
        assert response.status_code in (200, 400, 409), response.content[:200]
    current = state(a, game)
    assert current["version"] == Game.objects.get(pk=game.pk).steps.count()
    assert a.get(f"/games/{game.code}/log.json").status_code == 200
    assert a.get(f"/games/{game.code}/").status_code == 200


def test_two_phones_racing_with_the_same_version_one_wins_and_one_is_told(game, alice, bob):
    """Both requests loaded the game before either wrote: the compare-and-swap lets one
    through, the other is a 409 and adds nothing to the log."""
    from games import playing

    phone_a, phone_b = Game.objects.get(pk=game.pk), Game.objects.get(pk=game.pk)
    playing.take_step(phone_a, alice, 0, {"kind": "first", "side": "a"})
    with pytest.raises(playing.StaleGame):
        playing.take_step(phone_b, bob, 0, {"kind": "first", "side": "b"})
    stored = Game.objects.get(pk=game.pk)
    assert stored.version == 1 and stored.steps.count() == 1
    assert stored.game_state().active == "a"
