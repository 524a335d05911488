"""The force document: the JSON form of a force list used for import, export and the CLI.

``read_force_document`` turns an untrusted, already-parsed JSON value into a
:class:`ForceSpec`, or raises :class:`ForceDocumentError` naming the path and what is
wrong. It checks shape only (types, keys, sizes); whether the force is legal is the
job of :mod:`onefinity.rules.validation`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from onefinity.rules.text import DocumentError, quoted, text_problem, without_invisible

FORCE_FORMAT = "onefinity-force"
FORCE_VERSION = 1
DEFAULT_CLASS = "trooper"

# Hostile-input bounds: a generous multiple of a legal list (4 units, 12 troopers, a few
# items each), so an over-sized list still gets a useful validation report, while a list
# that no table could field (and whose card sheet would take minutes to print) is refused.
MAX_NAME_LENGTH = 120
MAX_ID_LENGTH = 80
MAX_UNITS = 8
MAX_TROOPERS = 30
MAX_TROOPERS_PER_UNIT = MAX_TROOPERS
MAX_ITEMS_PER_LIST = 10
MAX_POINTS_LIMIT = 10_000
# A unit's or trooper's own id (``"id"``): short, and safe in a link, an HTML id and a
# form field as it is, since the editor addresses units and troopers by it.
MAX_KEY_LENGTH = 16
KEY_CHARACTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")

_FORCE_KEYS = ("format", "version", "name", "faction", "ruleset", "points_limit", "units")
_UNIT_KEYS = ("id", "type", "name", "skills", "troopers")
_TROOPER_KEYS = ("id", "class", "name", "weapons", "equipment", "abilities")


class ForceDocumentError(DocumentError):
    """A document that is not a readable force document."""


@dataclass(frozen=True, slots=True)
class TrooperSpec:
    trooper_class: str = DEFAULT_CLASS
    name: str = ""
    weapons: tuple[str, ...] = ()
    equipment: tuple[str, ...] = ()
    abilities: tuple[str, ...] = ()
    # The trooper's own id within its list ("" when the document gives none): it stays the
    # same through every edit, so a page can point at "this trooper" after others move.
    id: str = ""


@dataclass(frozen=True, slots=True)
class UnitSpec:
    type: str
    name: str = ""
    troopers: tuple[TrooperSpec, ...] = ()
    skills: tuple[str, ...] = ()
    id: str = ""


@dataclass(frozen=True, slots=True)
class ForceSpec:
    name: str
    faction: str
    units: tuple[UnitSpec, ...] = ()
    ruleset: str | None = None
    points_limit: int | None = None


def _type_name(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _object(value: object, path: str, allowed: tuple[str, ...]) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise ForceDocumentError(path, f"expected an object, got {_type_name(value)}")
    for key in value:
        if key not in allowed:
            shown = path or "the document"
            raise ForceDocumentError(
                path,
                f"unknown key {quoted(key)} in {shown} (expected one of: {', '.join(allowed)})",
            )
    return value


def _checked(text: str, path: str, max_length: int, required: bool) -> str:
    if required and not text:
        raise ForceDocumentError(path, "must not be empty")
    if len(text) > max_length:
        raise ForceDocumentError(path, f"is {len(text)} characters long; at most {max_length}")
    problem = text_problem(text)
    if problem:
        raise ForceDocumentError(path, problem)
    return text


def _text(value: object, path: str, max_length: int, required: bool) -> str:
    """A name: trimmed at both ends, without direction overrides and invisible characters."""
    if value is None and not required:
        return ""
    if not isinstance(value, str):
        raise ForceDocumentError(path, f"expected text, got {_type_name(value)}")
    return _checked(without_invisible(value).strip(), path, max_length, required)


def _id(value: object, path: str) -> str:
    """An id is exact: " pistol" is not "pistol" (validation reports it as unknown)."""
    if not isinstance(value, str):
        raise ForceDocumentError(path, f"expected text (an id), got {_type_name(value)}")
    return _checked(value, path, MAX_ID_LENGTH, True)


def _key(value: object, path: str) -> str:
    """A unit's or trooper's own id: optional, at most MAX_KEY_LENGTH letters, digits,
    '-' or '_' (the shared text rule first, so a control character gets its usual message)."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise ForceDocumentError(path, f"expected text (an id), got {_type_name(value)}")
    _checked(value, path, MAX_KEY_LENGTH, True)
    if not KEY_CHARACTERS.issuperset(value):
        raise ForceDocumentError(path, "may hold only letters, digits, '-' and '_'")
    return value


def _ids(value: object, path: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        raise ForceDocumentError(path, f"expected a list of ids, got {_type_name(value)}")
    if len(value) > MAX_ITEMS_PER_LIST:
        raise ForceDocumentError(path, f"has {len(value)} entries; at most {MAX_ITEMS_PER_LIST}")
    return tuple(_id(item, f"{path}[{i}]") for i, item in enumerate(value))


def _list(value: object, path: str, maximum: int) -> list[Any]:
    if not isinstance(value, list):
        raise ForceDocumentError(path, f"expected a list, got {_type_name(value)}")
    if len(value) > maximum:
        raise ForceDocumentError(path, f"has {len(value)} entries; at most {maximum}")
    return value


def _trooper(value: object, path: str) -> TrooperSpec:
    raw = _object(value, path, _TROOPER_KEYS)
    trooper_class = raw.get("class")
    return TrooperSpec(
        id=_key(raw.get("id"), f"{path}.id"),
        trooper_class=(
            DEFAULT_CLASS if trooper_class is None else _id(trooper_class, f"{path}.class")
        ),
        name=_text(raw.get("name"), f"{path}.name", MAX_NAME_LENGTH, False),
        weapons=_ids(raw.get("weapons"), f"{path}.weapons"),
        equipment=_ids(raw.get("equipment"), f"{path}.equipment"),
        abilities=_ids(raw.get("abilities"), f"{path}.abilities"),
    )


def _unit(value: object, path: str) -> UnitSpec:
    raw = _object(value, path, _UNIT_KEYS)
    if "type" not in raw:
        raise ForceDocumentError(f"{path}.type", "missing: every unit needs a unit type")
    troopers = _list(raw.get("troopers", []), f"{path}.troopers", MAX_TROOPERS_PER_UNIT)
    return UnitSpec(
        id=_key(raw.get("id"), f"{path}.id"),
        type=_id(raw["type"], f"{path}.type"),
        name=_text(raw.get("name"), f"{path}.name", MAX_NAME_LENGTH, False),
        skills=_ids(raw.get("skills"), f"{path}.skills"),
        troopers=tuple(_trooper(t, f"{path}.troopers[{i}]") for i, t in enumerate(troopers)),
    )


def read_force_document(document: object) -> ForceSpec:
    """Read an untrusted parsed-JSON value as a force document."""
    raw = _object(document, "", _FORCE_KEYS)
    if raw.get("format") != FORCE_FORMAT:
        raise ForceDocumentError(
            "format", f"expected {FORCE_FORMAT!r}: this is not a force document"
        )
    version = raw.get("version")
    if version != FORCE_VERSION or isinstance(version, bool):
        raise ForceDocumentError(
            "version",
            f"version {str(version)[:20]} is not supported; this site reads version {FORCE_VERSION}",
        )
    for key in ("name", "faction"):
        if key not in raw:
            raise ForceDocumentError(key, "missing")
    ruleset = raw.get("ruleset")
    points_limit = raw.get("points_limit")
    if points_limit is not None and (
        isinstance(points_limit, bool)
        or not isinstance(points_limit, int)
        or not 1 <= points_limit <= MAX_POINTS_LIMIT
    ):
        raise ForceDocumentError(
            "points_limit", f"expected a whole number of points from 1 to {MAX_POINTS_LIMIT}"
        )
    units = _list(raw.get("units", []), "units", MAX_UNITS)
    troopers = sum(
        len(u["troopers"])
        for u in units
        if isinstance(u, dict) and isinstance(u.get("troopers"), list)
    )
    if troopers > MAX_TROOPERS:
        raise ForceDocumentError(
            "units", f"has {troopers} troopers in all; a document holds at most {MAX_TROOPERS}"
        )
    force = ForceSpec(
        name=_text(raw["name"], "name", MAX_NAME_LENGTH, True),
        faction=_id(raw["faction"], "faction"),
        ruleset=None if ruleset is None else _id(ruleset, "ruleset"),
        points_limit=points_limit,
        units=tuple(_unit(u, f"units[{i}]") for i, u in enumerate(units)),
    )
    _check_keys_unique(force)
    return force


def _check_keys_unique(force: ForceSpec) -> None:
    """An id names one unit or trooper: two with the same id would make "this trooper"
    ambiguous, so such a document is refused, naming both."""
    seen: dict[str, str] = {}
    for u, unit in enumerate(force.units):
        owners = [(f"units[{u}]", unit.id)]
        owners += [
            (f"units[{u}].troopers[{t}]", trooper.id) for t, trooper in enumerate(unit.troopers)
        ]
        for path, key in owners:
            if not key:
                continue
            if key in seen:
                raise ForceDocumentError(
                    f"{path}.id",
                    f"{key!r} is already the id of {seen[key]}; each unit and trooper needs "
                    "its own id (or none)",
                )
            seen[key] = path


def force_document(force: ForceSpec) -> dict[str, Any]:
    """The canonical JSON form of a force; ``read_force_document`` reads it back equal."""
    document: dict[str, Any] = {
        "format": FORCE_FORMAT,
        "version": FORCE_VERSION,
        "name": force.name,
        "faction": force.faction,
    }
    if force.ruleset is not None:
        document["ruleset"] = force.ruleset
    if force.points_limit is not None:
        document["points_limit"] = force.points_limit
    units = []
    for unit in force.units:
        unit_document: dict[str, Any] = {"id": unit.id} if unit.id else {}
        unit_document["type"] = unit.type
        if unit.name:
            unit_document["name"] = unit.name
        if unit.skills:
            unit_document["skills"] = list(unit.skills)
        troopers = []
        for trooper in unit.troopers:
            trooper_document: dict[str, Any] = {"id": trooper.id} if trooper.id else {}
            trooper_document["class"] = trooper.trooper_class
            if trooper.name:
                trooper_document["name"] = trooper.name
            for key in ("weapons", "equipment", "abilities"):
                items = getattr(trooper, key)
                if items:
                    trooper_document[key] = list(items)
            troopers.append(trooper_document)
        unit_document["troopers"] = troopers
        units.append(unit_document)
    document["units"] = units
    return document
