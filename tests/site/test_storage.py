"""One history model for lists and tables (accounts.history), and what one owner stores
(accounts.storage): each record's stored bytes kept level with its document and undo
history, and the owner's total bounded, so that the export of everything is bounded too
(313 MB in one answer before, and about 15 GB possible)."""

from __future__ import annotations

import dataclasses

import pytest
from django.db import transaction
from django.db.models import F
from django.test import Client
from django.utils import timezone

from accounts.history import document_size
from accounts.ownership import StaleVersion
from accounts.storage import StorageFull, used
from events.models import Event
from forcebuilder.models import Force
from jobs.models import Job, JobFile
from onefinity.rules.hexgrid import Board, rows_by_columns
from tablegen.engine.tables import TableSpec, table_document
from tablegen.models import Table
from tests.events.conftest import make_event, table_documents
from tests.factories import make_force, make_table

pytestmark = pytest.mark.django_db


def stored(record) -> int:
    """What the record stores, worked out again from scratch."""
    revisions = sum(r.size for r in record.revisions.all())
    for revision in record.revisions.all():
        assert revision.size == document_size(revision.document)
    return document_size(record.stored_document()) + revisions


def test_a_lists_stored_bytes_follow_its_edits_undo_and_redo(owner):
    force = make_force(owner)
    assert force.stored_bytes == stored(force) > 0
    spec = force.to_spec()
    for n in range(3):
        force.record(dataclasses.replace(spec, name=f"Name {n}" * (n + 1)), description=f"{n}")
        force.refresh_from_db()
        assert force.stored_bytes == stored(force)
    assert force.step(-1) == "2" and force.step(-1) == "1"
    force.refresh_from_db()
    assert force.stored_bytes == stored(force) and force.history().redo == "1"
    force.record(dataclasses.replace(spec, name="Branch"), description="branch")
    force.refresh_from_db()
    assert force.history().redo is None and force.stored_bytes == stored(force)


def test_a_tables_stored_bytes_follow_its_edits_and_undo(owner):
    table = make_table(owner)
    assert table.stored_bytes == stored(table)
    table.paint([table.to_spec().board.hexes[0]], "blocking")
    table.refresh_from_db()
    assert table.stored_bytes == stored(table) and table.revisions.count() == 2
    table.step(-1)
    table.refresh_from_db()
    assert table.stored_bytes == stored(table)


def test_both_histories_are_one_compare_and_swap(owner):
    for record in (make_force(owner), make_table(owner)):
        first = type(record).objects.get(pk=record.pk)
        second = type(record).objects.get(pk=record.pk)
        first.swap(first.version, name="First")
        with pytest.raises(StaleVersion):
            second.swap(second.version, name="Second")
        record.refresh_from_db()
        assert record.name == "First"


def large_table(owner, name: str = "Big") -> Table:
    board = Board.of(rows_by_columns(30, 30))
    terrain = {k: "cover" for k in range(0, len(board), 2)}
    table = Table(owner=owner)
    table.set_spec(TableSpec(board, terrain, name), check=False)
    table.save()
    return table


def test_an_account_past_its_storage_is_refused_a_new_table_and_nothing_is_kept(
    owner, owner_client, settings
):
    first = large_table(owner)
    settings.ACCOUNT_STORAGE_BYTES = first.stored_bytes + 100
    with pytest.raises(StorageFull, match="Your account would store"):
        large_table(owner, "Another")
    assert list(Table.objects.values_list("name", flat=True)) == ["Big"]
    # Through the site: the quota page, and nothing saved.
    response = owner_client.post("/tables/empty/", {"name": "Garage", "rows": 30, "columns": 30})
    assert response.status_code == 403
    assert "Your account would store" in response.content.decode()
    first.set_sharing("on")
    assert owner_client.post(f"/t/{first.share_code}/copy/").status_code == 403
    assert Table.objects.count() == 1


def test_an_edit_past_the_storage_first_gives_up_old_undo_steps(owner, settings):
    table = large_table(owner)
    hexes = table.to_spec().board.hexes
    for n in range(12):
        table.paint([hexes[2 * n + 1]], "cover")
        table.refresh_from_db()
    assert table.revisions.count() == 13
    settings.ACCOUNT_STORAGE_BYTES = table.stored_bytes + 1_000
    table.paint([hexes[31]], "cover")  # room made: the oldest undo steps went
    table.refresh_from_db()
    assert table.revisions.count() == table.KEPT_WHEN_FULL
    assert table.stored_bytes == stored(table) and used(owner) <= settings.ACCOUNT_STORAGE_BYTES
    assert table.step(-1)  # undo still works, within what is kept


def test_an_edit_that_cannot_fit_even_without_history_is_refused_and_changes_nothing(
    owner, settings
):
    table = large_table(owner)
    before = (table.version, table.document)
    settings.ACCOUNT_STORAGE_BYTES = 10
    with pytest.raises(StorageFull):
        table.paint([table.to_spec().board.hexes[1]], "cover")
    table.refresh_from_db()
    assert (table.version, table.document) == before  # the whole edit was undone
    # Undo, redo and deleting are never refused.
    table.delete()


def test_a_browser_has_a_smaller_storage_than_an_account(settings):
    settings.BROWSER_STORAGE_BYTES = 100
    client = Client()
    response = client.post("/forces/import/", {"document": "{}", "confirm": "save"})
    assert response.status_code in (400, 403)
    response = client.post("/tables/empty/", {"name": "G", "rows": 10, "columns": 10})
    assert response.status_code == 403
    assert "This browser would store" in response.content.decode()
    assert not Table.objects.exists()


def test_an_events_round_tables_and_players_lists_count_in_its_organizers_storage(owner, settings):
    event: Event = make_event(owner)
    round_ = event.rounds.get(number=1)
    documents = table_documents(2)
    round_.set_tables(round_.version, documents, "two tables")
    event.refresh_from_db()
    assert event.stored_bytes == document_size(documents)
    settings.ACCOUNT_STORAGE_BYTES = event.stored_bytes + 10
    second = event.rounds.get(number=2)
    with pytest.raises(StorageFull):
        second.set_tables(second.version, documents, "two tables again")
    second.refresh_from_db()
    assert second.tables == []


def test_the_export_of_a_full_account_is_bounded_by_its_storage(owner, owner_client, settings):
    for n in range(3):
        large_table(owner, f"Big {n}")
    total = used(owner)
    assert total <= settings.ACCOUNT_STORAGE_BYTES
    export = owner_client.get("/account/everything.json")
    assert export.status_code == 200
    # The export holds the documents (not their undo history), indented deeper inside the
    # file: within half again what is stored.
    size = len(export.getvalue())  # sent a part at a time: read once
    assert size <= 1.5 * total + 10_000
    assert (
        size >= sum(document_size(table_document(t.to_spec())) for t in Table.objects.all()) * 0.9
    )


def test_a_lists_and_a_tables_history_live_in_one_model():
    from accounts.history import WithHistory

    assert issubclass(Force, WithHistory) and issubclass(Table, WithHistory)
    assert Force.KEPT_REVISIONS == 100 and Table.KEPT_REVISIONS == 50


def finished_job(owner, size: int, key: str = "k") -> Job:
    job = Job.objects.create(
        kind="export", key=key, owner=owner, state="done", file_bytes=size, label="Export"
    )
    JobFile.objects.create(job=job, content=b"x" * size)
    return job


def test_a_jobs_file_counts_in_what_its_owner_stores(owner):
    before = used(owner)
    finished_job(owner, 5_000)
    assert used(owner) == before + 5_000


def test_job_files_give_way_to_a_table_oldest_first(owner, settings):
    first = large_table(owner)
    older, newer = finished_job(owner, 40_000, "a"), finished_job(owner, 40_000, "b")
    # Room for the first table, one more of its size and one job file: the older file goes.
    settings.ACCOUNT_STORAGE_BYTES = 2 * first.stored_bytes + 40_000 + 1_000
    large_table(owner, "Another")
    older.refresh_from_db()
    newer.refresh_from_db()
    assert (older.file_bytes, newer.file_bytes) == (0, 40_000)
    assert not JobFile.objects.filter(job=older).exists() and older.expired
    assert used(owner) <= settings.ACCOUNT_STORAGE_BYTES


def test_a_write_refused_even_without_job_files_keeps_them(owner, settings):
    first = large_table(owner)
    job = finished_job(owner, 40_000)
    settings.ACCOUNT_STORAGE_BYTES = first.stored_bytes + 40_000 + 10
    with transaction.atomic(), pytest.raises(StorageFull):
        large_table(owner, "Another")
    job.refresh_from_db()
    assert job.file_bytes == 40_000 and JobFile.objects.filter(job=job).exists()


def test_stored_bytes_stay_level_past_the_kept_revisions_and_after_an_undo(owner):
    force = make_force(owner)
    spec = force.to_spec()
    for n in range(1, force.KEPT_REVISIONS + 12):
        force.record(dataclasses.replace(spec, name="Name " + "x" * (n % 7)), description=f"{n}")
        if n % 10 in (0, 1) or n == 3:
            force.refresh_from_db()
            assert force.stored_bytes == stored(force)
            if n == 3:
                assert force.step(-1) == "3"
                force.refresh_from_db()
    force.refresh_from_db()
    assert force.stored_bytes == stored(force)
    assert force.revisions.count() <= force.KEPT_REVISIONS + 10
    assert not force.revisions.filter(number__lte=force.revision - force.KEPT_REVISIONS - 10)


def test_a_table_made_without_history_keeps_its_first_state_and_the_right_size(owner):
    table = make_table(owner)
    table.revisions.all().delete()
    Table.objects.filter(pk=table.pk).update(stored_bytes=0)
    table.refresh_from_db()
    table.paint([table.to_spec().board.hexes[0]], "blocking")
    table.refresh_from_db()
    assert sorted(table.revisions.values_list("number", flat=True)) == [
        table.revision - 1,
        table.revision,
    ]
    assert table.stored_bytes == stored(table)


def test_an_edits_revision_reads_back_through_the_orm_as_it_was_written(owner):
    # The edit's statements are built once per model (accounts.history._RevisionTable), not
    # by the ORM: what they write must read back through it, tables' encoder included.
    for record in (make_force(owner), make_table(owner)):
        before = timezone.now()
        if isinstance(record, Force):
            record.record(dataclasses.replace(record.to_spec(), name="Read back"), description="d")
        else:
            record.paint([record.to_spec().board.hexes[0]], "blocking")
        record.refresh_from_db()
        revision = record.revisions.get(number=record.revision)
        assert revision.document == record.stored_document()
        assert revision.size == document_size(revision.document)
        assert before <= revision.created <= timezone.now()
        assert record.steps().undo


def test_a_swap_with_a_value_only_the_orm_writes_still_swaps(owner):
    force = make_force(owner)
    force.swap(force.version, points_limit=F("points_limit") + 5)
    force.refresh_from_db()
    assert force.points_limit == make_force(owner).points_limit + 5
    with pytest.raises(StaleVersion):
        force.swap(force.version - 1, points_limit=F("points_limit") + 5)
