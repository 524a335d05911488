from __future__ import annotations

from dataclasses import replace
from typing import Any

from django.db import models, transaction
from django.urls import reverse
from django.utils import timezone

from onefinity.ownership import Owned, OwnedQuerySet, Shareable, new_share_code  # noqa: F401  (0001 migration)
from onefinity.rules import ForceSpec, force_document, read_force_document

# How many past versions of a list are kept for undo.
KEPT_REVISIONS = 100


class ForceQuerySet(OwnedQuerySet["Force"]):
    pass


class StaleRevision(Exception):
    """The list changed since the page that sent the edit was drawn (another tab, say)."""

    def __init__(self, current: int, sent: int) -> None:
        self.current = current
        self.sent = sent
        super().__init__(f"revision {sent} is stale; the list is at {current}")


class Force(Owned, Shareable):
    """A saved force list: the force document's fields, kept as the engine reads them."""

    name = models.CharField(max_length=120)
    faction = models.CharField(max_length=80)
    ruleset_version = models.CharField(max_length=40)
    points_limit = models.PositiveIntegerField()
    units = models.JSONField(default=list)
    revision = models.PositiveIntegerField(default=0)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    objects = ForceQuerySet.as_manager()

    class Meta:
        ordering = ["-updated"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("forcebuilder:editor", args=[self.pk])

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
        return read_force_document(self.document())

    def set_spec(self, spec: ForceSpec) -> None:
        document = force_document(spec)
        self.name = spec.name
        self.faction = spec.faction
        if spec.ruleset is not None:
            self.ruleset_version = spec.ruleset
        if spec.points_limit is not None:
            self.points_limit = spec.points_limit
        self.units = document["units"]

    @classmethod
    def create_from_spec(
        cls, spec: ForceSpec, ruleset_version: str, points_limit: int, **owner: Any
    ) -> Force:
        with transaction.atomic():
            force = cls(ruleset_version=ruleset_version, points_limit=points_limit, **owner)
            force.set_spec(spec)
            force.save()
            force.revisions.create(number=0, document=force.document())
        return force

    def _swap(self, spec: ForceSpec, expected: int, new_revision: int) -> None:
        """Write the list only if it is still at `expected`: two tabs cannot both win."""
        self.set_spec(spec)
        self.updated = timezone.now()
        changed = Force.objects.filter(pk=self.pk, revision=expected).update(
            name=self.name,
            faction=self.faction,
            ruleset_version=self.ruleset_version,
            points_limit=self.points_limit,
            units=self.units,
            revision=new_revision,
            updated=self.updated,
        )
        if not changed:
            current = Force.objects.filter(pk=self.pk).values_list("revision", flat=True).first()
            raise StaleRevision(current if current is not None else -1, expected)
        self.revision = new_revision

    def record(self, spec: ForceSpec, expected: int | None = None) -> None:
        """Save an edit as a new revision; edits undone before it can no longer be redone.

        `expected` is the revision the editing page showed; StaleRevision if it moved on.
        """
        expected = self.revision if expected is None else expected
        with transaction.atomic():
            self._swap(spec, expected, expected + 1)
            self.revisions.filter(number__gte=self.revision).delete()
            self.revisions.create(number=self.revision, document=self.document())
            if self.revision % 10 == 0:
                self.revisions.filter(number__lte=self.revision - KEPT_REVISIONS).delete()

    def step(self, offset: int, expected: int | None = None) -> bool:
        """Undo (-1) or redo (+1) by moving to a saved revision; False when there is none."""
        expected = self.revision if expected is None else expected
        target = self.revisions.filter(number=expected + offset).first()
        if target is None:
            return False
        with transaction.atomic():
            self._swap(read_force_document(target.document), expected, target.number)
        return True

    def can_redo(self) -> bool:
        return self.revisions.filter(number=self.revision + 1).exists()

    def duplicate(self) -> Force:
        spec = self.to_spec()
        copy_name = f"{spec.name} (copy)"[:120]
        return Force.create_from_spec(
            replace(spec, name=copy_name),
            self.ruleset_version,
            self.points_limit,
            owner=self.owner,
            anonymous_owner=self.anonymous_owner,
        )


class ForceRevision(models.Model):
    """One saved state of a list, for undo and redo."""

    force = models.ForeignKey(Force, on_delete=models.CASCADE, related_name="revisions")
    number = models.PositiveIntegerField()
    document = models.JSONField()
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
