"""An event pinned to a ruleset the site no longer ships: every list is refused with a
clear message, and none is ever checked under another ruleset in its place."""

from __future__ import annotations

import pytest

from events.checking import NOT_SHIPPED, check_for_event
from onefinity.rules import read_force_document
from tests.events.conftest import make_event, make_force

pytestmark = pytest.mark.django_db

GONE = "1999.1"


def test_a_list_is_not_checked_under_another_ruleset_in_place_of_one_no_longer_shipped(player):
    two_tags = make_force(player, "Two TAGs")
    document = two_tags.document()
    document["units"].append({"type": "tag", "troopers": [{}]})
    checked = check_for_event(read_force_document(document), GONE, 75)
    assert checked.refused and not checked.legal
    # One error, about the ruleset: not the second TAG the current ruleset would find.
    assert [issue.code for issue in checked.issues] == [NOT_SHIPPED]
    assert f"plays ruleset {GONE}, which this site no longer ships" in checked.issues[0].message
    assert "2026.11" in checked.issues[0].fix
    assert checked.spec.ruleset == GONE and checked.document["ruleset"] == GONE


def test_a_shipped_ruleset_is_checked_as_before(player):
    checked = check_for_event(make_force(player).to_spec(), "2026.11", 75)
    assert not checked.refused and checked.legal


def test_the_player_and_the_organizer_read_why_in_the_pages(
    organizer, organizer_client, player, player_client
):
    event = make_event(organizer, ruleset_version=GONE)
    entry = event.join(player)
    force = make_force(player, "Alice's wardens")
    response = player_client.post(f"/events/{event.pk}/me/submit/", {"force": force.pk})
    assert response.status_code == 400
    assert "no longer ships" in response.content.decode()
    entry.refresh_from_db()
    assert not entry.submitted
    assert player_client.get(f"/events/{event.pk}/me/").status_code == 200
    assert organizer_client.get(f"/events/{event.pk}/").status_code == 200


def test_submitting_anyway_is_refused_too(organizer, player):
    """Accepting a list's problems is for a list checked under the event's rules; one that
    could not be checked at all is never accepted."""
    from events.models import EventRefusal

    event = make_event(organizer, ruleset_version=GONE)
    entry = event.join(player)
    with pytest.raises(EventRefusal, match="no longer ships"):
        entry.submit(make_force(player, "Anyway"), accept_problems=True)
    entry.refresh_from_db()
    assert not entry.submitted


def test_the_dashboard_names_a_retired_ruleset_and_nothing_offers_submitting_anyway(
    organizer, organizer_client, player, player_client
):
    event = make_event(organizer, ruleset_version=GONE)
    event.join(player)
    dashboard = organizer_client.get(f"/events/{event.pk}/").content.decode()
    assert "no longer shipped" in dashboard and "Edit the event and choose a ruleset" in dashboard
    force = make_force(player, "Alice's wardens")
    page = player_client.post(f"/events/{event.pk}/me/submit/", {"force": force.pk})
    assert page.status_code == 400 and "anyway" not in page.content.decode()


def test_a_list_is_not_built_for_the_event_under_another_ruleset(organizer, player, player_client):
    from forcebuilder.models import Force

    event = make_event(organizer, ruleset_version=GONE)
    event.join(player)
    before = Force.objects.count()
    response = player_client.post(
        f"/events/{event.pk}/me/new-list/", {"name": "For the event", "faction": "solar-concord"}
    )
    assert response.status_code == 400 and "none was started" in response.content.decode()
    assert Force.objects.count() == before
