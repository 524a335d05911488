"""What signing up or logging in on the way to a page does there as well, so that the
person does not tap its button again once signed in: through an event's join link, the
sign-up or login joins the event. The form's button says so ("Create my account and join
Spring Open"), and its POST (CSRF-checked, as every form's) is the explicit request; a page
opened (a GET) never acts.

The apps above accounts register a reader of the page a sign-in is going to (its
``next``), as they register their sign-up routes (``accounts.attempts``): accounts imports
none of them (docs/architecture.md's layers)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.http import HttpRequest


@dataclass(frozen=True)
class Arrival:
    """What a sign-in on its way to a page does there: ``words`` end the form's button
    ("join Spring Open"); ``act`` does it for the person just signed in (the request's
    user), says what happened in a message, and answers the page to go to."""

    words: str
    act: Callable[[HttpRequest], str]


Reader = Callable[[str], "Arrival | None"]

_READERS: list[Reader] = []


def register_arrival(reader: Reader) -> None:
    if reader not in _READERS:
        _READERS.append(reader)


def arrival(next_page: str | None) -> Arrival | None:
    """What signing in on the way to ``next_page`` (a page of this site, already checked)
    does there, if anything."""
    if not next_page:
        return None
    for reader in _READERS:
        found = reader(next_page)
        if found is not None:
            return found
    return None
