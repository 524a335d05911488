"""What the organizer downloads: the locked rosters (one per page, each with its QR code),
the table sheets (one per table per round), the CSV and the zip of force documents."""

from __future__ import annotations

import csv
import io
import json
import re
import zipfile

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pypdf import PdfReader

from events import printing
from events.models import Pairing
from onefinity.downloads import spreadsheet_cell
from onefinity.rules import read_force_document
from tests.events.conftest import LEGAL_POINTS, make_force

pytestmark = pytest.mark.django_db


def pdf_pages(response) -> list[str]:
    assert response.status_code == 200, response.status_code
    assert response["Content-Type"] == "application/pdf"
    return [page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages]


@pytest.fixture
def locked(submitted, event):
    event.lock_all()
    return submitted


@pytest.fixture
def paired(locked, event, pack, organizer_client):
    organizer_client.post(
        f"/events/{event.pk}/rounds/1/tables/", {"source": "pack", "pack": pack.pk, "version": 0}
    )
    alice, bob = locked
    Pairing.objects.create(round=event.rounds.get(number=1), table=2, player_a=alice, player_b=bob)
    Pairing.objects.create(round=event.rounds.get(number=2), table=1, player_a=bob, player_b=alice)
    return locked


def test_the_rosters_pdf_has_one_page_per_locked_list_with_its_qr_code(
    organizer_client, locked, event
):
    pages = pdf_pages(organizer_client.get(f"/events/{event.pk}/rosters.pdf"))
    assert len(pages) == 2
    assert "alice" in pages[0] and "Alice's wardens" in pages[0] and "Spring Open" in pages[0]
    assert "bob" in pages[1] and "Bob's wardens" in pages[1]
    alice = locked[0]
    assert f"/events/{event.pk}/lists/{alice.code}/" in pages[0]  # the QR code's link, printed
    assert "scan to check this list" in pages[0] and "Hacker" in pages[0] and "MOV 2" in pages[0]


def test_the_rosters_show_the_snapshot_not_the_live_list(
    organizer_client, locked, alice_list, event
):
    document = alice_list.document()
    document["name"] = "Renamed after the lock"
    alice_list.record(read_force_document(document))
    pages = pdf_pages(organizer_client.get(f"/events/{event.pk}/rosters.pdf"))
    assert "Alice's wardens" in pages[0] and "Renamed" not in "".join(pages)


def test_only_locked_lists_are_printed(organizer_client, submitted, event):
    submitted[0].lock()
    pages = pdf_pages(organizer_client.get(f"/events/{event.pk}/rosters.pdf"))
    assert len(pages) == 1 and "alice" in pages[0]


def test_the_table_sheets_have_one_page_per_table_with_the_map_and_both_lists(
    organizer_client, paired, event
):
    pages = pdf_pages(organizer_client.get(f"/events/{event.pk}/rounds/1/sheets.pdf"))
    assert len(pages) == 1
    page = pages[0]
    assert "Round 1 · Table 2" in page and "Pack table 2" in page
    assert "alice" in page and "bob" in page and "Solar Concord" in page
    assert f"{LEGAL_POINTS}/75 points" in page
    assert "Alpha (Medium Infantry)" in page  # a unit line
    assert "Hacker" in page  # a trooper line
    assert "Side A edge" in page  # the map, drawn from its own page


def test_a_round_without_tables_still_prints_its_sheets(organizer_client, paired, event):
    pages = pdf_pages(organizer_client.get(f"/events/{event.pk}/rounds/2/sheets.pdf"))
    assert "No table map is attached" in pages[0]


def test_the_whole_event_prints_as_one_file_while_it_is_small(organizer_client, paired, event):
    pages = pdf_pages(organizer_client.get(f"/events/{event.pk}/event.pdf"))
    assert len(pages) == 4  # two rosters, then round 1's and round 2's sheet
    assert "Round 1 · Table 2" in pages[2] and "Round 2 · Table 1" in pages[3]


def test_a_big_event_prints_in_parts(organizer_client, paired, event, monkeypatch):
    monkeypatch.setattr(printing, "EVERYTHING_MAX_PAGES", 2)
    monkeypatch.setattr(printing, "ROSTERS_PER_FILE", 1)
    response = organizer_client.get(f"/events/{event.pk}/event.pdf")
    assert response.status_code == 302
    dashboard = organizer_client.get(response["Location"]).content.decode()
    assert "too many for one file" in dashboard
    assert f"/events/{event.pk}/rosters.pdf?from=2" in dashboard
    assert len(pdf_pages(organizer_client.get(f"/events/{event.pk}/rosters.pdf?from=2"))) == 1
    assert organizer_client.get(f"/events/{event.pk}/rosters.pdf?from=3").status_code == 404
    assert organizer_client.get(f"/events/{event.pk}/rosters.pdf?from=x").status_code == 404


def test_the_csv_has_a_header_and_a_row_per_locked_list(organizer_client, locked, event):
    response = organizer_client.get(f"/events/{event.pk}/lists.csv")
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0] == ["player", "list", "faction", "points", "points limit", "legal", "problems"]
    assert rows[1] == [
        "alice",
        "Alice's wardens",
        "Solar Concord",
        str(LEGAL_POINTS),
        "75",
        "yes",
        "0",
    ]
    assert len(rows) == 3


def test_a_name_that_looks_like_a_formula_is_not_one_in_the_csv(
    organizer_client, joined, player, event
):
    force = make_force(player, "=HYPERLINK(1)")
    joined[0].submit(force, accept_problems=False)
    event.lock_all()
    text = organizer_client.get(f"/events/{event.pk}/lists.csv").content.decode()
    assert "'=HYPERLINK(1)" in text


def test_the_zip_holds_one_force_document_per_player(organizer_client, locked, event):
    response = organizer_client.get(f"/events/{event.pk}/lists.zip")
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    names = sorted(archive.namelist())
    assert names == ["001-alice.json", "002-bob.json"]
    document = json.loads(archive.read("001-alice.json"))
    assert read_force_document(document).name == "Alice's wardens"
    assert document["points_limit"] == 75 and document["ruleset"] == "2026.11"


def test_a_second_download_of_the_same_pdf_comes_from_the_cache(
    organizer_client, locked, event, monkeypatch
):
    first = organizer_client.get(f"/events/{event.pk}/rosters.pdf").content
    monkeypatch.setattr(printing, "render_pdf", lambda html: pytest.fail("rendered again"))
    assert organizer_client.get(f"/events/{event.pk}/rosters.pdf").content == first


def test_the_snapshot_page_shows_the_locked_roster(organizer_client, locked, event):
    alice = locked[0]
    page = organizer_client.get(alice.get_snapshot_url()).content.decode()
    assert "alice's list for Spring Open" in page and "Alpha" in page and "Locked" in page


def test_every_roster_carries_its_own_qr_code(locked, event):
    entries = printing.locked_entries(event)
    html = printing._rosters_html(event, entries, "http://testserver/", lambda n: None)
    assert html.count("<svg") == 2
    for entry in locked:
        assert f"http://testserver/events/{event.pk}/lists/{entry.code}/" in html


def test_sheets_that_do_not_come_out_one_page_each_are_laid_out_inline(
    organizer_client, paired, event, monkeypatch
):
    calls = []
    real = printing.compose

    def compose_once(*args):  # type: ignore[no-untyped-def]
        calls.append(args)
        if len(calls) == 1:
            raise printing.CompositionError("2 sheet pages for 1 sheets")
        return real(*args)

    monkeypatch.setattr(printing, "compose", compose_once)
    pages = pdf_pages(organizer_client.get(f"/events/{event.pk}/rounds/1/sheets.pdf"))
    assert len(calls) == 2 and calls[1][2] == b""  # no stamps: everything inline
    assert "Side A edge" in pages[0] and "Alpha (Medium Infantry)" in pages[0]


def test_composition_refuses_sheets_that_are_not_one_page_each():
    from events.composing import CompositionError, compose
    from onefinity.downloads import render_pdf

    two_pages = render_pdf("<p>one</p><p style='break-before: page'>two</p>")
    with pytest.raises(CompositionError):
        compose(None, two_pages, b"", [[]])


@pytest.mark.parametrize(
    ("name", "guarded"),
    [
        ("Plain;@SUM(1+1)", "Plain;'@SUM(1+1)"),
        ("Plain,=1+1", "Plain,'=1+1"),
        ("a; -2+3", "a; '-2+3"),
        ("+cmd", "'+cmd"),
        ("Wardens", "Wardens"),
    ],
)
def test_no_piece_of_a_name_runs_as_a_formula_whichever_separator_a_spreadsheet_splits_on(
    organizer_client, joined, player, event, name, guarded
):
    force = make_force(player, name)
    joined[0].submit(force, accept_problems=False)
    event.lock_all()
    text = organizer_client.get(f"/events/{event.pk}/lists.csv").content.decode()
    row = next(csv.reader(io.StringIO(text.splitlines()[1])))
    assert row[1] == guarded


@given(st.text(alphabet=st.sampled_from("ab ;,=+-@\t\r\"'1"), max_size=30))
def test_a_guarded_cell_has_no_piece_a_spreadsheet_would_run(text):
    for piece in re.split("[,;]", spreadsheet_cell(text)):
        assert piece.lstrip(' "')[:1] not in ("=", "+", "-", "@", "\t", "\r")
    # Nothing else changes: without the guards it is the text again.
    assert spreadsheet_cell(text).replace("'", "") == text.replace("'", "")
