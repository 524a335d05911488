"""The organizer's dashboard reads each round's pairings in one query for all rounds
(events.dashboard): an event of eight rounds costs the page no more queries than one of two."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.events.conftest import make_event, table_documents

pytestmark = pytest.mark.django_db


def queries_of_dashboard(client, event) -> int:
    client.get(f"/events/{event.pk}/")  # the session and caches settle
    with CaptureQueriesContext(connection) as captured:
        assert client.get(f"/events/{event.pk}/").status_code == 200
    return len(captured)


def test_more_rounds_cost_the_dashboard_no_more_queries(organizer, organizer_client):
    two = make_event(organizer, name="Two rounds", round_count=2)
    eight = make_event(organizer, name="Eight rounds", round_count=8)
    assert eight.rounds.count() == 8
    for event in (two, eight):  # each round on tables of its own: the maps are counted
        for round_ in event.rounds.all():
            round_.set_tables(round_.version, table_documents(2), "tables")
    assert queries_of_dashboard(organizer_client, eight) == queries_of_dashboard(
        organizer_client, two
    )
