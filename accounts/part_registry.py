"""What each feature app adds to the account pages, without accounts importing any of them.

Each app that owns things has an ``account_parts.py`` module (found by AccountsConfig.ready,
as the admin finds ``admin.py``) which registers an :class:`AccountPart`: how many the
owner has, their documents for "download everything", how to read and save them again,
what deleting the account does to them, and the demo data for ``make run``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

from django.db.models import Model, QuerySet
from django.http import HttpRequest

_Record = TypeVar("_Record", bound=Model)

ACCOUNT_FORMAT = "onefinity-account"
ACCOUNT_VERSION = 1


class AccountFileError(ValueError):
    """An account file, or one of its parts, that cannot be imported; the message says where."""


@dataclass(frozen=True)
class Damaged:
    """A stored record that no longer reads, kept as stored in the export."""

    kind: str
    name: str
    problem: str
    stored: Any

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "name": self.name,
            "problem": self.problem,
            "document": self.stored,
        }


@dataclass(frozen=True)
class AccountPart:
    # Its key in the account file ("forces"), and what it holds, plural ("lists").
    key: str
    label: str
    # How many the person asking owns, for the account page.
    count: Callable[[HttpRequest], int]
    # Its part of the account file, and the records that no longer read. The part may be
    # an iterator of records, read as the file is written (bounded memory, whatever the
    # account holds): the list of damaged records is then filled as it is read.
    export: Callable[[HttpRequest], tuple[Any, list[Damaged]]]
    # Read records of the part from an uploaded file, the first being the part's record
    # number ``first`` (counted from 0) in the file (AccountFileError naming the record),
    # then save what was read for the person asking, inside a transaction of the import's.
    # ``model`` is what they are saved as: the owner's quota for it is checked before an
    # import saves anything. A part without `read` is exported only.
    read: Callable[[list[Any], int], list[Any]] | None = None
    save: Callable[[HttpRequest, list[Any]], None] | None = None
    # The work on read records that needs no database (checking a table), done before the
    # transaction that saves them, which then holds the write lock only for the writes:
    # ``save`` is given what it returns.
    prepare: Callable[[list[Any]], list[Any]] | None = None
    # Records saved in one transaction of a large import (accounts.account_import): fewer
    # for large records, so that a step holds the write lock for a short time.
    per_step: int = 20
    model: type[Model] | None = None
    # What deleting the account does to this part, in sentences for the confirmation page,
    # and the deletion itself (run before the user is deleted).
    deletion: Callable[[Any], list[str]] | None = None
    delete: Callable[[Any], None] | None = None
    # Demo data for `make run`, for the demo user: a line for each thing made.
    demo: Callable[[Any], list[str]] | None = None


_PARTS: dict[str, AccountPart] = {}


def register(part: AccountPart) -> None:
    _PARTS[part.key] = part


def account_parts() -> list[AccountPart]:
    """The registered parts, in the order of INSTALLED_APPS."""
    return list(_PARTS.values())


def in_batches(records: QuerySet[_Record], size: int = 20) -> Iterator[_Record]:
    """Every record of the query, ``size`` at a time in the order of their keys, each batch
    a query of its own read whole: the export of a large account holds neither all its
    records nor a statement open between batches. (With a statement left open, SQLite keeps
    the connection's snapshot, and the parts of the file it writes meanwhile cannot be
    written past another connection's commit: "database is locked".)"""
    last: Any = None
    while True:
        batch = records.order_by("pk")
        if last is not None:
            batch = batch.filter(pk__gt=last)
        found = list(batch[:size])
        if not found:
            return
        yield from found
        last = found[-1].pk
