"""Where a list may be going, so that its editor leads back there: above the list, whenever
the editor is opened. The apps above forcebuilder register a reader of their own (events:
the events whose entry still waits for this list), as they register their account parts:
forcebuilder imports none of them (docs/architecture.md's layers)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.http import HttpRequest

from forcebuilder.models import Force

# At most this many ways back above a list: a player in many events sees the nearest.
MOST_SHOWN = 3


@dataclass(frozen=True)
class Destination:
    """A page a new list can be taken to: ``url`` (a path of this site) and ``name`` (what
    the link says after "go back to")."""

    name: str
    url: str


Reader = Callable[[HttpRequest, Force], list[Destination]]

_READERS: list[Reader] = []


def register_destination(reader: Reader) -> None:
    if reader not in _READERS:
        _READERS.append(reader)


def destinations(request: HttpRequest, force: Force) -> list[Destination]:
    """Where ``force``, just made by the request's owner, may be going (nearest first)."""
    found: list[Destination] = []
    for reader in _READERS:
        found.extend(reader(request, force))
    return found[:MOST_SHOWN]
