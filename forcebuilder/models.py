from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from django.db import models, transaction
from django.db.models import F
from django.urls import reverse
from django.utils import timezone

from accounts.ownership import (  # noqa: F401  (new_share_code: the 0001 migration)
    DamagedRecord,
    Owned,
    OwnedQuerySet,
    Quota,
    Shareable,
    StaleVersion,
    new_share_code,
)
from forcebuilder.edits import with_keys
from onefinity.rules import ForceDocumentError, ForceSpec, force_document, read_force_document
from onefinity.rules.repair import repair_force_document
from onefinity.wording import problem_in_words

# How many past versions of a list are kept for undo.
KEPT_REVISIONS = 100
# How long the description of an edit may be ("add a trooper to Alpha").
DESCRIPTION_LENGTH = 200


@dataclass(frozen=True)
class History:
    """What undo and redo would do: the edits' descriptions, None when there is none."""

    undo: str | None
    redo: str | None


class ForceQuerySet(OwnedQuerySet["Force"]):
    pass


class Force(Owned, Shareable):
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
    # Where undo and redo stand: the number of the saved revision shown.
    revision = models.PositiveIntegerField(default=0)
    # Grows by one on every write (edits, undo, redo, repair): the stale-tab check. The
    # revision number cannot serve, since undo followed by an edit reuses a number.
    version = models.PositiveBigIntegerField(default=0)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    objects = ForceQuerySet.as_manager()

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

    def set_spec(self, spec: ForceSpec) -> None:
        """Take the list's fields from ``spec``, as the reader gives them back: ForceDocumentError
        (nothing changed) if the document it makes would not read. A unit or trooper without
        an id gets one (imports, copies, lists saved before ids)."""
        document = force_document(with_keys(spec))
        document.setdefault("ruleset", self.ruleset_version or None)
        document.setdefault("points_limit", self.points_limit)
        canonical = read_force_document({k: v for k, v in document.items() if v is not None})
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
            force.revisions.create(number=0, document=force.document())
        return force

    def _swap(self, spec: ForceSpec, expected: int, new_revision: int) -> None:
        """Write the list only if it is still at version `expected`: two tabs cannot both win."""
        self.set_spec(spec)
        self.updated = timezone.now()
        changed = Force.objects.filter(pk=self.pk, version=expected).update(
            name=self.name,
            faction=self.faction,
            ruleset_version=self.ruleset_version,
            points_limit=self.points_limit,
            units=self.units,
            revision=new_revision,
            version=F("version") + 1,
            updated=self.updated,
        )
        if not changed:
            current = Force.objects.filter(pk=self.pk).values_list("version", flat=True).first()
            raise StaleVersion(current if current is not None else -1, expected)
        self.revision = new_revision
        self.version = expected + 1

    def record(self, spec: ForceSpec, expected: int | None = None, description: str = "") -> None:
        """Save an edit as a new revision; edits undone before it can no longer be redone.

        `expected` is the version the editing page showed: StaleVersion if the list moved
        on since. ForceDocumentError (nothing saved) if the edit would not read back.
        `description` says what the edit did, for the undo button ("add a trooper to Alpha").
        """
        expected = self.version if expected is None else expected
        with transaction.atomic():
            self._swap(spec, expected, self.revision + 1)
            self.revisions.filter(number__gte=self.revision).delete()
            self.revisions.create(
                number=self.revision,
                document=self.document(),
                description=description[:DESCRIPTION_LENGTH],
            )
            if self.revision % 10 == 0:
                self.revisions.filter(number__lte=self.revision - KEPT_REVISIONS).delete()

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
        with transaction.atomic():
            self._swap(spec, expected, target.number)
        return (stepped.description if stepped else "") or "the last change"

    def repair(self, expected: int | None = None) -> tuple[str, ...]:
        """Mend a list that no longer reads, as a new revision (so undo can take it back);
        what was changed, one line each."""
        spec, changes = repair_force_document(self.document())
        self.record(spec, expected, "repair the list")
        return changes

    def can_redo(self) -> bool:
        return self.revisions.filter(number=self.revision + 1).exists()

    def history(self) -> History:
        """What undo and redo would do from here, in one query."""
        found = dict(
            self.revisions.filter(number__in=(self.revision, self.revision + 1)).values_list(
                "number", "description"
            )
        )
        return History(
            undo=(found.get(self.revision) or "the last change") if self.revision > 0 else None,
            redo=(found.get(self.revision + 1) or "the next change")
            if self.revision + 1 in found
            else None,
        )

    def duplicate(self, **owner: Any) -> Force:
        spec = self.to_spec()
        copy_name = f"{spec.name} (copy)"[:120]
        return Force.create_from_spec(
            replace(spec, name=copy_name), self.ruleset_version, self.points_limit, **owner
        )


class ForceRevision(models.Model):
    """One saved state of a list, for undo and redo."""

    force = models.ForeignKey(Force, on_delete=models.CASCADE, related_name="revisions")
    number = models.PositiveIntegerField()
    document = models.JSONField()
    # What the edit that made this revision did, in the player's words ("" for the first
    # revision and for revisions saved before descriptions were kept).
    description = models.CharField(max_length=DESCRIPTION_LENGTH, blank=True, default="")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["force", "number"], name="one_revision_number_per_force"
            )
        ]
        ordering = ["number"]

    def __str__(self) -> str:
        return f"{self.force_id} revision {self.number}"
