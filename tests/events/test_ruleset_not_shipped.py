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
