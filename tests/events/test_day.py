"""The day itself: check-in (the organizer or the player, the contract's
players/<entry_id>/check-in/), self-drops (players/<entry_id>/drop/ from the player's own
page), and who may act on whose entry."""

from __future__ import annotations

import re

import pytest

from events import commands
from events.models import Drop, Entry, Round
from tests.events.test_play import (
    client_of,
    enter,
    games,
    join_players,
    names,
    pair,
    publish,
)
from tests.events.test_settled import close, play_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def six(event, django_user_model):
    return join_players(event, django_user_model, ["ann", "ben", "cat", "dan", "eve", "fay"])


def check_in(client, event, entry, change="in"):
    return client.post(f"/events/{event.pk}/players/{entry.pk}/check-in/", {"change": change})


def seated(event, number):
    return {e for p in games(event, number) for e in (p.player_a_id, p.player_b_id)}


def open_check_in(client, event, number):
    return client.post(f"/events/{event.pk}/rounds/{number}/check-in/")


def test_once_the_organizer_opens_check_in_a_round_pairs_only_the_checked_in(
    organizer_client, event, six
):
    ann, ben, cat, dan = (six[n] for n in ("ann", "ben", "cat", "dan"))
    page = client_of(ann).get(f"/events/{event.pk}/me/")
    assert f'action="/events/{event.pk}/players/{ann.pk}/check-in/"' not in page.content.decode()
    event.lock_all()
    # Locked, check-in is not open yet: the page says so and a player's check-in is refused.
    page = client_of(ann).get(f"/events/{event.pk}/me/").content.decode()
    assert f'action="/events/{event.pk}/players/{ann.pk}/check-in/"' not in page
    assert "Check-in is not open yet" in page
    refused = check_in(client_of(ann), event, ann)
    assert refused.status_code == 302
    assert "is not open yet" in client_of(ann).get(refused.url).content.decode()
    assert Entry.objects.get(pk=ann.pk).checked_in_for is None
    round_page = organizer_client.get(f"/events/{event.pk}/rounds/1/").content.decode()
    assert "Check-in for round 1: not open" in round_page
    assert f'action="/events/{event.pk}/rounds/1/check-in/"' in round_page
    # Only round 1, the next to pair, can have its check-in opened; opening twice is no change.
    assert open_check_in(organizer_client, event, 2).status_code == 400
    assert open_check_in(client_of(ann), event, 1).status_code == 404
    assert open_check_in(organizer_client, event, 1).status_code == 302
    opened = Round.objects.get(event=event, number=1)
    assert opened.check_in_opened_at is not None
    assert open_check_in(organizer_client, event, 1).status_code == 302
    assert Round.objects.get(pk=opened.pk).version == opened.version
    page = client_of(ann).get(f"/events/{event.pk}/me/").content.decode()
    assert f'action="/events/{event.pk}/players/{ann.pk}/check-in/"' in page
    # Open and nobody checked in: nothing to pair yet, and the round page says why.
    round_page = organizer_client.get(f"/events/{event.pk}/rounds/1/").content.decode()
    assert "0 of 6 checked in" in round_page
    assert "Check-in for round 1 is open and no player is checked in" in round_page
    assert check_in(client_of(ann), event, ann).status_code == 302
    round_page = organizer_client.get(f"/events/{event.pk}/rounds/1/").content.decode()
    assert "Check-in for round 1 is open and only one player is checked in" in round_page
    assert check_in(client_of(ben), event, ben).status_code == 302
    for entry in (cat, dan):  # the organizer ticks the others
        assert check_in(organizer_client, event, entry).status_code == 302
    check_in(organizer_client, event, dan, "out")
    check_in(organizer_client, event, dan, "in")
    assert Entry.objects.get(pk=ann.pk).checked_in_for == 1
    round_page = organizer_client.get(f"/events/{event.pk}/rounds/1/").content.decode()
    assert "4 of 6 checked in" in round_page
    pair(organizer_client, event, 1)
    assert seated(event, 1) == {ann.pk, ben.pk, cat.pk, dan.pk}
    page = client_of(ann).get(f"/events/{event.pk}/me/").content.decode()
    # Round 1 is the player's round now; the next round's check-in is the organizer's to open.
    assert "Round 1 is paired" in page and "Round 2 is paired next" not in page
    assert "Check-in for the next round is not open yet" in page


def your_day(entry, event) -> str:
    """The words of the "Your day" panel of the player's event page."""
    page = client_of(entry).get(f"/events/{event.pk}/me/").content.decode()
    panel = page[
        page.index('id="check-in"') : page.index("</section>", page.index('id="check-in"'))
    ]
    return " ".join(re.sub(r"<[^>]+>", " ", panel).split())


def test_during_a_round_the_players_day_speaks_of_that_round(organizer_client, event, six):
    ann = six["ann"]
    event.lock_all()
    assert "Round 1 is paired next. Check-in is not open yet" in your_day(ann, event)
    pair(organizer_client, event, 1)
    day = your_day(ann, event)
    assert "Round 1 is paired: your pairing shows here once the organizer publishes it" in day
    assert "Round 2" not in day and "round 2" not in day
    publish(organizer_client, event, 1)
    day = your_day(ann, event)
    assert "Round 1 is under way" in day and "Check-in for the next round is not open yet" in day
    assert "Round 2" not in day and "round 2" not in day
    # Results in, round 1 still open: it is still the round of the day.
    for p in games(event, 1):
        enter(organizer_client, event, 1, names(p)[0], 5, 1)
    assert "Round 1 is under way" in your_day(ann, event)
    # Closed, round 2 is next; its check-in, once the organizer opens it, is for round 2.
    assert close(organizer_client, event, 1).status_code == 302
    day = your_day(ann, event)
    assert "Round 2 is paired next. Check-in is not open yet" in day and "Round 1" not in day
    assert open_check_in(organizer_client, event, 2).status_code == 302
    assert "Check-in for round 2 is open" in your_day(ann, event)


def test_check_in_opened_during_a_round_is_for_the_next_one(organizer_client, event, six):
    """The organizer may open round 2's check-in while round 1 is played: the player's page
    offers it, by its number."""
    ann = six["ann"]
    event.lock_all()
    play_round(organizer_client, event, 1)
    assert open_check_in(organizer_client, event, 2).status_code == 302
    day = your_day(ann, event)
    assert "Check-in for round 2 is open" in day and "Check in for round 2" in day
    assert check_in(client_of(ann), event, ann).status_code == 302
    assert "Checked in for round 2" in your_day(ann, event)


def test_the_last_round_under_way_is_the_players_round(organizer_client, event, six):
    ann = six["ann"]
    event.lock_all()
    for number in (1, 2):
        play_round(organizer_client, event, number)
    pair(organizer_client, event, 3)
    publish(organizer_client, event, 3)
    day = your_day(ann, event)
    assert "Round 3 is under way" in day and "next round" not in day


def test_the_organizers_tick_opens_check_in(organizer_client, event, six):
    """Ticking a player at the venue is using check-in: it opens it, and from then on the
    round pairs only the ticked (and those who check in themselves)."""
    event.lock_all()
    ann, ben, cat, dan = (six[n] for n in ("ann", "ben", "cat", "dan"))
    for entry in (ann, ben):
        assert check_in(organizer_client, event, entry).status_code == 302
    assert Round.objects.get(event=event, number=1).check_in_opened_at is not None
    for entry in (cat, dan):
        assert check_in(client_of(entry), event, entry).status_code == 302
    pair(organizer_client, event, 1)
    assert seated(event, 1) == {ann.pk, ben.pk, cat.pk, dan.pk}


def test_a_check_in_that_is_neither_in_nor_out_changes_nothing(organizer_client, event, six):
    event.lock_all()
    ann = six["ann"]
    for change in ("in\x00", "\x1b[31mout", "x" * 10_000, "IN"):
        response = check_in(organizer_client, event, ann, change)
        assert response.status_code == 302
        assert "nothing was changed" in organizer_client.get(response.url).content.decode()
    assert Entry.objects.get(pk=ann.pk).checked_in_for is None
    assert Round.objects.get(event=event, number=1).check_in_opened_at is None


def test_a_player_checks_in_only_themself(event, six):
    ann, ben = six["ann"], six["ben"]
    assert check_in(client_of(ann), event, ben).status_code == 404
    assert Entry.objects.get(pk=ben.pk).checked_in_for is None


def test_a_player_drops_themself_and_the_organizer_is_told(organizer_client, event, six):
    play_round(organizer_client, event, 1)
    ann = six["ann"]
    page = client_of(ann).get(f"/events/{event.pk}/me/").content.decode()
    assert f'action="/events/{event.pk}/players/{ann.pk}/drop/"' in page
    response = client_of(ann).post(
        f"/events/{event.pk}/players/{ann.pk}/drop/", {"change": "drop"}, follow=True
    )
    assert "You have dropped out" in response.content.decode()
    drop = Drop.objects.get(entry=ann)
    assert (drop.after_round, drop.by_player) == (1, True)
    dashboard = organizer_client.get(f"/events/{event.pk}/").content.decode()
    assert "ann dropped out after round 1" in dashboard
    pair(organizer_client, event, 2)
    assert ann.pk not in seated(event, 2)


def test_a_player_cannot_drop_someone_else(event, six):
    ann, ben = six["ann"], six["ben"]
    response = client_of(ann).post(
        f"/events/{event.pk}/players/{ben.pk}/drop/", {"change": "drop", "after": 0}
    )
    assert response.status_code == 404
    assert not Drop.objects.exists()


# --- The round clock ------------------------------------------------------------------------


def test_the_round_clock_runs_from_the_organizers_minutes(organizer_client, event, six):
    import datetime
    import json

    from django.utils import timezone

    from tests.events.test_play import publish

    url = f"/events/{event.pk}/rounds/1/clock/"
    assert organizer_client.post(url, {"minutes": 50}).status_code == 400  # not paired
    pair(organizer_client, event, 1)
    publish(organizer_client, event, 1)
    document = json.loads(
        organizer_client.get(f"/events/{event.pk}/rounds/1/pairings.json").content
    )
    assert document["ends_at"] is None
    for refused in ("0", "601", "٣", "1.5", ""):
        assert organizer_client.post(url, {"minutes": refused}).status_code == 400
    before = timezone.now()
    assert organizer_client.post(url, {"minutes": 90}).status_code == 302
    ann = six["ann"]
    document = json.loads(client_of(ann).get(f"/events/{event.pk}/rounds/1/pairings.json").content)
    ends = datetime.datetime.fromisoformat(document["ends_at"])
    assert datetime.timedelta(minutes=89) < ends - before < datetime.timedelta(minutes=91)
    event.refresh_from_db()
    assert event.round_minutes == 90
    mine = client_of(ann).get(f"/events/{event.pk}/me/").content.decode()
    assert "data-ends-at=" in mine and "Round 1 clock" in mine
    # To the second: an HTML <time> takes at most three decimals.
    assert ends.microsecond == 0 and f'datetime="{ends.isoformat()}"' in mine
    page = organizer_client.get(f"/events/{event.pk}/rounds/1/").content.decode()
    assert "data-ends-at=" in page and 'value="90"' in page
    # A stranger cannot start it.
    assert client_of(ann).post(url, {"minutes": 5}).status_code == 404


def test_the_printed_sheets_show_the_rounds_end(organizer_client, event, six):
    from events.printing import Maps, _sheets_html, round_pairings, table_sheets

    pair(organizer_client, event, 1)
    organizer_client.post(f"/events/{event.pk}/rounds/1/clock/", {"minutes": 45})
    round_ = event.rounds.get(number=1)
    maps = Maps()
    html = _sheets_html(
        event, table_sheets(event, [(round_, round_pairings(round_))], maps), maps, True
    )
    assert f"Round ends {round_.ends_at:%H:%M} UTC" in html


# --- Live pages: a poll of an unchanged event is a 204 ---------------------------------------


def test_live_pages_answer_a_poll_with_nothing_until_something_changes(
    organizer_client, event, six
):
    import re

    from tests.events.test_play import publish, report

    pair(organizer_client, event, 1)
    publish(organizer_client, event, 1)
    ann = six["ann"]
    pages = {
        f"/events/{event.pk}/me/": client_of(ann),
        f"/events/{event.pk}/rounds/1/": organizer_client,
        f"/events/{event.pk}/standings/": organizer_client,
    }
    tokens = {}
    for url, client in pages.items():
        page = client.get(url).content.decode()
        found = re.search(re.escape(url) + r"\?since=([0-9a-f]+)", page)
        assert found, url
        tokens[url] = found.group(1)
        poll = client.get(f"{url}?since={tokens[url]}", headers={"HX-Request": "true"})
        assert poll.status_code == 204 and poll.content == b"", url
    game = games(event, 1)[0]
    report(game.player_a, event, 1, 5, 3)  # a result comes in
    for url, client in pages.items():
        poll = client.get(f"{url}?since={tokens[url]}", headers={"HX-Request": "true"})
        assert poll.status_code == 200, url
    # A stranger's poll learns nothing.
    assert client_of(ann).get(f"/events/{event.pk}/rounds/1/?since=x").status_code == 404


def test_a_poll_of_an_unchanged_event_reads_little(organizer_client, event, six):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    ann = six["ann"]
    page = client_of(ann).get(f"/events/{event.pk}/me/").content.decode()
    token = page.split("?since=", 1)[1].split('"', 1)[0]
    client = client_of(ann)
    client.get("/")  # the session's own queries out of the way
    with CaptureQueriesContext(connection) as queries:
        assert client.get(f"/events/{event.pk}/me/?since={token}").status_code == 204
    assert len(queries) <= 10


def test_a_round_reads_one_map_alone_and_keeps_its_tables_names_and_keys(event):
    from events.models import table_key
    from tests.events.conftest import table_documents

    documents = table_documents(2)
    round_ = event.rounds.get(number=1)
    round_.set_tables(round_.version, documents, "bench")
    light = event.rounds.defer("tables").get(number=1)
    assert light.table_names == ["Pack table 1", "Pack table 2"]
    assert light.table_keys == [table_key(d) for d in documents]
    assert light.table_document(2) == documents[1]
    assert light.table_document(3) is None and light.table_name(3) == "Table 3"
    assert light.table_spec(1) is not None


def test_the_pairing_form_asks_the_byes_vp_when_one_is_needed(organizer_client, event, six):
    from events.models import Bye, Swiss

    commands.leave(six["fay"])  # five players: one has the bye
    page = organizer_client.get(f"/events/{event.pk}/rounds/1/").content.decode()
    assert 'name="bye_vp"' in page
    version = event.rounds.get(number=1).version
    url = f"/events/{event.pk}/rounds/1/pair/"
    assert organizer_client.post(url, {"version": version, "bye_vp": "٣"}).status_code == 400
    assert organizer_client.post(url, {"version": version, "bye_vp": "12"}).status_code == 302
    assert Swiss.objects.get(event=event).bye_vp == 12 and Bye.objects.count() == 1


def test_a_list_built_for_the_event_leads_back_to_it(event, player, player_client):
    event.join(player)
    response = player_client.post(
        f"/events/{event.pk}/me/new-list/",
        {"name": "For <the> event", "faction": "solar-concord"},
        follow=True,
    )
    page = response.content.decode()
    assert f'<a href="/events/{event.pk}/me/#submit">go back to Spring Open</a>' in page
    assert "For &lt;the&gt; event is started at 75 points under ruleset 2026.11." in page
    assert page.count("go back to Spring Open") == 1  # the editor's, not the message's too


def test_a_packs_table_names_reach_the_pages_without_the_generators_seed(
    organizer_client, event, six
):
    from events.printing import Maps, _sheets_html, round_pairings, table_sheets
    from tests.events.conftest import table_documents
    from tests.events.test_play import publish

    documents = table_documents(3)
    for number, document in enumerate(documents, start=1):
        document["name"] = f"Spring pack {number} (seed {8810 + number})"
    round_ = event.rounds.get(number=1)
    round_.set_tables(round_.version, documents, "Spring pack")
    pair(organizer_client, event, 1)
    publish(organizer_client, event, 1)
    round_.refresh_from_db()
    assert [round_.table_name(n) for n in (1, 2, 3)] == [
        "Spring pack 1",
        "Spring pack 2",
        "Spring pack 3",
    ]
    ann = client_of(six["ann"])
    maps = Maps()
    pages = {
        "the organizer's round": organizer_client.get(f"/events/{event.pk}/rounds/1/"),
        "the player's page": ann.get(f"/events/{event.pk}/me/"),
        "every table": ann.get(f"/events/{event.pk}/rounds/"),
    }
    for what, response in pages.items():
        text = response.content.decode()
        assert response.status_code == 200 and "Spring pack" in text, what
        assert "(seed" not in text, what
    sheets = _sheets_html(
        event, table_sheets(event, [(round_, round_pairings(round_))], maps), maps, True
    )
    at = sheets.find("(seed")
    assert "Spring pack 1" in sheets and at < 0, sheets[at - 300 : at + 60]


def test_players_follow_the_standings_live_once_the_organizer_publishes_them(
    organizer_client, event, six
):
    import re

    from events.models import Swiss
    from tests.events.test_play import publish, report

    pair(organizer_client, event, 1)
    publish(organizer_client, event, 1)
    ann = client_of(six["ann"])
    url = f"/events/{event.pk}/standings/"
    assert ann.get(url).status_code == 404  # the organizer's until published
    swiss = Swiss.objects.get(event=event)
    organizer_client.post(
        f"/events/{event.pk}/standings/publish/", {"change": "publish", "version": swiss.version}
    )
    page = ann.get(url).content.decode()
    # The help says how SoS counts a bye (the convention players know: it drags nobody down).
    assert "so a bye neither drags your SoS down nor lifts it" in page
    found = re.search(r'data-hx-get="([^"]*\?since=[0-9a-f]+)"', page)
    assert found is not None and 'data-hx-trigger="every 5s' in page
    poll = found.group(1).replace("&amp;", "&")
    assert ann.get(poll, headers={"HX-Request": "true"}).status_code == 204
    game = games(event, 1)[0]
    report(game.player_a, event, 1, 5, 3)
    report(game.player_b, event, 1, 3, 5)  # the result is confirmed: the standings move
    answer = ann.get(poll, headers={"HX-Request": "true"})
    assert answer.status_code == 200 and 'id="standings-live"' in answer.content.decode()
