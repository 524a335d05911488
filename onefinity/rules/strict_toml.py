"""Strict reading of the project's TOML data files (the rulesets, the terrain library): every
key is checked, so a misspelt one is an error naming the file and the key, never silently
ignored.

A reader of one file subclasses :class:`StrictTable` with its error class and its own typed
getters (their words are the file's); what every strict reader does is here once: the path of
each key for the error, the keys read, a missing key, an unknown key, tables within tables,
and tables of entries keyed by id. Pure Python, as the engines that use it.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, ClassVar, Self

# An entry's id: lower-case words joined by hyphens.
ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")

# What a reader raises: (the file's name, the key's path, the problem).
ErrorType = Callable[[str, str, str], Exception]


def load_toml(path: Path, error: ErrorType, source: str = "") -> dict[str, Any]:
    """The file's document; `error` (with `source`, the file's name by default) when it
    cannot be read or is not TOML."""
    source = source or path.name
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except OSError as problem:
        raise error(source, "", f"cannot be read ({problem.strerror or problem})") from None
    except tomllib.TOMLDecodeError as problem:
        raise error(source, "", f"is not valid TOML ({problem})") from None


class StrictTable:
    """Typed access to one table of a file, remembering the key path for errors and the
    keys read, so that `done` can refuse the others."""

    # What it raises, made as error(the file's name, the key's path, the problem).
    error: ClassVar[type[Exception]]
    # An id as the file's error message shows one.
    id_example: ClassVar[str] = "heavy-infantry"

    def __init__(self, source: str, table: Mapping[str, Any], path: str) -> None:
        self.source = source
        self.table = table
        self.path = path
        self.used: set[str] = set()

    def key(self, name: str) -> str:
        return f"{self.path}.{name}" if self.path else name

    def fail(self, name: str, problem: str) -> Exception:
        return self.error(self.source, self.key(name) if name else self.path, problem)

    def _get(self, name: str, required: bool) -> Any:
        self.used.add(name)
        if name not in self.table:
            if required:
                raise self.fail(name, "missing")
            return None
        return self.table[name]

    def child(self, table: Mapping[str, Any], path: str) -> Self:
        """A reader of a table within this one (a subclass passes on what it shares)."""
        return type(self)(self.source, table, path)

    def table_of(self, name: str, required: bool = True) -> Self:
        value = self._get(name, required)
        if value is None:
            value = {}
        if not isinstance(value, dict):
            raise self.fail(name, f"expected a table, got {value!r}")
        return self.child(value, self.key(name))

    def _not_an_entry(self, name: str) -> bool:
        """Is a key of a table of entries something else (read here)? None is, by default."""
        return False

    def entries(self, name: str) -> list[tuple[str, Self]]:
        """The sub-tables of a table keyed by id, each id checked; at least one."""
        container = self.table_of(name)
        found = []
        for entry_id in container.table:
            if container._not_an_entry(entry_id):
                continue
            if not ID.match(entry_id):
                raise container.fail(
                    entry_id,
                    f"ids are lower-case words joined by hyphens, like '{self.id_example}'",
                )
            found.append((entry_id, container.table_of(entry_id)))
        if not found:
            raise self.fail(name, "must have at least one entry")
        return found

    def done(self, allowed_extra: tuple[str, ...] = ()) -> None:
        """Refuse keys nobody read: a misspelt key must not be silently ignored."""
        for name in self.table:
            if name not in self.used and name not in allowed_extra:
                raise self.fail(name, "unknown key")
