"""The whole ruleset as plain JSON-ready data, for organizers and other tools."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from onefinity.rules.ruleset import RULESET_FORMAT, Ruleset


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, tuple | list):
        return [_plain(item) for item in value]
    if isinstance(value, frozenset | set):
        return sorted(_plain(item) for item in value)
    return value


def ruleset_document(ruleset: Ruleset) -> dict[str, Any]:
    document: dict[str, Any] = {"format": RULESET_FORMAT}
    document.update(_plain(ruleset))
    document.pop("source")
    document["cards"]["deck_size"] = ruleset.cards.deck_size
    return document
