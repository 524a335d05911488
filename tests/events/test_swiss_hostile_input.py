"""Hostile and broken input on the Swiss system's forms (results, reports, swaps, drops,
byes and seeds): never a server error, and a refusal changes nothing. Every form needs its
CSRF token."""

from __future__ import annotations

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from events.models import Bye, Drop, Pairing, Result
from events.reading import swiss_of
from tests.conftest import examples
from tests.events.test_play import games, join_players, pair, publish

pytestmark = pytest.mark.django_db

FUZZ = settings(
    max_examples=examples(40),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
junk = st.one_of(
    st.text(max_size=60),
    st.integers(-(2**70), 2**70).map(str),
    st.sampled_from(["", "0", "-1", "99", "100", "1e3", " 7 ", "٣", "\x00", "ann", "ANN "]),
)


@pytest.fixture
def paired(organizer_client, event, django_user_model):
    entries = join_players(event, django_user_model, ["ann", "ben", "cat", "dan", "eve"])
    pair(organizer_client, event, 1)
    publish(organizer_client, event, 1)
    return entries


def seats(event):
    return sorted(
        (p.table, p.player_a_id, p.player_b_id) for p in Pairing.objects.filter(round__event=event)
    ), sorted(Bye.objects.values_list("entry_id", flat=True))


def results():
    return sorted(
        Result.objects.values_list(
            "pairing_id", "a_vp", "b_vp", "a_reports_a_vp", "b_reports_a_vp", "by_organizer"
        )
    )


@FUZZ
@given(a=junk, a_vp=junk, b_vp=junk, version=junk)
def test_entering_any_result(organizer_client, event, paired, a, a_vp, b_vp, version):
    before = results()
    response = organizer_client.post(
        f"/events/{event.pk}/rounds/1/result/",
        {"a": a, "a_vp": a_vp, "b_vp": b_vp, "version": version},
    )
    assert response.status_code in (302, 400)
    if response.status_code == 400:
        assert results() == before
    for row in Result.objects.all():
        assert row.a_vp is None or 0 <= row.a_vp <= 99


@FUZZ
@given(mine=junk, theirs=junk)
def test_reporting_anything(event, paired, mine, theirs):
    player = Client()
    player.force_login(paired["ann"].player)
    before = results()
    response = player.post(
        f"/events/{event.pk}/rounds/1/report/", {"my_vp": mine, "their_vp": theirs}
    )
    assert response.status_code in (302, 400)
    if response.status_code == 400:
        assert results() == before


@FUZZ
@given(kind=junk | st.sampled_from(["players", "tables"]), first=junk, second=junk)
def test_swapping_anything(organizer_client, event, paired, kind, first, second):
    before = seats(event)
    version = event.rounds.get(number=1).version
    response = organizer_client.post(
        f"/events/{event.pk}/rounds/1/swap/",
        {"kind": kind, "first": first, "second": second, "version": version},
    )
    assert response.status_code in (302, 400)
    if response.status_code == 400:
        assert seats(event) == before


@FUZZ
@given(change=junk | st.just("drop"), after=junk)
def test_dropping_with_anything(organizer_client, event, paired, change, after):
    entry = paired["ann"]
    response = organizer_client.post(
        f"/events/{event.pk}/players/{entry.pk}/drop/", {"change": change, "after": after}
    )
    assert response.status_code == 302
    drop = Drop.objects.filter(entry=entry).first()
    assert drop is None or 0 <= drop.after_round <= event.round_count


@FUZZ
@given(bye_vp=junk, seed=junk, version=junk)
def test_saving_any_settings(organizer_client, event, paired, bye_vp, seed, version):
    swiss = swiss_of(event)
    before = (swiss.bye_vp, swiss.seeding, swiss.version)
    response = organizer_client.post(
        f"/events/{event.pk}/swiss/",
        {"bye_vp": bye_vp, f"seed-{paired['ben'].pk}": seed, "version": version},
    )
    assert response.status_code in (302, 400, 409)
    swiss.refresh_from_db()
    if response.status_code != 302:
        assert (swiss.bye_vp, swiss.seeding, swiss.version) == before
    assert 0 <= swiss.bye_vp <= 99


def test_every_swiss_form_needs_csrf(organizer, event, paired):
    client = Client(enforce_csrf_checks=True)
    client.force_login(organizer)
    version = event.rounds.get(number=1).version
    game = games(event, 1)[0]
    for path, data in [
        ("rounds/1/pair/", {"version": version}),
        ("rounds/1/result/", {"a": game.player_a.player_name, "a_vp": 1, "b_vp": 2}),
        ("rounds/1/swap/", {"kind": "tables", "first": 1, "second": 2, "version": version}),
        (f"players/{paired['ann'].pk}/drop/", {"change": "drop", "after": 1}),
        ("standings/publish/", {"change": "publish", "version": 0}),
        ("swiss/", {"bye_vp": 3, "version": 0}),
    ]:
        assert client.post(f"/events/{event.pk}/{path}", data).status_code == 403, path
    player = Client(enforce_csrf_checks=True)
    player.force_login(paired["ann"].player)
    response = player.post(f"/events/{event.pk}/rounds/1/report/", {"my_vp": 1, "their_vp": 2})
    assert response.status_code == 403
    assert not Result.objects.exists() and not Drop.objects.exists()
