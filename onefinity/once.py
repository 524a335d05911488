"""A form that makes a record makes it once: a double tap, or a phone on bad Wi-Fi sending
the form again, sends the same POST twice, and the second answer leads to the record the
first made instead of making another.

Each such form carries a one-time token drawn with the page (``{% once_token %}``: a new
one whenever the form is drawn). ``made_once`` keys a ``Submission`` by the token, the
form's address and what the form sent (so the page's form sent again with other values,
after going back, makes another record), and makes the record in the transaction that
claims the key: a second POST with the key waits for the first's transaction (SQLite's one
writer; PostgreSQL's unique index) and finds what it made. A submission that is refused (a
quota, a rule) claims nothing, so sending it again tries again. A form sent without a token
(a script, a page drawn before tokens) makes its record as before.

Only the making belongs inside ``make``: work that takes time (generating a table) is done
before, so that the write lock is held no longer than the save."""

from __future__ import annotations

import hashlib
import json
import re
import secrets
from collections.abc import Callable
from datetime import timedelta
from typing import TypeVar

from django.db import IntegrityError, models, transaction
from django.http import HttpRequest
from django.utils import timezone

from onefinity.models import Submission

# The form field that carries the token.
FIELD = "once"

# How long a submission is remembered: a double tap or a resend comes within moments; a
# form sent again (unchanged) after this makes another record.
KEPT = timedelta(minutes=10)

_TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")

M = TypeVar("M", bound=models.Model)


def new_token() -> str:
    return secrets.token_urlsafe(16)


def token(request: HttpRequest) -> str | None:
    """The form's one-time token as sent, or None when it sent none (or not one of ours)."""
    sent = request.POST.get(FIELD, "")
    return sent if _TOKEN.fullmatch(sent) else None


def _key(request: HttpRequest, what: str) -> str | None:
    """The digest naming this submission of its form, or None when it sent no token."""
    token = request.POST.get(FIELD, "")
    if not _TOKEN.fullmatch(token):
        return None
    sent = sorted(
        [name, value]
        for name, values in request.POST.lists()
        if name not in (FIELD, "csrfmiddlewaretoken")
        for value in values
    )
    # An uploaded file by its content (the forms bound every upload's size).
    for name, files in request.FILES.lists():
        for upload in files:
            digest = hashlib.sha256()
            for chunk in upload.chunks():
                digest.update(chunk)
            sent.append([name, digest.hexdigest()])
    named = [what, request.path, token, sent]
    return hashlib.sha256(json.dumps(named).encode()).hexdigest()


def made_once(
    request: HttpRequest, mine: models.QuerySet[M], make: Callable[[], M]
) -> tuple[M, bool]:
    """The record this submission made: ``make()``'s, or, when the same form with the same
    token and values was sent already, the one that made (found among ``mine``, the
    requester's own records of its kind); and whether it was made now. Whatever ``make``
    raises (a refusal) propagates, and nothing is claimed."""
    key = _key(request, mine.model._meta.label)
    if key is None:
        return make(), True
    with transaction.atomic():
        Submission.objects.filter(at__lt=timezone.now() - KEPT).delete()
        try:
            with transaction.atomic():
                claim = Submission.objects.create(key=key)
        except IntegrityError:
            claim = Submission.objects.get(key=key)
            found = None if claim.made is None else mine.filter(pk=claim.made).first()
            if found is not None:
                return found, False
            # What it made is gone since (deleted): this one makes it again.
        made = make()
        Submission.objects.filter(pk=claim.pk).update(made=made.pk, at=timezone.now())
        return made, True


class SentAlready(Exception):
    """This submission of the form was taken already (a double tap, a resend)."""


def claim(request: HttpRequest, what: str) -> None:
    """For a form whose work makes no one record (an account file imported): claim this
    submission of it inside the transaction that does the work, so that the work and the
    claim are kept or undone together. SentAlready when the same form with the same token
    and values was taken already; without a token, nothing is claimed."""
    key = _key(request, what)
    if key is None:
        return
    Submission.objects.filter(at__lt=timezone.now() - KEPT).delete()
    try:
        with transaction.atomic():
            Submission.objects.create(key=key)
    except IntegrityError:
        raise SentAlready from None
