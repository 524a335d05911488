from __future__ import annotations

from dataclasses import replace
from typing import Any

from django.db import models, transaction
from django.urls import reverse
from django.utils import timezone

from accounts.history import RevisionBase, Steps, WithHistory
from accounts.ownership import (  # noqa: F401  (new_share_code: the 0001 migration)
    DamagedRecord,
    Owned,
    OwnedQuerySet,
    Quota,
    Shareable,
    new_share_code,
)
from forcebuilder.edits import with_keys
from onefinity.rules import (
    ForceDocumentError,
    ForceSpec,
    Report,
    force_document,
    library,
    read_force_document,
    validate_force,
)
from onefinity.rules.repair import repair_force_document
from onefinity.rules.ruleset import Ruleset
from onefinity.wording import problem_in_words


class ForceQuerySet(OwnedQuerySet["Force"]):
    pass


class Force(Owned, Shareable, WithHistory):
    """A saved force list: the force document's fields, kept as the engine reads them.

    Every write goes through ``set_spec`` and is checked by the force document reader
    before it reaches the database: what is saved can always be read back. A record saved
    before a reader rule was tightened raises DamagedRecord when read, and can be repaired.
    """

    quota = Quota("lists", browser=50, account=500)

    name = models.CharField(max_length=120)
    faction = models.CharField(max_length=80)
    ruleset_version = models.CharField(max_length=80)
    points_limit = models.PositiveIntegerField()
    units = models.JSONField(default=list)
    # version, revision and stored_bytes: accounts.history.WithHistory (every write, undo
    # and redo a compare-and-swap on the version).
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    objects = ForceQuerySet.as_manager()
    # How many past states of a list are kept for undo.
    KEPT_REVISIONS = 100

    class Meta:
        ordering = ["-updated"]
        verbose_name = "list"

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("forcebuilder:editor", args=[self.pk])

    def get_repair_url(self) -> str:
        return reverse("forcebuilder:repair", args=[self.pk])

    def get_delete_url(self) -> str:
        return reverse("forcebuilder:delete", args=[self.pk])

    def get_raw_url(self) -> str:
        return reverse("forcebuilder:export-json", args=[self.pk])

    def get_share_url(self) -> str:
        return reverse("forcebuilder:shared", args=[self.share_code])

    def document(self) -> dict[str, Any]:
        return {
            "format": "onefinity-force",
            "version": 1,
            "name": self.name,
            "faction": self.faction,
            "ruleset": self.ruleset_version,
            "points_limit": self.points_limit,
            "units": self.units,
        }

    def to_spec(self) -> ForceSpec:
        """The list as the engine reads it; DamagedRecord if the stored list no longer reads."""
        try:
            return read_force_document(self.document())
        except ForceDocumentError as error:
            raise DamagedRecord(self, problem_in_words(error)) from None

    def ruleset(self) -> Ruleset:
        """The ruleset the list is built under (the current one if it is no longer shipped)."""
        return library().get_or_current(self.ruleset_version)

    def checked(self) -> tuple[ForceSpec, Report]:
        """The list as the engine reads it and its verdict under its ruleset; DamagedRecord
        if it no longer reads."""
        spec = self.to_spec()
        return spec, validate_force(spec, self.ruleset())

    def read_back(self, spec: ForceSpec) -> ForceSpec:
        """``spec`` as this list would store it and the reader give it back: ForceDocumentError
        if the document it makes would not read. A unit or trooper without an id gets one
        (imports, copies, lists saved before ids)."""
        document = force_document(with_keys(spec))
        document.setdefault("ruleset", self.ruleset_version or None)
        document.setdefault("points_limit", self.points_limit)
        return read_force_document({k: v for k, v in document.items() if v is not None})

    def set_spec(self, spec: ForceSpec) -> None:
        """Take the list's fields from ``spec``, as the reader gives them back: ForceDocumentError
        (nothing changed) if the document it makes would not read."""
        self._take(self.read_back(spec))

    def _take(self, canonical: ForceSpec) -> None:
        """Take the list's fields from a list as ``read_back`` gave it."""
        self.name = canonical.name
        self.faction = canonical.faction
        if canonical.ruleset is not None:
            self.ruleset_version = canonical.ruleset
        if canonical.points_limit is not None:
            self.points_limit = canonical.points_limit
        self.units = force_document(canonical)["units"]

    def save(self, *args: Any, **kwargs: Any) -> None:
        read_force_document(self.document())  # the contract, for writes that skip set_spec
        super().save(*args, **kwargs)

    @classmethod
    def create_from_spec(
        cls, spec: ForceSpec, ruleset_version: str, points_limit: int, **owner: Any
    ) -> Force:
        """A new list; ForceDocumentError (nothing saved) if it would not read back."""
        force = cls(ruleset_version=ruleset_version, points_limit=points_limit, **owner)
        force.set_spec(spec)
        with transaction.atomic():
            force.save()
            force.first_revision()
        return force

    # --- accounts.history.WithHistory ---------------------------------------------------------

    def stored_document(self) -> dict[str, Any]:
        return self.document()

    def written_fields(self) -> dict[str, Any]:
        self.updated = timezone.now()
        return {
            "name": self.name,
            "faction": self.faction,
            "ruleset_version": self.ruleset_version,
            "points_limit": self.points_limit,
            "units": self.units,
            "updated": self.updated,
        }

    def record(self, spec: ForceSpec, expected: int | None = None, description: str = "") -> None:
        """Save an edit as a new revision; edits undone before it can no longer be redone.

        `expected` is the version the editing page showed: StaleVersion if the list moved
        on since. ForceDocumentError (nothing saved) if the edit would not read back.
        `description` says what the edit did, for the undo button ("add a trooper to Alpha").
        """
        self.record_read(self.read_back(spec), expected, description)

    def record_read(
        self, canonical: ForceSpec, expected: int | None = None, description: str = ""
    ) -> None:
        """``record`` for a list ``read_back`` gave already (the editor's edit: read once)."""
        expected = self.version if expected is None else expected
        self._take(canonical)
        self.record_revision(expected, description)

    def step(self, offset: int, expected: int | None = None) -> str | None:
        """Undo (-1) or redo (+1) by moving to a saved revision: what was undone or redone
        (the edit's description), or None when there is nothing to undo or redo.

        A saved revision that no longer reads (an older reader's) is repaired on the way."""
        expected = self.version if expected is None else expected
        numbers = (self.revision, self.revision + offset)
        found = {r.number: r for r in self.revisions.filter(number__in=numbers)}
        target = found.get(self.revision + offset)
        if target is None:
            return None
        # Undo takes back the revision shown; redo makes the next one again.
        stepped = found.get(self.revision) if offset < 0 else target
        spec, _ = repair_force_document(target.document)
        self.set_spec(spec)
        self.step_to(target.number, expected)
        return (stepped.description if stepped else "") or "the last change"

    def repair(self, expected: int | None = None) -> tuple[str, ...]:
        """Mend a list that no longer reads, as a new revision (so undo can take it back);
        what was changed, one line each."""
        spec, changes = repair_force_document(self.document())
        self.record(spec, expected, "repair the list")
        return changes

    def history(self) -> Steps:
        """What undo and redo would do from here, in one query."""
        return self.steps()

    def duplicate(self, **owner: Any) -> Force:
        spec = self.to_spec()
        copy_name = f"{spec.name} (copy)"[:120]
        return Force.create_from_spec(
            replace(spec, name=copy_name), self.ruleset_version, self.points_limit, **owner
        )


class ForceRevision(RevisionBase):
    """One saved state of a list, for undo and redo."""

    force = models.ForeignKey(Force, on_delete=models.CASCADE, related_name="revisions")
    document = models.JSONField()

    class Meta(RevisionBase.Meta):
        constraints = [
            models.UniqueConstraint(
                fields=["force", "number"], name="one_revision_number_per_force"
            )
        ]

    def __str__(self) -> str:
        return f"{self.force_id} revision {self.number}"
