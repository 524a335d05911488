from collections.abc import Mapping

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails

from onefinity.rules.text import whole_number


class HtmxHttpRequest(HttpRequest):
    """A request that went through django-htmx's middleware (for type checkers)."""

    htmx: HtmxDetails


# A database id or version never passes a signed 64-bit integer (PostgreSQL's bigint).
LARGEST_ID = 2**63 - 1


def record_id(text: object) -> int | None:
    """A record's id sent by a form or a query, or None when it is not one (see
    ``whole_number``: its size is checked before it is read)."""
    return whole_number(text, 1, LARGEST_ID)


def read_version(text: object) -> int:
    """The version a page showed, as its form sent it; -1 (which no record has, so the
    page is stale) when it sent none or no number."""
    version = whole_number(text, 0, LARGEST_ID)
    return -1 if version is None else version


def page_version(data: Mapping[str, object]) -> int:
    """The one reader of "the version the page showed", for every edit of the site: the
    form's ``version`` field, or -1 (stale) when it sent none or no number. Every form the
    site draws for a change sends its version; a request without one is answered as a stale
    page (refused, nothing changed, the latest shown), never taken as the current version,
    which would let a script or an old cached page overwrite changes it never saw."""
    return read_version(data.get("version"))


def stale_words(what: str) -> str:
    """The one answer to a stale page, of a list, a table, an event, a round..."""
    return (
        f"{what} was changed in another tab or window since your page was drawn. "
        "Your change was not saved: check the latest below and make it again."
    )
