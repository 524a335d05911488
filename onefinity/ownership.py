"""Who owns a saved list or table: a signed-in user, or, before signing in, this browser.

A browser's things are tied to a random token kept in its session. Django keeps session
data across login, so on login or sign-up everything the browser made moves into the
account. Anyone else gets 404 for an owner's pages: a stranger cannot tell they exist.
"""

from __future__ import annotations

import secrets
from typing import Any, TypeVar

from django.apps import apps
from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.db import models
from django.dispatch import receiver
from django.http import Http404, HttpRequest

SESSION_KEY = "forcebuilder_anonymous_owner"
# The models that belong to an owner; each has `owner` and `anonymous_owner` fields.
OWNED_MODELS = ("forcebuilder.Force", "tablegen.Table", "tablegen.Pack")

M = TypeVar("M", bound=models.Model)


def new_share_code() -> str:
    # 16 random bytes: 128 bits, far beyond guessing.
    return secrets.token_urlsafe(16)


class OwnedQuerySet(models.QuerySet[M]):
    def owned_by(self, user: Any, anonymous_owner: str | None) -> OwnedQuerySet[M]:
        if user is not None and user.is_authenticated:
            return self.filter(owner=user)
        if anonymous_owner:
            return self.filter(owner=None, anonymous_owner=anonymous_owner)
        return self.none()


def anonymous_owner(request: HttpRequest, create: bool = False) -> str | None:
    token = request.session.get(SESSION_KEY)
    if token is None and create:
        token = secrets.token_urlsafe(24)
        request.session[SESSION_KEY] = token
    return token


def owner_fields(request: HttpRequest) -> dict[str, Any]:
    """The fields that make a new thing belong to whoever made the request."""
    if request.user.is_authenticated:
        return {"owner": request.user}
    return {"anonymous_owner": anonymous_owner(request, create=True)}


def owned(request: HttpRequest, model: type[M]) -> OwnedQuerySet[M]:
    manager: Any = model._default_manager
    queryset: OwnedQuerySet[M] = manager.owned_by(request.user, anonymous_owner(request))
    return queryset


def get_owned_or_404(request: HttpRequest, model: type[M], pk: int) -> M:
    found = owned(request, model).filter(pk=pk).first()
    if found is None:
        raise Http404("Not found")
    return found


def get_shared_or_404(model: type[M], code: str) -> M:
    manager: Any = model._default_manager
    found = manager.filter(share_code=code).first() if len(code) <= 32 else None
    if found is None:
        raise Http404("Not found")
    return found  # type: ignore[no-any-return]


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

    class Meta:
        abstract = True


class Shareable(models.Model):
    """Readable by anyone holding its share code."""

    share_code = models.CharField(max_length=32, unique=True, default=new_share_code)

    class Meta:
        abstract = True


@receiver(user_logged_in)
def move_browser_things_into_the_account(
    sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any
) -> None:
    if request is None or not hasattr(request, "session"):
        return
    token = request.session.pop(SESSION_KEY, None)
    if token:
        for label in OWNED_MODELS:
            apps.get_model(label).objects.filter(owner=None, anonymous_owner=token).update(
                owner=user, anonymous_owner=""
            )
