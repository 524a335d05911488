"""Who owns a list: a signed-in user, or, before signing in, this browser.

A browser's lists are tied to a random token kept in its session. The session survives
login (Django keeps its data when it changes the key), so on login or sign-up the lists
move into the account.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.http import Http404, HttpRequest

from forcebuilder.models import Force, ForceQuerySet

SESSION_KEY = "forcebuilder_anonymous_owner"


def anonymous_owner(request: HttpRequest, create: bool = False) -> str | None:
    token = request.session.get(SESSION_KEY)
    if token is None and create:
        token = secrets.token_urlsafe(24)
        request.session[SESSION_KEY] = token
    return token


def owner_fields(request: HttpRequest) -> dict[str, Any]:
    """The fields that make a new list belong to whoever made the request."""
    if request.user.is_authenticated:
        return {"owner": request.user}
    return {"anonymous_owner": anonymous_owner(request, create=True)}


def forces_of(request: HttpRequest) -> ForceQuerySet:
    return Force.objects.owned_by(request.user, anonymous_owner(request))


def get_force_for_owner(request: HttpRequest, pk: int) -> Force:
    """The owner's list, or 404 for anyone else: a stranger cannot tell it exists."""
    force = forces_of(request).filter(pk=pk).first()
    if force is None:
        raise Http404("No such list")
    return force


def get_force_for_share_code(code: str) -> Force:
    force = Force.objects.filter(share_code=code).first() if len(code) <= 32 else None
    if force is None:
        raise Http404("No such shared list")
    return force


@receiver(user_logged_in)
def move_browser_lists_into_the_account(
    sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any
) -> None:
    if request is None or not hasattr(request, "session"):
        return
    token = request.session.pop(SESSION_KEY, None)
    if token:
        Force.objects.filter(owner=None, anonymous_owner=token).update(
            owner=user, anonymous_owner=""
        )
