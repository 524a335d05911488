"""Settled means settled: a closed round (closed by the organizer, or by pairing the next)
and a finished event take no player's change; the organizer's corrections are logged and
shown on the standings; a round's tables stay as they were played."""

from __future__ import annotations

import pytest

from events.models import Correction, Result
from tests.events.conftest import table_documents
from tests.events.test_play import (
    client_of,
    enter,
    games,
    join_players,
    names,
    pair,
    publish,
    report,
    standings_json,
    version_of,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def six(event, django_user_model):
    return join_players(event, django_user_model, ["ann", "ben", "cat", "dan", "eve", "fay"])


def play_round(client, event, number, winner_vp=6, loser_vp=2):
    pair(client, event, number)
    publish(client, event, number)
    for p in games(event, number):
        report(p.player_a, event, number, winner_vp, loser_vp)
        report(p.player_b, event, number, loser_vp, winner_vp)


def close(client, event, number, version=None):
    version = version_of(event, number) if version is None else version
    return client.post(f"/events/{event.pk}/rounds/{number}/close/", {"version": version})


def test_a_closed_round_refuses_a_players_change_and_changes_nothing(organizer_client, event, six):
    play_round(organizer_client, event, 1)
    assert close(organizer_client, event, 1).status_code == 302
    game = games(event, 1)[0]
    before = Result.objects.get(pairing=game)
    response = report(game.player_a, event, 1, 9, 9)
    assert response.status_code in (400, 403)
    assert "The organizer closed round 1" in response.content.decode()
    after = Result.objects.get(pairing=game)
    assert (after.a_vp, after.b_vp, after.version) == (before.a_vp, before.b_vp, before.version)
    page = client_of(game.player_a).get(f"/events/{event.pk}/me/").content.decode()
    assert "Correct your result" not in page and "settled" in page


def test_a_round_closes_only_with_every_result_in_and_from_a_fresh_page(
    organizer_client, event, six
):
    pair(organizer_client, event, 1)
    publish(organizer_client, event, 1)
    response = close(organizer_client, event, 1)
    assert response.status_code == 400 and "still needs results" in response.content.decode()
    for p in games(event, 1):
        enter(organizer_client, event, 1, names(p)[0], 5, 1)
    assert close(organizer_client, event, 1, version=0).status_code == 400  # stale
    assert event.rounds.get(number=1).closed_at is None
    assert close(organizer_client, event, 1).status_code == 302
    assert event.rounds.get(number=1).closed_at is not None
    assert "Closed" in organizer_client.get(f"/events/{event.pk}/rounds/1/").content.decode()


def test_pairing_the_next_round_closes_the_one_before(organizer_client, event, six):
    play_round(organizer_client, event, 1)
    pair(organizer_client, event, 2)
    assert event.rounds.get(number=1).closed_at is not None


def test_the_organizers_correction_is_logged_and_marked_on_the_standings(
    organizer, organizer_client, event, six
):
    play_round(organizer_client, event, 1)
    close(organizer_client, event, 1)
    game = games(event, 1)[0]
    result = Result.objects.get(pairing=game)
    response = enter(organizer_client, event, 1, names(game)[0], 1, 9, version=result.version)
    assert response.status_code == 302
    result.refresh_from_db()
    assert (result.a_vp, result.b_vp, result.corrected) == (1, 9, True)
    correction = Correction.objects.get(result=result)
    assert (correction.by, correction.by_name) == (organizer, "orga")
    assert (correction.before_a_vp, correction.before_b_vp) == (6, 2)
    assert (correction.after_a_vp, correction.after_b_vp) == (1, 9)
    assert correction.at is not None
    page = organizer_client.get(f"/events/{event.pk}/standings/").content.decode()
    assert "corrected" in page
    # Taking back the organizer's result is refused in a closed round.
    response = organizer_client.post(
        f"/events/{event.pk}/rounds/1/result/clear/",
        {"table": game.table, "version": result.version},
    )
    assert response.status_code == 400


def test_finishing_publishes_the_final_standings_and_closes_every_round(
    organizer_client, event, six
):
    swiss_version = lambda: event.swiss.__class__.objects.get(event=event).version  # noqa: E731
    play_round(organizer_client, event, 1)
    organizer_client.get(f"/events/{event.pk}/standings/")  # makes the Swiss row
    response = organizer_client.post(
        f"/events/{event.pk}/standings/publish/",
        {"change": "finish", "version": swiss_version()},
        follow=True,
    )
    assert "Round 2 is not finished" in response.content.decode()
    event.refresh_from_db()
    assert event.finished_at is None
    play_round(organizer_client, event, 2)
    play_round(organizer_client, event, 3)
    page = organizer_client.get(f"/events/{event.pk}/standings/").content.decode()
    assert "Publish the final standings and finish the event" in page
    organizer_client.post(
        f"/events/{event.pk}/standings/publish/", {"change": "finish", "version": swiss_version()}
    )
    event.refresh_from_db()
    assert event.finished_at is not None
    assert all(r.closed_at is not None for r in event.rounds.all())
    game = games(event, 3)[0]
    response = report(game.player_b, event, 3, 9, 0)
    assert response.status_code == 400 and "is finished" in response.content.decode()
    ranks = standings_json(client_of(game.player_a), event)["standings"]
    assert len(ranks) == 6  # published, and the game still counts
    assert "The event is finished" in organizer_client.get(f"/events/{event.pk}/").content.decode()


def test_a_round_with_results_keeps_its_tables(organizer_client, event, six, pack):
    pack.tables = table_documents(3)
    pack.count = 3
    pack.save()
    response = organizer_client.post(
        f"/events/{event.pk}/rounds/1/tables/",
        {"source": "pack", "pack": pack.pk, "version": version_of(event, 1)},
    )
    assert response.status_code == 302
    play_round(organizer_client, event, 1)
    page = organizer_client.get(f"/events/{event.pk}/rounds/1/").content.decode()
    assert "Use this pack for round 1" not in page
    response = organizer_client.post(
        f"/events/{event.pk}/rounds/1/tables/",
        {"source": "pack", "pack": pack.pk, "version": version_of(event, 1)},
    )
    assert response.status_code == 400 and "stay as they were played" in response.content.decode()
    assert len(event.rounds.get(number=1).tables) == 3
    page = organizer_client.get(f"/events/{event.pk}/rounds/2/").content.decode()
    assert "takes round 1's tables" in page


# --- Leaving never deletes a played game -------------------------------------------------------


def test_a_player_who_leaves_keeps_their_played_games_in_the_standings(
    organizer_client, event, six
):
    play_round(organizer_client, event, 1, winner_vp=15, loser_vp=2)
    winner = games(event, 1)[0].player_a
    before = standings_json(organizer_client, event)["standings"]
    response = client_of(winner).post(f"/events/{event.pk}/me/leave/", follow=True)
    assert "stay in its standings" in response.content.decode()
    after = standings_json(organizer_client, event)["standings"]
    assert [(r["rank"], r["wins"], r["vp"]) for r in after] == [
        (r["rank"], r["wins"], r["vp"]) for r in before
    ]
    assert Result.objects.filter(pairing__round__event=event).count() == 3
    winner.refresh_from_db()
    assert winner.departed and winner.player is None and winner.drop.after_round == 1
    assert winner.drop.by_player
    # Not paired again.
    pair(organizer_client, event, 2)
    seated = {e for p in games(event, 2) for e in (p.player_a_id, p.player_b_id)}
    assert winner.pk not in seated


def test_a_player_never_paired_leaves_without_a_trace(event, six):
    entry = six["ann"]
    assert client_of(entry).post(f"/events/{event.pk}/me/leave/").status_code == 302
    assert not event.entries.filter(pk=entry.pk).exists()


def test_the_organizer_cannot_remove_a_player_who_played(organizer_client, event, six):
    play_round(organizer_client, event, 1)
    entry = games(event, 1)[0].player_a
    response = organizer_client.post(f"/events/{event.pk}/players/{entry.pk}/remove/", follow=True)
    assert "drop them instead" in response.content.decode()
    assert event.entries.filter(pk=entry.pk).exists()


# --- Strict numbers (docs/security.md): ASCII digits only ------------------------------------


@pytest.mark.parametrize(
    "sent", ["٣", "\uff11\uff12", "+3", "1.0", " 5", "5 ", "3e1", "0x3", "-0", "1_0"]
)
def test_a_result_is_read_from_ascii_digits_only(organizer_client, event, six, sent):
    pair(organizer_client, event, 1)
    publish(organizer_client, event, 1)
    game = games(event, 1)[0]
    response = report(game.player_a, event, 1, sent, 2)
    assert response.status_code == 400
    response = enter(organizer_client, event, 1, names(game)[0], 4, sent)
    assert response.status_code == 400
    assert not Result.objects.filter(pairing=game, a_vp__isnull=False).exists()
    assert not Result.objects.filter(pairing=game, a_reports_a_vp__isnull=False).exists()


def test_the_strict_field_takes_plain_digits_at_its_bounds():
    from onefinity.forms import StrictIntegerField

    field = StrictIntegerField(min_value=0, max_value=99)
    assert field.clean("0") == 0 and field.clean("99") == 99 and field.clean("007") == 7
    for refused in ("100", "9" * 5000, "-1", "٣", "\uff11\uff12", "+3", "1.0", " 5"):
        with pytest.raises(Exception):  # noqa: B017 (ValidationError, whichever message)
            field.clean(refused)


def test_a_report_crossing_the_opponents_since_the_page_was_drawn_is_refused(
    organizer_client, event, six
):
    pair(organizer_client, event, 1)
    publish(organizer_client, event, 1)
    game = games(event, 1)[0]
    url = f"/events/{event.pk}/rounds/1/report/"
    # Both pages were drawn before either report: the result's version 0.
    assert (
        client_of(game.player_a).post(url, {"my_vp": 5, "their_vp": 3, "version": 0}).status_code
        == 302
    )
    response = client_of(game.player_b).post(url, {"my_vp": 9, "their_vp": 1, "version": 0})
    assert (
        response.status_code == 400
        and "changed since your page was drawn" in response.content.decode()
    )
    result = Result.objects.get(pairing=game)
    assert result.report_of_b is None and result.version == 1
    assert (
        client_of(game.player_b).post(url, {"my_vp": 3, "their_vp": 5, "version": 1}).status_code
        == 302
    )
    assert Result.objects.get(pairing=game).confirmed


def test_a_closed_rounds_games_stay_at_their_tables(organizer_client, event, six):
    play_round(organizer_client, event, 1)
    close(organizer_client, event, 1)
    before = [(p.table, p.player_a_id) for p in games(event, 1)]
    response = organizer_client.post(
        f"/events/{event.pk}/rounds/1/swap/",
        {"kind": "tables", "first": 1, "second": 2, "version": version_of(event, 1)},
    )
    assert response.status_code == 400 and "settled" in response.content.decode()
    assert [(p.table, p.player_a_id) for p in games(event, 1)] == before


def test_a_player_who_leaves_before_playing_their_next_game_is_not_paired_in_it(
    organizer_client, event, six
):
    play_round(organizer_client, event, 1)
    pair(organizer_client, event, 2)
    leaver = games(event, 2)[0].player_a
    assert client_of(leaver).post(f"/events/{event.pk}/me/leave/").status_code == 302
    leaver.refresh_from_db()
    assert leaver.drop.after_round == 1  # their round-1 game stays; round 2 is not theirs
    pair(organizer_client, event, 2)  # paired again without them
    seated = {e for p in games(event, 2) for e in (p.player_a_id, p.player_b_id)}
    assert leaver.pk not in seated
