"""The force builder's view of ownership (see onefinity.ownership)."""

from __future__ import annotations

from django.http import HttpRequest

from forcebuilder.models import Force, ForceQuerySet
from onefinity.ownership import (
    SESSION_KEY,
    anonymous_owner,
    get_owned_or_404,
    get_shared_or_404,
    owned,
    owner_fields,
)

__all__ = [
    "SESSION_KEY",
    "anonymous_owner",
    "forces_of",
    "get_force_for_owner",
    "get_force_for_share_code",
    "owner_fields",
]


def forces_of(request: HttpRequest) -> ForceQuerySet:
    return owned(request, Force)  # type: ignore[return-value]


def get_force_for_owner(request: HttpRequest, pk: int) -> Force:
    return get_owned_or_404(request, Force, pk)


def get_force_for_share_code(code: str) -> Force:
    return get_shared_or_404(Force, code)
