"""Tables for each round (a pack, or saved tables), pairings typed in or imported from CSV,
and what players see once a round is published."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from events.models import Bye, Pairing, Swiss
from tablegen.models import Table
from tests.events.conftest import table_documents

pytestmark = pytest.mark.django_db


@pytest.fixture
def four(submitted, event, django_user_model):
    """Four players: alice and bob (with lists), carol and dave (without)."""
    for name in ("carol", "dave"):
        event.join(
            django_user_model.objects.create_user(name, f"{name}@example.com", "x-long-pass")
        )
    return {e.player_name: e for e in event.entries.select_related("player")}


def import_csv(client, event, text: str, **extra):
    return client.post(f"/events/{event.pk}/pairings/import/", {"pairings": text, **extra})


def test_a_pack_gives_a_round_its_tables(organizer_client, event, pack):
    round_1 = event.rounds.get(number=1)
    response = organizer_client.post(
        f"/events/{event.pk}/rounds/1/tables/",
        {"source": "pack", "pack": pack.pk, "version": round_1.version},
    )
    assert response.status_code == 302
    round_1.refresh_from_db()
    assert round_1.tables == pack.tables and round_1.tables_source == "the pack Spring pack"
    page = organizer_client.get(f"/events/{event.pk}/rounds/1/").content.decode()
    assert "Pack table 1" in page and "Pack table 2" in page


def test_an_unfinished_or_someone_elses_pack_is_refused(organizer_client, event, pack, stranger):
    pack.count = 5
    pack.save()
    round_1 = event.rounds.get(number=1)
    response = organizer_client.post(
        f"/events/{event.pk}/rounds/1/tables/", {"source": "pack", "pack": pack.pk, "version": 0}
    )
    assert response.status_code == 400 and "finished packs" in response.content.decode()
    pack.owner = stranger
    pack.count = 2
    pack.save()
    response = organizer_client.post(
        f"/events/{event.pk}/rounds/1/tables/", {"source": "pack", "pack": pack.pk, "version": 0}
    )
    assert response.status_code == 400
    round_1.refresh_from_db()
    assert round_1.tables == []


def test_saved_tables_can_be_picked_in_order(organizer_client, event, organizer):
    first, second = table_documents(2)
    tables = [
        Table.objects.create(name=f"Saved {n}", document=d, owner=organizer)
        for n, d in ((1, first), (2, second))
    ]
    response = organizer_client.post(
        f"/events/{event.pk}/rounds/2/tables/",
        {"source": "tables", "tables": [tables[1].pk, tables[0].pk], "version": 0},
    )
    assert response.status_code == 302
    round_2 = event.rounds.get(number=2)
    assert [d["name"] for d in round_2.tables] == ["Saved 2", "Saved 1"]


def test_a_second_tab_cannot_overwrite_the_round(organizer_client, event, pack):
    organizer_client.post(
        f"/events/{event.pk}/rounds/1/tables/", {"source": "pack", "pack": pack.pk, "version": 0}
    )
    response = organizer_client.post(
        f"/events/{event.pk}/rounds/1/tables/", {"source": "none", "version": 0}
    )
    assert response.status_code == 400 and "another tab" in response.content.decode()
    assert len(event.rounds.get(number=1).tables) == 2


def test_pairings_are_typed_in_for_a_round(organizer_client, event, four):
    response = organizer_client.post(
        f"/events/{event.pk}/rounds/1/pairings/",
        {
            "version": 0,
            "rows": 3,
            "table-0": 1,
            "a-0": "alice",
            "b-0": "bob",
            "table-1": 2,
            "a-1": "carol",
            "b-1": "dave",
            "table-2": 3,
            "a-2": "",
            "b-2": "",
        },
    )
    assert response.status_code == 302
    pairings = list(Pairing.objects.filter(round__number=1).order_by("table"))
    assert [(p.player_a.player_name, p.player_b.player_name) for p in pairings] == [
        ("alice", "bob"),
        ("carol", "dave"),
    ]


def test_typed_pairings_that_name_a_player_twice_are_refused(organizer_client, event, four):
    response = organizer_client.post(
        f"/events/{event.pk}/rounds/1/pairings/",
        {
            "version": 0,
            "rows": 2,
            "table-0": 1,
            "a-0": "alice",
            "b-0": "bob",
            "table-1": 2,
            "a-1": "carol",
            "b-1": "alice",
        },
    )
    assert response.status_code == 400
    assert "row 2, player B: alice already plays in round 1 (row 1)." in response.content.decode()
    assert not Pairing.objects.exists()


def test_typed_pairings_with_one_player_missing_are_refused(organizer_client, event, four):
    # Player A alone at a table: neither a game nor a bye (which takes no table).
    response = organizer_client.post(
        f"/events/{event.pk}/rounds/1/pairings/",
        {"version": 0, "rows": 1, "table-0": 1, "a-0": "alice", "b-0": ""},
    )
    assert response.status_code == 400
    assert "row 1, table: a bye (player A without player B) takes no table" in (
        response.content.decode()
    )
    response = organizer_client.post(
        f"/events/{event.pk}/rounds/1/pairings/",
        {"version": 0, "rows": 1, "table-0": 1, "a-0": "", "b-0": "bob"},
    )
    assert (
        response.status_code == 400
        and "row 1, player A: a player&#x27;s name is missing" in response.content.decode()
    )
    assert not Pairing.objects.exists() and not Bye.objects.exists()


def standing_of(client, event, name: str) -> dict:
    rows = client.get(f"/events/{event.pk}/standings.json").json()["standings"]
    return next(row for row in rows if row["player"] == name)


def test_a_typed_bye_is_kept_shown_again_and_counts_in_the_standings(organizer_client, event, four):
    response = organizer_client.post(
        f"/events/{event.pk}/rounds/1/pairings/",
        {"version": 0, "rows": 2, "table-0": 1, "a-0": "alice", "b-0": "bob"}
        | {"table-1": "", "a-1": "carol", "b-1": ""},
    )
    assert response.status_code == 302
    assert [b.entry.player_name for b in Bye.objects.filter(round__number=1)] == ["carol"]
    page = organizer_client.get(f"/events/{event.pk}/rounds/1/")
    assert "1 pairing and 1 bye saved" in page.content.decode()
    # The form gives the bye back as it was typed: player A alone, no table.
    assert page.context["form_rows"][1] == {"index": 1, "table": "", "a": "carol", "b": ""}
    pairings = organizer_client.get(f"/events/{event.pk}/rounds/1/pairings.json").json()
    assert {"table": None, "a": "carol", "b": None} in pairings["pairings"]
    # Typed again without it, the round has no bye: the rows are the whole round.
    typed = {"rows": 1, "table-0": 1, "a-0": "alice", "b-0": "bob"}
    version = event.rounds.get(number=1).version
    organizer_client.post(f"/events/{event.pk}/rounds/1/pairings/", typed | {"version": version})
    assert not Bye.objects.exists()
    # And with it again, the bye is a win with the event's bye VP; dave, left out, has nothing.
    version = event.rounds.get(number=1).version
    organizer_client.post(
        f"/events/{event.pk}/rounds/1/pairings/",
        typed | {"version": version, "rows": 2, "table-1": "", "a-1": "carol", "b-1": "bye"},
    )
    Swiss.objects.update_or_create(event=event, defaults={"bye_vp": 8})
    organizer_client.post(
        f"/events/{event.pk}/rounds/1/result/", {"a": "alice", "a_vp": 7, "b_vp": 3}
    )
    carol = standing_of(organizer_client, event, "carol")
    assert (carol["wins"], carol["losses"], carol["vp"]) == (1, 0, 8)
    dave = standing_of(organizer_client, event, "dave")
    assert (dave["wins"], dave["vp"]) == (0, 0)
    # With a result in the round, its pairings and byes stay as they are.
    version = event.rounds.get(number=1).version
    refused = organizer_client.post(
        f"/events/{event.pk}/rounds/1/pairings/", typed | {"version": version}
    )
    assert refused.status_code == 400 and Bye.objects.count() == 1


def test_pairings_are_imported_from_csv_for_several_rounds(organizer_client, event, four):
    text = "round,table,player A,player B\n1,1,alice,bob\n1,2,Carol,DAVE\n\n2,1,alice,carol\n2,2,bob,dave\n"
    response = import_csv(organizer_client, event, text)
    assert response.status_code == 302
    assert Pairing.objects.filter(round__number=1).count() == 2
    assert Pairing.objects.filter(round__number=2).count() == 2
    # A second import of round 2 alone replaces round 2 and leaves round 1.
    import_csv(organizer_client, event, "2,1,alice,dave\n")
    assert Pairing.objects.filter(round__number=1).count() == 2
    assert Pairing.objects.get(round__number=2).player_b.player_name == "dave"


def test_a_bye_is_imported_from_csv(organizer_client, event, four):
    response = import_csv(organizer_client, event, "1,1,alice,bob\n1,,carol,BYE\n2,,dave,\n")
    assert response.status_code == 302
    assert sorted((b.round.number, b.entry.player_name) for b in Bye.objects.all()) == [
        (1, "carol"),
        (2, "dave"),
    ]
    page = organizer_client.get(f"/events/{event.pk}/").content.decode()
    assert "round 1: 1 pairing and 1 bye; round 2: 0 pairings and 1 bye" in page


def test_a_csv_file_upload_with_semicolons_and_a_bom_is_read(organizer_client, event, four):
    upload = SimpleUploadedFile(
        "p.csv", "\ufeffround;table;a;b\r\n1;1;alice;bob\r\n".encode(), "text/csv"
    )
    response = organizer_client.post(f"/events/{event.pk}/pairings/import/", {"file": upload})
    assert response.status_code == 302 and Pairing.objects.count() == 1


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1,1,alice\n", "line 1: expected 4 columns (round, table, player A, player B), found 3."),
        ("round,table,a,b\n1,1,alice,bob,extra\n", "line 2: expected 4 columns"),
        (
            "4,1,alice,bob\n",
            "line 1, column 1 (round): &#x27;4&#x27; is not a round of this event (1 to 3).",
        ),
        ("x,1,alice,bob\n", "line 1, column 1 (round): &#x27;x&#x27; is not a round"),
        ("1,0,alice,bob\n", "line 1, column 2 (table): &#x27;0&#x27; is not a table"),
        (
            "1,1,alice,zoe\n",
            "line 1, column 4 (player B): no registered player is called &#x27;zoe&#x27;.",
        ),
        ("1,1,,bob\n", "line 1, column 3 (player A): a player&#x27;s name is missing."),
        ("1,1,alice,alice\n", "line 1, column 4 (player B): alice cannot play against themselves."),
        (
            "1,1,alice,bob\n1,2,carol,alice\n",
            "line 2, column 4 (player B): alice already plays in round 1 (line 1).",
        ),
        (
            "1,1,alice,bob\n1,1,carol,dave\n",
            "line 2, column 2 (table): table 1 of round 1 is already used (line 1).",
        ),
        (
            "1,1,al\x01ice,bob\n",
            "line 1, column 3 (player A): the text must not contain control characters",
        ),
        ('1,1,"alice,bob\n', "line 1: this is not CSV we can read"),
        ("\n\n", "Paste the pairings or choose a CSV file."),
        ("round,table,player A,player B\n", "The file holds no pairings"),
    ],
)
def test_a_malformed_pairings_csv_names_the_line_and_column_and_saves_nothing(
    organizer_client, event, four, text, message
):
    Pairing.objects.create(
        round=event.rounds.get(number=1), table=9, player_a=four["alice"], player_b=four["bob"]
    )
    response = import_csv(organizer_client, event, text)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert list(Pairing.objects.values_list("table", flat=True)) == [9]  # nothing changed


def test_a_pairings_file_too_large_is_refused(organizer_client, event, four):
    upload = SimpleUploadedFile("p.csv", b"1,1,alice,bob\n" * 10_000, "text/csv")
    response = organizer_client.post(f"/events/{event.pk}/pairings/import/", {"file": upload})
    assert response.status_code == 400 and "at most 100,000" in response.content.decode()


def test_tables_beyond_the_rounds_tables_are_refused(organizer_client, event, four, pack):
    organizer_client.post(
        f"/events/{event.pk}/rounds/1/tables/", {"source": "pack", "pack": pack.pk, "version": 0}
    )
    response = import_csv(organizer_client, event, "1,3,alice,bob\n")
    assert response.status_code == 400
    assert (
        "line 1, column 2 (table): &#x27;3&#x27; is not a table (round 1 has 2 tables)."
        in response.content.decode()
    )


def test_tables_cannot_shrink_under_their_pairings(organizer_client, event, four, pack):
    import_csv(organizer_client, event, "1,3,alice,bob\n")
    response = organizer_client.post(
        f"/events/{event.pk}/rounds/1/tables/", {"source": "pack", "pack": pack.pk, "version": 0}
    )
    assert response.status_code == 400 and "Table 3 has a pairing" in response.content.decode()


def test_players_see_their_table_and_opponent_once_the_round_is_published(
    organizer_client, player_client, other_client, event, four, pack
):
    organizer_client.post(
        f"/events/{event.pk}/rounds/1/tables/", {"source": "pack", "pack": pack.pk, "version": 0}
    )
    import_csv(organizer_client, event, "1,2,alice,bob\n1,1,carol,dave\n")
    assert "Your games" not in player_client.get(f"/events/{event.pk}/me/").content.decode()
    assert "carol" not in player_client.get(f"/events/{event.pk}/rounds/").content.decode()
    organizer_client.post(
        f"/events/{event.pk}/rounds/1/publish/",
        {"change": "publish", "version": event.rounds.get(number=1).version},
    )
    page = player_client.get(f"/events/{event.pk}/me/").content.decode()
    assert "Table 2 (Pack table 2) against <strong>bob</strong>" in page
    assert "side A" in page and 'class="table-map"' in page
    other = other_client.get(f"/events/{event.pk}/me/").content.decode()
    assert "against <strong>alice</strong>" in other and "side B" in other
    rounds = player_client.get(f"/events/{event.pk}/rounds/").content.decode()
    assert "carol" in rounds and "dave" in rounds
    # Round 2 is not published: players do not see it.
    assert "Round 2" not in rounds


def test_an_unpaired_player_in_a_published_round_is_told_it_is_not_a_bye(
    organizer_client, player_client, event, four
):
    import_csv(organizer_client, event, "1,1,carol,dave\n")
    organizer_client.post(
        f"/events/{event.pk}/rounds/1/publish/",
        {"change": "publish", "version": event.rounds.get(number=1).version},
    )
    page = player_client.get(f"/events/{event.pk}/me/").content.decode()
    assert "No game and no bye for you this round" in page
    # Given the bye by the organizer, the player is told it counts.
    version = event.rounds.get(number=1).version
    organizer_client.post(
        f"/events/{event.pk}/rounds/1/pairings/",
        {"version": version, "rows": 2, "table-0": 1, "a-0": "carol", "b-0": "dave"}
        | {"table-1": "", "a-1": "alice", "b-1": ""},
    )
    page = player_client.get(f"/events/{event.pk}/me/").content.decode()
    assert "You have the bye this round: it counts as a win" in page


def test_a_round_that_does_not_exist_is_not_found(organizer_client, event):
    assert organizer_client.get(f"/events/{event.pk}/rounds/4/").status_code == 404


def test_the_round_page_stays_small_for_a_big_event(organizer_client, event, django_user_model):
    """One list of names for every row, not a menu of every player in every row."""
    users = [
        django_user_model(username=f"player{n:03d}", email=f"p{n}@example.com") for n in range(120)
    ]
    django_user_model.objects.bulk_create(users)
    for user in django_user_model.objects.filter(username__startswith="player"):
        event.join(user)
    page = organizer_client.get(f"/events/{event.pk}/rounds/1/")
    assert page.status_code == 200
    assert len(page.content) < 120_000
    assert page.content.decode().count('<option value="player') == 120


def test_tables_can_be_removed_under_pairings(organizer_client, event, four, pack):
    organizer_client.post(
        f"/events/{event.pk}/rounds/1/tables/", {"source": "pack", "pack": pack.pk, "version": 0}
    )
    import_csv(organizer_client, event, "1,2,alice,bob\n")
    version = event.rounds.get(number=1).version  # the import moved it on
    response = organizer_client.post(
        f"/events/{event.pk}/rounds/1/tables/", {"source": "none", "version": version}
    )
    assert response.status_code == 302
    assert event.rounds.get(number=1).tables == [] and Pairing.objects.count() == 1
