"""What any path saves, the table reader reads back; bad input is a 400 with the reason and
changes nothing; a table or pack that no longer reads is shown as damaged, never a 500."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from onefinity.rules import current_ruleset
from tablegen.engine.tables import (
    TableDocumentError,
    read_table_document,
    table_document,
)
from tablegen.models import Pack, Table
from tests.factories import shown

pytestmark = pytest.mark.django_db

PARAMS = {"seed": 5, "coverage": 0.45, "symmetry": "point", "mix": "balanced"}
RULES = current_ruleset().table
OWNER_PAGES = [
    "/tables/",
    "/tables/{pk}/",
    "/tables/{pk}/?mode=lof&from=2,4",
    "/tables/{pk}/table.json",
    "/tables/{pk}/table.png",
    "/tables/{pk}/setup.pdf",
    "/account/",
    "/account/everything.json",
]


@pytest.fixture
def table(owner_client, owner) -> Table:
    """A table saved and then shared by its owner (new tables are private)."""
    owner_client.post("/tables/save/", PARAMS)
    saved = owner.tables.get()
    owner_client.post(f"/tables/{saved.pk}/sharing/", {"change": "on"})
    saved.refresh_from_db()
    return saved


def assert_reads_back(table: Table) -> None:
    """The stored document is exactly what the reader makes of it."""
    table.refresh_from_db()
    spec = read_table_document(table.document | {"name": table.name}, RULES)
    assert table.document == table_document(spec)
    assert table.name == spec.name


def assert_every_page_answers(client, table: Table) -> None:
    for url in OWNER_PAGES:
        response = client.get(url.format(pk=table.pk))
        assert response.status_code < 500, url
    assert_reads_back(table)


# --- 1. One contract: every write is read back by the reader before it is saved -----------


@pytest.mark.parametrize("character", ["\x01", "\x00", "\x7f", "\x9b"])
def test_a_rename_the_reader_would_refuse_is_a_400_and_every_page_still_answers(
    owner_client, table, character
):
    before = (table.name, table.document)
    response = owner_client.post(
        f"/tables/{table.pk}/rename/", {**shown(table), "name": f"abc{character}def"}
    )
    assert response.status_code == 400
    assert "The name must not contain" in response.content.decode()
    table.refresh_from_db()
    assert (table.name, table.document) == before
    assert_every_page_answers(owner_client, table)


def test_a_rename_over_120_characters_is_a_400(owner_client, table):
    response = owner_client.post(f"/tables/{table.pk}/rename/", {**shown(table), "name": "x" * 121})
    assert response.status_code == 400
    assert "at most 120" in response.content.decode()
    response = owner_client.post(f"/tables/{table.pk}/rename/", {**shown(table), "name": "x" * 120})
    assert response.status_code == 302
    assert_reads_back(table)


def test_a_rename_tidies_white_space_and_an_empty_name_is_refused(owner_client, table):
    owner_client.post(f"/tables/{table.pk}/rename/", {**shown(table), "name": "  Final \t table  "})
    table.refresh_from_db()
    assert table.name == "Final table" == table.document["name"]
    assert (
        owner_client.post(
            f"/tables/{table.pk}/rename/", {**shown(table), "name": "   "}
        ).status_code
        == 400
    )
    # Nothing of it would show: a table listed as an empty link (red-team pass, 2026-11-24).
    for invisible in ("\u200b", "\u202e\u200b", "\u00ad"):
        answer = owner_client.post(
            f"/tables/{table.pk}/rename/", {**shown(table), "name": invisible}
        )
        assert answer.status_code == 400
    table.refresh_from_db()
    assert table.name == "Final table"


def test_an_empty_board_with_a_control_character_in_its_name_is_refused(owner_client, owner):
    response = owner_client.post("/tables/empty/", {"name": "Ga\x01rage", "rows": 6, "columns": 5})
    assert response.status_code == 400
    assert "must not contain control characters" in response.content.decode()
    assert not owner.tables.exists()


def test_a_pack_name_with_a_control_character_is_refused(owner_client, owner):
    response = owner_client.post(
        "/tables/packs/new/", PARAMS | {"count": 2, "name": "Club\x1bnight"}
    )
    assert response.status_code == 400
    assert "must not contain control characters" in response.content.decode()
    assert not owner.packs.exists()


def test_the_model_refuses_to_save_a_document_the_reader_refuses(owner, table):
    table.document = table.document | {"terrain": [{"hex": [99, 99], "kind": "cover"}]}
    with pytest.raises(TableDocumentError):
        table.save()
    table.refresh_from_db()
    assert table.to_spec()
    with pytest.raises(TableDocumentError):
        Pack(owner=owner, name="Bad\x01", count=1, params={}).save()


def test_every_write_path_saves_what_the_reader_reads(owner_client, owner, table):
    owner_client.post(
        f"/tables/{table.pk}/terrain/", {**shown(table), "q": 0, "r": 0, "kind": "blocking"}
    )
    owner_client.post(f"/tables/{table.pk}/rename/", {**shown(table), "name": "Renamed"})
    owner_client.post("/tables/empty/", {"name": "  Garage  ", "rows": 6, "columns": 5})
    owner_client.post(f"/t/{table.share_code}/copy/")
    everything = owner_client.get("/account/everything.json").getvalue()
    upload = SimpleUploadedFile("e.json", everything, "application/json")
    assert owner_client.post("/account/import/", {"file": upload}).status_code == 302
    assert owner.tables.count() == 6
    for saved in owner.tables.all():
        assert_reads_back(saved)


def test_a_long_pack_name_still_makes_tables_that_read_and_a_pdf(owner_client, owner):
    name = "A very long tournament pack name " * 4
    response = owner_client.post("/tables/packs/new/", PARAMS | {"count": 2, "name": name[:120]})
    assert response.status_code == 302
    pack = owner.packs.get()
    for _ in range(100):
        owner_client.get(f"/tables/packs/{pack.pk}/", headers={"HX-Request": "true"})
        response = owner_client.get(f"/tables/packs/{pack.pk}/pack.pdf")
        if response.status_code == 200:
            break
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    pack.refresh_from_db()
    assert len(pack.tables) == 2
    for number, document in enumerate(pack.tables, start=1):
        spec = read_table_document(document, RULES)
        assert len(spec.name) <= 120 and spec.name.endswith(f" {number} (seed {spec.seed})")


# --- 2. Bounded boards, at every door ---------------------------------------------------------


@pytest.mark.parametrize(
    "board",
    [{"rows": 1249, "columns": 1}, {"hexes": [[0, 10 * k] for k in range(20)]}],
    ids=["1249-rows", "20-hexes-over-191-rows"],
)
def test_an_anonymous_account_import_of_a_huge_board_is_refused(client, board):
    account = {
        "format": "onefinity-account",
        "version": 1,
        "tables": [{"format": "onefinity-table", "version": 1, "board": board}],
    }
    upload = SimpleUploadedFile("e.json", json.dumps(account).encode(), "application/json")
    response = client.post("/account/import/", {"file": upload})
    assert response.status_code == 400
    assert "tables[0]: board" in response.content.decode()
    assert not Table.objects.exists()


# --- 3. No lost update: a version that only grows, and a compare-and-swap on it ---------------


def terrain(client, table, version="shown", htmx=True, **data):
    """A hex edit; as the page sends it (the stored version) unless ``version`` is given
    (None: a request that sends none)."""
    data = {"q": 0, "r": 0, "kind": "blocking"} | data
    if version == "shown":
        data |= shown(table)
    elif version is not None:
        data["version"] = version
    headers = {"HX-Request": "true"} if htmx else {}
    return client.post(f"/tables/{table.pk}/terrain/", data, headers=headers)


def test_the_version_grows_on_every_write(owner_client, table):
    assert table.version == 0
    terrain(owner_client, table, version=0)
    table.refresh_from_db()
    assert table.version == 1
    owner_client.post(f"/tables/{table.pk}/rename/", {"name": "Second", "version": 1})
    table.refresh_from_db()
    assert (table.version, table.name) == (2, "Second")


def test_the_editor_carries_the_version_in_every_edit(owner_client, table):
    terrain(owner_client, table, version=0)
    page = owner_client.get(f"/tables/{table.pk}/").content.decode()
    assert 'data-version="1"' in page  # on the map's region: every hex edit sends it
    assert 'name="version" value="1" form="rename-form"' in page
    page = owner_client.get(f"/tables/{table.pk}/?mode=terrain&hex=0,0").content.decode()
    assert 'class="hex-form"' in page and '<input type="hidden" name="version" value="1">' in page


def test_a_stale_terrain_edit_gets_409_with_the_redrawn_map_and_changes_nothing(
    owner_client, table
):
    assert terrain(owner_client, table, version=0, q=1, kind="cover").status_code == 200
    table.refresh_from_db()
    before = table.document
    response = terrain(owner_client, table, version=0, q=2, kind="elevated")
    assert response.status_code == 409
    page = response.content.decode()
    assert page.lstrip().startswith('<div id="table-view"')
    assert "changed in another tab or window" in page and "Reload" in page
    assert 'data-version="1"' in page  # the redrawn map carries the latest version
    table.refresh_from_db()
    assert table.document == before and table.version == 1


def test_a_stale_edit_without_javascript_gets_the_whole_page_with_409(owner_client, table):
    terrain(owner_client, table, version=0)
    response = terrain(owner_client, table, version=0, htmx=False, q=1)
    assert response.status_code == 409
    assert "<h1>" in response.content.decode()


def test_a_stale_rename_gets_409_and_changes_nothing(owner_client, table):
    terrain(owner_client, table, version=0)
    response = owner_client.post(f"/tables/{table.pk}/rename/", {"name": "Late", "version": 0})
    assert response.status_code == 409
    assert "changed in another tab or window" in response.content.decode()
    table.refresh_from_db()
    assert table.name != "Late" and table.version == 1


def test_an_edit_without_a_version_is_refused_as_from_a_stale_page(owner_client, table):
    """Every form the site draws sends its version: a request without one (a script, a page
    cached from before versions) might overwrite changes it never saw."""
    terrain(owner_client, table, version=0)
    answer = terrain(owner_client, table, version=None, q=1)
    assert answer.status_code == 409 and "changed in another tab" in answer.content.decode()
    assert owner_client.post(f"/tables/{table.pk}/rename/", {"name": "Free"}).status_code == 409
    table.refresh_from_db()
    assert table.version == 1 and table.name != "Free"


def test_a_version_that_is_not_a_number_is_stale(owner_client, table):
    assert terrain(owner_client, table, version="abc").status_code == 409


def test_the_model_refuses_a_stale_write(table):
    from accounts.ownership import StaleVersion

    spec = table.to_spec()
    table.record(replace(spec, name="First tab"))
    with pytest.raises(StaleVersion):
        table.record(replace(spec, name="Second tab"), expected=0)
    # Even a change that would change nothing is refused from a stale version.
    with pytest.raises(StaleVersion):
        table.record(table.to_spec(), expected=0)


# --- 5. A table or pack that no longer reads is shown as damaged, with a repair -------------


@pytest.fixture
def damaged(table) -> Table:
    """A table saved before the reader's rules were tightened (written past the model, as an
    old release would have): a control character in its name, terrain off the board and of
    an unknown kind, and params the reader no longer keeps."""
    spec = table.to_spec()
    open_hex = next(h for h in spec.board.hexes if spec.kind_at(h) is None)
    terrain = [
        *table.document["terrain"],
        {"hex": [50, 50], "kind": "cover"},
        {"hex": list(open_hex), "kind": "lava"},
    ]
    document = table.document | {"terrain": terrain, "params": {"notes": {"a": [1, 2]}}}
    Table.objects.filter(pk=table.pk).update(name="Old\x01table", document=document)
    table.refresh_from_db()
    return table


def test_a_damaged_table_does_not_take_down_the_list(owner_client, owner, damaged):
    owner_client.post("/tables/empty/", {"name": "Second table", "rows": 5, "columns": 5})
    response = owner_client.get("/tables/")
    assert response.status_code == 200
    text = response.content.decode()
    assert "Damaged" in text and "Second table" in text
    for url in (damaged.get_repair_url(), damaged.get_raw_url(), damaged.get_delete_url()):
        assert url in text


@pytest.mark.parametrize(
    "url",
    [
        "/tables/{pk}/",
        "/tables/{pk}/?mode=lof&from=2,4",
        "/tables/{pk}/table.json",
        "/tables/{pk}/table.png",
        "/tables/{pk}/setup.pdf",
    ],
)
def test_a_damaged_table_shows_its_owner_the_problem_and_a_repair(owner_client, damaged, url):
    response = owner_client.get(url.format(pk=damaged.pk))
    assert response.status_code == 409
    text = response.content.decode()
    assert "cannot be shown" in text and "must not contain control characters" in text
    for link in (damaged.get_repair_url(), damaged.get_raw_url(), damaged.get_delete_url()):
        assert link in text


def test_editing_a_damaged_table_is_refused_with_the_repair(owner_client, damaged):
    for suffix, data in (("terrain/", {"q": 0, "r": 0}), ("rename/", {"name": "New"})):
        response = owner_client.post(f"/tables/{damaged.pk}/{suffix}", data)
        assert response.status_code == 409 and damaged.get_repair_url() in response.content.decode()


def test_a_damaged_table_shared_by_link_offers_a_stranger_nothing(client, damaged):
    for suffix in ("", "table.json", "table.png", "setup.pdf"):
        response = client.get(f"/t/{damaged.share_code}/{suffix}")
        assert response.status_code == 409
        assert damaged.get_repair_url() not in response.content.decode()
    assert client.post(f"/t/{damaged.share_code}/copy/").status_code == 409
    assert Table.objects.count() == 1


def test_the_account_export_keeps_a_damaged_table_as_stored(owner_client, damaged):
    document = json.loads(owner_client.get("/account/everything.json").getvalue())
    assert document["tables"] == []
    [kept] = document["damaged"]
    assert kept["kind"] == "table" and kept["document"]["params"] == {"notes": {"a": [1, 2]}}


def test_download_as_stored_gives_the_document_exactly_as_stored(owner_client, damaged):
    response = owner_client.get(damaged.get_raw_url())
    assert response.status_code == 200 and "attachment" in response["Content-Disposition"]
    assert json.loads(response.content) == damaged.document | {"name": "Old\x01table"}


def test_only_the_owner_can_repair_or_download_as_stored(stranger_client, client, damaged):
    for someone in (stranger_client, client):
        assert someone.post(damaged.get_repair_url()).status_code == 404
        assert someone.get(damaged.get_raw_url()).status_code == 404


def test_repair_keeps_what_can_be_kept_and_says_what_changed(owner_client, damaged):
    terrain_before = len(damaged.document["terrain"]) - 2
    response = owner_client.post(
        damaged.get_repair_url(), {"version": damaged.version}, follow=True
    )
    assert response.status_code == 200
    text = response.content.decode()
    assert "Repaired:" in text
    assert "name: removed control characters" in text
    assert "terrain: dropped 1 entry off the board" in text
    assert "terrain: dropped 1 entry of an unknown kind" in text
    assert "params: dropped notes" in text
    damaged.refresh_from_db()
    assert damaged.name == "Old table" and damaged.version == 1
    assert len(damaged.to_spec().terrain) == terrain_before
    assert_every_page_answers(owner_client, damaged)


def test_repair_crops_a_board_over_the_limits(owner_client, table):
    Table.objects.filter(pk=table.pk).update(
        document={"format": "onefinity-table", "version": 1, "board": {"rows": 1249, "columns": 1}}
    )
    assert owner_client.get("/tables/").status_code == 200
    response = owner_client.post(table.get_repair_url(), shown(table), follow=True)
    assert "cropped to 40 x 1" in response.content.decode()
    table.refresh_from_db()
    assert len(table.to_spec().board) == 60
    assert_every_page_answers(owner_client, table)


def test_repairing_a_table_that_reads_changes_nothing(owner_client, table):
    response = owner_client.post(table.get_repair_url(), shown(table), follow=True)
    assert "nothing to repair" in response.content.decode()
    table.refresh_from_db()
    assert table.version == 0


@pytest.fixture
def damaged_pack(owner_client, owner) -> Pack:
    """A finished pack whose tables were named before names were held to 120 characters."""
    owner_client.post("/tables/packs/new/", PARAMS | {"count": 2, "name": "Club night"})
    pack = owner.packs.get()
    for _ in range(50):
        owner_client.get(f"/tables/packs/{pack.pk}/", headers={"HX-Request": "true"})
        pack.refresh_from_db()
        if pack.done:
            break
    tables = [document | {"name": "x" * 130} for document in pack.tables]
    Pack.objects.filter(pk=pack.pk).update(tables=tables)
    pack.refresh_from_db()
    return pack


def test_a_damaged_pack_is_shown_as_damaged_never_a_500(owner_client, damaged_pack):
    pack = damaged_pack
    assert owner_client.get("/tables/").status_code == 200
    for url in (pack.get_absolute_url(), f"/tables/packs/{pack.pk}/pack.pdf"):
        response = owner_client.get(url)
        assert response.status_code == 409, url
        text = response.content.decode()
        assert "at most 120" in text
        for link in (pack.get_repair_url(), pack.get_raw_url(), pack.get_delete_url()):
            assert link in text
    assert owner_client.get(pack.get_raw_url()).status_code == 200  # the zip, as stored


def test_repairing_a_damaged_pack_makes_its_pdf(owner_client, damaged_pack):
    pack = damaged_pack
    response = owner_client.post(pack.get_repair_url(), follow=True)
    assert "Repaired:" in response.content.decode()
    for _ in range(50):
        owner_client.get(pack.get_absolute_url(), headers={"HX-Request": "true"})
        response = owner_client.get(f"/tables/packs/{pack.pk}/pack.pdf")
        if response.status_code == 200:
            break
    assert response["Content-Type"] == "application/pdf"


def test_a_pack_can_be_deleted_by_its_owner_only(owner_client, stranger_client, damaged_pack):
    pack = damaged_pack
    assert stranger_client.post(pack.get_delete_url()).status_code == 404
    assert owner_client.get(pack.get_delete_url()).status_code == 200
    assert owner_client.post(pack.get_delete_url()).status_code == 302
    assert not Pack.objects.exists()
