"""Ownership's exceptions, turned into pages for the person who asked."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from accounts.ownership import DamagedRecord, QuotaExceeded, owned
from accounts.storage import StorageFull


class OwnershipMiddleware:
    """What a view about owned records may raise, shown to the person who asked: passing
    their quota (QuotaExceeded) or their storage (StorageFull), or a stored record that no longer reads (DamagedRecord,
    with a repair and a deletion offered to its owner, and nothing to anyone else)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, QuotaExceeded | StorageFull):
            return render(request, "quota.html", {"message": str(exception)}, status=403)
        if isinstance(exception, DamagedRecord):
            record = exception.record
            is_owner = owned(request, type(record)).filter(pk=record.pk).exists()
            context = {
                "record": record,
                "what": record._meta.verbose_name,
                "problem": exception.problem,
                "is_owner": is_owner,
            }
            return render(request, "damaged.html", context, status=409)
        return None
