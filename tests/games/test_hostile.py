"""Hostile and careless input to a game (issue 33, "Done when"): a stranger, a third
account, forged trooper ids, huge or out-of-range numbers, stale and forged versions, steps
racing from two phones. Each is a 404, a 400 with its reason or a 409, nothing changes
but what one step applied, and the game's state and log always read back."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from games.models import Game
from tests.games.test_playing import alice as alice  # fixtures
from tests.games.test_playing import bob as bob
from tests.games.test_playing import game as game
from tests.games.test_playing import ids, signed_in, state, step
from tests.games.test_playing import zed as zed
from tests.threads import at_once
from tests.threads import thread_database as thread_database  # a fixture

pytestmark = pytest.mark.django_db
JSON = {"HTTP_ACCEPT": "application/json"}


def read_back(client: Client, game: Game) -> tuple[dict[str, Any], list[Any]]:
    """The game's state and log as its players read them (both must answer)."""
    log = client.get(f"/games/{game.code}/log.json")
    assert log.status_code == 200
    return state(client, game), json.loads(log.content)["steps"]


def test_nobody_but_the_two_players_reaches_any_address_of_the_game(game, zed):
    nobody, third = Client(), signed_in(zed)
    for client in (nobody, third):
        for path in ("", "state.json", "log.json", "live/?since=0", "?trooper=a-x"):
            assert client.get(f"/games/{game.code}/{path}").status_code == 404, path
        for path in ("steps/", "undo/"):
            response = client.post(
                f"/games/{game.code}/{path}", {"version": 0, "kind": "pass"}, **JSON
            )
            assert response.status_code == 404, path
    # The third account cannot take side B (taken); a code too long or unknown is no game.
    assert third.post(f"/games/{game.code}/join/").status_code == 404
    for code in ("x" * 33, "not-a-game", game.code.upper() + "Z"):
        assert signed_in(zed).get(f"/games/{code}/state.json").status_code == 404
    players = signed_in(game.owner)
    assert read_back(players, game)[0]["version"] == 0


def test_a_step_from_a_page_not_at_the_current_version_is_409_and_changes_nothing(game, alice):
    a = signed_in(alice)
    assert step(a, game, version=0, kind="first", side="a").status_code == 200
    before = read_back(a, game)
    for version in ("", "abc", "-1", "0", "2", "1.0", "9" * 100, " 1x"):
        response = a.post(
            f"/games/{game.code}/steps/", {"version": version, "kind": "ap", "value": 5}, **JSON
        )
        assert response.status_code == 409, version
        assert "changed in another tab" in response.json()["error"]
        assert response.json()["version"] == 1
        undo = a.post(f"/games/{game.code}/undo/", {"version": version}, **JSON)
        assert undo.status_code == 409, version
    assert read_back(a, game) == before


def test_every_forged_or_out_of_range_step_is_400_with_its_reason_and_changes_nothing(
    game, alice, bob
):
    a, b = signed_in(alice), signed_in(bob)
    current = state(a, game)
    mine = ids(current, "a", "medium-infantry")[0]
    theirs = ids(current, "b", "medium-infantry")[0]
    tag = ids(current, "a", "tag")[0]
    assert step(b, game, kind="first", side="a").status_code == 200
    assert step(a, game, kind="first", side="b").status_code == 400  # recorded once
    assert step(a, game, kind="ap", value="13").status_code == 200
    assert step(a, game, kind="act", trooper=mine, action="move").status_code == 200
    before = read_back(b, game)
    other_game = "a-" + "z" * 6  # an id of the shape the site makes, in no list of this game
    for fields in (
        {"kind": "first", "side": "b"},
        {"kind": "ap", "value": "5"},  # drawn already this turn
        {"kind": "act", "trooper": theirs, "action": "move"},  # the reactive side
        {"kind": "act", "trooper": other_game, "action": "move"},
        {"kind": "act", "trooper": mine, "action": ""},
        {"kind": "act", "trooper": mine, "action": "move" * 1000},
        {"kind": "wound", "trooper": theirs, "count": "1"},  # off the table
        {"kind": "wound", "trooper": mine, "count": "0"},
        {"kind": "wound", "trooper": mine, "count": "-1"},
        {"kind": "wound", "trooper": mine, "count": "3"},  # 1 wound: at most 2
        {"kind": "wound", "trooper": mine, "count": "1e9"},
        {"kind": "wound", "trooper": other_game, "count": "1"},
        {"kind": "heal", "trooper": mine},  # has all its wounds
        {"kind": "hack", "trooper": tag},  # own side, off the table
        {"kind": "hack", "trooper": other_game},
        {"kind": "recover", "trooper": mine},  # not hacked
        {"kind": "place", "trooper": mine, "hex": "999,999"},
        {"kind": "place", "trooper": mine, "hex": "-1000,0"},
        {"kind": "place", "trooper": theirs, "hex": "0,0"},  # off the table
        {"kind": "place", "trooper": other_game, "hex": "0,0"},
        {"kind": "vp", "side": "c", "value": "1"},
        {"kind": "vp", "side": "a", "value": "-1"},
        {"kind": "vp", "side": "a", "value": "100"},
        {"kind": "vp", "side": "a", "value": ""},
        {"kind": "vp", "side": "", "value": "1"},
        {"kind": ""},
        {"kind": "PASS"},
        {"kind": "pass" * 10_000},
    ):
        for phone in (a, b):
            response = step(phone, game, **fields)
            assert response.status_code == 400, fields
            assert response.json()["error"], fields
    assert read_back(b, game) == before
    # AP at its bounds: 1 to the cards' highest value; a Joker is drawn again.
    assert step(a, game, kind="pass").status_code == 200
    for value in ("0", "14", "joker", "-3", "99999999999999999999", "½"):
        assert step(b, game, kind="ap", value=value).status_code == 400, value
    assert step(b, game, kind="ap", value="1").json()["ap"] == 1


def test_after_the_end_every_step_is_400_and_the_game_reads_back(game, alice, bob):
    a, b = signed_in(alice), signed_in(bob)
    trooper = ids(state(a, game), "a", "medium-infantry")[0]
    step(a, game, kind="first", side="a")
    ended = step(b, game, kind="vp", side="b", value=str(game.vp_target)).json()
    assert ended["ended"] is True and ended["winner"] == "b"
    before = read_back(a, game)
    for fields in (
        {"kind": "ap", "value": "5"},
        {"kind": "pass"},
        {"kind": "vp", "side": "a", "value": "1"},
        {"kind": "act", "trooper": trooper, "action": "move"},
    ):
        response = step(a, game, **fields)
        assert response.status_code == 400 and response.json()["error"], fields
    assert read_back(b, game) == before


@pytest.mark.django_db(transaction=True)
def test_steps_racing_from_both_phones_apply_once_and_the_rest_are_told(
    game, alice, bob, thread_database
):
    """Six taps at once (three on each phone), each on the version both pages show: one is
    applied, five are 409, and the log holds exactly the one."""
    steps = [{"kind": "first", "side": "a"}, {"kind": "first", "side": "b"}] * 3

    def tap(i: int) -> tuple[int, dict[str, Any]]:
        phone = signed_in(alice if i % 2 == 0 else bob)
        response = step(phone, game, version=0, **steps[i])
        return response.status_code, response.json()

    answers = at_once(6, thread_database, tap)
    assert sorted(code for code, _ in answers) == [200, 409, 409, 409, 409, 409], answers
    assert all(body["version"] == 1 for code, body in answers if code == 409)
    winner = next(body for code, body in answers if code == 200)

    def read(_: int) -> tuple[dict[str, Any], list[Any]]:
        return read_back(signed_in(bob), game)

    (current, log) = at_once(1, thread_database, read)[0]
    assert current == winner and current["version"] == 1 and len(log) == 1
    assert log[0]["step"] == {"kind": "first", "side": winner["active"]}


@pytest.mark.django_db(transaction=True)
def test_an_undo_racing_a_step_one_applies_and_the_log_replays(game, alice, bob, thread_database):
    def start(_: int) -> list[int]:
        a = signed_in(alice)
        first = step(a, game, kind="first", side="a")
        return [first.status_code, step(a, game, kind="ap", value="6").status_code]

    # In the threads' database (a copy made before the test's body).
    assert at_once(1, thread_database, start) == [[200, 200]]

    def tap(i: int) -> Any:
        if i == 0:
            return signed_in(alice).post(f"/games/{game.code}/undo/", {"version": 2}, **JSON)
        return step(signed_in(bob), game, version=2, kind="pass")

    codes = sorted(r.status_code for r in at_once(2, thread_database, tap))
    assert codes == [200, 409]

    def read(_: int) -> tuple[dict[str, Any], list[Any]]:
        return read_back(signed_in(alice), game)

    current, log = at_once(1, thread_database, read)[0]
    assert [s["number"] for s in log] == list(range(1, len(log) + 1))
    # Either the undo won (the draw taken back: A active, no AP) or the pass did.
    assert (len(log), current["active"], current["ap"]) in ((1, "a", 0), (3, "b", 0))
