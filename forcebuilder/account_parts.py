"""Force lists in the account pages (accounts.part_registry): counted, exported, imported, deleted
with the account, and the example lists for the demo account."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.http import HttpRequest

from accounts.ownership import DamagedRecord, owned, owner_fields
from accounts.part_registry import AccountFileError, AccountPart, Damaged, in_batches, register
from forcebuilder.models import Force
from onefinity.examples import example_forces
from onefinity.rules import ForceDocumentError, ForceSpec, library, read_force_document
from onefinity.wording import problem_in_words

# Records read from the database at a time while the export is written.
EXPORT_CHUNK = 20


def _count(request: HttpRequest) -> int:
    return owned(request, Force).count()


def _export(request: HttpRequest) -> tuple[Iterator[Any], list[Damaged]]:
    """The lists, read a few at a time as the export is written (accounts.part_registry)."""
    damaged: list[Damaged] = []

    def documents() -> Iterator[Any]:
        for force in in_batches(owned(request, Force), EXPORT_CHUNK):
            try:
                force.to_spec()
            except DamagedRecord as error:
                damaged.append(Damaged("list", force.name, error.problem, force.document()))
            else:
                yield force.document()

    return documents(), damaged


def _read(items: list[Any], first: int = 0) -> list[ForceSpec]:
    specs = []
    for i, item in enumerate(items, start=first):
        try:
            spec = read_force_document(item)
        except ForceDocumentError as error:
            raise AccountFileError(f"List {i + 1}: {problem_in_words(error)}") from None
        ruleset = library().get(spec.ruleset)
        if ruleset is None:
            raise AccountFileError(
                f"List {i + 1}: ruleset {spec.ruleset} is not known to this site."
            )
        if spec.faction not in ruleset.factions:
            # Saved, it would open as an empty list of another faction's units (a walk).
            raise AccountFileError(
                f"List {i + 1}: faction {spec.faction!r} is not one of ruleset "
                f"{spec.ruleset}'s ({', '.join(ruleset.factions)})."
            )
        specs.append(spec)
    return specs


def _create(spec: ForceSpec, **owner: Any) -> Force:
    ruleset = library().get_or_current(spec.ruleset)
    points_limit = spec.points_limit or ruleset.force_limits.points
    return Force.create_from_spec(spec, ruleset.version, points_limit, **owner)


def _save(request: HttpRequest, specs: list[Any]) -> None:
    owner = owner_fields(request, Force, adding=len(specs))
    for spec in specs:
        _create(spec, **owner)


def _deletion(user: Any) -> list[str]:
    count = Force.objects.filter(owner=user).count()
    return [f"Your {count} force list{'s' if count != 1 else ''}."] if count else []


def _demo(user: Any) -> list[str]:
    lines = []
    for example in example_forces():
        if Force.objects.filter(owner=user, name=example.force.name).exists():
            continue
        _create(example.force, owner=user)
        verdict = "legal" if example.report.legal else "not legal"
        lines.append(
            f"Demo list {example.force.name!r}: {example.report.points} points, {verdict}."
        )
    return lines


register(
    AccountPart(
        key="forces",
        label="force lists",
        count=_count,
        export=_export,
        read=_read,
        save=_save,
        model=Force,
        deletion=_deletion,
        demo=_demo,
    )
)
