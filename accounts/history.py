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

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from django.db import models, transaction
from django.db.models import F, Sum

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
        changed = manager.filter(pk=self.pk, version=expected).update(
            **fields, version=F("version") + 1
        )
        if not changed:
            current = manager.filter(pk=self.pk).values_list("version", flat=True).first()
            raise StaleVersion(current if current is not None else -1, expected)
        for name, value in fields.items():
            setattr(self, name, value)
        self.version = expected + 1


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
        edit, kept as the revision before it when the record has none (one made without)."""
        with transaction.atomic():
            self.swap(expected, revision=self.revision + 1, **self.written_fields())
            kept = self.revisions_kept
            if previous is not None and not kept.filter(number=self.revision - 1).exists():
                kept.create(
                    number=self.revision - 1, document=previous, size=document_size(previous)
                )
            kept.filter(number__gte=self.revision).delete()
            document = self.stored_document()
            kept.create(
                number=self.revision,
                document=document,
                description=description[:DESCRIPTION_LENGTH],
                size=document_size(document),
            )
            if self.revision % 10 == 0:
                kept.filter(number__lte=self.revision - self.KEPT_REVISIONS).delete()
            before = self.stored_bytes
            self._measure()
            if self.stored_bytes > before:
                self.make_room()
        # What undo and redo do now is known without asking: this edit is the one to undo,
        # and nothing is left to redo (the editor's answer shows them after every edit).
        undo = description[:DESCRIPTION_LENGTH] or "the last change"
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

    def _measure(self) -> None:
        """Keep ``stored_bytes`` level with the document and the revisions kept."""
        revisions = self.revisions_kept.aggregate(total=Sum("size"))["total"] or 0
        self.stored_bytes = document_size(self.stored_document()) + int(revisions)
        type(self)._default_manager.filter(pk=self.pk).update(stored_bytes=self.stored_bytes)
