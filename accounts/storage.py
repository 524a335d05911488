"""How much one owner stores, and its bound.

Every owned model that keeps documents says which of its columns holds its size in bytes
(``storage_field``: a list's or table's document and its undo history, a pack's tables and
PDF, an event's players' lists and its rounds' tables, a job's file). What an owner stores
is their sum, one indexed query per model; it stays within ACCOUNT_STORAGE_BYTES for an
account and BROWSER_STORAGE_BYTES for a browser. The export of everything, which holds these
documents (without the undo history), is bounded with it: 313 MB in one answer before.

A write that grows what an owner stores past the bound is refused (StorageFull) inside its
transaction, so nothing of it is kept; first the owner's job files give way, oldest first
(a printout or an export can be made again; ``give_way`` is the model's own), and an edit
gives up the oldest undo steps of the record it changes (``WithHistory.make_room``).
Deleting, undoing and redoing are never refused. A job's file is always kept when it is
made (its own bound is JOB_FILES_BYTES_PER_OWNER): it counts, and gives way later.
"""

from __future__ import annotations

import functools
from typing import Any

from django.conf import settings
from django.db import connection

from accounts.ownership import owned_models


class StorageFull(Exception):
    """The owner's storage would pass its bound; the message says what to do."""


def limit_for(owner: Any) -> int:
    return settings.ACCOUNT_STORAGE_BYTES if owner is not None else settings.BROWSER_STORAGE_BYTES


def used(owner: Any, anonymous_owner: str = "") -> int:
    """Bytes the owner (an account, or a browser's token) stores: one query over every
    model that keeps documents. It runs inside every write that grows what an owner stores
    (every edit of a list), and seven ORM aggregates, one a model, were a sixth of an edit's
    time under load (docs/performance.md, issue 34)."""
    sql = _used_sql(owner is not None)
    if not sql:
        return 0
    key = owner.pk if owner is not None else anonymous_owner
    with connection.cursor() as cursor:
        cursor.execute(sql, [key] * sql.count("%s"))
        (total,) = cursor.fetchone()
    return int(total or 0)


@functools.cache
def _used_sql(by_account: bool) -> str:
    """SELECT the sum of every storage column of one owner's records: an account's
    (``owner_id = %s``) or a browser's (no account, ``anonymous_owner = %s``). Built once
    per process from the models' own table and column names."""
    parts = []
    for model in owned_models():
        field = getattr(model, "storage_field", None)
        if field is None:
            continue
        meta = model._meta

        def column(name: str, meta: Any = meta) -> str:
            return str(connection.ops.quote_name(meta.get_field(name).column))

        owner = column("owner")
        where = (
            f"{owner} = %s"
            if by_account
            else f"{owner} IS NULL AND {column('anonymous_owner')} = %s"
        )
        size = column(field)
        quote = connection.ops.quote_name
        parts.append(
            f"SELECT COALESCE(SUM({size}), 0) AS b FROM {quote(meta.db_table)} WHERE {where}"
        )
    if not parts:
        return ""
    return "SELECT SUM(b) FROM (" + " UNION ALL ".join(parts) + ") AS stored"


def in_megabytes(count: int) -> str:
    return f"{count / 1_000_000:.1f} MB"


def check_room(record: Any) -> None:
    """StorageFull if the record's owner now stores more than their bound (called inside
    the transaction of the write that grew it, which the refusal undoes)."""
    owner = record.owner if record.owner_id is not None else None
    total, limit = used(owner, record.anonymous_owner), limit_for(owner)
    if total > limit:
        for model in owned_models():
            give_way = getattr(model, "give_way", None)
            if give_way is not None and total > limit:
                total -= give_way(owner, record.anonymous_owner, total - limit)
    if total <= limit:
        return
    where = "Your account" if owner is not None else "This browser"
    advice = (
        "Delete lists, tables, packs or events you no longer need, and try again."
        if owner is not None
        else "Sign up to keep more, or delete things you no longer need, and try again."
    )
    raise StorageFull(
        f"{where} would store {in_megabytes(total)}, more than its {in_megabytes(limit)}: "
        f"nothing was saved. {advice}"
    )
