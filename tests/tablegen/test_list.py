"""/tables/ shows each table from the summary stored when it was saved, a page at a time."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from onefinity.rules import current_ruleset
from onefinity.rules.hexgrid import Board, rows_by_columns
from tablegen.engine.tables import TableSpec, table_document
from tablegen.models import Pack, Table
from tests.factories import shown

pytestmark = pytest.mark.django_db

PARAMS = {"seed": 5, "coverage": 0.45, "symmetry": "point", "mix": "balanced"}


def small_table(owner, number: int) -> Table:
    board = Board.of(rows_by_columns(3, 3))
    table = Table(owner=owner)
    table.set_spec(TableSpec(board, {0: "cover"}, f"Table {number:02d}"))
    table.save()
    return table


def names_on(page: str) -> list[str]:
    return re.findall(r">(Table \d\d)</a>", page)


def test_saving_stores_the_report_summary(owner_client, owner):
    owner_client.post("/tables/save/", PARAMS)
    table = owner.tables.get()
    assert table.summary["valid"] is True and table.summary["problems"] == 0
    assert table.summary["coverage"] == pytest.approx(0.45, abs=0.05)
    assert table.summary["ruleset"] == current_ruleset().version
    spec = table.to_spec()
    for hex_ in spec.board.hexes:
        if spec.kind_at(hex_):
            owner_client.post(
                f"/tables/{table.pk}/terrain/",
                {**shown(table), "q": hex_[0], "r": hex_[1], "kind": ""},
            )
    table.refresh_from_db()
    assert table.summary["valid"] is False and table.summary["coverage"] == 0


def test_the_list_reads_summaries_and_never_checks_a_table(owner_client, owner, monkeypatch):
    owner_client.post("/tables/save/", PARAMS)
    owner_client.post("/tables/empty/", {"name": "Bare", "rows": 5, "columns": 5})

    def no_checking(*args, **kwargs):
        raise AssertionError("the list checked a table")

    monkeypatch.setattr("tablegen.models.check_table", no_checking)
    monkeypatch.setattr("tablegen.views.check_table", no_checking)
    page = owner_client.get("/tables/").content.decode()
    assert "Valid" in page and "2 problems" in page


def test_a_table_without_a_summary_is_checked_by_the_list(owner_client, owner):
    owner_client.post("/tables/save/", PARAMS)
    Table.objects.update(summary={})
    page = owner_client.get("/tables/").content.decode()
    assert "Valid" in page
    assert owner.tables.get().summary["valid"] is True


def test_a_summary_from_another_ruleset_is_checked_again(owner_client, owner):
    owner_client.post("/tables/save/", PARAMS)
    table = owner.tables.get()
    Table.objects.update(summary=table.summary | {"ruleset": "1999.1", "valid": False})
    owner_client.get("/tables/")
    table.refresh_from_db()
    assert table.summary["ruleset"] == current_ruleset().version and table.summary["valid"]


def test_the_list_is_paginated_and_a_bad_page_number_is_no_error(owner_client, owner):
    for number in range(30):
        small_table(owner, number)
    first = owner_client.get("/tables/").content.decode()
    assert len(names_on(first)) == 25 and 'href="?page=2"' in first
    second = owner_client.get("/tables/", {"page": 2}).content.decode()
    assert len(names_on(second)) == 5
    assert set(names_on(first)).isdisjoint(names_on(second))
    assert names_on(owner_client.get("/tables/", {"page": "abc"}).content.decode()) == names_on(
        first
    )
    for page in ("99", "-1", "0", "1" * 5000):
        response = owner_client.get("/tables/", {"page": page})
        assert response.status_code == 200
    assert names_on(owner_client.get("/tables/", {"page": 99}).content.decode()) == names_on(second)


def test_packs_are_paginated_too(owner_client, owner):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    for number in range(30):
        Pack.objects.create(owner=owner, name=f"Pack {number:02d}", count=1, params=PARAMS)
    with CaptureQueriesContext(connection) as queries:
        first = owner_client.get("/tables/").content.decode()
    # Listing packs loads neither their tables nor their PDF (megabytes each).
    pack_queries = [q["sql"] for q in queries if 'FROM "tablegen_pack"' in q["sql"]]
    assert pack_queries and not any('"tablegen_pack"."pdf"' in sql for sql in pack_queries)
    assert not any('"tablegen_pack"."tables"' in sql for sql in pack_queries)
    assert len(re.findall(r">Pack \d\d</a>", first)) == 25 and "packs=2" in first
    second = owner_client.get("/tables/", {"packs": 2}).content.decode()
    assert len(re.findall(r">Pack \d\d</a>", second)) == 5


@pytest.mark.django_db(transaction=True)
def test_the_migration_fills_the_summary_of_existing_tables(owner):
    executor = MigrationExecutor(connection)
    # Both 0003 migrations (versions and sharing) come before the summary of 0004.
    before = [("tablegen", "0003_table_version"), ("tablegen", "0003_sharing_can_be_turned_off")]
    executor.migrate(before)
    old = executor.loader.project_state(before).apps.get_model("tablegen", "Table")
    board = Board.of(rows_by_columns(4, 4))
    document = table_document(TableSpec(board, {0: "blocking"}, "Old"))
    old.objects.create(name="Old", document=document, owner_id=owner.pk, share_code="old")
    old.objects.create(
        name="Broken", document={"format": "nope"}, owner_id=owner.pk, share_code="broken"
    )
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    assert Table.objects.get(name="Old").summary["problems"] >= 1
    assert Table.objects.get(name="Broken").summary == {}


def test_an_import_checks_tables_for_a_bounded_time_and_the_list_does_the_rest(
    owner_client, owner, monkeypatch
):
    import json

    from django.core.files.uploadedfile import SimpleUploadedFile

    monkeypatch.setattr("tablegen.account_parts.IMPORT_CHECK_SECONDS", 0)
    board = Board.of(rows_by_columns(4, 4))
    documents = [table_document(TableSpec(board, {}, f"Table {n:02d}")) for n in range(3)]
    account = {"format": "onefinity-account", "version": 1, "tables": documents}
    upload = SimpleUploadedFile("e.json", json.dumps(account).encode(), "application/json")
    assert owner_client.post("/account/import/", {"file": upload}).status_code == 302
    assert all(table.summary == {} for table in owner.tables.all())
    page = owner_client.get("/tables/").content.decode()
    assert "Checking" not in page and page.count("2 problems") == 3
    assert all(table.summary_is_current() for table in owner.tables.all())


def test_a_list_with_tables_left_to_check_says_so_and_reloads(owner_client, owner, monkeypatch):
    monkeypatch.setattr("tablegen.views.LIST_CHECK_SECONDS", 0)
    small_table(owner, 1)
    Table.objects.update(summary={})
    page = owner_client.get("/tables/").content.decode()
    assert "Checking…" in page and 'http-equiv="refresh"' in page
