"""Hostile and broken input on the events forms: never a server error, nothing half-saved."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from events.models import Event, Pairing
from tests.conftest import examples

pytestmark = pytest.mark.django_db

FUZZ = settings(
    max_examples=examples(80),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
junk = st.one_of(
    st.text(max_size=60),
    st.integers(-(2**70), 2**70).map(str),
    st.sampled_from(["", "0", "-1", "1", "NaN", "2026-02-30", "<script>", "\x00", "1,1,alice,bob"]),
)


@FUZZ
@given(name=junk, date=junk, points=junk, rounds=junk, notes=junk, ruleset=junk)
def test_creating_an_event_with_any_input(
    organizer_client, name, date, points, rounds, notes, ruleset
):
    before = Event.objects.count()
    response = organizer_client.post(
        "/events/new/",
        {
            "name": name,
            "date": date,
            "points_limit": points,
            "round_count": rounds,
            "notes": notes,
            "ruleset_version": ruleset,
        },
    )
    assert response.status_code in (302, 400)
    if response.status_code == 400:
        assert Event.objects.count() == before


@FUZZ
@given(lines=st.lists(st.lists(junk, max_size=5).map(",".join), max_size=6))
def test_importing_any_pairings_text(organizer_client, submitted, event, lines):
    before = list(Pairing.objects.values_list("pk", flat=True))
    response = organizer_client.post(
        f"/events/{event.pk}/pairings/import/", {"pairings": "\n".join(lines)}
    )
    assert response.status_code in (302, 400)
    if response.status_code == 400:
        assert list(Pairing.objects.values_list("pk", flat=True)) == before


@FUZZ
@given(rows=junk, table=junk, a=junk, b=junk, version=junk)
def test_typing_any_pairings(organizer_client, submitted, event, rows, table, a, b, version):
    response = organizer_client.post(
        f"/events/{event.pk}/rounds/1/pairings/",
        {"rows": rows, "table-0": table, "a-0": a, "b-0": b, "version": version},
    )
    assert response.status_code in (302, 400)


@FUZZ
@given(force=junk, accept=junk)
def test_submitting_anything(player_client, joined, event, force, accept):
    response = player_client.post(
        f"/events/{event.pk}/me/submit/", {"force": force, "accept_problems": accept}
    )
    assert response.status_code in (302, 400)
