"""Logging in moves what the browser made into the account, but never past the account's
quota: a browser can be filled and emptied into an account again and again (found by a
red-team pass: 25, then 30 terrain boxes in an account that keeps 20). What does not fit
stays the browser's, across logging out too, and moves at a later login when there is room."""

from __future__ import annotations

import itertools

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from hypothesis import settings
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule, run_state_machine_as_test

from accounts.ownership import SESSION_KEY, Quota
from forcebuilder.models import Force
from tablegen.models import TerrainBox
from tests.conftest import OWNER_PASSWORD, examples

LIMIT = TerrainBox.quota.account


def a_box(client: Client, name: str) -> int:
    return client.post("/tables/boxes/new/", {"name": name, "count-crate": 2}).status_code


def log_in(client: Client, username: str = "owner") -> str:
    """Log in and read the page it leads to: what the login said (each message once)."""
    response = client.post(
        "/accounts/login/", {"username": username, "password": OWNER_PASSWORD}, follow=True
    )
    assert response.redirect_chain and response.status_code == 200
    page = response.content.decode()
    if 'class="messages"' not in page:
        return ""
    start = page.index('class="messages"')
    return page[start : page.index("</ul>", start)]


def browsers_boxes(client: Client) -> list[str]:
    page = client.get("/tables/boxes/").content.decode()
    return [name for name in ("Guest 1", "Guest 2", "Guest 3") if f">{name}</a></th>" in page]


@pytest.mark.django_db
def test_logging_in_moves_only_what_the_account_has_room_for_and_the_rest_stays(owner):
    for n in range(LIMIT - 1):
        TerrainBox.objects.create(owner=owner, name=f"Mine {n}", pieces={"crate": 1})
    browser = Client()
    for n in (1, 2, 3):
        assert a_box(browser, f"Guest {n}") == 302
    browser.post(
        "/forces/new/", {"name": "Guest list", "faction": "solar-concord", "points_limit": 75}
    )

    said = log_in(browser)
    assert TerrainBox.objects.filter(owner=owner).count() == LIMIT  # one had room: the newest
    assert TerrainBox.objects.get(owner=owner, name__startswith="Guest").name == "Guest 3"
    assert Force.objects.get().owner == owner  # lists had room: all moved
    assert said.count("account is full") == 1
    assert "2 of its terrain boxes stay with this browser" in said and "lists" not in said

    browser.post("/accounts/logout/")
    assert browsers_boxes(browser) == ["Guest 1", "Guest 2"]  # still this browser's
    assert not Force.objects.filter(owner=None).exists()  # the list is the account's

    log_in(browser)  # still full: nothing moves, nothing is lost
    assert TerrainBox.objects.filter(owner=owner).count() == LIMIT
    assert TerrainBox.objects.filter(owner=None).count() == 2

    TerrainBox.objects.filter(owner=owner, name__in=["Mine 0", "Mine 1", "Mine 2"]).delete()
    browser.post("/accounts/logout/")
    assert "account is full" not in log_in(browser)
    assert TerrainBox.objects.filter(owner=owner).count() == LIMIT - 1
    assert not TerrainBox.objects.filter(owner=None).exists()
    browser.post("/accounts/logout/")
    assert browsers_boxes(browser) == []  # everything moved: the browser keeps nothing


@pytest.mark.django_db
def test_a_browser_filled_again_and_again_never_takes_an_account_past_its_quota(owner):
    browser = Client()
    answers = []
    for round_ in range(6):
        for n in range(TerrainBox.quota.browser):
            answers.append(a_box(browser, f"Round {round_} box {n}"))
        log_in(browser)
        browser.post("/accounts/logout/")
    assert TerrainBox.objects.filter(owner=owner).count() == LIMIT
    assert TerrainBox.objects.filter(owner=None).count() == TerrainBox.quota.browser
    assert set(answers) == {302, 403}  # the browser, full once the account is, is refused


@pytest.mark.django_db
def test_deleting_the_account_leaves_the_browsers_own_things_with_the_browser(owner):
    for n in range(LIMIT):
        TerrainBox.objects.create(owner=owner, name=f"Mine {n}", pieces={"crate": 1})
    browser = Client()
    assert a_box(browser, "Guest 1") == 302
    said = log_in(browser)
    assert "1 of its terrain boxes stay with this browser, where anyone using it sees them" in said
    response = browser.post("/account/delete/", {"password": OWNER_PASSWORD})
    assert response.status_code == 302
    assert not TerrainBox.objects.filter(name__startswith="Mine").exists()
    assert browsers_boxes(browser) == ["Guest 1"]  # not the account's: not deleted with it


class OneBrowserAndItsAccount(RuleBasedStateMachine):
    """Boxes made in the account and in a browser, logins and logouts there, deletions, in any
    order: no account passes its quota, no box is lost (each is the account's or still the
    browser's, and the browser's are listed to it when logged out), and the pages answer."""

    def __init__(self) -> None:
        super().__init__()
        self.user = get_user_model().objects.create_user(
            f"holder{next(_holders)}", "", OWNER_PASSWORD
        )
        self.account = Client()
        self.account.force_login(self.user)
        self.browser = Client()
        self.logged_in = False
        self.made = 0

    @rule()
    def a_box_in_the_account(self) -> None:
        if (
            self.account.post("/tables/boxes/new/", {"name": "A", "count-crate": 1}).status_code
            == 302
        ):
            self.made += 1

    @rule()
    def a_box_in_the_browser(self) -> None:
        answer = a_box(self.browser, "B")
        assert answer in (302, 403)
        self.made += answer == 302

    @rule()
    def log_in_there(self) -> None:
        log_in(self.browser, self.user.get_username())
        self.logged_in = True

    @rule()
    def log_out_there(self) -> None:
        assert self.browser.post("/accounts/logout/").status_code == 302
        self.logged_in = False

    @rule()
    def delete_the_accounts_oldest_box(self) -> None:
        oldest = TerrainBox.objects.filter(owner=self.user).order_by("pk").first()
        if oldest is not None:
            assert self.account.post(f"/tables/boxes/{oldest.pk}/delete/").status_code == 302
            self.made -= 1

    @invariant()
    def no_quota_passed_and_nothing_lost(self) -> None:
        mine = TerrainBox.objects.filter(owner=self.user).count()
        assert mine <= TerrainBox.quota.account
        token = self.browser.session.get(SESSION_KEY)
        browsers = (
            TerrainBox.objects.filter(owner=None, anonymous_owner=token).count() if token else 0
        )
        assert browsers <= TerrainBox.quota.browser
        assert mine + browsers == self.made
        if not self.logged_in:
            assert (
                self.browser.get("/tables/boxes/").content.decode().count(">B</a></th>") == browsers
            )


_holders = itertools.count()


@pytest.mark.django_db
def test_no_order_of_making_logging_in_and_out_passes_a_quota_or_loses_a_box(monkeypatch):
    monkeypatch.setattr(TerrainBox, "quota", Quota("terrain boxes", browser=2, account=2))
    run_state_machine_as_test(
        OneBrowserAndItsAccount,
        settings=settings(
            max_examples=examples(50), stateful_step_count=15, deadline=None, database=None
        ),
    )


@pytest.mark.django_db
def test_signing_up_says_things_moved_only_when_the_browser_had_made_some(client):
    from django.contrib.messages import get_messages

    form = {
        "username": "fresh",
        "email": "f@example.com",
        "password1": "a-long-pass-phrase",
        "password2": "a-long-pass-phrase",
    }
    response = client.post("/accounts/signup/", form)
    said = [str(m) for m in get_messages(response.wsgi_request)]
    assert said == ["Welcome, fresh."]
    other = Client()
    other.post("/forces/new/", {"name": "Mine", "faction": "solar-concord", "points_limit": 75})
    response = other.post(
        "/accounts/signup/", form | {"username": "maker", "email": "m@example.com"}
    )
    said = [str(m) for m in get_messages(response.wsgi_request)][-1:]
    assert said == [
        "Welcome, maker. The lists, tables and terrain boxes you made in this browser are "
        "now in your account."
    ]
