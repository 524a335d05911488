"""Tables and terrain boxes in the account pages (accounts.part_registry): counted, exported,
imported, deleted with the account, and two generated tables for the demo account. (Packs
are not part of the file: they are made again from their parameters.)"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from django.http import HttpRequest

from accounts.ownership import DamagedRecord, owned, owner_fields
from accounts.part_registry import AccountFileError, AccountPart, Damaged, in_batches, register
from onefinity.rules import current_ruleset
from onefinity.rules.hexgrid import standard_board
from tablegen.engine.boxes import EMPTY_BOX, Box, BoxError, box_document, read_new_box
from tablegen.engine.generate import Parameters, generate_table
from tablegen.engine.library import terrain_library
from tablegen.engine.tables import (
    TableDocumentError,
    TableSpec,
    read_table_document,
    table_document,
)
from tablegen.models import Pack, Table, TerrainBox

# Checking a 40 x 40 table takes about a second: an import checks its tables for about this
# long and leaves the rest to the list of tables, which checks them a few at a time.
IMPORT_CHECK_SECONDS = 1.0


# Records read from the database at a time while the export is written.
EXPORT_CHUNK = 20


def _count(request: HttpRequest) -> int:
    return owned(request, Table).count()


def _export(request: HttpRequest) -> tuple[Iterator[Any], list[Damaged]]:
    """The tables, read a few at a time as the export is written (accounts.part_registry)."""
    damaged: list[Damaged] = []

    def documents() -> Iterator[Any]:
        for table in in_batches(owned(request, Table), EXPORT_CHUNK):
            try:
                document = table_document(table.to_spec())
            except DamagedRecord as error:
                damaged.append(Damaged("table", table.name, error.problem, table.document))
            else:
                yield document

    return documents(), damaged


def _read(items: list[Any], first: int = 0) -> list[TableSpec]:
    rules = current_ruleset().table
    specs = []
    for i, item in enumerate(items, start=first):
        try:
            specs.append(read_table_document(item, rules))
        except TableDocumentError as error:
            raise AccountFileError(f"tables[{i}]: {error}") from None
    return specs


def _prepare(specs: list[Any]) -> list[Table]:
    """The tables, made and (for about IMPORT_CHECK_SECONDS) checked, not yet saved: outside
    the import's transaction."""
    check_until = time.perf_counter() + IMPORT_CHECK_SECONDS
    tables = []
    for spec in specs:
        table = Table()
        table.set_spec(spec, check=time.perf_counter() < check_until)
        tables.append(table)
    return tables


def _save(request: HttpRequest, tables: list[Any]) -> None:
    owner = owner_fields(request, Table, adding=len(tables))
    for table in tables:
        for field, value in owner.items():
            setattr(table, field, value)
        table.save()


def _deletion(user: Any) -> list[str]:
    tables = Table.objects.filter(owner=user).count()
    packs = Pack.objects.filter(owner=user).count()
    lines = []
    if tables:
        lines.append(f"Your {tables} table{'s' if tables != 1 else ''}.")
    if packs:
        lines.append(f"Your {packs} tournament pack{'s' if packs != 1 else ''}.")
    return lines


def _count_boxes(request: HttpRequest) -> int:
    return owned(request, TerrainBox).count()


def _export_boxes(request: HttpRequest) -> tuple[list[Any], list[Damaged]]:
    documents, damaged = [], []
    for box in owned(request, TerrainBox):
        try:
            read = box.to_box()
        except DamagedRecord as error:
            damaged.append(Damaged("terrain box", box.name, error.problem, box.document()))
            continue
        if not read.pieces:  # kept from before empty boxes were refused: not imported again
            damaged.append(Damaged("terrain box", box.name, f"pieces: {EMPTY_BOX}", box.document()))
        else:
            documents.append(box_document(read))
    return documents, damaged


def _read_boxes(items: list[Any], first: int = 0) -> list[Box]:
    library = terrain_library(tuple(current_ruleset().table.terrain))
    boxes = []
    for i, item in enumerate(items, start=first):
        try:
            boxes.append(read_new_box(item, library))
        except BoxError as error:
            raise AccountFileError(f"terrain_boxes[{i}]: {error}") from None
    return boxes


def _save_boxes(request: HttpRequest, boxes: list[Any]) -> None:
    owner = owner_fields(request, TerrainBox, adding=len(boxes))
    for spec in boxes:
        box = TerrainBox(**owner)
        box.set_box(spec)
        box.save()


def _box_deletion(user: Any) -> list[str]:
    boxes = TerrainBox.objects.filter(owner=user).count()
    return [f"Your {boxes} terrain box{'es' if boxes != 1 else ''}."] if boxes else []


def _demo(user: Any) -> list[str]:
    rules = current_ruleset().table
    lines = []
    for seed, symmetry in ((2026, "point"), (1111, "mirror")):
        name = f"Demo table {seed} ({symmetry} symmetry)"
        if Table.objects.filter(owner=user, name=name).exists():
            continue
        spec, _ = generate_table(
            rules,
            Parameters(seed=seed, symmetry=symmetry),
            standard_board(rules.rows, rules.columns),
            name,
        )
        table = Table(owner=user)
        table.set_spec(spec)
        table.save()
        lines.append(f"Demo table {name!r}.")
    return lines


register(
    AccountPart(
        key="tables",
        label="tables",
        count=_count,
        export=_export,
        read=_read,
        prepare=_prepare,
        save=_save,
        model=Table,
        # A large table's document is ~300 kB: 20 at once held the write lock 1.4 s on a
        # busy machine (benchmarks/account_import.py).
        per_step=5,
        deletion=_deletion,
        demo=_demo,
    )
)
register(
    AccountPart(
        key="terrain_boxes",
        label="terrain boxes",
        count=_count_boxes,
        export=_export_boxes,
        read=_read_boxes,
        save=_save_boxes,
        model=TerrainBox,
        deletion=_box_deletion,
    )
)
