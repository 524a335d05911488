"""Small builders for force specs in engine tests."""

from __future__ import annotations

from onefinity.rules import ForceSpec, TrooperSpec, UnitSpec


def trooper(trooper_class: str = "trooper", **items: tuple[str, ...] | list[str]) -> TrooperSpec:
    return TrooperSpec(
        trooper_class=trooper_class,
        weapons=tuple(items.get("weapons", ())),
        equipment=tuple(items.get("equipment", ())),
        abilities=tuple(items.get("abilities", ())),
    )


def unit(
    unit_type: str, *troopers: TrooperSpec, size: int = 0, skills: tuple[str, ...] = ()
) -> UnitSpec:
    """A unit of the given troopers, padded with plain troopers up to ``size``."""
    members = list(troopers) + [trooper() for _ in range(size - len(troopers))]
    return UnitSpec(type=unit_type, troopers=tuple(members), skills=skills)


def force(
    *units: UnitSpec, faction: str = "solar-concord", points_limit: int | None = None
) -> ForceSpec:
    return ForceSpec(name="Test force", faction=faction, units=units, points_limit=points_limit)


def codes(report) -> list[str]:  # type: ignore[no-untyped-def]
    return [issue.code for issue in report.issues]
