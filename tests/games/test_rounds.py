"""A game of an event round: one tap on the pairing starts it with both locked lists and
the round's table, and the VP target reached sends the result to the round as both
players' report."""

from __future__ import annotations

import pytest

from events.models import Pairing, Result
from games.models import Game
from onefinity.rules import library
from tests.events.conftest import table_documents

pytestmark = pytest.mark.django_db


def round_one(event, alice, bob) -> Pairing:
    """The lists locked and round 1 published, with its pack table 1: Alice (side A)
    against Bob."""
    event.lock_all()
    round_ = event.rounds.get(number=1)
    round_.set_tables(round_.version, table_documents(1), "pack")
    pairing = Pairing.objects.create(round=round_, table=1, player_a=alice, player_b=bob)
    round_.published = True
    round_.save()
    return pairing


@pytest.fixture
def paired(event, submitted):
    """Round 1 published, with its pack table 1: Alice (side A) against Bob."""
    return round_one(event, *submitted)


def test_one_tap_starts_the_game_with_both_locked_lists_and_the_rounds_table(
    paired, player_client, other_client, stranger_client
):
    url = f"/games/round/{paired.round.event_id}/1/"
    assert stranger_client.post(url).status_code == 404
    response = other_client.post(url)  # Bob taps first: Alice is still side A
    game = Game.objects.get()
    assert response["Location"] == game.get_absolute_url()
    assert player_client.post(url)["Location"] == game.get_absolute_url()  # the same game
    assert Game.objects.count() == 1
    assert game.list_a["name"] == "Alice's wardens" and game.list_b["name"] == "Bob's wardens"
    assert game.table == paired.round.tables[0] and game.table_name == "Pack table 1"
    assert game.pairing == paired
    # Played to the scenario's VP, which the ruleset's data gives (an event sets none).
    assert game.vp_target == library().current.game.vp_target  # type: ignore[union-attr]
    assert player_client.get(f"/games/{game.code}/state.json").status_code == 200
    assert other_client.get(f"/games/{game.code}/state.json").status_code == 200


def test_reaching_the_vp_target_reports_the_result_to_the_round(
    paired, player_client, other_client
):
    other_client.post(f"/games/round/{paired.round.event_id}/1/")
    game = Game.objects.get()
    json_ = {"HTTP_ACCEPT": "application/json"}
    url = f"/games/{game.code}/steps/"
    assert (
        player_client.post(url, {"version": 0, "kind": "first", "side": "b"}, **json_).status_code
        == 200
    )
    assert (
        player_client.post(
            url, {"version": 1, "kind": "vp", "side": "a", "value": 2}, **json_
        ).status_code
        == 200
    )
    ended = other_client.post(
        url, {"version": 2, "kind": "vp", "side": "b", "value": game.vp_target}, **json_
    )
    assert ended.status_code == 200 and ended.json()["winner"] == "b"
    result = Result.objects.get(pairing=paired)
    assert (result.a_vp, result.b_vp) == (2, game.vp_target)
    game.refresh_from_db()
    assert "counts" in game.result_note
    assert "counts" in player_client.get(game.get_absolute_url()).content.decode()
    undo = player_client.post(f"/games/{game.code}/undo/", {"version": 3}, **json_)
    assert undo.status_code == 400 and "organizer" in undo.json()["error"]


def test_the_players_event_page_offers_the_game_until_its_result_is_in(paired, player_client):
    offer = f"/games/round/{paired.round.event_id}/1/"
    page = player_client.get(f"/events/{paired.round.event_id}/me/")
    assert page.status_code == 200
    assert offer in page.content.decode()
    # With the result settled a new game of that pairing is no longer offered.
    Result.objects.update_or_create(pairing=paired, defaults={"a_vp": 3, "b_vp": 1})
    page = player_client.get(f"/events/{paired.round.event_id}/me/").content.decode()
    assert "You won</span> 3 to 1" in page  # the settled result, as the page says it
    assert offer not in page


def test_a_pairing_with_a_list_not_locked_or_a_player_gone_starts_no_game(
    event, submitted, player_client
):
    from events.models import Entry

    alice, bob = submitted
    round_ = event.rounds.get(number=1)
    Pairing.objects.create(round=round_, table=1, player_a=alice, player_b=bob)
    round_.published = True
    round_.save()
    url = f"/games/round/{event.pk}/1/"
    refused = player_client.post(url, follow=True)
    assert "Both lists must be locked" in refused.content.decode()
    event.lock_all()
    Entry.objects.filter(pk=bob.pk).update(player=None)
    refused = player_client.post(url, follow=True)
    assert "A player of this pairing has left the event." in refused.content.decode()
    assert Game.objects.count() == 0


def test_a_trooper_stands_anywhere_but_on_blocking_terrain():
    from games.table_odds import standing_hexes
    from onefinity.rules.hexgrid import standard_board
    from tablegen.engine.tables import TableSpec

    ruleset = library().current
    rules = ruleset.table
    board = standard_board(rules.rows, rules.columns)
    assert standing_hexes(None, ruleset) == board.hexes
    kinds = sorted(rules.terrain, key=lambda kind: rules.terrain[kind].enterable)
    blocking, open_ = kinds[0], kinds[-1]
    assert not rules.terrain[blocking].enterable and rules.terrain[open_].enterable
    table = TableSpec(board, {0: blocking, 1: open_, 5: blocking})
    assert standing_hexes(table, ruleset) == tuple(
        h for i, h in enumerate(board.hexes) if i not in (0, 5)
    )


def headers(html: str) -> dict[str, str]:
    """What a page shows as a game's names: its <title>, its heading, its sides' headers
    (tags taken out, the hidden words for a screen reader kept)."""
    import re

    def text(found: str) -> str:
        return " ".join(re.sub(r"<[^>]+>", " ", found).split())

    found = {name: text(words) for name, words in re.findall(r"<(title|h1)>(.*?)</\1>", html, re.S)}
    sides = re.findall(r'<h3 id="side-([ab])">(.*?)</h3>', html, re.S)
    return found | {f"side {side}": text(words) for side, words in sides}


@pytest.fixture
def event_lists(event, joined):
    """Round 1 paired as above, with the lists players build for an event: every one named
    "<Event> list"."""
    from tests.events.conftest import make_force

    alice, bob = joined
    for entry in (alice, bob):
        entry.submit(make_force(entry.player, f"{event.name} list"), accept_problems=False)
    return round_one(event, alice, bob)


def test_a_game_of_an_event_is_named_by_its_players_and_its_lists_said_beside(
    event_lists, player_client, other_client
):
    other_client.post(f"/games/round/{event_lists.round.event_id}/1/")
    game = Game.objects.get()
    assert game.name_a == game.name_b == "Spring Open list"
    shown = headers(player_client.get(game.get_absolute_url()).content.decode())
    assert shown["title"].startswith("alice v bob")
    assert shown["h1"] == "alice v bob"
    assert shown["side a"] == "Side A: alice , with Spring Open list"
    assert shown["side b"] == "Side B: bob , with Spring Open list"
    # The turn's region, as each step and the other phone's poll draw it again.
    region = other_client.get(game.get_absolute_url(), HTTP_HX_REQUEST="true")
    assert headers(region.content.decode())["side a"] == "Side A: alice , with Spring Open list"
    listed = player_client.get("/games/").content.decode()
    assert f'<a href="{game.get_absolute_url()}">alice v bob</a>' in listed
    assert str(game) == "alice v bob"


def test_the_games_list_names_event_games_in_one_query_whatever_their_number(
    event_lists, player_client, other_client, django_assert_max_num_queries
):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    event = event_lists.round.event
    other_client.post(f"/games/round/{event.pk}/1/")
    with CaptureQueriesContext(connection) as one:
        player_client.get("/games/")
    # The same game again for rounds 2 and 3 (their pairings made as round 1's was).
    game = Game.objects.get()
    for number in (2, 3):
        game.pk, game.code = None, f"round-{number}-game"
        game.pairing = Pairing.objects.create(
            round=event.rounds.get(number=number),
            table=1,
            player_a=event_lists.player_a,
            player_b=event_lists.player_b,
        )
        game.save()
    with django_assert_max_num_queries(len(one)):
        assert player_client.get("/games/").content.decode().count(">alice v bob</a>") == 3
