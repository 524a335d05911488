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
