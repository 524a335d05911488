"""What moving a force list to another ruleset version would change, and the move itself.

Entries of the newer ruleset may say which ids they ``replaces``; those ids are renamed
when the list moves. Everything else is reported, not changed: points under each
ruleset, and the problems the newer ruleset would raise that the older one did not.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from onefinity.rules.force import ForceSpec
from onefinity.rules.ruleset import Ruleset
from onefinity.rules.validation import Issue, validate_force


@dataclass(frozen=True, slots=True)
class Rename:
    kind: str
    old: str
    new: str
    new_name: str


@dataclass(frozen=True, slots=True)
class RulesetMove:
    old_version: str
    new_version: str
    old_points: int
    new_points: int
    renames: tuple[Rename, ...]
    new_issues: tuple[Issue, ...]
    moved: ForceSpec


def _rename_map(new: Ruleset) -> dict[str, dict[str, tuple[str, str]]]:
    renames: dict[str, dict[str, tuple[str, str]]] = {}
    for kind, catalogue in (
        ("weapons", new.weapons),
        ("equipment", new.equipment),
        ("abilities", new.abilities),
        ("skills", new.unit_skills),
    ):
        renames[kind] = {
            old: (entry.id, entry.name) for entry in catalogue.values() for old in entry.replaces
        }
    return renames


def move_force(force: ForceSpec, old: Ruleset, new: Ruleset) -> RulesetMove:
    table = _rename_map(new)
    seen: dict[tuple[str, str], Rename] = {}

    def renamed(kind: str, ids: tuple[str, ...]) -> tuple[str, ...]:
        result = []
        for item in ids:
            if item in table[kind]:
                new_id, new_name = table[kind][item]
                seen[(kind, item)] = Rename(kind, item, new_id, new_name)
                item = new_id
            result.append(item)
        return tuple(result)

    # replace() keeps everything not renamed, the units' and troopers' ids included.
    units = tuple(
        replace(
            unit,
            skills=renamed("skills", unit.skills),
            troopers=tuple(
                replace(
                    t,
                    weapons=renamed("weapons", t.weapons),
                    equipment=renamed("equipment", t.equipment),
                    abilities=renamed("abilities", t.abilities),
                )
                for t in unit.troopers
            ),
        )
        for unit in force.units
    )
    moved = replace(force, units=units, ruleset=new.version)
    before = validate_force(replace(force, ruleset=old.version), old)
    after = validate_force(moved, new)
    known = {(i.code, i.path) for i in before.issues}
    return RulesetMove(
        old_version=old.version,
        new_version=new.version,
        old_points=before.points,
        new_points=after.points,
        renames=tuple(seen.values()),
        new_issues=tuple(i for i in after.issues if (i.code, i.path) not in known),
        moved=moved,
    )
