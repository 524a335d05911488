"""A game at the table: two players, the two lists and the table as they were when it
started (snapshots: later edits of the lists or the table do not reach a game under way),
the engine's state as a stored document, and the log of every step.

The state is written only through ``Versioned.swap`` (a compare-and-swap on ``version``):
two phones racing with one step each, one wins and the other is told its page is stale.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models, transaction
from django.urls import reverse

from accounts.history import Versioned, document_size
from accounts.ownership import DamagedRecord, Owned, OwnedQuerySet, Quota, new_share_code
from accounts.storage import StorageFull, check_room
from onefinity.rules import Ruleset, library
from onefinity.rules.game import GameError, GameState, read_state_document

# A game's log keeps at most this many steps (a long game has a few hundred): it bounds
# what a game stores and what undo replays.
MAX_STEPS = 2000


class GameRefusal(Exception):
    """A request the game cannot take; the message says why. Nothing was changed."""

    status = 400


class StaleGame(GameRefusal):
    """The page that sent the step showed an older version of the game."""

    status = 409


class GameQuerySet(OwnedQuerySet["Game"]):
    def with_players(self) -> GameQuerySet:
        """Each game with what its pages name it by (Game.side_titles): its two players,
        and for a game of an event round the pairing's round, event and players."""
        return self.select_related(
            "owner",
            "player_b",
            "pairing__round__event",
            "pairing__player_a__player",
            "pairing__player_b__player",
        )

    def playing(self, user: Any) -> GameQuerySet:
        """The games the user plays, on either side."""
        if not user.is_authenticated:
            return self.none()
        return self.filter(models.Q(owner=user) | models.Q(player_b=user))


class Game(Owned, Versioned):
    """Side a is its owner (who started it); side b whoever joined by its link."""

    quota = Quota("games", browser=0, account=200)
    storage_field = "stored_bytes"

    code = models.CharField(max_length=32, unique=True, default=new_share_code)
    player_b = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="games_joined",
    )
    # Side B's player deleted their account: the side stays theirs (nobody joins again).
    b_left = models.BooleanField(default=False)
    name_a = models.CharField(max_length=120)
    name_b = models.CharField(max_length=120)
    list_a = models.JSONField()
    list_b = models.JSONField()
    # The table document, or None for the standard board.
    table = models.JSONField(null=True, blank=True)
    table_name = models.CharField(max_length=120, default="Standard board")
    ruleset_version = models.CharField(max_length=80)
    vp_target = models.PositiveSmallIntegerField()
    # The engine's state (onefinity.rules.game.state_document), and the one it started
    # from: undo replays the log from there.
    state = models.JSONField()
    initial = models.JSONField()
    stored_bytes = models.PositiveBigIntegerField(default=0)
    # The event round's pairing the game is played for (its result goes to the round as
    # both players' report), or None.
    pairing = models.OneToOneField(
        "events.Pairing", null=True, blank=True, on_delete=models.SET_NULL, related_name="game"
    )
    # What became of the result sent to the round, in words ("" before the end).
    result_note = models.CharField(max_length=300, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    objects = GameQuerySet.as_manager()

    class Meta:
        ordering = ["-updated"]

    def __str__(self) -> str:
        title_a, title_b = self.side_titles()
        return f"{title_a} v {title_b}"

    def side_titles(self) -> tuple[str, str]:
        """What the pages call sides a and b: for a game of an event round's pairing, its
        two players as the event names them (their lists, all alike "<Event> list", are
        said beside them); otherwise the two lists' names. A page that shows many games
        brings the pairing's players with them (``with_players``)."""
        pairing = self.pairing  # (None without a query when the game has none)
        if pairing is None:
            return self.name_a, self.name_b
        return pairing.player_a.player_name, pairing.player_b.player_name

    @property
    def title_a(self) -> str:
        return self.side_titles()[0]

    @property
    def title_b(self) -> str:
        return self.side_titles()[1]

    @property
    def by_players(self) -> bool:
        """Whether the sides are named by their players (a game of an event's pairing)."""
        return self.pairing_id is not None

    def get_absolute_url(self) -> str:
        return reverse("games:game", args=[self.code])

    def get_join_url(self) -> str:
        return reverse("games:join", args=[self.code])

    def ruleset(self) -> Ruleset:
        return library().get_or_current(self.ruleset_version)

    def save_new(self) -> None:
        """Save a game just made, its stored size counted, if its owner's storage has room
        for it (GameRefusal otherwise, and nothing is saved)."""
        self.stored_bytes = sum(
            document_size(d)
            for d in (self.list_a, self.list_b, self.table, self.state, self.initial)
        )
        try:
            with transaction.atomic():
                self.save()
                check_room(self)
        except StorageFull as full:
            raise GameRefusal(str(full)) from None

    def game_state(self) -> GameState:
        """The engine's state; DamagedRecord if the stored document no longer reads."""
        try:
            return read_state_document(self.state)
        except GameError as error:
            raise DamagedRecord(self, str(error)) from None

    def side_of(self, user: Any) -> str | None:
        if user.pk is None:
            return None
        if user.pk == self.owner_id:
            return "a"
        if user.pk == self.player_b_id:
            return "b"
        return None


class GameStep(models.Model):
    """One step of a game's log: who, what (the step's fields), when, in words."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="steps")
    number = models.PositiveIntegerField()
    # Who recorded it; None once that account is deleted.
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    side = models.CharField(max_length=1)
    step = models.JSONField()
    description = models.CharField(max_length=200)
    # The game's version this step made.
    version = models.PositiveBigIntegerField()
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="one_step_per_number")
        ]

    def __str__(self) -> str:
        return f"{self.number}. {self.description}"
