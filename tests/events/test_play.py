"""An event run to its standings through the site: Swiss pairing (the contract's pair and
pairings.json), results from both players and from the organizer, swaps, drops, late joins,
the standings (JSON, CSV, PDF, the page and its public link) and each player's history."""

from __future__ import annotations

import csv
import io
import json
import random
from collections import Counter, defaultdict
from fractions import Fraction

import pytest
from pypdf import PdfReader

from events.models import Bye, Drop, EventRefusal, Pairing, Result
from events.reading import swiss_of
from events.swiss import lot
from tests.events.conftest import make_event, signed_in, table_documents

pytestmark = pytest.mark.django_db


def join_players(event, django_user_model, names):
    entries = {}
    for name in names:
        user = django_user_model.objects.create_user(name, f"{name}@example.com", "x-long-pass")
        entries[name] = event.join(user)
    return entries


@pytest.fixture
def six(event, django_user_model):
    return join_players(event, django_user_model, ["ann", "ben", "cat", "dan", "eve", "fay"])


@pytest.fixture
def five(event, django_user_model):
    return join_players(event, django_user_model, ["ann", "ben", "cat", "dan", "eve"])


def client_of(entry):
    return signed_in(entry.player)


def version_of(event, number):
    return event.rounds.get(number=number).version


def pair(client, event, number, version=None):
    version = version_of(event, number) if version is None else version
    return client.post(f"/events/{event.pk}/rounds/{number}/pair/", {"version": version})


def games(event, number):
    return list(
        Pairing.objects.filter(round__event=event, round__number=number)
        .select_related("player_a__player", "player_b__player")
        .order_by("table")
    )


def names(pairing):
    return pairing.player_a.player_name, pairing.player_b.player_name


def enter(client, event, number, player, vp, other_vp, **extra):
    return client.post(
        f"/events/{event.pk}/rounds/{number}/result/",
        {"a": player, "a_vp": vp, "b_vp": other_vp, **extra},
    )


def publish(client, event, number):
    version = event.rounds.get(number=number).version
    client.post(
        f"/events/{event.pk}/rounds/{number}/publish/", {"change": "publish", "version": version}
    )


def report(entry, event, number, mine, theirs):
    return client_of(entry).post(
        f"/events/{event.pk}/rounds/{number}/report/", {"my_vp": mine, "their_vp": theirs}
    )


def standings_json(client, event):
    response = client.get(f"/events/{event.pk}/standings.json")
    assert response.status_code == 200
    return json.loads(response.content)


# --- Pairing -----------------------------------------------------------------------------------


def test_pairing_round_one_seats_everyone_and_does_not_publish(organizer_client, event, five):
    response = pair(organizer_client, event, 1)
    assert response.status_code == 302
    round_1 = event.rounds.get(number=1)
    assert not round_1.published
    seated = [n for p in games(event, 1) for n in names(p)]
    byes = list(Bye.objects.filter(round=round_1).select_related("entry__player"))
    assert len(seated) == 4 and len(byes) == 1
    assert sorted([*seated, byes[0].entry.player_name]) == sorted(five)
    assert [p.table for p in games(event, 1)] == [1, 2]
    document = json.loads(
        organizer_client.get(f"/events/{event.pk}/rounds/1/pairings.json").content
    )
    assert document == {
        "round": 1,
        "pairings": [
            {"table": p.table, "a": names(p)[0], "b": names(p)[1]} for p in games(event, 1)
        ]
        + [{"table": None, "a": byes[0].entry.player_name, "b": None}],
        "ends_at": None,
    }


def test_a_round_takes_its_tables_from_the_pack_and_then_the_round_before(
    organizer_client, event, six, organizer
):
    from tablegen.models import Pack

    pack = Pack.objects.create(
        name="Club pack", count=3, params={}, tables=table_documents(3), owner=organizer
    )
    organizer_client.post(
        f"/events/{event.pk}/rounds/1/tables/",
        {"source": "pack", "pack": pack.pk, "version": 0},
    )
    pair(organizer_client, event, 1)
    for p in games(event, 1):
        enter(organizer_client, event, 1, names(p)[0], 10, 5)
    response = pair(organizer_client, event, 2)
    assert response.status_code == 302
    round_2 = event.rounds.get(number=2)
    assert round_2.tables == pack.tables and round_2.tables_source == "round 1's tables"
    # Nobody sits at a map they played in round 1 (three tables, three games: avoidable).
    played = {}
    for p in games(event, 1):
        played[p.player_a_id] = played[p.player_b_id] = p.table
    for p in games(event, 2):
        assert played[p.player_a_id] != p.table and played[p.player_b_id] != p.table
    page = organizer_client.get(f"/events/{event.pk}/rounds/2/").content.decode()
    assert "Pack table" in page and "Rematch" not in page


def test_fewer_tables_than_games_are_refused(organizer_client, event, six, pack):
    organizer_client.post(
        f"/events/{event.pk}/rounds/1/tables/", {"source": "pack", "pack": pack.pk, "version": 0}
    )
    response = pair(organizer_client, event, 1)
    assert response.status_code == 400
    assert "6 players make 3 games, and round 1 has 2 tables" in response.content.decode()
    assert not Pairing.objects.exists()


def test_a_stale_page_cannot_pair(organizer_client, event, six):
    response = pair(organizer_client, event, 1, version=version_of(event, 1) + 1)
    assert response.status_code == 400 and "another tab" in response.content.decode()
    assert not Pairing.objects.exists()


def test_round_two_waits_for_every_result_of_round_one(organizer_client, event, six):
    pair(organizer_client, event, 1)
    first, second, third = games(event, 1)
    enter(organizer_client, event, 1, names(first)[0], 10, 5)
    response = pair(organizer_client, event, 2)
    assert response.status_code == 400
    text = response.content.decode()
    assert f"Round 1 still needs results at table {second.table}, {third.table}" in text
    assert not games(event, 2)
    assert pair(organizer_client, event, 3).status_code == 400  # rounds go in order


def test_later_rounds_avoid_rematches_and_second_byes(organizer_client, event, five):
    met = set()
    bye_holders = []
    for number in (1, 2, 3):
        assert pair(organizer_client, event, number).status_code == 302
        for p in games(event, number):
            assert frozenset((p.player_a_id, p.player_b_id)) not in met
            met.add(frozenset((p.player_a_id, p.player_b_id)))
            enter(organizer_client, event, number, names(p)[0], 8, 3)
        bye_holders += [b.entry_id for b in Bye.objects.filter(round__number=number)]
    assert len(bye_holders) == len(set(bye_holders)) == 3


def test_a_round_is_paired_again_only_before_any_result(organizer_client, event, six):
    pair(organizer_client, event, 1)
    publish(organizer_client, event, 1)
    assert pair(organizer_client, event, 1).status_code == 302
    assert not event.rounds.get(number=1).published  # pairing again hides it
    publish(organizer_client, event, 1)
    game = games(event, 1)[0]
    report(game.player_a, event, 1, 3, 4)
    response = pair(organizer_client, event, 1)
    assert response.status_code == 400
    assert "a round is paired again only before any result" in response.content.decode()
    # One player's report, not yet confirmed, is a result reported all the same.
    table = game.table
    assert f"Round 1 has results reported at table {table} (confirmed or not)" in (
        response.content.decode()
    )
    assert games(event, 1)[0].pk == game.pk


def test_a_tab_drawn_before_the_round_was_paired_again_does_not_publish_it(
    organizer_client, event, six
):
    pair(organizer_client, event, 1)
    shown = version_of(event, 1)
    pair(organizer_client, event, 1)  # in another tab
    response = organizer_client.post(
        f"/events/{event.pk}/rounds/1/publish/", {"change": "publish", "version": shown}
    )
    assert response.status_code == 400 and "another tab" in response.content.decode()
    assert not event.rounds.get(number=1).published
    organizer_client.post(
        f"/events/{event.pk}/rounds/1/publish/",
        {"change": "publish", "version": version_of(event, 1)},
    )
    assert event.rounds.get(number=1).published


def test_typed_pairings_do_not_replace_a_round_with_results(organizer_client, event, six):
    pair(organizer_client, event, 1)
    game = games(event, 1)[0]
    enter(organizer_client, event, 1, names(game)[0], 3, 2)
    response = organizer_client.post(
        f"/events/{event.pk}/rounds/1/pairings/",
        {"version": version_of(event, 1), "rows": 1, "table-0": 1, "a-0": "ann", "b-0": "ben"},
    )
    assert response.status_code == 400 and "has results" in response.content.decode()
    assert Result.objects.filter(pairing=game).exists()


def test_typed_pairings_take_the_bye_from_a_player_they_seat(organizer_client, event, five):
    pair(organizer_client, event, 1)
    bye = Bye.objects.select_related("entry__player").get()
    other = next(n for n in five if n != bye.entry.player_name)
    organizer_client.post(
        f"/events/{event.pk}/rounds/1/pairings/",
        {
            "version": version_of(event, 1),
            "rows": 1,
            "table-0": 1,
            "a-0": bye.entry.player_name,
            "b-0": other,
        },
    )
    assert not Bye.objects.exists()


# --- Results ----------------------------------------------------------------------------------


def test_both_players_reporting_the_same_result_confirm_it(organizer_client, event, six):
    pair(organizer_client, event, 1)
    publish(organizer_client, event, 1)
    game = games(event, 1)[0]
    response = report(game.player_a, event, 1, 12, 7)
    assert response.status_code == 302
    result = Result.objects.get(pairing=game)
    assert not result.confirmed
    page = client_of(game.player_b).get(f"/events/{event.pk}/me/").content.decode()
    assert f"{names(game)[0]} reported: you 7" in page
    report(game.player_b, event, 1, 7, 12)
    result.refresh_from_db()
    assert (result.a_vp, result.b_vp, result.by_organizer) == (12, 7, False)
    page = client_of(game.player_a).get(f"/events/{event.pk}/me/").content.decode()
    assert "You won" in page and "12 to 7" in page


def test_differing_reports_are_flagged_and_the_organizer_settles_them(organizer_client, event, six):
    pair(organizer_client, event, 1)
    publish(organizer_client, event, 1)
    game = games(event, 1)[0]
    report(game.player_a, event, 1, 12, 7)
    report(game.player_b, event, 1, 12, 7)  # B claims 12 for themselves
    result = Result.objects.get(pairing=game)
    assert result.disputed and not result.confirmed
    dashboard = organizer_client.get(f"/events/{event.pk}/").content.decode()
    assert "1 disputed" in dashboard and f"settle the disputed result at table {game.table}" in (
        dashboard
    )
    page = organizer_client.get(f"/events/{event.pk}/rounds/1/").content.decode()
    assert "Disputed" in page and f"{names(game)[0]}'s report is right" in page
    response = enter(organizer_client, event, 1, names(game)[0], 12, 7, version=result.version)
    assert response.status_code == 302
    result.refresh_from_db()
    assert (result.a_vp, result.b_vp, result.by_organizer) == (12, 7, True)
    # The organizer's result stands: a player's report no longer changes it.
    assert report(game.player_b, event, 1, 1, 1).status_code == 400
    result.refresh_from_db()
    assert (result.a_vp, result.b_vp) == (12, 7)


def test_the_rounds_overview_shows_results_and_the_bye(organizer_client, event, five):
    pair(organizer_client, event, 1)
    publish(organizer_client, event, 1)
    game = games(event, 1)[0]
    enter(organizer_client, event, 1, names(game)[0], 14, 3)
    bye = Bye.objects.select_related("entry__player").get()
    page = client_of(game.player_a).get(f"/events/{event.pk}/rounds/").content.decode()
    assert "14 to 3" in page and f"Bye: {bye.entry.player_name}." in page
    assert "not in yet" in page


def test_the_organizer_can_name_either_player_of_a_game(organizer_client, event, six):
    pair(organizer_client, event, 1)
    game = games(event, 1)[0]
    enter(organizer_client, event, 1, names(game)[1].upper(), 4, 9)  # side B scored 4
    result = Result.objects.get(pairing=game)
    assert (result.a_vp, result.b_vp) == (9, 4)


@pytest.mark.parametrize(
    ("a_vp", "b_vp"),
    [(100, 5), (-1, 5), ("7.5", 5), ("", 5), ("x", 5), ("9" * 5000, 5), (5, 100)],
)
def test_a_result_outside_0_to_99_is_refused_and_changes_nothing(
    organizer_client, event, six, a_vp, b_vp
):
    pair(organizer_client, event, 1)
    game = games(event, 1)[0]
    response = enter(organizer_client, event, 1, names(game)[0], a_vp, b_vp)
    assert (
        response.status_code == 400 and "a whole number from 0 to 99" in response.content.decode()
    )
    assert not Result.objects.exists()


def test_a_result_at_the_limits_is_kept(organizer_client, event, six):
    pair(organizer_client, event, 1)
    game = games(event, 1)[0]
    assert enter(organizer_client, event, 1, names(game)[0], 99, 0).status_code == 302
    result = Result.objects.get(pairing=game)
    assert (result.a_vp, result.b_vp) == (99, 0)


def test_the_organizers_stale_result_page_is_refused(organizer_client, event, six):
    pair(organizer_client, event, 1)
    publish(organizer_client, event, 1)
    game = games(event, 1)[0]
    report(game.player_a, event, 1, 5, 6)  # since the organizer's page was drawn
    response = enter(organizer_client, event, 1, names(game)[0], 9, 1, version=0)
    assert response.status_code == 400 and "changed since your page" in response.content.decode()
    assert not Result.objects.get(pairing=game).confirmed


def test_an_unknown_or_unpaired_player_gets_a_clear_refusal(
    organizer_client, event, five, django_user_model
):
    pair(organizer_client, event, 1)
    response = enter(organizer_client, event, 1, "nobody", 1, 2)
    assert "No registered player is called &#x27;nobody&#x27;" in response.content.decode()
    bye = Bye.objects.select_related("entry__player").get()
    response = enter(organizer_client, event, 1, bye.entry.player_name, 1, 2)
    assert response.status_code == 400 and "has no game in round 1" in response.content.decode()


def test_a_player_reports_only_a_published_round_of_their_own(organizer_client, event, six):
    pair(organizer_client, event, 1)
    game = games(event, 1)[0]
    response = report(game.player_a, event, 1, 5, 5)
    assert response.status_code == 400 and "not published yet" in response.content.decode()
    publish(organizer_client, event, 1)
    response = report(game.player_a, event, 1, 100, 5)
    assert (
        response.status_code == 400 and "a whole number from 0 to 99" in response.content.decode()
    )
    assert not Result.objects.exists()
    stranger = signed_in(game.player_a.player)
    other_event = make_event(event.owner, name="Other")
    assert (
        stranger.post(
            f"/events/{other_event.pk}/rounds/1/report/", {"my_vp": 1, "their_vp": 2}
        ).status_code
        == 404
    )


def test_results_are_final_once_the_next_round_is_paired(organizer_client, event, six):
    pair(organizer_client, event, 1)
    publish(organizer_client, event, 1)
    for p in games(event, 1):
        report(p.player_a, event, 1, 6, 2)
        report(p.player_b, event, 1, 2, 6)
    game = games(event, 1)[0]
    assert report(game.player_a, event, 1, 1, 9).status_code == 302  # still open
    report(game.player_b, event, 1, 9, 1)
    pair(organizer_client, event, 2)
    response = report(game.player_a, event, 1, 9, 9)
    assert response.status_code == 400 and "are settled" in response.content.decode()
    result = Result.objects.get(pairing=game)
    assert (result.a_vp, result.b_vp) == (1, 9)
    # The organizer still corrects it: logged (tests/events/test_settled.py).
    assert enter(organizer_client, event, 1, names(game)[0], 9, 9).status_code == 302


def test_the_organizer_takes_back_their_result(organizer_client, event, six):
    pair(organizer_client, event, 1)
    publish(organizer_client, event, 1)
    game = games(event, 1)[0]
    report(game.player_a, event, 1, 4, 3)
    report(game.player_b, event, 1, 3, 4)
    enter(organizer_client, event, 1, names(game)[0], 0, 9)
    result = Result.objects.get(pairing=game)
    response = organizer_client.post(
        f"/events/{event.pk}/rounds/1/result/clear/",
        {"table": game.table, "version": result.version},
    )
    assert response.status_code == 302
    result.refresh_from_db()
    assert (result.a_vp, result.b_vp, result.by_organizer) == (4, 3, False)


# --- Swaps, drops, late joins -----------------------------------------------------------------


def test_swapping_players_warns_of_a_rematch(organizer_client, event, six):
    pair(organizer_client, event, 1)
    for p in games(event, 1):
        enter(organizer_client, event, 1, names(p)[0], 5, 1)
    first_game = games(event, 1)[0]
    pair(organizer_client, event, 2)
    # Put round 1's first opponents together again.
    a, b = names(first_game)
    round_2 = games(event, 2)
    b_game = next(p for p in round_2 if b in names(p))
    a_game = next(p for p in round_2 if a in names(p))
    partner = next(n for n in names(a_game) if n != a)
    response = organizer_client.post(
        f"/events/{event.pk}/rounds/2/swap/",
        {"kind": "players", "first": partner, "second": b, "version": version_of(event, 2)},
        follow=True,
    )
    text = response.content.decode()
    assert "Rematch: " in text and "met in round 1" in text
    assert any({a, b} == set(names(p)) for p in games(event, 2))
    assert b_game.pk in {p.pk for p in games(event, 2)}


def _three_rounds_of_four(client, event):
    """Rounds 1 to 3 of four players on two tables: round 3 seats every player at a table
    they sat at before (two tables, three rounds), and no pair meets twice."""
    for number in (1, 2, 3):
        assert pair(client, event, number).status_code == 302
        if number < 3:
            for p in games(event, number):
                enter(client, event, number, names(p)[0], 5, 1)
    return client.get(f"/events/{event.pk}/rounds/3/").content.decode()


def test_a_round_without_tables_warns_of_no_table_played_before(
    organizer_client, event, django_user_model
):
    """Without maps a table is only its number: sitting at "table 1" again is no repeat."""
    join_players(event, django_user_model, ["ann", "ben", "cat", "dan"])
    page = _three_rounds_of_four(organizer_client, event)
    assert not event.rounds.get(number=3).table_keys
    assert "played this table" not in page and "Rematch" not in page
    assert "warned of rematches and second byes" in page


def test_a_round_with_tables_warns_of_a_table_played_before(
    organizer_client, event, django_user_model, pack
):
    join_players(event, django_user_model, ["ann", "ben", "cat", "dan"])
    organizer_client.post(
        f"/events/{event.pk}/rounds/1/tables/", {"source": "pack", "pack": pack.pk, "version": 0}
    )
    page = _three_rounds_of_four(organizer_client, event)
    assert event.rounds.get(number=3).table_keys
    assert "played this table in round" in page
    assert "warned of rematches, repeated tables and second byes" in page


def test_swapping_with_the_bye_moves_the_bye(organizer_client, event, five):
    pair(organizer_client, event, 1)
    bye = Bye.objects.select_related("entry__player").get()
    game = games(event, 1)[0]
    response = organizer_client.post(
        f"/events/{event.pk}/rounds/1/swap/",
        {
            "kind": "players",
            "first": bye.entry.player_name,
            "second": names(game)[0],
            "version": version_of(event, 1),
        },
    )
    assert response.status_code == 302
    assert Bye.objects.get().entry.player_name == names(game)[0]
    assert bye.entry.player_name in names(games(event, 1)[0])


def test_moving_a_game_to_another_table_and_swapping_two(organizer_client, event, six):
    pair(organizer_client, event, 1)
    one, two, three = games(event, 1)
    response = organizer_client.post(
        f"/events/{event.pk}/rounds/1/swap/",
        {"kind": "tables", "first": 1, "second": 3, "version": version_of(event, 1)},
    )
    assert response.status_code == 302
    assert {p.pk: p.table for p in games(event, 1)} == {one.pk: 3, two.pk: 2, three.pk: 1}
    organizer_client.post(
        f"/events/{event.pk}/rounds/1/swap/",
        {"kind": "tables", "first": 2, "second": 7, "version": version_of(event, 1)},
    )
    assert {p.pk: p.table for p in games(event, 1)}[two.pk] == 7
    response = organizer_client.post(
        f"/events/{event.pk}/rounds/1/swap/",
        {"kind": "tables", "first": 2, "second": 3, "version": version_of(event, 1)},
    )
    assert response.status_code == 400 and "No game is at table 2" in response.content.decode()
    response = organizer_client.post(
        f"/events/{event.pk}/rounds/1/swap/",
        {"kind": "tables", "first": 1, "second": 2, "version": 0},
    )
    assert response.status_code == 400 and "another tab" in response.content.decode()


def test_a_dropped_player_is_not_paired_again_and_stays_ranked(organizer_client, event, six):
    pair(organizer_client, event, 1)
    for p in games(event, 1):
        enter(organizer_client, event, 1, names(p)[0], 5, 1)
    leaver = six["fay"]
    response = organizer_client.post(
        f"/events/{event.pk}/players/{leaver.pk}/drop/", {"change": "drop", "after": 1}
    )
    assert response.status_code == 302 and Drop.objects.get().after_round == 1
    pair(organizer_client, event, 2)
    seated = {n for p in games(event, 2) for n in names(p)}
    seated |= {b.entry.player_name for b in Bye.objects.filter(round__number=2)}
    assert "fay" not in seated and len(seated) == 5
    ranked = [row["player"] for row in standings_json(organizer_client, event)["standings"]]
    assert "fay" in ranked and len(ranked) == 6
    history = organizer_client.get(f"/events/{event.pk}/players/{leaver.pk}/history/")
    assert "dropped after round 1" in history.content.decode()
    organizer_client.post(f"/events/{event.pk}/players/{leaver.pk}/drop/", {"change": "reinstate"})
    assert not Drop.objects.exists()


def test_players_join_late_until_round_one_has_a_result(
    organizer_client, event, six, django_user_model
):
    pair(organizer_client, event, 1)
    late = join_players(event, django_user_model, ["gus"])["gus"]
    page = organizer_client.get(f"/events/{event.pk}/rounds/1/").content.decode()
    assert "Without a seat this round: gus" in page
    dashboard = organizer_client.get(f"/events/{event.pk}/").content.decode()
    assert "gus has no seat in round 1" in dashboard
    pair(organizer_client, event, 1)  # again, with gus
    seated = {n for p in games(event, 1) for n in names(p)} | {
        b.entry.player_name for b in Bye.objects.all()
    }
    assert "gus" in seated
    enter(organizer_client, event, 1, names(games(event, 1)[0])[0], 3, 1)
    user = django_user_model.objects.create_user("hal", "h@example.com", "x-long-pass")
    with pytest.raises(EventRefusal, match="has started"):
        event.join(user)
    assert late.pk


# --- Standings -----------------------------------------------------------------------------


def recompute(event):
    """The standings from the stored results, the slow and obvious way."""
    swiss = swiss_of(event)
    wins, draws, losses, vp = Counter(), Counter(), Counter(), Counter()
    opponents = defaultdict(list)
    entries = {e.pk: e.player_name for e in event.entries.select_related("player")}
    for result in Result.objects.filter(pairing__round__event=event).select_related("pairing"):
        if result.a_vp is None:
            continue
        a, b = result.pairing.player_a_id, result.pairing.player_b_id
        opponents[a].append(b)
        opponents[b].append(a)
        vp[a] += result.a_vp
        vp[b] += result.b_vp
        if result.a_vp == result.b_vp:
            draws[a] += 1
            draws[b] += 1
        else:
            winner, loser = (a, b) if result.a_vp > result.b_vp else (b, a)
            wins[winner] += 1
            losses[loser] += 1
    for bye in Bye.objects.filter(round__event=event):
        wins[bye.entry_id] += 1
        vp[bye.entry_id] += swiss.bye_vp
    score = {p: wins[p] + Fraction(draws[p], 2) for p in entries}
    byes = [
        (b.entry_id, b.round.number)
        for b in Bye.objects.filter(round__event=event).select_related("round")
    ]

    def before(player, number):
        """The player's score when round ``number`` began (a bye's virtual opponent)."""
        score = Fraction(0)
        for pairing in Pairing.objects.filter(round__event=event, round__number__lt=number):
            result = Result.objects.filter(pairing=pairing, a_vp__isnull=False).first()
            if result is None or player not in (pairing.player_a_id, pairing.player_b_id):
                continue
            mine, theirs = (
                (result.a_vp, result.b_vp)
                if pairing.player_a_id == player
                else (result.b_vp, result.a_vp)
            )
            score += 1 if mine > theirs else Fraction(1, 2) if mine == theirs else 0
        return score + sum(1 for p, n in byes if p == player and n < number)

    sos = {
        p: sum((score[o] for o in opponents[p]), Fraction(0))
        + sum(before(p, n) for q, n in byes if q == p)
        for p in entries
    }
    order = sorted(entries, key=lambda p: (-score[p], -sos[p], -vp[p], lot(swiss.seed, p)))
    return [
        {
            "rank": rank,
            "player": entries[p],
            "wins": wins[p],
            "draws": draws[p],
            "losses": losses[p],
            "vp": vp[p],
            "sos": sos[p],
        }
        for rank, p in enumerate(order, start=1)
    ]


def test_an_event_played_through_the_site_has_the_standings_its_results_give(
    organizer_client, django_user_model, organizer
):
    event = make_event(organizer, round_count=4)
    entries = join_players(event, django_user_model, [f"p{n}" for n in range(9)])
    swiss = swiss_of(event)
    organizer_client.post(f"/events/{event.pk}/swiss/", {"bye_vp": 6, "version": swiss.version})
    rng = random.Random(4)
    for number in range(1, 5):
        assert pair(organizer_client, event, number).status_code == 302
        publish(organizer_client, event, number)
        for p in games(event, number):
            mine, theirs = rng.randint(0, 12), rng.randint(0, 12)
            if rng.random() < 0.5:
                report(entries[p.player_a.player_name], event, number, mine, theirs)
                report(entries[p.player_b.player_name], event, number, theirs, mine)
            else:
                enter(organizer_client, event, number, names(p)[0], mine, theirs)
        document = standings_json(organizer_client, event)
        assert document["rounds_played"] == number
        assert document["standings"] == recompute(event)
        assert [row["rank"] for row in document["standings"]] == list(range(1, 10))
        assert set(document["standings"][0]) == {
            "rank",
            "player",
            "wins",
            "draws",
            "losses",
            "vp",
            "sos",
        }


def test_standings_are_the_organizers_until_published_then_the_players_and_the_links(
    organizer_client, event, six, stranger_client, client
):
    pair(organizer_client, event, 1)
    swiss = swiss_of(event)
    player = client_of(six["ann"])
    assert player.get(f"/events/{event.pk}/standings/").status_code == 404
    assert client.get(f"/events/standings/{swiss.standings_code}/").status_code == 404
    response = organizer_client.post(
        f"/events/{event.pk}/standings/publish/", {"change": "publish", "version": swiss.version}
    )
    assert response.status_code == 302
    page = player.get(f"/events/{event.pk}/standings/")
    assert page.status_code == 200 and "How players are ranked" in page.content.decode()
    assert player.get(f"/events/{event.pk}/standings.json").status_code == 200
    public = client.get(f"/events/standings/{swiss.standings_code}/")
    assert public.status_code == 200 and "ann" in public.content.decode()
    assert stranger_client.get(f"/events/{event.pk}/standings/").status_code == 404
    assert player.get(f"/events/{event.pk}/standings.pdf").status_code == 404  # the organizer's
    assert client.get("/events/standings/not-the-code/").status_code == 404
    # A stale page does not hide them.
    organizer_client.post(
        f"/events/{event.pk}/standings/publish/", {"change": "hide", "version": swiss.version}
    )
    assert client.get(f"/events/standings/{swiss.standings_code}/").status_code == 200


def test_the_live_page_answers_its_poll_with_the_table_alone(organizer_client, event, six):
    response = organizer_client.get(
        f"/events/{event.pk}/standings/", headers={"HX-Request": "true"}
    )
    text = response.content.decode()
    assert 'id="standings-live"' in text and "<html" not in text and "every 5s" in text


def test_the_standings_download_as_csv_and_pdf(organizer_client, event, six):
    pair(organizer_client, event, 1)
    for p in games(event, 1):
        enter(organizer_client, event, 1, names(p)[0], 9, 2)
    text = organizer_client.get(f"/events/{event.pk}/standings.csv").content.decode()
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][:8] == ["rank", "player", "score", "wins", "draws", "losses", "sos", "vp"]
    assert len(rows) == 7 and rows[1][0] == "1"
    response = organizer_client.get(f"/events/{event.pk}/standings.pdf")
    assert response["Content-Type"] == "application/pdf"
    text = PdfReader(io.BytesIO(response.content)).pages[0].extract_text()
    assert "Spring Open: standings" in text and "after round 1 of 3" in text


def test_a_players_history_names_opponents_tables_and_results(organizer_client, event, six):
    pair(organizer_client, event, 1)
    publish(organizer_client, event, 1)
    game = games(event, 1)[0]
    enter(organizer_client, event, 1, names(game)[0], 11, 4)
    page = client_of(game.player_a).get(f"/events/{event.pk}/players/{game.player_a_id}/history/")
    text = page.content.decode()
    assert page.status_code == 200 and names(game)[1] in text and "Win, 11 to 4" in text
    other = next(e for e in six.values() if e.pk not in (game.player_a_id, game.player_b_id))
    assert (
        client_of(other).get(f"/events/{event.pk}/players/{game.player_a_id}/history/").status_code
        == 404
    )


# --- Settings and the dashboard ------------------------------------------------------------------


def test_seeds_and_the_bye_vp_are_bounded_and_used(organizer_client, event, six):
    swiss = swiss_of(event)
    url = f"/events/{event.pk}/swiss/"
    ann, ben = six["ann"], six["ben"]
    response = organizer_client.post(
        url, {"bye_vp": 100, f"seed-{ann.pk}": 1, "version": swiss.version}
    )
    assert response.status_code == 400
    response = organizer_client.post(
        url,
        {"bye_vp": 5, f"seed-{ann.pk}": 1, f"seed-{ben.pk}": 1, "version": swiss.version},
    )
    assert response.status_code == 400 and "Seed 1 is given to both" in response.content.decode()
    response = organizer_client.post(
        url, {"bye_vp": 5, f"seed-{ann.pk}": 7, "version": swiss.version}
    )
    assert "a seed is a number from 1 to 6" in response.content.decode()
    response = organizer_client.post(
        url,
        {"bye_vp": 5, f"seed-{ann.pk}": 2, f"seed-{ben.pk}": 1, "version": swiss.version},
    )
    assert response.status_code == 302
    swiss.refresh_from_db()
    assert (swiss.bye_vp, swiss.seeding) == (5, [ben.pk, ann.pk])
    pair(organizer_client, event, 1)
    first, second, _ = games(event, 1)
    assert first.player_a_id == ben.pk and second.player_a_id == ann.pk
    stale = organizer_client.post(url, {"bye_vp": 9, "version": swiss.version - 1})
    assert stale.status_code == 409


def test_the_dashboard_says_what_each_round_needs_next(organizer_client, event, six):
    page = organizer_client.get(f"/events/{event.pk}/").content.decode()
    assert "Pair round 1" in page
    pair(organizer_client, event, 1)
    assert (
        "publish it to the players" in organizer_client.get(f"/events/{event.pk}/").content.decode()
    )
    publish(organizer_client, event, 1)
    page = organizer_client.get(f"/events/{event.pk}/").content.decode()
    assert "0 of 3 results in, 3 missing" in page and "3 results missing" in page
    for p in games(event, 1):
        enter(organizer_client, event, 1, names(p)[0], 5, 1)
    page = organizer_client.get(f"/events/{event.pk}/").content.decode()
    assert "results in" in page and "Pair round 2" in page
