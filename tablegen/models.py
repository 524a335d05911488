from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from django.db import models, transaction
from django.db.models import F, Sum
from django.db.models.functions import Length
from django.urls import reverse
from django.utils import timezone

from accounts.history import RevisionBase, Versioned, WithHistory, document_size
from accounts.ownership import (
    DamagedRecord,
    Owned,
    OwnedQuerySet,
    Quota,
    Shareable,
    StaleVersion,
)
from accounts.storage import check_room
from onefinity.fastjson import DocumentDecoder, DocumentEncoder
from onefinity.rules import current_ruleset
from onefinity.rules.bounded_cache import Recent
from onefinity.rules.hexgrid import Hex
from onefinity.rules.ruleset import TableRules
from tablegen.engine import edits
from tablegen.engine.boxes import (
    BOX_FORMAT,
    BOX_VERSION,
    Box,
    BoxError,
    box_document,
    encode_counts,
    read_box_document,
)
from tablegen.engine.edits import EditError, next_kind, paint
from tablegen.engine.generate import Parameters
from tablegen.engine.library import TerrainLibrary, terrain_library
from tablegen.engine.metrics import TableReport, check_table, report_summary
from tablegen.engine.repair import repair_name, repair_table_document
from tablegen.engine.tables import (
    TableDocumentError,
    TableSpec,
    read_name,
    read_table_document,
    table_document,
)
from tablegen.engine.tournament import PackState, aligned

# The last reading of a few tables' documents in this process: the next edit of a table
# (most often the same player's next click), or the next view of it, finds its reading
# here instead of reading its document again (2 ms on a 1,600-hex table), when the stored
# document is equal to the one read, under the same rules. Keyed by table; the reader is a
# function of the document and the rules, so an equal document reads the same. Shared by
# the server's threads (onefinity.rules.bounded_cache says why and how it is bounded).
_READINGS: Recent[int, tuple[Any, str, TableRules, TableSpec]] = Recent(most=32)


def _recalled(pk: int | None, document: Any, name: str, rules: TableRules) -> TableSpec | None:
    if pk is None:
        return None
    kept = _READINGS.get(pk)
    if kept is not None and kept[1] == name and kept[2] is rules and kept[0] == document:
        return kept[3]
    return None


def _remember(pk: int | None, document: Any, name: str, rules: TableRules, spec: TableSpec) -> None:
    if pk is not None:
        _READINGS.put(pk, (document, name, rules, spec))


class Table(Owned, Shareable, WithHistory):
    """A saved hex table, kept as its table document.

    Every write goes through ``set_spec`` (or at least ``save``), which runs the table
    reader first: what is saved can always be read back. A table saved before a reader rule
    was tightened raises DamagedRecord when read, and can be repaired.
    """

    quota = Quota("tables", browser=50, account=500)

    name = models.CharField(max_length=120)
    # Read and written with orjson (onefinity.fastjson): a large table's document is 50 KB.
    document = models.JSONField(encoder=DocumentEncoder, decoder=DocumentDecoder)
    # version, revision and stored_bytes: accounts.history.WithHistory (every write, undo
    # and redo a compare-and-swap on the version).
    # The report's summary for the list of tables (see report_summary), with the ruleset
    # it was checked under; {} until checked. Derived from the document: kept current by
    # every write, and by the pages that check the table anyway.
    summary = models.JSONField(default=dict, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    objects = OwnedQuerySet["Table"].as_manager()
    # How many past states of a table are kept for undo.
    KEPT_REVISIONS = 50
    # The document last read (or written), the name and ruleset it was read with, and what
    # it read as: see ``to_spec``.
    _read: tuple[object, str, object, TableSpec]

    class Meta:
        ordering = ["-updated"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tablegen:table", args=[self.pk])

    def get_share_url(self) -> str:
        return reverse("tablegen:shared", args=[self.share_code])

    def get_repair_url(self) -> str:
        return reverse("tablegen:repair", args=[self.pk])

    def get_raw_url(self) -> str:
        return reverse("tablegen:stored", args=[self.pk])

    def get_delete_url(self) -> str:
        return reverse("tablegen:delete", args=[self.pk])

    def to_spec(self) -> TableSpec:
        """The table as the engine reads it; DamagedRecord if the stored one no longer reads.

        Read once per document: an edit reads its table, edits it and draws it again, and
        reading a 1,600-hex document takes milliseconds. The document is replaced, never
        changed in place, by every write (``set_spec``, ``refresh_from_db``), so the kept
        reading is the current one while the same document object and name are set."""
        rules = current_ruleset().table
        kept = self.__dict__.get("_read")
        if (
            kept is not None
            and kept[0] is self.document
            and kept[1] == self.name
            and kept[2] is rules
        ):
            spec: TableSpec = kept[3]
            return spec
        recalled = _recalled(self.pk, self.document, self.name, rules)
        if recalled is not None:
            spec = recalled
        else:
            try:
                spec = read_table_document(self.stored_document(), rules)
            except TableDocumentError as error:
                raise DamagedRecord(self, str(error)) from None
            # Kept for the next request that reads the same document: a shared table's
            # page read again (its line of fire from another hex), not only an edit.
            _remember(self.pk, self.document, self.name, rules, spec)
        self._read = (self.document, self.name, rules, spec)
        return spec

    def stored_document(self) -> Any:
        """The document as stored, with the name column (the one a rename writes) in it."""
        if isinstance(self.document, dict):
            return self.document | {"name": self.name}
        return self.document

    def set_spec(
        self,
        spec: TableSpec,
        report: TableReport | None = None,
        check: bool = True,
        before: Mapping[int, str] | None = None,
    ) -> TableReport | None:
        """Take the table from ``spec`` as the reader gives it back: TableDocumentError
        (nothing changed) if the document it makes would not read.

        The summary comes from `report`, or from checking the table when `check` (its
        report is returned), or stays as it was when only the name changed; otherwise it is
        left to the list of tables to fill in. `before`: the terrain before an edit, so that
        the check brings that table's kept line-of-fire state up to date (only the lines
        through the changed hexes) instead of checking every line again."""
        rules = current_ruleset().table
        written = table_document(spec)
        canonical = read_table_document(written, rules)
        # What the reader gives back is what was written, unless it mended something (a
        # name's spaces, the order of params): then the document is written again from it.
        same = canonical == spec and list(canonical.params) == list(spec.params)
        document = written if same else table_document(canonical)
        same_table = _without_name(document) == _without_name(self.document)
        self.name = canonical.name
        self.document = document
        # What reading the new document gives: the reader's own result, read back from the
        # document it wrote (tests hold the two equal).
        self._read = (document, self.name, rules, canonical)
        _remember(self.pk, document, self.name, rules, canonical)
        if report is None and check and not (same_table and self.summary_is_current()):
            report = check_table(canonical, rules, before=before)
        if report is not None:
            self.summary = _summary(report)
        elif not (same_table and self.summary_is_current()):
            self.summary = {}
        return report

    def summary_is_current(self) -> bool:
        summary = self.summary
        return isinstance(summary, dict) and summary.get("ruleset") == current_ruleset().version

    def store_summary(self, report: TableReport) -> None:
        """Keep the summary of a report made anyway (by a page showing the table). Derived
        data: no new version, and only over the version it was made from."""
        summary = _summary(report)
        if summary != self.summary:
            Table.objects.filter(pk=self.pk, version=self.version).update(summary=summary)
            self.summary = summary

    def save(self, *args: Any, **kwargs: Any) -> None:
        # The contract, for writes that skip set_spec: nothing the reader refuses is saved.
        read_table_document(self.stored_document(), current_ruleset().table)
        if not self._state.adding:
            super().save(*args, **kwargs)
            return
        # A new table counts in its owner's storage: StorageFull undoes it.
        with transaction.atomic():
            super().save(*args, **kwargs)
            self._measure()
            check_room(self)

    def record(
        self,
        spec: TableSpec,
        expected: int | None = None,
        before: Mapping[int, str] | None = None,
    ) -> TableReport | None:
        """Save a change, only if the table is still at version `expected` (the version the
        editing page showed; the one loaded when None): StaleVersion if it moved on since,
        TableDocumentError (nothing saved) if the change would not read back. Returns the
        table's report when the change needed a new one.

        A change that changes nothing (painting a hex the kind it has, a rename to the same
        name) saves nothing: no new version, and no undo step that would undo nothing."""
        expected = self.version if expected is None else expected
        if expected == self.version and self._reads_as(spec):
            return None
        previous = self.stored_document()
        report = self.set_spec(spec, before=before)
        # A table saved before its first edit gets its first revision now (``previous``),
        # so that the edit can be undone whichever way the table was made.
        self.record_revision(expected, previous=previous)
        # Known now without asking the database again (the editor's undo bar asks): the
        # revision before this one is there, none after it.
        self._steps = (self.version, True, False)
        return report

    def _reads_as(self, spec: TableSpec) -> bool:
        """Whether the table as stored reads as `spec` (False when it does not read)."""
        try:
            current = self.to_spec()
        except DamagedRecord:
            return False
        return current == spec and list(current.params) == list(spec.params)

    def written_fields(self) -> dict[str, Any]:
        """What an edit writes (accounts.history.WithHistory)."""
        self.updated = timezone.now()
        return {
            "name": self.name,
            "document": self.document,
            "summary": self.summary,
            "updated": self.updated,
        }

    def step(self, offset: int, expected: int | None = None) -> bool:
        """Undo (-1) or redo (+1) by moving to a saved revision (a new version, the same
        compare-and-swap as an edit); False, and nothing changed, when there is none. A
        saved revision that no longer reads (an older reader's) is repaired on the way."""
        expected = self.version if expected is None else expected
        target = self.revisions.filter(number=self.revision + offset).first()
        if target is None:
            return False
        spec, _ = repair_table_document(target.document, current_ruleset().table)
        self.set_spec(spec)
        self.step_to(target.number, expected)
        return True

    def _known_steps(self) -> tuple[bool, bool] | None:
        """(can undo, can redo) as this object's last edit left them, at its version."""
        known = self.__dict__.get("_steps")
        return known[1:] if known is not None and known[0] == self.version else None

    def can_undo(self) -> bool:
        known = self._known_steps()
        if known is not None:
            return known[0]
        return self.revisions.filter(number=self.revision - 1).exists()

    def can_redo(self) -> bool:
        known = self._known_steps()
        if known is not None:
            return known[1]
        return self.revisions.filter(number=self.revision + 1).exists()

    def paint(
        self,
        hexes: Iterable[Hex],
        kind: str | None,
        expected: int | None = None,
        symmetry: str = "none",
    ) -> TableReport | None:
        """Set the terrain of `hexes` to `kind` (None: open ground) as a new version, and with
        a symmetry ("point", "mirror") their image hexes too; EditError (nothing saved) for a
        hex off the table or an unknown kind, StaleVersion as ``record``."""
        old = self.to_spec()
        spec = paint(old, hexes, kind, current_ruleset().table, symmetry=symmetry or "none")
        return self.record(spec, expected, before=old.terrain)

    def cycle(
        self, hex_: Hex, expected: int | None = None, symmetry: str = "none"
    ) -> TableReport | None:
        """Move one hex on to the next kind: open, then each kind from the lowest up."""
        spec = self.to_spec()
        kind = spec.kind_at(hex_) if hex_ in spec.board else None
        return self.paint([hex_], next_kind(kind, current_ruleset().table), expected, symmetry)

    def stamp(
        self,
        piece_id: str,
        turn: int,
        anchor: Hex,
        expected: int | None = None,
        symmetry: str = "none",
    ) -> TableReport | None:
        """Set a library piece down, turned `turn` steps of 60 degrees with its anchor on
        `anchor`, over whatever was there (with a symmetry, its image too) as a new version;
        EditError (nothing saved) when it does not fit, StaleVersion as ``record``."""
        old = self.to_spec()
        spec = edits.stamp(old, _library(), piece_id, turn, anchor, symmetry=symmetry or "none")
        return self.record(spec, expected, before=old.terrain)

    def remove_piece(
        self, hex_: Hex, expected: int | None = None, symmetry: str = "none"
    ) -> TableReport | None:
        """Take away the whole piece on `hex_` (with a symmetry, the one on its image too) as
        a new version; EditError (nothing saved) when there is none there."""
        old = self.to_spec()
        spec = edits.remove_piece(old, hex_, symmetry=symmetry or "none")
        if spec.terrain == old.terrain:
            raise EditError(f"there is no piece on {hex_[0]},{hex_[1]}")
        return self.record(spec, expected, before=old.terrain)

    def rename(self, name: str, expected: int | None = None) -> None:
        self.record(replace(self.to_spec(), name=name), expected)

    def repair(self, expected: int | None = None) -> tuple[str, ...]:
        """Mend a table that no longer reads, as a new version: what was changed, one line
        each (nothing, and nothing saved, when it reads as it is)."""
        spec, changes = repair_table_document(self.stored_document(), current_ruleset().table)
        if changes:
            self.record(spec, expected)
        return changes


def _summary(report: TableReport) -> dict[str, Any]:
    return report_summary(report) | {"ruleset": current_ruleset().version}


def _without_name(document: object) -> object:
    if isinstance(document, dict):
        return {key: value for key, value in document.items() if key != "name"}
    return document


class TableRevision(RevisionBase):
    """One saved state of a table, for undo and redo."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="revisions")
    document = models.JSONField(encoder=DocumentEncoder, decoder=DocumentDecoder)

    class Meta(RevisionBase.Meta):
        constraints = [
            models.UniqueConstraint(
                fields=["table", "number"], name="one_revision_number_per_table"
            )
        ]

    def __str__(self) -> str:
        return f"{self.table_id} revision {self.number}"


class Pack(Owned, Shareable, Versioned):
    # What it stores, for its owner's storage (accounts.storage): its tables, the parts of
    # its PDF being made, the PDF.
    storage_field = "stored_bytes"

    """A tournament pack: its tables generated a step at a time, then its setup sheets
    rendered a few at a time and put together once into the PDF kept for download (see
    tablegen.packs.steps). Each step is a compare-and-swap on `version`, so two pages polling
    one pack cannot both keep their work."""

    quota = Quota("packs", browser=10, account=50)

    name = models.CharField(max_length=120)
    count = models.PositiveIntegerField()
    params = models.JSONField()
    # The generator's state between steps, and the accepted tables as documents.
    state = models.JSONField(default=dict)
    tables = models.JSONField(default=list)
    # How many tables are made: len(tables), kept so that listing packs loads no tables.
    made = models.PositiveIntegerField(default=0)
    # How many setup sheets are rendered (kept as PackPart rows until put together).
    printed = models.PositiveIntegerField(default=0)
    # The finished PDF and its size in bytes (0 until it is made; pdf is never listed).
    pdf = models.BinaryField(null=True, blank=True, editable=False)
    pdf_bytes = models.PositiveIntegerField(default=0)
    stored_bytes = models.PositiveBigIntegerField(default=0)
    # Its version (accounts.history.Versioned) grows by one on every step: the
    # compare-and-swap between two pages polling at once.
    error = models.TextField(blank=True)
    created = models.DateTimeField(auto_now_add=True)
    # The owner's tables copied from the pack's for editing: table number (text) -> Table id.
    copies = models.JSONField(default=dict)

    objects = OwnedQuerySet["Pack"].as_manager()

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        # Its tables are named after it: the same text rule as every table name.
        self.name = read_name(self.name, "name", "Tournament pack")
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("tablegen:pack", args=[self.pk])

    def get_repair_url(self) -> str:
        return reverse("tablegen:pack-repair", args=[self.pk])

    def get_raw_url(self) -> str:
        return reverse("tablegen:pack-zip", args=[self.pk])

    def get_delete_url(self) -> str:
        return reverse("tablegen:pack-delete", args=[self.pk])

    def get_share_url(self) -> str:
        return reverse("tablegen:pack-shared", args=[self.share_code])

    @classmethod
    def start(cls, name: str, count: int, params: Parameters, **owner: Any) -> Pack:
        """A new pack, its tables still to be made (by the worker: tablegen.jobs);
        StorageFull (nothing made) when its owner's storage is already full."""
        with transaction.atomic():
            pack = cls.objects.create(
                name=name,
                count=count,
                params={"seed": params.seed, **params.as_dict()},
                state=PackState(seed=params.seed).as_json(),
                **owner,
            )
            check_room(pack)
        return pack

    def measure(self) -> None:
        """Keep ``stored_bytes`` level with the pack's tables, PDF parts and PDF (a pack is
        bounded by its 200 tables: it is counted, never refused, as it is made)."""
        parts = self.parts.aggregate(total=Sum(Length("pdf")))["total"] or 0
        self.stored_bytes = document_size(self.tables) + self.pdf_bytes + int(parts)
        Pack.objects.filter(pk=self.pk).update(stored_bytes=self.stored_bytes)

    def progress(self) -> str:
        """What is being made, for a download asked for before it exists."""
        if self.made < self.count:
            return (
                f"The pack is being made: {self.made} of {self.count} tables. "
                "Its downloads are here when it is finished."
            )
        return (
            f"The PDF is being made: {self.printed} of {self.count} sheets. "
            "It is here to download when it is finished."
        )

    def zip_of_tables(self) -> bytes:
        """The pack's tables as stored, one JSON file each (also when they no longer read)."""
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            for number, document in enumerate(self.tables, start=1):
                seed = document.get("seed") if isinstance(document, dict) else None
                archive.writestr(
                    f"table-{number:03d}-seed-{seed if isinstance(seed, int) else 'none'}.json",
                    json.dumps(document, indent=2),
                )
        return buffer.getvalue()

    def check_name(self) -> None:
        """DamagedRecord if the stored name no longer reads (its tables are named after it)."""
        try:
            read_name(self.name, "name")
        except TableDocumentError as error:
            raise DamagedRecord(self, str(error)) from None

    @property
    def done(self) -> bool:
        return self.made >= self.count or bool(self.error)

    @property
    def percent(self) -> int:
        return int(100 * self.made / self.count) if self.count else 100

    def swap_if_unmoved(self, **fields: Any) -> bool:
        """Write ``fields`` only if no other request moved the pack on since it was read (its
        version grows by one); the pack is read again either way (tablegen.packs.steps)."""
        try:
            self.swap(self.version, **fields)
            changed = True
        except StaleVersion:
            changed = False
        self.refresh_from_db()
        return changed

    @property
    def pdf_ready(self) -> bool:
        return self.pdf_bytes > 0

    @property
    def stage(self) -> str:
        """Where the making of the pack stands, for its page."""
        if self.measured < self.made:
            return "measuring"
        if self.error:
            return "stopped"
        if self.made < self.count:
            return "generating"
        if self.printed < self.made:
            return "printing"
        return "ready" if self.pdf_ready else "putting-together"

    @property
    def summaries(self) -> list[Any]:
        """Each table's key metrics and the values the pack keeps close (see
        tablegen.engine.balance), in the order of `tables`, with the ruleset they were
        measured under: kept when a table is made, so the pack's page checks no table. They
        live in `state`, which the list of packs does not load."""
        state = self.state if isinstance(self.state, dict) else {}
        summaries = state.get("summaries")
        return summaries if isinstance(summaries, list) else []

    def state_with(self, summaries: list[Any]) -> dict[str, Any]:
        """The stored state with `summaries` in it."""
        return (self.state if isinstance(self.state, dict) else {}) | {"summaries": summaries}

    @property
    def measured(self) -> int:
        """How many of the made tables have their summary, under the current ruleset (the
        first ones: they are measured in order)."""
        version = current_ruleset().version
        count = 0
        for summary in self.summaries[: self.made]:
            if not (isinstance(summary, dict) and summary.get("ruleset") == version):
                break
            count += 1
        return count

    def table_spec(self, number: int) -> TableSpec:
        """Table `number` (from 1) as the engine reads it: IndexError if the pack has no such
        table, DamagedRecord if it no longer reads."""
        self.check_name()
        if not isinstance(self.tables, list):
            raise DamagedRecord(self, "its tables are not a list")
        if not 1 <= number <= len(self.tables):
            raise IndexError(number)
        try:
            return read_table_document(self.tables[number - 1], current_ruleset().table)
        except TableDocumentError as error:
            raise DamagedRecord(self, f"table {number}: {error}") from None

    def table_specs(self) -> list[TableSpec]:
        """The pack's tables as the engine reads them; DamagedRecord if one no longer reads."""
        self.check_name()
        rules = current_ruleset().table
        if not isinstance(self.tables, list):
            raise DamagedRecord(self, "its tables are not a list")
        specs = []
        for number, document in enumerate(self.tables, start=1):
            try:
                specs.append(read_table_document(document, rules))
            except TableDocumentError as error:
                raise DamagedRecord(self, f"table {number}: {error}") from None
        return specs

    def repair(self) -> tuple[str, ...]:
        """Mend a pack whose name or tables no longer read: what was changed, one line each."""
        rules = current_ruleset().table
        changes: list[str] = []
        name = repair_name(self.name, changes, "Tournament pack")
        stored = self.tables if isinstance(self.tables, list) else []
        if not isinstance(self.tables, list):
            changes.append("tables: not a list, dropped (they are made again)")
        tables = []
        for number, document in enumerate(stored, start=1):
            spec, table_changes = repair_table_document(document, rules)
            changes += [f"table {number}: {change}" for change in table_changes]
            tables.append(table_document(spec))
        if changes:
            # The sheets and PDF were made from what was stored: they are made again.
            with transaction.atomic():
                Pack.objects.filter(pk=self.pk).update(
                    name=name,
                    tables=tables,
                    made=len(tables),
                    printed=0,
                    pdf=None,
                    pdf_bytes=0,
                    # Measured again from the tables as repaired (a step of the page).
                    state=self.state_with([]),
                    version=F("version") + 1,
                )
                self.parts.all().delete()
            self.refresh_from_db()
            self.measure()
        return tuple(changes)

    def replace_table(self, number: int, spec: TableSpec, summary: dict[str, Any]) -> None:
        """Put `spec` (measured as `summary`) in the place of table `number`, as loaded: a
        compare-and-swap on the pack's version (StaleVersion, nothing changed, if another
        request moved the pack on since it was loaded). The setup sheets and the PDF were
        made from the old table: they are made again. The caller has checked that `spec`
        fits the pack (tablegen.packs.comparison.fit_problems)."""
        rules = current_ruleset().table
        document = table_document(read_table_document(table_document(spec), rules))
        tables = list(self.tables)
        tables[number - 1] = document
        summaries = aligned(self.summaries, len(tables))
        summaries[number - 1] = summary
        with transaction.atomic():
            self.swap(
                self.version,
                tables=tables,
                state=self.state_with(summaries),
                printed=0,
                pdf=None,
                pdf_bytes=0,
            )
            self.parts.all().delete()
        self.refresh_from_db()
        self.measure()

    def remember_copy(self, number: int, table: Table) -> None:
        """Note the owner's copy of table `number`, so the pack's page can offer to put it
        back. Not a step of the pack (no new version): a note beside its tables, written
        alone so that it never undoes a step."""
        copies = dict(self.copies) if isinstance(self.copies, dict) else {}
        copies[str(number)] = table.pk
        Pack.objects.filter(pk=self.pk).update(copies=copies)
        self.copies = copies

    def copy_of(self, number: int) -> int | None:
        """The id of the table last copied from table `number`, if any (it may be gone)."""
        found = self.copies.get(str(number)) if isinstance(self.copies, dict) else None
        return found if isinstance(found, int) else None


class PackPart(models.Model):
    """A few consecutive setup sheets of a pack, as one PDF, kept until the pack's PDF is
    put together from its parts."""

    pack = models.ForeignKey(Pack, on_delete=models.CASCADE, related_name="parts")
    first = models.PositiveIntegerField()  # the number in the pack of its first table, from 1
    sheets = models.PositiveIntegerField()
    pdf = models.BinaryField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["pack", "first"], name="one_part_per_pack_table")
        ]
        ordering = ["first"]

    def __str__(self) -> str:
        return f"{self.pack_id} sheets {self.first} to {self.first + self.sheets - 1}"


class TerrainBox(Owned):
    """The terrain an organizer owns: how many of each library piece. Generation, packs and
    `generate_table --box` use no more than that. Kept as its counts, read back through the
    box reader (tablegen.engine.boxes) on every write and read."""

    quota = Quota("terrain boxes", browser=5, account=20)

    name = models.CharField(max_length=120)
    pieces = models.JSONField(default=dict)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    objects = OwnedQuerySet["TerrainBox"].as_manager()

    class Meta:
        ordering = ["name", "pk"]
        verbose_name = "terrain box"
        verbose_name_plural = "terrain boxes"

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tablegen:box", args=[self.pk])

    def to_box(self) -> Box:
        """The box as the engine reads it; DamagedRecord if the stored one no longer reads
        (a piece taken out of the library, say)."""
        try:
            return read_box_document(self.document(), _library())
        except BoxError as error:
            raise DamagedRecord(self, str(error)) from None

    def document(self) -> dict[str, Any]:
        return {
            "format": BOX_FORMAT,
            "version": BOX_VERSION,
            "name": self.name,
            "pieces": self.pieces,
        }

    def set_box(self, box: Box) -> None:
        """Take the name and counts of `box`, as the reader gives them back (BoxError, and
        nothing changed, if they would not read)."""
        canonical = read_box_document(box_document(box), _library())
        self.name, self.pieces = canonical.name, canonical.pieces

    def save(self, *args: Any, **kwargs: Any) -> None:
        read_box_document(self.document(), _library())  # the contract, for any write
        super().save(*args, **kwargs)

    @property
    def piece_count(self) -> int:
        """How many pieces it holds, all kinds together."""
        return sum(n for n in self.pieces.values() if isinstance(n, int))

    def encoded(self) -> str:
        """Its counts as the generate page's and pack form's choice carries them."""
        return encode_counts(self.pieces)


def _library() -> TerrainLibrary:
    return terrain_library(tuple(current_ruleset().table.terrain))
