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

from typing import Any

from django.conf import settings
from django.db.models import Sum

from accounts.ownership import owned_models


class StorageFull(Exception):
    """The owner's storage would pass its bound; the message says what to do."""


def limit_for(owner: Any) -> int:
    return settings.ACCOUNT_STORAGE_BYTES if owner is not None else settings.BROWSER_STORAGE_BYTES


def used(owner: Any, anonymous_owner: str = "") -> int:
    """Bytes the owner (an account, or a browser's token) stores."""
    total = 0
    for model in owned_models():
        field = getattr(model, "storage_field", None)
        if field is None:
            continue
        manager: Any = model._default_manager
        mine = (
            manager.filter(owner=owner)
            if owner is not None
            else manager.filter(owner=None, anonymous_owner=anonymous_owner)
        )
        total += int(mine.aggregate(total=Sum(field))["total"] or 0)
    return total


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
