"""A table's reading kept in the process (tablegen.models._READINGS) is only ever the
reading of the very document stored: an edit's next request finds it instead of reading a
large document again, and any other document (changed behind its back, another name, other
rules) is read as stored."""

from __future__ import annotations

import pytest

from onefinity.rules import current_ruleset
from tablegen import models
from tablegen.engine import tables as engine_tables
from tablegen.models import Table

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


@pytest.fixture
def table(owner_client, owner) -> Table:
    owner_client.post("/tables/empty/", {"name": "Garage", "rows": 11, "columns": 9})
    return owner.tables.get()


@pytest.fixture
def reads(monkeypatch) -> list[int]:
    """How many times the models read a table document."""
    counted: list[int] = []
    reader = models.read_table_document

    def counting(document, rules):
        counted.append(1)
        return reader(document, rules)

    monkeypatch.setattr(models, "read_table_document", counting)
    return counted


def paint(client, table: Table, q: int, r: int, kind: str) -> int:
    table.refresh_from_db()
    return client.post(
        f"/tables/{table.pk}/terrain/",
        {"q": q, "r": r, "kind": kind, "version": table.version},
        headers=HTMX,
    ).status_code


def test_the_next_edit_finds_the_reading_the_last_one_made(owner_client, table, reads):
    assert paint(owner_client, table, 2, 3, "cover") == 200
    reads.clear()
    assert paint(owner_client, table, 2, 4, "blocking") == 200
    assert len(reads) == 1  # only the read-back of what this edit writes
    fresh = Table.objects.get(pk=table.pk)
    assert fresh.to_spec() == engine_tables.read_table_document(
        fresh.stored_document(), current_ruleset().table
    )


def test_a_document_changed_behind_its_back_is_read_as_stored(owner_client, table, reads):
    assert paint(owner_client, table, 2, 3, "cover") == 200
    table.refresh_from_db()
    document = dict(table.document)
    document["terrain"] = [{"hex": [5, 5], "kind": "elevated"}]
    document["pieces"] = [{"piece": "custom", "hexes": [[5, 5]]}]
    # The same version: only the document tells them apart.
    Table.objects.filter(pk=table.pk).update(document=document)
    reads.clear()
    spec = Table.objects.get(pk=table.pk).to_spec()
    assert len(reads) == 1
    assert {spec.board.hexes[i]: kind for i, kind in spec.terrain.items()} == {(5, 5): "elevated"}


def test_another_name_is_read_as_stored(owner_client, table, reads):
    assert paint(owner_client, table, 2, 3, "cover") == 200
    Table.objects.filter(pk=table.pk).update(name="Shed")
    reads.clear()
    assert Table.objects.get(pk=table.pk).to_spec().name == "Shed"
    assert len(reads) == 1


def test_a_damaged_document_is_never_recalled(owner_client, table):
    assert paint(owner_client, table, 2, 3, "cover") == 200
    table.refresh_from_db()
    Table.objects.filter(pk=table.pk).update(document={**table.document, "terrain": "x"})
    response = owner_client.get(f"/tables/{table.pk}/")
    assert response.status_code == 409  # the damaged record's page, with its repair
    assert "repair" in response.content.decode().lower()


def test_a_shared_tables_page_seen_again_reads_its_document_once(
    owner_client, table, client, reads
):
    owner_client.post(f"/tables/{table.pk}/sharing/", {"change": "on"})
    table.refresh_from_db()
    Table.objects.filter(pk=table.pk).update(name="Not yet read")  # no reading kept of it
    reads.clear()
    for hex_ in ("2,4", "3,5", "4,6"):
        page = client.get(f"/t/{table.share_code}/", {"mode": "lof", "from": hex_})
        assert "Not yet read" in page.content.decode()
    assert len(reads) == 1
