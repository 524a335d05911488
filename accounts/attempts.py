"""Limits on password guesses and password-reset e-mails: the one place that counts them.

Password guesses (login, password change, account deletion) share one budget per account
name and one per client address:

- per account name, from any address: after ``LOGIN_FAILURES_PER_ACCOUNT`` failures each
  further guess waits, one minute after the first and twice as long after each failure
  since, up to ``LOGIN_BACKOFF_MAX``. Spreading guesses over many addresses gains nothing.
  The owner can always reset the password by e-mail, which lifts the wait.
- per client address, over any account names: at most ``LOGIN_FAILURES_PER_ADDRESS``
  failures in ``LOGIN_FAILURE_WINDOW`` seconds.

Password-reset e-mails: at most ``PASSWORD_RESETS_PER_EMAIL`` per e-mail address and
``PASSWORD_RESETS_PER_ADDRESS`` per client address in ``PASSWORD_RESET_WINDOW`` seconds,
counted whether or not an account has that e-mail, so a refusal tells nothing about it.

Counting is safe under concurrency without locks: an attempt is recorded (committed) first,
and only then are the committed attempts counted, its own included. Of N simultaneous
attempts the k-th to be recorded sees at least the k - 1 before it, so no more than the
limit get through, on any number of app servers sharing the database. (Attempts in flight
count against each other, so a burst at the limit may be refused a little early: the safe
side.)

A refused guess is never checked: the password is not hashed, nobody is authenticated, and
the page that says "wait" is the same whatever password was sent, so a refusal tells a
guesser nothing and costs the server a few queries. It keeps its record and counts as a
failure: guessing on through a refusal makes the wait longer, per account and per address.
A failed guess keeps its record; a successful one removes this address's records on the
account. Reading the counts is bounded: at most ``_account_read()`` records of an account
are read, past which the wait is at its longest anyway.

Sign-ups: at most ``SIGNUPS_PER_ADDRESS`` accounts made per client address in
``SIGNUP_WINDOW`` seconds (each account has its own quotas: accounts made without limit
would multiply them); only accounts made count.

Password-reset e-mails work the other way: a refused request removes its record again, so
that a stranger asking for resets of someone's address cannot keep its owner from the reset
that lifts a login wait for longer than ``PASSWORD_RESET_WINDOW``.

The client address is ``REMOTE_ADDR``, or with ``TRUSTED_PROXIES = N`` the entry that the
outermost of N proxies appended to ``X-Forwarded-For``. An IPv6 address counts as its /64
network, which one client commonly holds whole.
"""

from __future__ import annotations

import ipaddress
import math
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.crypto import salted_hmac

from accounts.models import Attempt

# The first wait once an account's free failures are used up; each failure doubles it.
FIRST_WAIT = 60
# Account failures are remembered this long (at least twice the longest wait), so that
# waiting out the longest wait does not also forget the failures that led to it.
ACCOUNT_MEMORY = timedelta(days=1)


@dataclass(frozen=True)
class Refusal:
    """Why an attempt was not allowed, and how many seconds until one may be."""

    message: str
    wait: int


def refused(response: HttpResponse, refusal: Refusal) -> HttpResponse:
    """Mark a page that shows a refusal: 429 Too Many Requests, with Retry-After."""
    response.status_code = 429
    response["Retry-After"] = str(refusal.wait)
    return response


def client_address(request: HttpRequest) -> str:
    """The address to count a request against (see the module's docstring)."""
    peer = request.META.get("REMOTE_ADDR", "")
    address = peer
    proxies = settings.TRUSTED_PROXIES
    if proxies > 0:
        hops = [hop.strip() for hop in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
        hops = [hop for hop in hops if hop]
        # Fewer entries than proxies means a proxy did not add its own: the header cannot
        # be read safely, so everyone behind it shares the peer's count (fails closed).
        if len(hops) >= proxies:
            address = hops[-proxies]
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return peer
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def _digest(value: str) -> str:
    return salted_hmac("accounts.attempts", value, algorithm="sha256").hexdigest()


def _account(name: str) -> str:
    return _digest(name.strip().lower())


def in_words(seconds: int) -> str:
    """A wait as a person reads it, rounded up: '40 seconds', '3 minutes', '1 hour 5 minutes'."""
    if seconds < 60:
        return f"{seconds} second{'s' if seconds != 1 else ''}"
    minutes = math.ceil(seconds / 60)
    if minutes < 60:
        return f"{minutes} minute{'s' if minutes != 1 else ''}"
    hours, minutes = divmod(minutes, 60)
    words = f"{hours} hour{'s' if hours != 1 else ''}"
    return words + (f" {minutes} minute{'s' if minutes != 1 else ''}" if minutes else "")


def backoff(failures: int) -> int:
    """Seconds an account waits after its latest failure, given how many it has."""
    extra = failures - settings.LOGIN_FAILURES_PER_ACCOUNT
    if extra < 0:
        return 0
    return min(FIRST_WAIT * 2 ** min(extra, 32), settings.LOGIN_BACKOFF_MAX)


def _wait_for_window(
    others: QuerySet[Attempt], limit: int, window: timedelta, now: datetime
) -> int:
    """Seconds until fewer than ``limit`` of ``others`` are inside the window, or 0.

    One query: the ``limit`` latest attempts. Counting first and then indexing would read
    two snapshots, and a simultaneous request that is refused deletes its record between
    them (an index past the end, a 500).
    """
    latest = list(others.order_by("-at").values_list("at", flat=True)[:limit])
    if len(latest) < limit:
        return 0
    # The attempt that has to leave the window for this one to fit.
    leaving = latest[-1]
    return max(1, math.ceil((leaving + window - now).total_seconds()))


def _record(request: HttpRequest, kind: str, account_name: str) -> Attempt:
    Attempt.objects.filter(at__lt=timezone.now() - _longest_memory()).delete()
    return Attempt.objects.create(
        kind=kind, account=_account(account_name), address=_digest(client_address(request))
    )


def _account_memory() -> timedelta:
    return max(ACCOUNT_MEMORY, timedelta(seconds=2 * settings.LOGIN_BACKOFF_MAX))


def _longest_memory() -> timedelta:
    return max(
        _account_memory(),
        timedelta(seconds=settings.LOGIN_FAILURE_WINDOW),
        timedelta(seconds=settings.PASSWORD_RESET_WINDOW),
        timedelta(seconds=settings.SIGNUP_WINDOW),
        timedelta(seconds=settings.FRESH_WORK_WINDOW),
    )


class PasswordGuess:
    """One guess at an account's password, counted before the password is checked.

    Check ``refusal`` first: when it is set the password must not be checked. Otherwise
    call ``succeeded()``, ``failed()`` or ``not_a_guess()`` once the password is checked.
    """

    def __init__(self, request: HttpRequest, account_name: str) -> None:
        self.record = _record(request, Attempt.Kind.PASSWORD, account_name)
        # A refused guess keeps its record: it counts as a failure (see the docstring).
        self.refusal = self._refusal()

    def _refusal(self) -> Refusal | None:
        """Whether the guesses recorded before this one refuse it, and if so how long to
        wait: counted with this one, since a refused guess counts. The wait said is exact:
        a guess after it (and nobody else's in between) is checked."""
        record, now = self.record, self.record.at
        guesses = Attempt.objects.filter(kind=Attempt.Kind.PASSWORD)
        window = timedelta(seconds=settings.LOGIN_FAILURE_WINDOW)
        from_address = guesses.filter(address=record.address, at__gt=now - window)
        limit = settings.LOGIN_FAILURES_PER_ADDRESS
        refusals = []
        if _wait_for_window(from_address.exclude(pk=record.pk), limit, window, now):
            wait = _wait_for_window(from_address, limit, window, now)
            refusals.append(
                Refusal(
                    f"Too many failed password attempts from your network. "
                    f"Wait {in_words(wait)} and try again.",
                    wait,
                )
            )
        on_account = guesses.filter(account=record.account, at__gt=now - _account_memory())
        # One query, for the same reason as _wait_for_window, and a bounded one: a flood of
        # refused guesses leaves many records, and past _account_read() of them the wait
        # is at its longest anyway.
        seen = on_account.order_by("-at").values_list("pk", "at")[: _account_read()]
        before = [at for pk, at in seen if pk != record.pk]
        if len(before) >= settings.LOGIN_FAILURES_PER_ACCOUNT and now < before[0] + timedelta(
            seconds=backoff(len(before))
        ):
            wait = backoff(len(before) + 1)
            refusals.append(
                Refusal(
                    f"Too many failed attempts on this account name. Wait {in_words(wait)} "
                    "and try again, or reset your password by e-mail.",
                    wait,
                )
            )
        return max(refusals, key=lambda refusal: refusal.wait, default=None)

    def succeeded(self) -> None:
        """The password was right: forget this address's failures on the account (the
        owner's own typing mistakes); failures from elsewhere still count."""
        Attempt.objects.filter(
            kind=Attempt.Kind.PASSWORD, account=self.record.account, address=self.record.address
        ).delete()

    def failed(self) -> None:
        """The password was wrong: the record stays and counts."""

    def not_a_guess(self) -> None:
        """The password was right but the form failed for another reason (a new password
        too weak, say): nothing to count."""
        self.record.delete()


def _account_read() -> int:
    """How many of an account's records to read: enough for the longest wait."""
    doublings = math.ceil(math.log2(max(settings.LOGIN_BACKOFF_MAX / FIRST_WAIT, 1)))
    return settings.LOGIN_FAILURES_PER_ACCOUNT + doublings + 1


def guess_password(request: HttpRequest, account_name: str) -> PasswordGuess:
    return PasswordGuess(request, account_name)


def forget_account(account_name: str) -> None:
    """Lift the wait on an account: its owner has just proved who they are another way
    (a password reset through their e-mail), or the account is gone."""
    Attempt.objects.filter(kind=Attempt.Kind.PASSWORD, account=_account(account_name)).delete()


@dataclass(frozen=True)
class SignupRoute:
    """A sign-up on its way somewhere that counts apart from its client's address: an
    event's join link, where a whole hall shares one Wi-Fi address. ``key`` names what it
    counts against, ``limit`` how many accounts it allows in the window (the event's player
    cap), ``name`` what the refusal names."""

    key: str
    limit: int
    name: str
    # The most accounts one address makes through such routes in the window (one event's
    # places): a venue's hall fits, and making events does not multiply accounts.
    address_limit: int = 0


# Readers of the page a sign-up is going to (its ``next``), registered by the apps that
# have such pages (events.apps), so that accounts imports none of them.
_SIGNUP_ROUTES: list[Callable[[str], SignupRoute | None]] = []


def register_signup_route(reader: Callable[[str], SignupRoute | None]) -> None:
    if reader not in _SIGNUP_ROUTES:
        _SIGNUP_ROUTES.append(reader)


def signup_route(next_page: str | None) -> SignupRoute | None:
    """The route a sign-up going to ``next_page`` counts against, if any."""
    if not next_page:
        return None
    for reader in _SIGNUP_ROUTES:
        found = reader(next_page)
        if found is not None:
            return found
    return None


def sign_up(request: HttpRequest, route: SignupRoute | None = None) -> Refusal | None:
    """Count one account about to be made from this client's address; a refusal means: do
    not make it. Every account has its own quotas, so accounts made without limit would
    multiply them. Only accounts made count: a refused sign-up removes its record. A sign-up
    through a ``route`` (an event's join link) counts against the route's limit instead of
    the address's; it still counts for the address, so plain sign-ups after it stay limited."""
    record = _record(request, Attempt.Kind.SIGNUP, route.key if route is not None else "")
    now, window = record.at, timedelta(seconds=settings.SIGNUP_WINDOW)
    if route is not None:
        made = Attempt.objects.filter(
            kind=Attempt.Kind.SIGNUP, account=record.account, at__gt=now - window
        ).exclude(pk=record.pk)
        wait = _wait_for_window(made, route.limit, window, now)
        if not wait and route.address_limit:
            from_here = Attempt.objects.filter(
                kind=Attempt.Kind.SIGNUP, address=record.address, at__gt=now - window
            ).exclude(pk=record.pk)
            wait = _wait_for_window(from_here, route.address_limit, window, now)
        if not wait:
            return None
        record.delete()
        return Refusal(
            f"{route.limit} accounts were made through the join link of {route.name} in the "
            f"last {in_words(settings.SIGNUP_WINDOW)}, as many as it has places. Wait "
            f"{in_words(wait)} and try again, or ask the organizer.",
            wait,
        )
    made = Attempt.objects.filter(
        kind=Attempt.Kind.SIGNUP, address=record.address, at__gt=now - window
    ).exclude(pk=record.pk)
    wait = _wait_for_window(made, settings.SIGNUPS_PER_ADDRESS, window, now)
    if not wait:
        return None
    record.delete()
    return Refusal(
        f"{settings.SIGNUPS_PER_ADDRESS} accounts were made from your network in the last "
        f"{in_words(settings.SIGNUP_WINDOW)}, the most we allow. Wait {in_words(wait)} and "
        "try again, or make your account from another network (a phone's data, say).",
        wait,
    )


def signup_not_made(request: HttpRequest, route: SignupRoute | None = None) -> None:
    """The account counted by sign_up was not made after all (its name was taken by a
    sign-up at the same moment): its record goes, as a refused one does."""
    latest = (
        Attempt.objects.filter(
            kind=Attempt.Kind.SIGNUP,
            address=_digest(client_address(request)),
            account=_account(route.key if route is not None else ""),
        )
        .order_by("-at", "-pk")
        .first()
    )
    if latest is not None:
        latest.delete()


def client_digest(request: HttpRequest) -> str:
    """The client's address as the limits keep it: a keyed digest, never the address."""
    return _digest(client_address(request))


def _visitor(request: HttpRequest) -> str:
    """Who is asking, as one name: the account, else this browser's session."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return f"user:{user.pk}"
    session = getattr(request, "session", None)
    if session is not None:
        if session.session_key is None:
            session.save()
        return f"session:{session.session_key}"
    return f"address:{client_address(request)}"


def fresh_work(request: HttpRequest) -> Refusal | None:
    """Count one piece of fresh heavy work (a printout made anew, a job queued) for this
    visitor and address; a refusal means: do not make it. What is already made (a cached
    printout, a finished job's file) costs nothing and is never counted. Only work done
    counts: a refused request removes its record."""
    record = _record(request, Attempt.Kind.WORK, _visitor(request))
    now, window = record.at, timedelta(seconds=settings.FRESH_WORK_WINDOW)
    done = Attempt.objects.filter(kind=Attempt.Kind.WORK, at__gt=now - window).exclude(pk=record.pk)
    wait = _wait_for_window(
        done.filter(account=record.account), settings.FRESH_WORK_PER_VISITOR, window, now
    ) or _wait_for_window(
        done.filter(address=record.address), settings.FRESH_WORK_PER_ADDRESS, window, now
    )
    if not wait:
        return None
    record.delete()
    return Refusal(
        f"Many new printouts and downloads were made for you in the last "
        f"{in_words(settings.FRESH_WORK_WINDOW)}; wait {in_words(wait)} to make another. "
        "Those already made download at once.",
        wait,
    )


def reset_mail(request: HttpRequest, email: str) -> Refusal | None:
    """Count one password-reset e-mail to ``email``; a refusal means: do not send it."""
    record = _record(request, Attempt.Kind.RESET, email)
    now, window = record.at, timedelta(seconds=settings.PASSWORD_RESET_WINDOW)
    sent = Attempt.objects.filter(kind=Attempt.Kind.RESET, at__gt=now - window).exclude(
        pk=record.pk
    )
    refusal = None
    if wait := _wait_for_window(
        sent.filter(address=record.address), settings.PASSWORD_RESETS_PER_ADDRESS, window, now
    ):
        refusal = Refusal(
            f"Too many password-reset e-mails were asked for from your network. "
            f"Wait {in_words(wait)} and try again.",
            wait,
        )
    elif wait := _wait_for_window(
        sent.filter(account=record.account), settings.PASSWORD_RESETS_PER_EMAIL, window, now
    ):
        refusal = Refusal(
            f"Reset links for this e-mail address were already asked for "
            f"{settings.PASSWORD_RESETS_PER_EMAIL} times recently. Look for them in your inbox "
            f"(and spam folder), or wait {in_words(wait)} to ask again.",
            wait,
        )
    if refusal is not None:
        record.delete()
    return refusal
