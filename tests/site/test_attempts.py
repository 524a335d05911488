"""Password guesses and reset e-mails are limited per account and per client address
(accounts.attempts), on login, password change, account deletion and password reset."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.db import connection
from django.db.models import F
from django.test import Client, RequestFactory

from accounts import attempts
from accounts.models import Attempt
from tests.conftest import OWNER_PASSWORD
from tests.threads import at_once
from tests.threads import thread_database as thread_database  # a fixture

pytestmark = pytest.mark.django_db

RIGHT = "the-right-pass-phrase"


@pytest.fixture
def victim(django_user_model):
    return django_user_model.objects.create_user("victim", "victim@example.com", RIGHT)


def log_in(client: Client, username: str, password: str, address: str = "127.0.0.1", **extra):
    return client.post(
        "/accounts/login/",
        {"username": username, "password": password},
        REMOTE_ADDR=address,
        **extra,
    )


def fail_from_many_addresses(count: int, username: str = "victim") -> None:
    for i in range(count):
        assert log_in(Client(), username, "guess", f"198.51.100.{i + 1}").status_code == 200


def within_a_minute_of(wait: str, seconds: int) -> bool:
    """A wait counted from the clock: the requests before it took some real time (a minute
    at most, on a busy machine), by which the wait is shorter."""
    return seconds - 60 <= int(wait) <= seconds


def travel(seconds: float) -> None:
    """Move every recorded attempt this many seconds into the past."""
    Attempt.objects.update(at=F("at") - timedelta(seconds=seconds))


def test_login_attempts_on_one_account_are_limited(client, victim, settings):
    for _ in range(settings.LOGIN_FAILURES_PER_ACCOUNT):
        assert log_in(client, "victim", "guess").status_code == 200
    refused = log_in(client, "victim", RIGHT)
    assert refused.status_code == 429
    # The first wait is a minute from the last failure; the refused guess counts as one
    # more, so the wait it says is the one that follows it.
    assert refused["Retry-After"] == "120"
    page = refused.content.decode()
    assert "Too many failed attempts on this account name. Wait 2 minutes" in page
    assert "reset your password" in page
    assert "_auth_user_id" not in client.session


def test_failures_from_many_addresses_count_against_one_account(victim, settings):
    fail_from_many_addresses(settings.LOGIN_FAILURES_PER_ACCOUNT)
    from_a_new_address = log_in(Client(), "victim", RIGHT, "203.0.113.99")
    assert from_a_new_address.status_code == 429


def test_an_unknown_account_name_is_limited_the_same_way(settings):
    fail_from_many_addresses(settings.LOGIN_FAILURES_PER_ACCOUNT, "nobody-by-that-name")
    refused = log_in(Client(), "nobody-by-that-name", "guess", "203.0.113.99")
    assert refused.status_code == 429
    assert "Too many failed attempts on this account name" in refused.content.decode()


def test_the_wait_doubles_with_each_failure_up_to_the_cap(victim, settings):
    settings.LOGIN_BACKOFF_MAX = 300
    fail_from_many_addresses(settings.LOGIN_FAILURES_PER_ACCOUNT)
    travel(60)  # the first wait, a minute, is over: the next guess is checked
    assert log_in(Client(), "victim", "guess", "203.0.113.1").status_code == 200
    waits = []
    for i in range(3):
        refused = log_in(Client(), "victim", "guess", f"203.0.113.{i + 2}")
        assert refused.status_code == 429
        waits.append(int(refused["Retry-After"]))
        travel(waits[-1])
        assert log_in(Client(), "victim", "guess", f"203.0.113.{i + 2}").status_code == 200
    assert waits == [240, 300, 300]


def test_guessing_on_through_a_refusal_makes_the_wait_longer(victim, settings):
    """A refused guess counts: a guesser who keeps going only waits longer (it used to
    remove its own record, so the wait never grew)."""
    fail_from_many_addresses(settings.LOGIN_FAILURES_PER_ACCOUNT)
    waits = [
        int(log_in(Client(), "victim", RIGHT, f"203.0.113.{i}")["Retry-After"]) for i in range(8)
    ]
    assert waits == [120, 240, 480, 960, 1920, 3600, 3600, 3600]
    assert Attempt.objects.count() == settings.LOGIN_FAILURES_PER_ACCOUNT + 8


def test_guessing_on_from_an_address_through_a_refusal_keeps_it_refused(settings):
    settings.LOGIN_FAILURES_PER_ADDRESS = 3
    for name in ("ann", "bob", "cy"):
        assert log_in(Client(), name, "guess", "192.0.2.7").status_code == 200
    travel(10 * 60)
    first = log_in(Client(), "dee", "guess", "192.0.2.7")
    # When the failures leave the 15-minute window.
    assert within_a_minute_of(first["Retry-After"], 300)
    for _ in range(4):
        travel(60)
        assert log_in(Client(), "dee", "guess", "192.0.2.7").status_code == 429
    travel(60)
    # The failures have left the window, but the refused guesses are in it now.
    again = log_in(Client(), "dee", "guess", "192.0.2.7")
    assert again.status_code == 429
    assert within_a_minute_of(again["Retry-After"], 13 * 60)
    assert log_in(Client(), "eve", "guess", "192.0.2.8").status_code == 200


def test_the_wait_before_the_limit_is_none_and_at_it_one_minute(settings):
    free = settings.LOGIN_FAILURES_PER_ACCOUNT
    assert attempts.backoff(free - 1) == 0
    assert attempts.backoff(free) == 60
    assert attempts.backoff(free + 1) == 120
    assert attempts.backoff(10_000) == settings.LOGIN_BACKOFF_MAX


def test_once_the_wait_is_over_the_owner_can_log_in(client, victim, settings):
    fail_from_many_addresses(settings.LOGIN_FAILURES_PER_ACCOUNT)
    refused = log_in(client, "victim", RIGHT)
    assert refused.status_code == 429
    travel(int(refused["Retry-After"]))
    assert log_in(client, "victim", RIGHT).status_code == 302


def test_one_address_is_limited_across_account_names(django_user_model, settings):
    settings.LOGIN_FAILURES_PER_ADDRESS = 3
    for name in ("ann", "bob", "cy"):
        assert log_in(Client(), name, "guess", "192.0.2.7").status_code == 200
    refused = log_in(Client(), "dee", "guess", "192.0.2.7")
    assert refused.status_code == 429
    page = refused.content.decode()
    assert "Too many failed password attempts from your network. Wait 15 minutes" in page
    assert log_in(Client(), "dee", "guess", "192.0.2.8").status_code == 200
    travel(settings.LOGIN_FAILURE_WINDOW)
    assert log_in(Client(), "dee", "guess", "192.0.2.7").status_code == 200


def test_the_window_wait_is_read_in_one_query_from_the_oldest_attempt_that_must_leave(
    django_assert_num_queries,
):
    # One snapshot: a simultaneous refused guess deletes its record, and a count read
    # before the rows would then index past their end (a 500 seen on PostgreSQL).
    window = timedelta(minutes=15)
    Attempt.objects.bulk_create(
        Attempt(kind=Attempt.Kind.PASSWORD, account="a", address="x") for _ in range(4)
    )
    travel(60)
    Attempt.objects.create(kind=Attempt.Kind.PASSWORD, account="a", address="x")
    now = Attempt.objects.latest("at").at
    others = Attempt.objects.filter(address="x")
    with django_assert_num_queries(1):
        assert attempts._wait_for_window(others, 6, window, now) == 0
    with django_assert_num_queries(1):
        # Five inside, a limit of five: the oldest of them leaves 14 minutes from now.
        assert attempts._wait_for_window(others, 5, window, now) == 14 * 60
    # A limit of two: the second latest (one of the four, a minute old) must leave.
    assert attempts._wait_for_window(others, 2, window, now) == 14 * 60
    assert attempts._wait_for_window(others, 1, window, now) == 15 * 60


def test_a_successful_login_forgets_only_its_own_failures(victim):
    log_in(Client(), "victim", "typo", "192.0.2.1")
    log_in(Client(), "victim", "guess", "192.0.2.66")
    log_in(Client(), "victim", "guess", "192.0.2.66")
    assert log_in(Client(), "victim", RIGHT, "192.0.2.1").status_code == 302
    assert Attempt.objects.count() == 2  # the stranger's guesses still count


def test_a_logged_in_person_who_fails_a_login_is_counted(client, victim, owner):
    client.force_login(owner)
    log_in(client, "victim", "guess")
    assert Attempt.objects.count() == 1


def test_resetting_the_password_lifts_the_wait(client, victim, settings, mailoutbox):
    fail_from_many_addresses(settings.LOGIN_FAILURES_PER_ACCOUNT)
    assert log_in(client, "victim", RIGHT).status_code == 429
    response = client.post("/accounts/password_reset/", {"email": "victim@example.com"})
    assert response.status_code == 302
    link = re.search(r"/accounts/reset/\S+/", mailoutbox[0].body).group(0)
    form = client.get(link, follow=True)
    new = "a-brand-new-pass-phrase"
    done = client.post(
        form.redirect_chain[-1][0], {"new_password1": new, "new_password2": new}, follow=True
    )
    assert done.status_code == 200
    assert log_in(client, "victim", new).status_code == 302


@pytest.mark.parametrize(
    ("proxies", "forwarded", "expected"),
    [
        (0, "", "10.0.0.2"),
        (0, "192.0.2.1", "10.0.0.2"),  # the header is anyone's to send: not read
        (1, "192.0.2.1", "192.0.2.1"),
        (1, "6.6.6.6, 192.0.2.1", "192.0.2.1"),  # what the client sent comes first
        (2, "6.6.6.6, 192.0.2.1, 10.0.0.9", "192.0.2.1"),
        (2, "192.0.2.1", "10.0.0.2"),  # fewer entries than proxies: the peer
        (1, "", "10.0.0.2"),
        (1, "not-an-address", "10.0.0.2"),
        (1, "2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"),  # one client holds a /64
        (1, "::ffff:192.0.2.1", "192.0.2.1"),
    ],
)
def test_the_client_address_reads_only_what_trusted_proxies_wrote(
    settings, proxies, forwarded, expected
):
    settings.TRUSTED_PROXIES = proxies
    request = RequestFactory().get("/", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR=forwarded)
    assert attempts.client_address(request) == expected


def test_behind_a_trusted_proxy_one_client_cannot_lock_out_the_others(victim, settings):
    settings.TRUSTED_PROXIES = 1
    settings.LOGIN_FAILURES_PER_ADDRESS = 3
    for name in ("ann", "bob", "cy", "dee"):
        log_in(Client(), name, "guess", "10.0.0.1", HTTP_X_FORWARDED_FOR="192.0.2.66")
    assert (
        log_in(Client(), "eve", "guess", "10.0.0.1", HTTP_X_FORWARDED_FOR="192.0.2.66").status_code
        == 429
    )
    other = log_in(Client(), "victim", RIGHT, "10.0.0.1", HTTP_X_FORWARDED_FOR="192.0.2.1")
    assert other.status_code == 302


def test_without_trusted_proxies_a_forged_header_does_not_escape_the_limit(settings):
    settings.LOGIN_FAILURES_PER_ADDRESS = 3
    for i in range(3):
        log_in(Client(), f"n{i}", "guess", "192.0.2.66", HTTP_X_FORWARDED_FOR=f"203.0.113.{i}")
    forged = log_in(Client(), "n9", "guess", "192.0.2.66", HTTP_X_FORWARDED_FOR="203.0.113.9")
    assert forged.status_code == 429


def concurrently(count: int, database: dict, attempt) -> list[int]:
    """Run ``attempt(i)`` in ``count`` threads released at once; their status codes."""
    return [answer.status_code for answer in at_once(count, database, attempt)]


@pytest.mark.django_db(transaction=True)
def test_twelve_simultaneous_guesses_at_one_account_check_at_most_the_limit(
    victim, settings, thread_database
):
    codes = concurrently(
        12, thread_database, lambda i: log_in(Client(), "victim", "guess", f"198.51.100.{i}")
    )
    # 200: the password was checked (and wrong). Attempts in flight count against each
    # other, so a burst may be refused before the limit; never more are checked.
    assert set(codes) <= {200, 429} and len(codes) == 12
    assert codes.count(200) <= settings.LOGIN_FAILURES_PER_ACCOUNT


@pytest.mark.django_db(transaction=True)
def test_twelve_simultaneous_guesses_from_one_address_check_at_most_the_limit(
    settings, thread_database
):
    settings.LOGIN_FAILURES_PER_ADDRESS = 5
    codes = concurrently(
        12, thread_database, lambda i: log_in(Client(), f"name{i}", "guess", "192.0.2.66")
    )
    assert set(codes) <= {200, 429} and len(codes) == 12
    assert codes.count(200) <= 5


def test_wrong_old_passwords_on_password_change_are_limited(owner_client, owner, settings):
    change = {"new_password1": "n3w-pass-phrase!", "new_password2": "n3w-pass-phrase!"}
    for _ in range(settings.LOGIN_FAILURES_PER_ACCOUNT):
        wrong = owner_client.post("/accounts/password_change/", {"old_password": "guess", **change})
        assert wrong.status_code == 200
    refused = owner_client.post(
        "/accounts/password_change/", {"old_password": OWNER_PASSWORD, **change}
    )
    assert refused.status_code == 429
    assert "Wait 2 minutes" in refused.content.decode()
    owner.refresh_from_db()
    assert owner.check_password(OWNER_PASSWORD)


def test_a_weak_new_password_is_not_counted_as_a_guess(owner_client):
    weak = {"old_password": OWNER_PASSWORD, "new_password1": "1234", "new_password2": "1234"}
    assert owner_client.post("/accounts/password_change/", weak).status_code == 200
    assert Attempt.objects.count() == 0


def test_guesses_at_login_and_on_the_account_pages_share_one_budget(owner_client, settings):
    fail_from_many_addresses(settings.LOGIN_FAILURES_PER_ACCOUNT, "owner")
    refused = owner_client.post("/account/delete/", {"password": OWNER_PASSWORD})
    assert refused.status_code == 429


def test_wrong_passwords_on_account_deletion_are_limited(owner_client, owner, settings):
    for _ in range(settings.LOGIN_FAILURES_PER_ACCOUNT):
        assert owner_client.post("/account/delete/", {"password": "guess"}).status_code == 400
    refused = owner_client.post("/account/delete/", {"password": OWNER_PASSWORD})
    assert refused.status_code == 429
    assert "Wait 2 minutes" in refused.content.decode()
    assert type(owner).objects.filter(pk=owner.pk).exists()


def reset(email: str, address: str = "127.0.0.1"):
    return Client().post("/accounts/password_reset/", {"email": email}, REMOTE_ADDR=address)


@pytest.mark.parametrize("email", ["victim@example.com", "no-account@example.com"])
def test_reset_mails_are_limited_per_email_whether_or_not_it_has_an_account(
    victim, settings, mailoutbox, email
):
    for i in range(settings.PASSWORD_RESETS_PER_EMAIL):
        assert reset(email.upper() if i else email, f"192.0.2.{i}").status_code == 302
    refused = reset(email, "203.0.113.1")
    assert refused.status_code == 429
    page = refused.content.decode()
    assert "Reset links for this e-mail address were already asked for 3 times" in page
    assert "wait 1 hour to ask again" in page
    assert len(mailoutbox) == (settings.PASSWORD_RESETS_PER_EMAIL if "victim" in email else 0)


def test_reset_mails_are_limited_per_address(settings, mailoutbox):
    for i in range(settings.PASSWORD_RESETS_PER_ADDRESS):
        assert reset(f"p{i}@example.com", "192.0.2.66").status_code == 302
    refused = reset("victim@example.com", "192.0.2.66")
    assert refused.status_code == 429
    assert "Too many password-reset e-mails" in refused.content.decode()
    assert reset("victim@example.com", "192.0.2.67").status_code == 302


@pytest.mark.parametrize(
    ("seconds", "words"),
    [
        (1, "1 second"),
        (59, "59 seconds"),
        (60, "1 minute"),
        (61, "2 minutes"),
        (3600, "1 hour"),
        (3660, "1 hour 1 minute"),
        (7500, "2 hours 5 minutes"),
    ],
)
def test_waits_are_said_in_words(seconds, words):
    assert attempts.in_words(seconds) == words


@pytest.fixture
def no_password_checks(monkeypatch):
    """Fail the test if anything authenticates or hashes a password from here on."""

    def checked(*args, **kwargs):
        raise AssertionError("a refused guess was checked")

    from django.contrib import auth
    from django.contrib.auth import forms as auth_forms
    from django.contrib.auth import hashers

    monkeypatch.setattr(hashers, "get_hasher", checked)
    monkeypatch.setattr(hashers, "identify_hasher", checked)
    monkeypatch.setattr(auth, "authenticate", checked)
    monkeypatch.setattr(auth_forms, "authenticate", checked)


def without_tokens(page: bytes) -> str:
    """The page with its CSRF tokens (new on every page) blanked."""
    return re.sub(r"[A-Za-z0-9]{64}", "token", page.decode())


def test_a_refused_login_checks_no_password_and_answers_the_same_whatever_it_is(
    victim, settings, monkeypatch, request
):
    fail_from_many_addresses(settings.LOGIN_FAILURES_PER_ACCOUNT)
    request.getfixturevalue("no_password_checks")
    pages = []
    for password in (RIGHT, "guess", ""):
        client = Client()
        refused = log_in(client, "victim", password, "203.0.113.5")
        assert refused.status_code == 429
        assert "_auth_user_id" not in client.session
        pages.append(without_tokens(refused.content))
        travel(1)  # each waits as long as the others: their pages say the same wait
        Attempt.objects.filter(address=Attempt.objects.latest("at").address).delete()
    assert pages[0] == pages[1] == pages[2]
    assert 'value="victim"' in pages[0]  # the name typed stays, the password does not
    assert RIGHT not in pages[0]


def test_a_refused_password_change_checks_no_password_and_answers_the_same(
    owner_client, settings, request
):
    change = {"new_password1": "n3w-pass-phrase!", "new_password2": "n3w-pass-phrase!"}
    fail_from_many_addresses(settings.LOGIN_FAILURES_PER_ACCOUNT, "owner")
    request.getfixturevalue("no_password_checks")
    pages = []
    for old in (OWNER_PASSWORD, "guess"):
        refused = owner_client.post("/accounts/password_change/", {"old_password": old, **change})
        assert refused.status_code == 429
        pages.append(without_tokens(refused.content))
        Attempt.objects.latest("at").delete()  # the same wait for both
    assert pages[0] == pages[1]
    assert "Too many failed attempts on this account name" in pages[0]


def test_a_refused_account_deletion_checks_no_password(owner_client, owner, settings, request):
    fail_from_many_addresses(settings.LOGIN_FAILURES_PER_ACCOUNT, "owner")
    request.getfixturevalue("no_password_checks")
    assert owner_client.post("/account/delete/", {"password": OWNER_PASSWORD}).status_code == 429
    assert type(owner).objects.filter(pk=owner.pk).exists()


def test_reading_an_accounts_guesses_is_bounded_however_many_there_are(victim, settings):
    Attempt.objects.bulk_create(
        Attempt(kind=Attempt.Kind.PASSWORD, account=attempts._account("victim"), address="x")
        for _ in range(2_000)
    )
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        refused = log_in(Client(), "victim", RIGHT)
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) == settings.LOGIN_BACKOFF_MAX
    reads = [q["sql"] for q in queries if q["sql"].startswith("SELECT") and "attempt" in q["sql"]]
    assert reads and all("LIMIT" in sql for sql in reads)


def sign_up(name: str, address: str):
    return Client().post(
        "/accounts/signup/",
        {
            "username": name,
            "email": f"{name}@example.com",
            "password1": "a-long-pass-phrase",
            "password2": "a-long-pass-phrase",
        },
        REMOTE_ADDR=address,
    )


def test_sign_ups_are_limited_per_address(settings, django_user_model):
    settings.SIGNUPS_PER_ADDRESS = 3
    for i in range(3):
        assert sign_up(f"player{i}", "192.0.2.7").status_code == 302
    refused = sign_up("player3", "192.0.2.7")
    assert refused.status_code == 429
    assert within_a_minute_of(refused["Retry-After"], 3600)
    page = refused.content.decode()
    assert "3 accounts were made from your network in the last 1 hour" in page
    assert not django_user_model.objects.filter(username="player3").exists()
    assert sign_up("player3", "192.0.2.8").status_code == 302  # another network
    travel(settings.SIGNUP_WINDOW)
    assert sign_up("player4", "192.0.2.7").status_code == 302


def test_only_accounts_made_count_against_the_sign_up_limit(settings):
    settings.SIGNUPS_PER_ADDRESS = 2
    assert sign_up("taken", "192.0.2.7").status_code == 302
    for _ in range(5):  # a name already taken: no account made, nothing counted
        assert sign_up("taken", "192.0.2.7").status_code == 400
    assert sign_up("second", "192.0.2.7").status_code == 302
    assert sign_up("third", "192.0.2.7").status_code == 429
