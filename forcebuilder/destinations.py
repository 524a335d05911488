"""Where a list just made (started, copied, imported) may be going, so that the message
greeting it in its editor leads back there. The apps above forcebuilder register a reader
of their own (events: the events whose entry still waits for a list), as they register
their account parts: forcebuilder imports none of them (docs/architecture.md's layers)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.contrib import messages
from django.http import HttpRequest
from django.utils.html import format_html, format_html_join

from forcebuilder.models import Force

# At most this many ways back in one message: a player in many events sees the nearest.
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


def greet_new_list(request: HttpRequest, force: Force, said: str) -> None:
    """The message the new list's editor shows first: ``said``, and a link back to each
    page the list may be going to (names escaped; the markup kept by the messages'
    storage, as the event's "Build a new list" message keeps it)."""
    ways = destinations(request, force)
    if not ways:
        messages.success(request, said)
        return
    links = format_html_join(
        " or ", '<a href="{}">go back to {}</a>', ((way.url, way.name) for way in ways)
    )
    messages.success(request, format_html("{} When it is ready, {} to submit it.", said, links))
