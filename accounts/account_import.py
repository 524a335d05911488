"""Importing an account file: all of it is checked before anything is saved, so a bad file
changes nothing.

- A small file (the usual: a player's lists and a few tables) is read whole and saved in one
  transaction, inside the request (``read_small``, ``save_at_once``).
- A large one (up to an account at its storage bound, about 134 MB) is imported by the task
  worker (jobs.imports) in two passes over the stored upload: ``count`` reads and checks
  every record, then, with the owner's room for them checked (``check_room``), ``save_steps``
  saves them a few at a time, each step a short transaction of its own (no writer waits
  seconds for the database), told to the job, which keeps how many of each part are saved:
  a run taken up again after its worker died goes on from there, saving nothing twice.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

from django.db import transaction
from django.http import HttpRequest

from accounts.account_file import Entry, Readable, entries
from accounts.ownership import owner_fields
from accounts.part_registry import AccountPart, account_parts

# Records of every kind together that a request imports at once; a file with more goes to
# the task worker.
MAX_ITEMS = 500
# Records saved in one transaction by the worker, at most (a part may ask for fewer:
# AccountPart.per_step).
STEP = 20


def importable() -> list[AccountPart]:
    return [part for part in account_parts() if part.read is not None]


def read_small(stream: Readable) -> dict[str, list[Any]] | None:
    """Every record of the file, read (AccountFileError at the first problem), by part key;
    None when the file holds more than MAX_ITEMS (it is for the worker)."""
    found: dict[str, list[Any]] = {part.key: [] for part in importable()}
    for count, entry in enumerate(entries(stream, importable()), start=1):
        if count > MAX_ITEMS:
            return None
        found[entry.part.key].append(entry.record)
    return found


def save_at_once(
    request: HttpRequest, found: dict[str, list[Any]], first: Callable[[], None] | None = None
) -> str:
    """Save what ``read_small`` read, in one transaction (a quota passed by a later part
    undoes the earlier ones too); what was imported, in words. ``first()`` runs at the
    start of the transaction (claiming the form's submission: it may raise to refuse)."""
    ready = {part.key: _prepared(part, found[part.key]) for part in importable()}
    with transaction.atomic():
        if first is not None:
            first()
        for part in importable():
            if part.save is not None:
                part.save(request, ready[part.key])
    return imported_in_words(Counter({key: len(records) for key, records in found.items()}))


def count(stream: Readable, progress: Callable[[int], None] | None = None) -> Counter[str]:
    """How many records of each importable part the file holds, every one read and checked
    (AccountFileError at the first problem). ``progress(pieces)`` is told as the file's
    pieces are read (a file of other parts' records shows its progress too)."""
    counts: Counter[str] = Counter()
    for entry in entries(stream, importable(), progress):
        counts[entry.part.key] += 1
    return counts


def check_room(request: HttpRequest, counts: Counter[str], saved: dict[str, int]) -> None:
    """QuotaExceeded (nothing saved) unless the owner has room for what is still to save."""
    for part in importable():
        adding = counts[part.key] - saved.get(part.key, 0)
        if part.model is not None and adding > 0:
            owner_fields(request, part.model, adding=adding)


def save_steps(
    request: HttpRequest,
    stream: Readable,
    saved: dict[str, int],
    told: Callable[[dict[str, int]], None],
) -> Counter[str]:
    """Save the file's records past the first ``saved[key]`` of each part, STEP at a time (or
    fewer, as their parts ask), each step in a transaction of its own that also runs ``told(saved)`` with the counts
    saved by then (it raises to undo the step: the job is no longer this run's). How many
    of each part were saved by this call."""
    done: Counter[str] = Counter()
    step: list[Entry] = []

    def save_step() -> None:
        ready = []
        for part in importable():
            records = [entry.record for entry in step if entry.part is part]
            if records and part.save is not None:
                ready.append((part.save, _prepared(part, records)))
        with transaction.atomic():
            for save, records in ready:
                save(request, records)
            after = dict(saved)
            for entry in step:
                after[entry.part.key] = after.get(entry.part.key, 0) + 1
            told(after)
        saved.update(after)
        done.update(entry.part.key for entry in step)
        step.clear()

    for entry in _not_saved(entries(stream, importable()), saved):
        step.append(entry)
        if len(step) >= min(STEP, *(entry.part.per_step for entry in step)):
            save_step()
    if step:
        save_step()
    return done


def _prepared(part: AccountPart, records: list[Any]) -> list[Any]:
    return part.prepare(records) if part.prepare is not None else records


def _not_saved(found: Iterator[Entry], saved: dict[str, int]) -> Iterator[Entry]:
    return (entry for entry in found if entry.index >= saved.get(entry.part.key, 0))


def imported_in_words(counts: Counter[str]) -> str:
    labels = {part.key: part.label for part in importable()}
    said = [f"{counts[key]} {label}" for key, label in labels.items()]
    return f"Imported {', '.join(said)}."
