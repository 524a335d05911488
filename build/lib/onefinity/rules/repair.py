"""Mend a stored force document that no longer reads, keeping all that can be kept.

A list saved before a rule of the reader was tightened (fewer units, a text rule) would
otherwise be lost to its owner. ``repair_force_document`` walks the raw JSON leniently and
returns a document ``read_force_document`` accepts, with one line per change it made, so
the owner sees exactly what was dropped or trimmed before saving the repair.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from onefinity.rules.force import (
    DEFAULT_CLASS,
    FORCE_FORMAT,
    FORCE_VERSION,
    KEY_CHARACTERS,
    MAX_ID_LENGTH,
    MAX_ITEMS_PER_LIST,
    MAX_KEY_LENGTH,
    MAX_NAME_LENGTH,
    MAX_POINTS_LIMIT,
    MAX_TROOPERS,
    MAX_UNITS,
    ForceSpec,
    read_force_document,
)

REPAIRED_NAME = "Repaired list"
UNKNOWN_ID = "unknown"


class _Repair:
    def __init__(self) -> None:
        self.changes: list[str] = []
        self.keys: set[str] = set()

    def key(self, value: object, path: str) -> str | None:
        """A unit's or trooper's own id, kept when it reads and is not taken; else dropped
        (the editor gives the unit or trooper a new one on its next save)."""
        if value is None:
            return None
        if (
            isinstance(value, str)
            and 0 < len(value) <= MAX_KEY_LENGTH
            and KEY_CHARACTERS.issuperset(value)
            and value not in self.keys
        ):
            self.keys.add(value)
            return value
        self.changes.append(f"{path}: not a usable id, dropped")
        return None

    def text(self, value: object, path: str, limit: int, exact: bool) -> str:
        if value is None:
            return ""
        if not isinstance(value, str):
            self.changes.append(f"{path}: not text, dropped")
            return ""
        kept = "".join(ch for ch in value if unicodedata.category(ch) not in ("Cc", "Cs"))
        if kept != value:
            self.changes.append(f"{path}: removed control characters")
        if not exact:
            kept = kept.strip()
        if len(kept) > limit:
            self.changes.append(f"{path}: cut to {limit} characters")
            kept = kept[:limit]
        return kept

    def ident(self, value: object, path: str) -> str:
        return self.text(value, path, MAX_ID_LENGTH, exact=True)

    def ids(self, value: object, path: str) -> list[str]:
        if value is None:
            return []
        if not isinstance(value, list):
            self.changes.append(f"{path}: not a list, dropped")
            return []
        if len(value) > MAX_ITEMS_PER_LIST:
            self.changes.append(f"{path}: kept the first {MAX_ITEMS_PER_LIST} of {len(value)}")
        kept = []
        for i, item in enumerate(value[:MAX_ITEMS_PER_LIST]):
            ident = self.ident(item, f"{path}[{i}]")
            if ident:
                kept.append(ident)
            else:
                self.changes.append(f"{path}[{i}]: empty, dropped")
        return kept

    def trooper(self, value: object, path: str) -> dict[str, Any]:
        raw = value if isinstance(value, dict) else {}
        if not isinstance(value, dict):
            self.changes.append(f"{path}: not a trooper, made a plain trooper")
        trooper: dict[str, Any] = {}
        key = self.key(raw.get("id"), f"{path}.id")
        if key is not None:
            trooper["id"] = key
        trooper |= {
            "class": self.ident(raw.get("class", DEFAULT_CLASS), f"{path}.class") or DEFAULT_CLASS,
            "name": self.text(raw.get("name"), f"{path}.name", MAX_NAME_LENGTH, exact=False),
        }
        for key in ("weapons", "equipment", "abilities"):
            trooper[key] = self.ids(raw.get(key), f"{path}.{key}")
        return trooper

    def unit(self, value: dict[str, Any], path: str, room: int) -> dict[str, Any]:
        troopers = value.get("troopers")
        if not isinstance(troopers, list):
            if troopers is not None:
                self.changes.append(f"{path}.troopers: not a list, dropped")
            troopers = []
        if len(troopers) > room:
            self.changes.append(
                f"{path}.troopers: kept {room} of {len(troopers)} (a list holds at most {MAX_TROOPERS})"
            )
        unit: dict[str, Any] = {}
        key = self.key(value.get("id"), f"{path}.id")
        if key is not None:
            unit["id"] = key
        return unit | {
            "type": self.ident(value.get("type"), f"{path}.type") or UNKNOWN_ID,
            "name": self.text(value.get("name"), f"{path}.name", MAX_NAME_LENGTH, exact=False),
            "skills": self.ids(value.get("skills"), f"{path}.skills"),
            "troopers": [
                self.trooper(t, f"{path}.troopers[{i}]") for i, t in enumerate(troopers[:room])
            ],
        }


def repair_force_document(document: object) -> tuple[ForceSpec, tuple[str, ...]]:
    """The nearest readable force to a stored document, and what was changed to get it."""
    repair = _Repair()
    raw = document if isinstance(document, dict) else {}
    name = repair.text(raw.get("name"), "name", MAX_NAME_LENGTH, exact=False)
    if not name:
        repair.changes.append(f"name: empty, named {REPAIRED_NAME!r}")
        name = REPAIRED_NAME
    points = raw.get("points_limit")
    if points is not None and (
        isinstance(points, bool)
        or not isinstance(points, int)
        or not 1 <= points <= MAX_POINTS_LIMIT
    ):
        repair.changes.append("points_limit: not a game size, dropped")
        points = None
    units = raw.get("units")
    if not isinstance(units, list):
        if units is not None:
            repair.changes.append("units: not a list, dropped")
        units = []
    if len(units) > MAX_UNITS:
        repair.changes.append(f"units: kept the first {MAX_UNITS} of {len(units)}")
    repaired_units = []
    room = MAX_TROOPERS
    for i, unit in enumerate(units[:MAX_UNITS]):
        if not isinstance(unit, dict):
            repair.changes.append(f"units[{i}]: not a unit, dropped")
            continue
        repaired = repair.unit(unit, f"units[{i}]", room)
        room -= len(repaired["troopers"])
        repaired_units.append(repaired)
    repaired_document: dict[str, Any] = {
        "format": FORCE_FORMAT,
        "version": FORCE_VERSION,
        "name": name,
        "faction": repair.ident(raw.get("faction"), "faction") or UNKNOWN_ID,
        "units": repaired_units,
    }
    ruleset = repair.ident(raw.get("ruleset"), "ruleset")
    if ruleset:
        repaired_document["ruleset"] = ruleset
    if points is not None:
        repaired_document["points_limit"] = points
    return read_force_document(repaired_document), tuple(repair.changes)
