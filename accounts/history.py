"""One home for the promises every edited record keeps (lists, tables; events keep the
version alone): a version that grows on every write, each write a compare-and-swap on it,
and the revisions that undo and redo move between.

- ``Versioned``: ``version``; ``swap(expected, **fields)`` writes ``fields`` only if the
  record is still at ``expected`` (StaleVersion otherwise): two tabs cannot both win.
- ``WithHistory(Versioned)``: ``revision`` (the saved revision shown) and ``stored_bytes``
  (its document and every revision kept, for the owner's storage: accounts.storage).
  ``record_revision`` saves an edit as a new revision (the ones undone before it are
  dropped, and the oldest past ``KEPT_REVISIONS``); ``step_to`` moves to a saved revision
  (undo, redo); ``steps`` says what undo and redo would do.

A subclass gives its revision model (``revision_model``, with ``record``, ``number``,
``document``, ``description`` and ``size``), the document a revision keeps
(``stored_document``), and the columns a write sets (``written_fields``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from django.db import connections, models, router, transaction
from django.db.models import F
from django.utils import timezone

from accounts.ownership import StaleVersion
from accounts.storage import StorageFull, check_room
from onefinity.fastjson import dumps_indented

# What an edit that made a revision did, in the player's words: at most this long.
DESCRIPTION_LENGTH = 200


def document_size(document: Any) -> int:
    """Bytes a document takes, as the export writes it (its storage, near enough)."""
    return len(dumps_indented(document))


@dataclass(frozen=True)
class Steps:
    """What undo and redo would do from here: the description of the edit each would take
    back or make again, or None when there is nothing to undo or redo."""

    undo: str | None
    redo: str | None


class Versioned(models.Model):
    # Grows by one on every write: the stale-tab check.
    version = models.PositiveBigIntegerField(default=0)

    class Meta:
        abstract = True

    def swap(self, expected: int, **fields: Any) -> None:
        """Write ``fields`` only if the record is still at version ``expected``; the version
        grows by one. StaleVersion (nothing written) if another write came first."""
        manager: Any = type(self)._default_manager
        alias = router.db_for_write(type(self), instance=self)
        changed = _swapped(self, alias, expected, fields)
        if changed is None:  # a value only the ORM writes (an expression, say)
            changed = manager.filter(pk=self.pk, version=expected).update(
                **fields, version=F("version") + 1
            )
        if not changed:
            current = manager.filter(pk=self.pk).values_list("version", flat=True).first()
            raise StaleVersion(current if current is not None else -1, expected)
        for name, value in fields.items():
            setattr(self, name, value)
        self.version = expected + 1


def _swapped(record: Versioned, alias: str, expected: int, fields: dict[str, Any]) -> int | None:
    """Versioned.swap's UPDATE as one statement built once per model and set of columns:
    the rows it changed (0 or 1), or None when a value needs the ORM to write it. Every
    edit's compare-and-swap runs inside SQLite's write lock, where the ORM's building of
    the same UPDATE (a queryset, a filter, a compiler) was a third of the swap's CPU
    (docs/performance.md, "Writers in turn")."""
    model = type(record)
    connection = connections[alias]
    values = []
    for name, value in fields.items():
        field: Any = model._meta.get_field(name)
        if hasattr(value, "resolve_expression") or hasattr(field, "get_placeholder"):
            return None
        if hasattr(value, "prepare_database_save"):
            if not field.remote_field:
                return None
            value = value.prepare_database_save(field)
        prepared = field.get_db_prep_save(value, connection=connection)
        if hasattr(prepared, "as_sql"):
            return None
        values.append(prepared)
    sql = _swap_sql(model, tuple(fields), alias)
    with transaction.mark_for_rollback_on_error(using=alias), connection.cursor() as cursor:
        cursor.execute(sql, [*values, record.pk, expected])
        return int(cursor.rowcount)


@functools.lru_cache(maxsize=256)
def _swap_sql(model: type[models.Model], names: tuple[str, ...], alias: str) -> str:
    quote = connections[alias].ops.quote_name
    meta: Any = model._meta
    version = quote(meta.get_field("version").column)
    sets = [f"{quote(meta.get_field(name).column)} = %s" for name in names]
    sets.append(f"{version} = {version} + 1")
    return (
        f"UPDATE {quote(meta.db_table)} SET {', '.join(sets)} "
        f"WHERE {quote(meta.pk.column)} = %s AND {version} = %s"
    )


class RevisionBase(models.Model):
    """One saved state of a record, for undo and redo (subclasses add ``record``, the
    foreign key to their record, and ``document``)."""

    number = models.PositiveIntegerField()
    # What the edit that made this revision did ("" for a first revision).
    description = models.CharField(max_length=DESCRIPTION_LENGTH, blank=True, default="")
    # The document's size in bytes, for the owner's storage.
    size = models.PositiveIntegerField(default=0)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        abstract = True
        ordering = ["number"]


class WithHistory(Versioned):
    revision = models.PositiveIntegerField(default=0)
    # The current document's bytes and every kept revision's: what the record stores.
    stored_bytes = models.PositiveBigIntegerField(default=0)

    KEPT_REVISIONS: ClassVar[int] = 50
    # Undo steps an edit keeps when the owner's storage is full (see make_room).
    KEPT_WHEN_FULL: ClassVar[int] = 5
    storage_field: ClassVar[str] = "stored_bytes"

    class Meta:
        abstract = True

    # --- what a subclass gives (declared here, defined by each subclass) -----------------

    # The document a revision keeps, as stored now.
    stored_document: Callable[[], Any]
    # The columns an edit writes (besides version, revision and stored_bytes).
    written_fields: Callable[[], dict[str, Any]]

    @property
    def revisions_kept(self) -> Any:
        """The record's revisions (the related manager of its revision model's foreign key,
        named ``revisions``): creating through it sets the record."""
        return self.revisions  # type: ignore[attr-defined]

    # --- the promises ---------------------------------------------------------------------

    def first_revision(self) -> None:
        """Keep the record's document as its revision 0 (a record just made, inside the
        transaction that made it): StorageFull if the owner's storage cannot hold it."""
        document = self.stored_document()
        self.revisions_kept.create(number=0, document=document, size=document_size(document))
        self._measure()
        check_room(self)

    def record_revision(self, expected: int, description: str = "", previous: Any = None) -> None:
        """Save the record as set, as a new revision, if it is still at version ``expected``
        (StaleVersion otherwise, nothing saved). Revisions undone before it can no longer be
        redone; past KEPT_REVISIONS the oldest go. ``previous``: the document before this
        edit, kept as the revision before it when the record has none (one made without).

        What can be worked out before the write is (the columns, the document, its size),
        and the transaction is a few statements built once per model (_RevisionTable): it
        holds SQLite's one write lock, which every writer waits for in turn."""
        alias = router.db_for_write(type(self), instance=self)
        table = _revision_table(type(self), alias)
        fields = {"revision": self.revision + 1, **self.written_fields()}
        document = self.stored_document()
        size = document_size(document)
        described = description[:DESCRIPTION_LENGTH]
        connection = connections[alias]
        stored = table.document.get_db_prep_save(document, connection=connection)
        created = table.created.get_db_prep_save(timezone.now(), connection=connection)
        with transaction.atomic(using=alias):
            self.swap(expected, **fields)
            kept = self.revisions_kept
            if previous is not None and not kept.filter(number=self.revision - 1).exists():
                kept.create(
                    number=self.revision - 1, document=previous, size=document_size(previous)
                )
            table.run(table.drop_from, self.pk, self.revision)
            table.run(table.insert, self.pk, self.revision, stored, described, size, created)
            if self.revision % 10 == 0:
                table.run(table.drop_up_to, self.pk, self.revision - self.KEPT_REVISIONS)
            before = self.stored_bytes
            self._measure(size)
            if self.stored_bytes > before:
                self.make_room()
        # What undo and redo do now is known without asking: this edit is the one to undo,
        # and nothing is left to redo (the editor's answer shows them after every edit).
        undo = described or "the last change"
        self._steps_known = (self.version, Steps(undo=undo, redo=None))

    def step_to(self, number: int, expected: int) -> None:
        """Make saved revision ``number`` the record's (undo, redo): the caller has set the
        record's fields from it; the same compare-and-swap as an edit."""
        with transaction.atomic():
            self.swap(expected, revision=number, **self.written_fields())
            self._measure()

    def steps(self) -> Steps:
        """What undo and redo would do from here: in one query, or none right after an edit
        this instance recorded (at the version it left)."""
        known: tuple[int, Steps] | None = getattr(self, "_steps_known", None)
        if known is not None and known[0] == self.version:
            return known[1]
        found = dict(
            self.revisions_kept.filter(number__in=(self.revision, self.revision + 1)).values_list(
                "number", "description"
            )
        )
        has_undo = self.revision in found and self.revision > 0
        if self.revision > 0 and self.revision not in found:
            has_undo = self.revisions_kept.filter(number=self.revision - 1).exists()
        return Steps(
            undo=(found.get(self.revision) or "the last change") if has_undo else None,
            redo=(found.get(self.revision + 1) or "the next change")
            if self.revision + 1 in found
            else None,
        )

    def make_room(self) -> None:
        """StorageFull if the owner's storage is past its bound after this record grew,
        once the record has given up its oldest undo steps (all but KEPT_WHEN_FULL)."""
        try:
            check_room(self)
        except StorageFull:
            self.revisions_kept.filter(number__lte=self.revision - self.KEPT_WHEN_FULL).delete()
            self._measure()
            check_room(self)

    def _measure(self, document_bytes: int | None = None) -> None:
        """Keep ``stored_bytes`` level with the document (``document_bytes``, when the
        caller knows them) and the revisions kept."""
        alias = router.db_for_write(type(self), instance=self)
        table = _revision_table(type(self), alias)
        if document_bytes is None:
            document_bytes = document_size(self.stored_document())
        (revisions,) = table.run(table.total, self.pk)
        self.stored_bytes = document_bytes + int(revisions)
        table.run(table.set_stored_bytes, self.stored_bytes, self.pk)


@dataclass(frozen=True)
class _RevisionTable:
    """The statements an edit of a WithHistory model runs inside its transaction, built
    once per model from its own table and column names: the ORM built each of them anew
    (a queryset, a compiler) while SQLite's write lock was held, 1.4 of an edit's 1.8 ms
    there (docs/performance.md, "Writers in turn")."""

    alias: str
    document: models.Field[Any, Any]  # the revision's document column (its encoder)
    created: models.Field[Any, Any]
    drop_from: str  # the record's revisions numbered from %s (undone: no redo past an edit)
    drop_up_to: str  # ... numbered up to %s (past KEPT_REVISIONS)
    insert: str  # one revision: record, number, document, description, size, created
    total: str  # the bytes of the record's revisions
    set_stored_bytes: str

    def run(self, sql: str, *params: Any) -> Any:
        """The statement's first row (None for one that returns none)."""
        connection = connections[self.alias]
        with transaction.mark_for_rollback_on_error(using=self.alias), connection.cursor() as c:
            c.execute(sql, params)
            return c.fetchone() if c.description else None


@functools.lru_cache(maxsize=16)
def _revision_table(model: type[WithHistory], alias: str) -> _RevisionTable:
    quote = connections[alias].ops.quote_name
    record_meta: Any = model._meta
    relation = record_meta.get_field("revisions")
    revision_meta = relation.related_model._meta
    table = quote(revision_meta.db_table)

    def column(name: str) -> str:
        return quote(revision_meta.get_field(name).column)

    record = quote(relation.field.column)
    number = column("number")
    names = ("number", "document", "description", "size", "created")
    columns = ", ".join([record, *(column(name) for name in names)])
    size = column("size")
    return _RevisionTable(
        alias=alias,
        document=revision_meta.get_field("document"),
        created=revision_meta.get_field("created"),
        drop_from=f"DELETE FROM {table} WHERE {record} = %s AND {number} >= %s",
        drop_up_to=f"DELETE FROM {table} WHERE {record} = %s AND {number} <= %s",
        insert=f"INSERT INTO {table} ({columns}) VALUES (%s, %s, %s, %s, %s, %s)",
        total=f"SELECT COALESCE(SUM({size}), 0) FROM {table} WHERE {record} = %s",
        set_stored_bytes=(
            f"UPDATE {quote(record_meta.db_table)} SET "
            f"{quote(record_meta.get_field(model.storage_field).column)} = %s "
            f"WHERE {quote(record_meta.pk.column)} = %s"
        ),
    )
