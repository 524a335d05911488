"""Events: an organizer's tournament, the players' entries with their submitted lists, and
the rounds with their tables and pairings.

An entry's submitted list is kept as a snapshot (the force document as the event reads
it, with its verdict). Until the entry is locked the snapshot follows the player's live
list: it is checked again whenever a page looks at it and the list or the event's rules
changed. Locking freezes it; later edits to the live list no longer reach it, and the
organizer's pages say when the two differ.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import models, transaction
from django.db.models import Q, Sum
from django.urls import reverse
from django.utils import timezone

from accounts.history import Versioned, document_size
from accounts.ownership import (
    DamagedRecord,
    Owned,
    OwnedQuerySet,
    Quota,
    StaleVersion,
    new_share_code,
)
from accounts.storage import check_room
from events.checking import Checked, check_for_event
from forcebuilder.models import Force
from onefinity.http import stale_words
from onefinity.rules import ForceDocumentError, ForceSpec, current_ruleset, read_force_document
from onefinity.wording import problem_in_words
from tablegen.engine.tables import TableDocumentError, TableSpec, read_table_document

# The bounds of an event, at the door and in the database.
MAX_NAME_LENGTH = 120
MAX_NOTES_LENGTH = 4000
MAX_ROUNDS = 10
MAX_ENTRIES = 256
MAX_TABLES_PER_ROUND = MAX_ENTRIES // 2


class EventRefusal(Exception):
    """Something a player or organizer asked for that cannot be done; the message says
    why and what to do. Nothing was changed."""


class StaleEvent(EventRefusal):
    """The page that sent the change was drawn before another change (another tab)."""


class EventVersioned(Versioned):
    """An event's record with the shared version (accounts.history.Versioned): every write a
    compare-and-swap; a stale one is a StaleEvent in the record's own words."""

    class Meta:
        abstract = True

    def stale_name(self) -> str:
        return "This event"

    def swap(self, expected: int, **fields: Any) -> None:
        try:
            super().swap(expected, **fields)
        except StaleVersion:
            raise StaleEvent(stale_words(self.stale_name())) from None


class EventQuerySet(OwnedQuerySet["Event"]):
    pass


@dataclass(frozen=True)
class Locked:
    """What locking an event did: the submitted lists it froze, and the players it locked
    who had submitted none (registered players are counted apart from lists)."""

    lists: int
    without_list: int

    def __str__(self) -> str:
        said = f"{self.lists} list{'s' if self.lists != 1 else ''} frozen now"
        if self.without_list:
            players = "player has" if self.without_list == 1 else "players have"
            said += f"; {self.without_list} {players} submitted none"
        return said


class Event(Owned, Versioned):
    """A tournament, owned by its organizer. Only accounts organize events. Its version
    (accounts.history.Versioned) grows on every change of its settings."""

    quota = Quota("events", browser=0, account=50)
    # What it stores, for its organizer's storage (accounts.storage): its players' lists
    # and its rounds' tables.
    storage_field = "stored_bytes"

    name = models.CharField(max_length=MAX_NAME_LENGTH)
    date = models.DateField()
    points_limit = models.PositiveIntegerField()
    ruleset_version = models.CharField(max_length=80)
    round_count = models.PositiveSmallIntegerField(default=3)
    notes = models.TextField(blank=True, max_length=MAX_NOTES_LENGTH)
    join_code = models.CharField(max_length=32, unique=True, default=new_share_code)
    # Set while the whole event is locked: nobody joins, every entry was locked with it.
    locked_at = models.DateTimeField(null=True, blank=True)
    lists_published = models.BooleanField(default=False)
    # Set when the organizer publishes the final standings: every round is closed, and
    # only the organizer's logged corrections change a result from then on.
    finished_at = models.DateTimeField(null=True, blank=True)
    # The round clock's length, asked once per event (the organizer's last choice).
    round_minutes = models.PositiveSmallIntegerField(null=True, blank=True)
    stored_bytes = models.PositiveBigIntegerField(default=0)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    objects = EventQuerySet.as_manager()

    class Meta:
        ordering = ["-date", "-created"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("events:dashboard", args=[self.pk])

    def get_join_url(self) -> str:
        return reverse("events:join", args=[self.join_code])

    @property
    def locked(self) -> bool:
        return self.locked_at is not None

    @property
    def rules_key(self) -> str:
        """What a snapshot was checked against: a change re-checks every open entry."""
        return f"{self.ruleset_version}:{self.points_limit}"

    @classmethod
    def create(cls, **fields: Any) -> Event:
        with transaction.atomic():
            event = cls.objects.create(**fields)
            Round.objects.bulk_create(
                Round(event=event, number=n) for n in range(1, event.round_count + 1)
            )
        return event

    def update_settings(self, expected: int, **fields: Any) -> None:
        """Save new settings if the event is still at version ``expected``; StaleEvent
        otherwise, EventRefusal (nothing saved) when a change is not allowed now."""
        with transaction.atomic():
            current = Event.objects.select_for_update().get(pk=self.pk)
            if current.version != expected:
                raise StaleEvent(stale_words("This event"))
            rules_change = (
                fields["points_limit"] != current.points_limit
                or fields["ruleset_version"] != current.ruleset_version
            )
            if rules_change and current.entries.filter(locked_at__isnull=False).exists():
                raise EventRefusal(
                    "Lists are locked: unlock every list before changing the points limit or "
                    "the ruleset (locked lists were checked under the old rules)."
                )
            rounds = fields["round_count"]
            dropped = current.rounds.filter(number__gt=rounds)
            busy = [r.number for r in dropped if r.table_names or r.pairings.exists()]
            if busy:
                raise EventRefusal(
                    f"Round {busy[0]} has tables or pairings: clear them before dropping it."
                )
            dropped.delete()
            have = set(current.rounds.values_list("number", flat=True))
            Round.objects.bulk_create(
                Round(event=current, number=n) for n in range(1, rounds + 1) if n not in have
            )
            current.swap(expected, **fields, updated=timezone.now())
        self.refresh_from_db()

    def measure(self, check: bool = True) -> None:
        """Keep ``stored_bytes`` level with the players' lists and the rounds' tables, and
        (``check``) StorageFull, inside the caller's transaction, if the organizer's storage
        is past its bound."""
        entries = self.entries.aggregate(total=Sum("document_bytes"))["total"] or 0
        rounds = self.rounds.aggregate(total=Sum("tables_bytes"))["total"] or 0
        self.stored_bytes = int(entries) + int(rounds)
        Event.objects.filter(pk=self.pk).update(stored_bytes=self.stored_bytes)
        if check:
            check_room(self)

    def new_join_code(self) -> None:
        """A new join link; the old one stops working (a leaked link is revoked)."""
        self.join_code = new_share_code()
        Event.objects.filter(pk=self.pk).update(join_code=self.join_code)

    # --- joining, locking ----------------------------------------------------------------

    def join(self, player: Any) -> Entry:
        with transaction.atomic():
            event = Event.objects.select_for_update().get(pk=self.pk)
            if event.entries.filter(player=player).exists():
                raise EventRefusal(f"You have already joined {event.name}.")
            if event.locked:
                raise EventRefusal(
                    f"{event.name} is locked: the organizer is not taking new players."
                )
            if event.entries.count() >= MAX_ENTRIES:
                raise EventRefusal(f"{event.name} is full: an event holds {MAX_ENTRIES} players.")
            if Result.objects.filter(
                pairing__round__event=event, pairing__round__number=1
            ).exists():
                raise EventRefusal(
                    f"{event.name} has started: players join only before round 1 is played."
                )
            return Entry.objects.create(event=event, player=player)

    def add_late_player(self, player: Any) -> Entry:
        """The organizer adds a player after the lock (or whenever): their entry is open,
        so they submit a list that is checked as everyone's; the organizer locks it."""
        with transaction.atomic():
            event = Event.objects.select_for_update().get(pk=self.pk)
            if event.owner_id == player.pk:
                raise EventRefusal("You organize this event: you cannot also play in it.")
            if event.entries.filter(player=player).exists():
                raise EventRefusal(f"{player.get_username()} is already in {event.name}.")
            if event.entries.count() >= MAX_ENTRIES:
                raise EventRefusal(f"{event.name} is full: an event holds {MAX_ENTRIES} players.")
            return Entry.objects.create(event=event, player=player)

    def lock_all(self) -> Locked:
        """Lock the event and every entry, freezing each submitted list as it stands now;
        how many lists were newly frozen, and how many players newly locked had none."""
        with transaction.atomic():
            event = Event.objects.select_for_update().get(pk=self.pk)
            now = timezone.now()
            lists = without_list = 0
            for entry in event.entries.select_for_update(of=("self",)).select_related("force"):
                if entry.locked_at is None:
                    entry.freeze(event, now)
                    if entry.submitted:
                        lists += 1
                    else:
                        without_list += 1
            Event.objects.filter(pk=self.pk).update(locked_at=now)
            self.locked_at = now
        return Locked(lists, without_list)

    def unlock_all(self) -> int:
        """Every player may change their list again; the list reveal closes with it (a
        reveal shows only locked lists). One transaction, the event's row held as locking
        holds it: every entry is written by its own swap (accounts.history.Versioned), so
        every entry's version moves and a page drawn before is refused as stale. How many
        entries were locked."""
        with transaction.atomic():
            event = Event.objects.select_for_update().get(pk=self.pk)
            unlocked = 0
            held = event.entries.select_for_update(of=("self",)).only("pk", "version", "locked_at")
            for entry in held:
                unlocked += entry.locked
                entry.swap(entry.version, locked_at=None)  # the row is held
            Event.objects.filter(pk=self.pk).update(locked_at=None, lists_published=False)
        self.locked_at = None
        self.lists_published = False
        return unlocked

    def set_lists_published(self, published: bool) -> None:
        with transaction.atomic():
            event = Event.objects.select_for_update().get(pk=self.pk)
            if published and not event.locked:
                raise EventRefusal("Lock the event before publishing its lists.")
            Event.objects.filter(pk=self.pk).update(lists_published=published)
        self.lists_published = published

    # --- what the organizer's pages read -------------------------------------------------

    def refresh_open_entries(self) -> None:
        """Check again every open entry whose list or rules changed since its snapshot."""
        open_entries = self.entries.filter(locked_at__isnull=True, force__isnull=False)
        for entry in open_entries.select_related("force"):
            entry.follow_live_list(self)


class Entry(EventVersioned):
    """One player in one event: registered on joining, with their submitted list (a
    snapshot of one of their lists, checked for the event) once they submit."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="entries")
    # NULL once the player deleted their account after the event locked their list or
    # paired them: the entry stays with the event under ``departed_name`` (see depart()).
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="event_entries",
    )
    departed_name = models.CharField(max_length=40, blank=True)
    departed_at = models.DateTimeField(null=True, blank=True)
    # The snapshot's own read-only link (its printed roster's QR code).
    code = models.CharField(max_length=32, unique=True, default=new_share_code)
    joined_at = models.DateTimeField(auto_now_add=True)
    # The player's live list; NULL once they delete it (the snapshot stays).
    force = models.ForeignKey(
        Force, null=True, blank=True, on_delete=models.SET_NULL, related_name="event_entries"
    )
    # The snapshot, and what it was taken from: the list's version and the event's rules.
    document = models.JSONField(null=True, blank=True)
    force_version = models.PositiveBigIntegerField(null=True, blank=True)
    checked_rules = models.CharField(max_length=120, blank=True)
    list_name = models.CharField(max_length=120, blank=True)
    faction = models.CharField(max_length=80, blank=True)
    points = models.PositiveIntegerField(null=True, blank=True)
    # The snapshot's size in bytes, for the organizer's storage.
    document_bytes = models.PositiveIntegerField(default=0)
    legal = models.BooleanField(null=True, blank=True)
    issues = models.JSONField(default=list, blank=True)
    # The player submitted it knowing it was not legal (the organizer sees the warning).
    accepted_problems = models.BooleanField(default=False)
    submitted_at = models.DateTimeField(null=True, blank=True)
    changed_at = models.DateTimeField(null=True, blank=True)
    locked_at = models.DateTimeField(null=True, blank=True)
    # The round this player checked in for (the next one to be paired when they did); once
    # anyone is checked in for a round, that round pairs only the checked-in players.
    checked_in_for = models.PositiveSmallIntegerField(null=True, blank=True)
    # (``version``, from Versioned: a snapshot check never overwrites a newer write.)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="one_entry_per_player")
        ]
        ordering = ["joined_at", "pk"]
        verbose_name_plural = "entries"

    def __str__(self) -> str:
        return f"{self.player} in {self.event_id}"

    def stale_name(self) -> str:
        return f"{self.player_name}'s entry"

    def get_snapshot_url(self) -> str:
        return reverse("events:snapshot", args=[self.event_id, self.code])

    @property
    def player_name(self) -> str:
        if self.player is None:
            return self.departed_name
        return str(self.player.get_username())

    @property
    def departed(self) -> bool:
        return self.departed_at is not None

    @property
    def stays_without_its_player(self) -> bool:
        """Whether the event needs this entry after its player leaves the site: its list
        is locked (the organizer's record of what was played) or it is paired."""
        return self.locked or Pairing.objects.filter(Q(player_a=self) | Q(player_b=self)).exists()

    def depart(self) -> None:
        """The player deleted their account: keep the entry for the event under a neutral
        name ("Departed player 2"), with nothing personal left (no account, no live list,
        the list's own name replaced); its locked list, pairings and results stay, and
        the organizer sees that it departed."""
        number = self.event.entries.exclude(departed_at=None).count() + 1
        name = f"Departed player {number}"
        document = dict(self.document) if isinstance(self.document, dict) else self.document
        if isinstance(document, dict) and "name" in document:
            document["name"] = f"List of {name.lower()}"
        with transaction.atomic():
            held = Entry.objects.select_for_update().get(pk=self.pk)
            held.swap(
                held.version,
                player=None,
                force=None,
                departed_name=name,
                departed_at=timezone.now(),
                document=document,
                list_name=f"List of {name.lower()}" if self.list_name else "",
            )

    @property
    def submitted(self) -> bool:
        return self.document is not None

    @property
    def locked(self) -> bool:
        return self.locked_at is not None

    @property
    def errors(self) -> list[dict[str, Any]]:
        return [i for i in self.issues if isinstance(i, dict) and i.get("severity") == "error"]

    def snapshot_spec(self) -> ForceSpec:
        """The submitted list as stored; DamagedRecord if it no longer reads."""
        try:
            return read_force_document(self.document)
        except ForceDocumentError as error:
            raise DamagedRecord(self, problem_in_words(error)) from None

    def _snapshot_fields(self, checked: Checked, force: Force, rules_key: str) -> dict[str, Any]:
        changed = checked.document != self.document
        return {
            "document": checked.document,
            "document_bytes": document_size(checked.document),
            "force_version": force.version,
            "checked_rules": rules_key,
            "list_name": checked.spec.name,
            "faction": checked.spec.faction,
            "points": checked.points,
            "legal": checked.legal,
            "issues": checked.issue_dicts(),
            "changed_at": timezone.now() if changed else self.changed_at,
        }

    def _apply(self, fields: dict[str, Any]) -> None:
        for name, value in fields.items():
            setattr(self, name, value)

    def follow_live_list(self, event: Event) -> None:
        """While open, keep the snapshot level with the live list: check it again if the
        list or the event's rules changed. Written only if nothing else wrote the entry
        meanwhile (a lock, a new submission), so it never undoes a newer write."""
        force = self.force
        if self.locked or force is None:
            return
        if force.version == self.force_version and self.checked_rules == event.rules_key:
            return
        try:
            checked = check_for_event(force.to_spec(), event.ruleset_version, event.points_limit)
        except (DamagedRecord, ForceDocumentError):
            return  # the live list does not read: the last good snapshot stands
        fields = self._snapshot_fields(checked, force, event.rules_key)
        if Entry.objects.filter(pk=self.pk, locked_at=None).exists():
            try:
                self.swap(self.version, **fields)
            except StaleEvent:
                return  # another write came first: it stands
            event.measure(check=False)  # a page view following a list refuses nothing

    def freeze(self, event: Event, when: Any) -> None:
        """Lock the entry (inside the caller's transaction, the rows held): the snapshot
        is taken from the live list one last time, then kept as it is."""
        fields: dict[str, Any] = {"locked_at": when}
        if self.force is not None and self.submitted:
            try:
                checked = check_for_event(
                    self.force.to_spec(), event.ruleset_version, event.points_limit
                )
            except (DamagedRecord, ForceDocumentError):
                pass  # the live list does not read: the last good snapshot is frozen
            else:
                fields |= self._snapshot_fields(checked, self.force, event.rules_key)
        self.swap(self.version, **fields)  # the row is held by the caller

    def live_differs(self) -> bool:
        """A locked entry whose live list has been changed since the lock (as the event
        reads it: renaming a unit counts, the list's own points limit does not)."""
        if not self.locked or self.force is None or not self.submitted:
            return False
        if self.force.version == self.force_version:
            return False
        try:
            spec = self.force.to_spec()
        except DamagedRecord:
            return True
        checked = check_for_event(spec, self.event.ruleset_version, self.event.points_limit)
        return checked.document != self.document

    # --- what the player does ------------------------------------------------------------

    def submit(self, force: Force, accept_problems: bool) -> Checked:
        """Submit (or replace) the entry's list. EventRefusal, nothing saved, when the
        entry is locked, the list is over the event's points limit, or it is not legal and
        the player did not accept that. The checks run with the event and the entry held,
        so a lock arriving at the same moment either comes first (and this is refused) or
        freezes what this saved."""
        with transaction.atomic():
            event = Event.objects.select_for_update().get(pk=self.event_id)
            entry = Entry.objects.select_for_update().get(pk=self.pk)
            if entry.locked:
                raise EventRefusal(
                    "Your list is locked: the organizer has frozen the lists, so nothing was "
                    "submitted. Ask the organizer to unlock your entry."
                )
            try:
                checked = check_for_event(
                    force.to_spec(), event.ruleset_version, event.points_limit
                )
            except DamagedRecord as damaged:
                raise EventRefusal(
                    f"{force.name} no longer reads ({damaged.problem}); open it and repair it "
                    "first. Nothing was submitted."
                ) from None
            if checked.refused:
                # The event's ruleset is no longer shipped: nothing can be checked, so nothing
                # is accepted, whatever the player ticked.
                raise EventRefusal(str(checked.issues[0].message) + " Nothing was submitted.")
            if checked.over_limit:
                raise EventRefusal(
                    f"{checked.spec.name} costs {checked.points} points; {event.name} allows "
                    f"{event.points_limit}. Nothing was submitted: remove "
                    f"{checked.points - event.points_limit} points and submit again."
                )
            if not checked.legal and not accept_problems:
                raise EventRefusal(
                    f"{checked.spec.name} is not legal for {event.name}. Nothing was "
                    "submitted: fix the problems, or submit it anyway and the organizer "
                    "will see them."
                )
            entry.force = force
            fields = entry._snapshot_fields(checked, force, event.rules_key)
            fields |= {
                "force": force,
                "accepted_problems": not checked.legal,
                "submitted_at": timezone.now(),
                "changed_at": timezone.now(),
            }
            entry.swap(entry.version, **fields)  # the row is held
            # The organizer's storage holds the players' lists: StorageFull undoes this.
            event.measure()
        self._apply(fields)
        self.version = entry.version
        return checked

    def withdraw(self) -> None:
        """Take the submitted list back (the player stays registered)."""
        with transaction.atomic():
            entry = Entry.objects.select_for_update().get(pk=self.pk)
            if entry.locked:
                raise EventRefusal("Your list is locked: it cannot be withdrawn now.")
            fields: dict[str, Any] = {
                "force": None,
                "document": None,
                "force_version": None,
                "checked_rules": "",
                "list_name": "",
                "faction": "",
                "points": None,
                "legal": None,
                "issues": [],
                "accepted_problems": False,
                "submitted_at": None,
                "changed_at": timezone.now(),
            }
            entry.swap(entry.version, **fields)  # the row is held
        self._apply(fields)

    # --- what the organizer does to one entry (leaving and removing: events.commands) -----

    def lock(self, expected: int | None = None) -> None:
        """Freeze this player's list now. ``expected``: the entry's version the organizer's
        page showed (StaleEvent, nothing changed, if the entry moved since: a lock or unlock
        of every list, a new submission); None for the code's own callers."""
        with transaction.atomic():
            event = Event.objects.select_for_update().get(pk=self.event_id)
            entry = (
                Entry.objects.select_for_update(of=("self",))
                .select_related("force")
                .get(pk=self.pk)
            )
            entry.check_version(expected)
            if not entry.locked:
                entry.freeze(event, timezone.now())
        self.refresh_from_db()

    def unlock(self, expected: int | None = None) -> None:
        """This player may change their list again, even while the event stays locked
        (``expected`` as for lock)."""
        with transaction.atomic():
            entry = Entry.objects.select_for_update().get(pk=self.pk)
            entry.check_version(expected)
            entry.swap(entry.version, locked_at=None)
        self.refresh_from_db()

    def check_version(self, expected: int | None) -> None:
        """StaleEvent unless the page's version is this (held) entry's."""
        if expected is not None and expected != self.version:
            raise StaleEvent(stale_words(self.stale_name()))


# How a pack names its tables ("Spring pack 3 (seed 8812)", tablegen.engine.packs).
SEED_SUFFIX = re.compile(r"\s*\(seed -?\d+\)\s*$")


def table_key(document: Any) -> str:
    """What makes two tables the same table: their map (the document without its name)."""
    if isinstance(document, dict):
        document = {k: v for k, v in document.items() if k != "name"}
    text = json.dumps(document, sort_keys=True, separators=(",", ":"), default=str)
    return "map " + hashlib.sha256(text.encode()).hexdigest()[:24]


class Round(EventVersioned):
    """One round of an event: its tables (copied in from a pack or saved tables, so later
    changes to those do not move a printed round) and its pairings. Its version
    (accounts.history.Versioned) grows on every change of its tables or pairings."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    tables = models.JSONField(default=list, blank=True)  # table documents, table 1 first
    # Read from the documents whenever they are set (set_tables), so that pages which show
    # only names or need only which map each table is never read 100 painted boards: each
    # table's name, and what makes two tables the same table (table_key).
    table_names = models.JSONField(default=list, blank=True)
    table_keys = models.JSONField(default=list, blank=True)
    tables_source = models.CharField(max_length=200, blank=True)
    published = models.BooleanField(default=False)
    # Set when the organizer closes the round (or pairs the next one, or finishes the
    # event): its results are settled; a player's report is refused from then on.
    closed_at = models.DateTimeField(null=True, blank=True)
    # When the organizer opened check-in for this round (at the venue): from then on a
    # player can check in from their phone, and the round pairs only the checked-in.
    check_in_opened_at = models.DateTimeField(null=True, blank=True)
    # The round clock's end, once the organizer starts it.
    ends_at = models.DateTimeField(null=True, blank=True)
    # The tables' size in bytes, for the organizer's storage.
    tables_bytes = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="one_round_number_per_event")
        ]
        ordering = ["number"]

    def __str__(self) -> str:
        return f"Round {self.number}"

    def get_absolute_url(self) -> str:
        return reverse("events:round", args=[self.event_id, self.number])

    @property
    def table_count(self) -> int:
        return len(self.table_names)

    def table_document(self, number: int) -> Any:
        """Table ``number``'s stored document (None: no such table), reading that one
        document alone when the round was loaded without its tables."""
        if not 1 <= number <= self.table_count:
            return None
        if "tables" not in self.get_deferred_fields():
            return self.tables[number - 1] if number <= len(self.tables) else None
        return (
            Round.objects.filter(pk=self.pk).values_list(f"tables__{number - 1}", flat=True).first()
        )

    def table_spec(self, number: int) -> TableSpec | None:
        """Table ``number`` (from 1) of this round; None when the round has no such table;
        TableDocumentError if its stored document no longer reads."""
        document = self.table_document(number)
        if document is None:
            return None
        return read_table_document(document, current_ruleset().table)

    def table_name(self, number: int) -> str:
        """The table's name as players read it: a pack's "(seed 8812)" is the generator's
        business, not theirs."""
        if 1 <= number <= self.table_count:
            name = SEED_SUFFIX.sub("", str(self.table_names[number - 1]))
            return name[:MAX_NAME_LENGTH] or f"Table {number}"
        return f"Table {number}"

    @staticmethod
    def tables_fields(documents: list[Any]) -> dict[str, Any]:
        """The columns a round's tables set: the documents, and their names and keys."""
        return {
            "tables": documents,
            "table_names": [
                str(d["name"])[:MAX_NAME_LENGTH]
                if isinstance(d, dict) and isinstance(d.get("name"), str)
                else f"Table {n}"
                for n, d in enumerate(documents, start=1)
            ],
            "table_keys": [table_key(d) for d in documents],
        }

    def stale_name(self) -> str:
        # Two organizer tabs cannot both win: the second reads the round's own words.
        return f"Round {self.number}"

    def set_tables(self, expected: int, documents: list[dict[str, Any]], source: str) -> None:
        rules = current_ruleset().table
        for document in documents:
            read_table_document(document, rules)  # the contract: what is saved reads back
        with transaction.atomic():
            played = Result.objects.filter(pairing__round=self).filter(
                Q(a_vp__isnull=False)
                | Q(a_reports_a_vp__isnull=False)
                | Q(b_reports_a_vp__isnull=False)
            )
            if self.closed_at is not None or played.exists():
                raise EventRefusal(
                    f"Round {self.number} has results: its tables stay as they were played. "
                    "Nothing was changed."
                )
            # Without tables a pairing's table number stands alone (its sheet has no map);
            # with them, every pairing must be on one of them.
            in_use = (
                self.pairings.filter(table__gt=len(documents)).order_by("table").first()
                if documents
                else None
            )
            if in_use is not None:
                raise EventRefusal(
                    f"Table {in_use.table} has a pairing, and these tables number only "
                    f"{len(documents)}: change the pairings first."
                )
            self.swap(
                expected,
                **self.tables_fields(documents),
                tables_source=source[:200],
                tables_bytes=document_size(documents),
            )
            self.event.measure()


class Pairing(models.Model):
    """Two players at one table in one round."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="pairings")
    table = models.PositiveSmallIntegerField()
    player_a = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    player_b = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["round", "table"], name="one_pairing_per_table")
        ]
        ordering = ["table"]

    def __str__(self) -> str:
        return f"Round {self.round_id} table {self.table}"


__all__ = [
    "MAX_ENTRIES",
    "MAX_ROUNDS",
    "Entry",
    "Event",
    "EventRefusal",
    "Pairing",
    "Round",
    "StaleEvent",
    "TableDocumentError",
]


# --- The Swiss system: the event's draw, byes, results and drops (events/commands.py) ----------

# A result's victory points, at the door and in the database (events/swiss.py: MAX_VP).
MAX_RESULT_VP = 99


def new_seed() -> int:
    # Below 2**53: the seed is shown on the page and read back exactly by any JSON reader.
    return secrets.randbelow(2**53)


class Swiss(EventVersioned):
    """How an event runs by the Swiss system: its seed (round 1's draw and the standings'
    last tie-break), the VP a bye scores, the organizer's seeded players, and whether the
    standings are published (then anyone holding their link may read them)."""

    event = models.OneToOneField(Event, on_delete=models.CASCADE, related_name="swiss")
    seed = models.PositiveBigIntegerField(default=new_seed)
    bye_vp = models.PositiveSmallIntegerField(default=0)
    seeding = models.JSONField(default=list, blank=True)  # entry ids, the top seed first
    standings_published = models.BooleanField(default=False)
    standings_code = models.CharField(max_length=32, unique=True, default=new_share_code)

    def __str__(self) -> str:
        return f"Swiss of event {self.event_id}"

    def get_standings_link(self) -> str:
        return reverse("events:standings-public", args=[self.standings_code])

    def stale_name(self) -> str:
        return "These settings"


class Bye(models.Model):
    """A player without a game in a round: a win with the event's bye VP."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="byes")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["round", "entry"], name="one_bye_per_player_and_round")
        ]

    def __str__(self) -> str:
        return f"Bye in round {self.round_id}"


class Result(EventVersioned):
    """A pairing's result: what each player reported (their side's VP and the other's) and
    the VP that count, set when both reports agree or when the organizer enters them."""

    pairing = models.OneToOneField(Pairing, on_delete=models.CASCADE, related_name="result")
    a_vp = models.PositiveSmallIntegerField(null=True, blank=True)
    b_vp = models.PositiveSmallIntegerField(null=True, blank=True)
    a_reports_a_vp = models.PositiveSmallIntegerField(null=True, blank=True)
    a_reports_b_vp = models.PositiveSmallIntegerField(null=True, blank=True)
    b_reports_a_vp = models.PositiveSmallIntegerField(null=True, blank=True)
    b_reports_b_vp = models.PositiveSmallIntegerField(null=True, blank=True)
    by_organizer = models.BooleanField(default=False)
    # The organizer changed it after its round was closed (each change logged in Correction).
    corrected = models.BooleanField(default=False)
    updated = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"Result of pairing {self.pairing_id}"

    def stale_name(self) -> str:
        return "This result"

    @property
    def confirmed(self) -> bool:
        return self.a_vp is not None and self.b_vp is not None

    @property
    def report_of_a(self) -> tuple[int, int] | None:
        if self.a_reports_a_vp is None or self.a_reports_b_vp is None:
            return None
        return self.a_reports_a_vp, self.a_reports_b_vp

    @property
    def report_of_b(self) -> tuple[int, int] | None:
        if self.b_reports_a_vp is None or self.b_reports_b_vp is None:
            return None
        return self.b_reports_a_vp, self.b_reports_b_vp

    @property
    def disputed(self) -> bool:
        a, b = self.report_of_a, self.report_of_b
        return not self.confirmed and a is not None and b is not None and a != b

    @property
    def started(self) -> bool:
        """Anything reported or entered: the round can no longer be paired again."""
        return self.confirmed or self.report_of_a is not None or self.report_of_b is not None


class Drop(models.Model):
    """A player who left the event after a round: not paired again, still in the standings."""

    entry = models.OneToOneField(Entry, on_delete=models.CASCADE, related_name="drop")
    after_round = models.PositiveSmallIntegerField()
    dropped_at = models.DateTimeField(auto_now_add=True)
    # The player dropped themself from their phone (the organizer's dashboard says so).
    by_player = models.BooleanField(default=False)

    def __str__(self) -> str:
        return f"{self.entry} dropped after round {self.after_round}"


class Correction(models.Model):
    """The organizer's change of a result after its round was closed: who, when, before and
    after (the standings mark the game as corrected)."""

    result = models.ForeignKey(Result, on_delete=models.CASCADE, related_name="corrections")
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    by_name = models.CharField(max_length=150)
    at = models.DateTimeField(auto_now_add=True)
    before_a_vp = models.PositiveSmallIntegerField(null=True, blank=True)
    before_b_vp = models.PositiveSmallIntegerField(null=True, blank=True)
    after_a_vp = models.PositiveSmallIntegerField()
    after_b_vp = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["at", "pk"]

    def __str__(self) -> str:
        return f"Correction of result {self.result_id}"
