"""Who owns a saved list or table: a signed-in user, or, before signing in, this browser.

A browser's things are tied to a random token kept in its session. Django keeps session
data across login, so on login or sign-up everything the browser made moves into the
account. Anyone else gets 404 for an owner's pages: a stranger cannot tell they exist.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from django.apps import apps
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.db import models
from django.http import Http404, HttpRequest

SESSION_KEY = "forcebuilder_anonymous_owner"

M = TypeVar("M", bound=models.Model)


def new_share_code() -> str:
    # 16 random bytes: 128 bits, far beyond guessing.
    return secrets.token_urlsafe(16)


class OwnedQuerySet(models.QuerySet[M]):
    def owned_by(self, user: Any, anonymous_owner: str | None) -> OwnedQuerySet[M]:
        fields = owners_fields(user, anonymous_owner)
        return self.none() if fields is None else self.filter(**fields)


def owners_fields(user: Any, anonymous_owner: str | None) -> dict[str, Any] | None:
    """What a record of this owner holds: an account's records its id, a browser's no
    account and its token; None for nobody (no account, no token). The one statement of
    the rule, for a query (owned_by) and for a record already read (is_owner)."""
    if user is not None and user.is_authenticated:
        return {"owner_id": user.pk}
    if anonymous_owner:
        return {"owner_id": None, "anonymous_owner": anonymous_owner}
    return None


def anonymous_owner(request: HttpRequest, create: bool = False) -> str | None:
    token = request.session.get(SESSION_KEY)
    if token is None and create:
        token = secrets.token_urlsafe(24)
        request.session[SESSION_KEY] = token
    return token


@dataclass(frozen=True)
class Quota:
    """How many of a kind of thing one owner may keep: a browser (which anyone can make
    in a loop) keeps few, an account many; both bound the work a page listing them does."""

    what: str  # plural, in words: "lists"
    browser: int
    account: int


class DamagedRecord(Exception):
    """A stored record that no longer reads, e.g. saved before a rule of its reader was
    tightened. Pages that show it say so and offer its owner a repair or deletion; pages
    that list many records show it as damaged and go on."""

    def __init__(self, record: models.Model, problem: str) -> None:
        self.record = record
        self.problem = problem
        super().__init__(f"{record._meta.verbose_name} {record.pk} is damaged: {problem}")


class StaleVersion(Exception):
    """The record changed since the page that sent the edit was drawn (another tab, say):
    every write is a compare-and-swap on a version that grows by one each time."""

    def __init__(self, current: int, sent: int) -> None:
        self.current = current
        self.sent = sent
        super().__init__(f"version {sent} is stale; the record is at version {current}")


class QuotaExceeded(Exception):
    """Making one more would pass the owner's quota; the message says what to do."""


def owner_fields(
    request: HttpRequest, model: type[models.Model], adding: int = 1
) -> dict[str, Any]:
    """The fields that make `adding` new things belong to whoever made the request;
    QuotaExceeded if they would pass the owner's quota for the model."""
    quota: Quota = model.quota  # type: ignore[attr-defined]
    signed_in = request.user.is_authenticated
    limit = quota.account if signed_in else quota.browser
    have = owned(request, model).count()
    if have + adding > limit:
        where = "an account" if signed_in else "this browser"
        advice = (
            "Delete some you no longer need."
            if signed_in
            else ("Sign up to keep more, or delete some you no longer need.")
        )
        raise QuotaExceeded(
            f"You have {have} {quota.what}; {where} keeps at most {limit}. {advice}"
        )
    if signed_in:
        return {"owner": request.user}
    return {"anonymous_owner": anonymous_owner(request, create=True)}


def owned(request: HttpRequest, model: type[M]) -> OwnedQuerySet[M]:
    manager: Any = model._default_manager
    queryset: OwnedQuerySet[M] = manager.owned_by(request.user, anonymous_owner(request))
    return queryset


def is_owner(request: HttpRequest, record: Owned) -> bool:
    """Whether ``record`` (read already) is the requester's: what ``owned(request,
    type(record))`` would find it in, without asking the database again (a shared list's
    page asks on every view)."""
    fields = owners_fields(request.user, anonymous_owner(request))
    return fields is not None and all(getattr(record, k) == v for k, v in fields.items())


def get_owned_or_404(request: HttpRequest, model: type[M], pk: int) -> M:
    found = owned(request, model).filter(pk=pk).first()
    if found is None:
        raise Http404("Not found")
    return found


def get_shared_or_404(model: type[M] | models.QuerySet[M], code: str) -> M:
    """The record a share link names, while its owner shares it; 404 otherwise (a link
    turned off, or replaced, reads exactly as one that never existed). ``model`` may be a
    queryset (one that leaves a large field out, say)."""
    manager: Any = model if isinstance(model, models.QuerySet) else model._default_manager
    found = manager.filter(share_code=code, sharing=True).first() if len(code) <= 32 else None
    if found is None:
        raise Http404("Not found")
    return found


class Owned(models.Model):
    """Belongs to a signed-in user, or, before signing in, to a browser's token."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="%(class)ss",
    )
    anonymous_owner = models.CharField(max_length=64, blank=True, db_index=True)

    # Fields written anew when a browser's record moves into an account at login (a job's
    # place among its owner's jobs at once, which the account may hold already).
    moved_fields: ClassVar[dict[str, Any]] = {}

    class Meta:
        abstract = True


class Shareable(models.Model):
    """Readable by anyone holding its share code, while its owner shares it. New things are
    private until their owner turns sharing on (a list is often kept secret until an
    event's reveal); things shared before 2026-11-25 stay shared. A printed link can be
    revoked: turn sharing off (the code answers 404 until it is turned on again), or
    replace the link (the old code is gone for good)."""

    share_code = models.CharField(max_length=32, unique=True, default=new_share_code)
    sharing = models.BooleanField(default=False)

    class Meta:
        abstract = True

    def set_sharing(self, change: str) -> str:
        """Apply "off", "on" or "new" (a new link; the old one stops working); what
        happened, in words. ValueError for anything else."""
        if change == "off":
            self.sharing = False
            message = 'Sharing is off: the link now answers "not found".'
        elif change == "on":
            self.sharing = True
            message = "Sharing is on: anyone with the link sees it read-only."
        elif change == "new":
            self.share_code = new_share_code()
            self.sharing = True
            message = "A new share link is made; the old one no longer works."
        else:
            raise ValueError("Choose to turn sharing off, on, or make a new link.")
        type(self)._default_manager.filter(pk=self.pk).update(
            sharing=self.sharing, share_code=self.share_code
        )
        return message


def owned_models() -> list[type[Owned]]:
    """Every installed model that belongs to an owner: the concrete subclasses of Owned."""
    return [
        model
        for model in apps.get_models()
        if issubclass(model, Owned) and not model._meta.abstract
    ]


def move_browser_things_into_the_account(
    sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any
) -> None:
    """On login or sign-up, what this browser made moves into the account (connected to
    ``user_logged_in`` by AccountsConfig.ready), as much of each kind as the account's
    quota has room for, the newest first: logging in is no way around a quota. What does
    not fit stays this browser's (its token stays in the session, and logging out keeps
    it: log_out), and a message says so; the next login moves it."""
    if request is None or not hasattr(request, "session"):
        return
    token = request.session.get(SESSION_KEY)
    if not token:
        return
    left = move_into_account(user, token)
    if not left:
        request.session.pop(SESSION_KEY, None)
        return
    messages.warning(
        request,
        f"Your account is full, so not all this browser's things moved into it: "
        f"{_in_words(left)} stay with this browser, where anyone using it sees them (and "
        "they move into the next account that logs in here with room). Delete some of "
        "your account's, then log in again here to move them into yours.",
    )


def browser_made_something(request: HttpRequest) -> bool:
    """Whether this browser (its token) owns anything that logging in would move."""
    token = request.session.get(SESSION_KEY)
    if not token:
        return False
    return any(
        model._default_manager.filter(owner=None, anonymous_owner=token).exists()
        for model in owned_models()
    )


def move_into_account(user: Any, token: str) -> list[str]:
    """Move what the browser's ``token`` owns into the account, as much of each kind as
    the account's quota has room for, the newest first; what stays, in words ("3 of its
    lists"). Also run by an import the browser started, once it has ended, for what it
    saved after its browser signed in (jobs.imports)."""
    left: list[str] = []
    for model in owned_models():
        manager: Any = model._default_manager
        quota: Quota = model.quota  # type: ignore[attr-defined]
        room = max(0, quota.account - manager.filter(owner=user).count())
        browsers = manager.filter(owner=None, anonymous_owner=token)
        moving = list(browsers.order_by("-pk").values_list("pk", flat=True)[:room])
        manager.filter(pk__in=moving).update(owner=user, anonymous_owner="", **model.moved_fields)
        staying = browsers.count()
        if staying:
            left.append(f"{staying} of its {quota.what}")
    return left


def log_out(request: HttpRequest) -> None:
    """Log out, the session ended, but what this browser made and could not move into the
    account at login stays this browser's: its token goes on into the new session."""
    token = request.session.get(SESSION_KEY)
    logout(request)
    if token:
        request.session[SESSION_KEY] = token


def _in_words(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
