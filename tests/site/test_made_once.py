"""A form that makes a record makes it once (onefinity.once): a double tap, or a phone on
bad Wi-Fi sending the form again, sends the same POST twice, and both answers lead to the
one record the first made. Each form carries a one-time token, new whenever it is drawn;
the same form sent again with other values (after going back) makes another, and so does a
form without a token (a script)."""

from __future__ import annotations

import datetime
import html
import io
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client

from events.models import Event
from forcebuilder.models import Force
from games.models import Game
from onefinity.examples import example_forces
from onefinity.models import Submission
from onefinity.once import KEPT
from tablegen.models import Pack, Table, TerrainBox
from tests.events.conftest import table_documents
from tests.factories import LEGAL_DOCUMENT, make_force, make_table
from tests.threads import at_once
from tests.threads import thread_database as thread_database  # a fixture

pytestmark = pytest.mark.django_db

NEW_LIST = {"name": "Raid", "faction": "nomad-syndicate", "points_limit": "150"}


def hidden_of(page: str, action: str | None = None) -> dict[str, str]:
    """The hidden fields (the one-time token among them) of the page's form posting to
    ``action`` that carries a token (the page's only such form when None); the first such
    form when several post there (a list of examples, each its own)."""
    forms = re.findall(r"<form\b([^>]*)>(.*?)</form>", page, re.S)
    found = [
        body
        for attributes, body in forms
        if action is None or f'action="{action}"' in attributes
        if 'name="once"' in body
    ]
    assert found if action is not None else len(found) == 1, (action, len(found))
    fields = re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', found[0])
    return {name: html.unescape(value) for name, value in fields}


def token_of(page: str, action: str | None = None) -> str:
    return hidden_of(page, action)["once"]


def twice(client: Client, url: str, fields: dict[str, Any]) -> tuple[str, str]:
    """The same POST sent twice (a double tap): where each answer leads."""
    first, second = client.post(url, fields), client.post(url, fields)
    assert first.status_code == second.status_code == 302, (first, second)
    return first["Location"], second["Location"]


def signed(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


# --- A new list ------------------------------------------------------------------------------


def test_a_double_tap_on_create_makes_one_list_and_both_answers_lead_to_it(owner_client, owner):
    token = token_of(owner_client.get("/forces/new/").content.decode(), "/forces/new/")
    first, second = twice(owner_client, "/forces/new/", NEW_LIST | {"once": token})
    (force,) = Force.objects.filter(owner=owner)
    assert first == second == force.get_absolute_url()


def test_each_drawing_of_the_form_has_its_own_token_and_makes_its_own_list(owner_client, owner):
    tokens = {token_of(owner_client.get("/forces/new/").content.decode()) for _ in range(2)}
    assert len(tokens) == 2
    for token in tokens:
        owner_client.post("/forces/new/", NEW_LIST | {"once": token})
    assert Force.objects.filter(owner=owner).count() == 2


def test_the_form_sent_again_with_other_values_makes_another_list(owner_client, owner):
    """Back to the form, another name, Create: a list of its own."""
    token = token_of(owner_client.get("/forces/new/").content.decode())
    owner_client.post("/forces/new/", NEW_LIST | {"once": token})
    owner_client.post("/forces/new/", NEW_LIST | {"once": token, "name": "Second raid"})
    assert sorted(Force.objects.filter(owner=owner).values_list("name", flat=True)) == [
        "Raid",
        "Second raid",
    ]


def test_a_form_without_a_token_makes_a_list_each_time(owner_client, owner):
    for fields in (NEW_LIST, NEW_LIST, NEW_LIST | {"once": "short"}):
        assert owner_client.post("/forces/new/", fields).status_code == 302
    assert Force.objects.filter(owner=owner).count() == 3


def test_a_token_is_remembered_for_a_while_and_a_deleted_list_is_made_again(owner_client, owner):
    token = token_of(owner_client.get("/forces/new/").content.decode())
    fields = NEW_LIST | {"once": token}
    owner_client.post("/forces/new/", fields)
    Force.objects.filter(owner=owner).delete()
    owner_client.post("/forces/new/", fields)
    assert Force.objects.filter(owner=owner).count() == 1
    # Long after, the same form sent again is a new submission (and the old one is gone).
    Submission.objects.update(at=Submission.objects.get().at - KEPT - timedelta(seconds=1))
    owner_client.post("/forces/new/", fields)
    assert Force.objects.filter(owner=owner).count() == 2
    assert Submission.objects.count() == 1


def test_a_refused_submission_claims_nothing(owner_client, owner, monkeypatch):
    """Over the quota nothing is made; once there is room, the same form makes its list."""
    from accounts.ownership import Quota

    monkeypatch.setattr(Force, "quota", Quota("lists", 0, 0))
    token = token_of(owner_client.get("/forces/new/").content.decode())
    fields = NEW_LIST | {"once": token}
    assert owner_client.post("/forces/new/", fields).status_code != 302
    assert not Force.objects.exists() and not Submission.objects.exists()
    monkeypatch.setattr(Force, "quota", Quota("lists", 5, 5))
    assert owner_client.post("/forces/new/", fields).status_code == 302
    assert Force.objects.filter(owner=owner).count() == 1


def test_a_browser_without_an_account_gets_one_list_too(client):
    token = token_of(client.get("/forces/new/").content.decode())
    first, second = twice(client, "/forces/new/", NEW_LIST | {"once": token})
    (force,) = Force.objects.all()
    assert first == second == force.get_absolute_url()
    assert client.get(first).status_code == 200


@pytest.mark.django_db(transaction=True)
def test_two_identical_posts_at_once_make_one_list(owner, thread_database):
    """The phone's two POSTs arrive together, each in a server thread of its own."""
    (token,) = at_once(
        1, thread_database, lambda _: token_of(signed(owner).get("/forces/new/").content.decode())
    )
    (cookies,) = at_once(1, thread_database, lambda _: signed(owner).cookies)

    def post(_: int) -> str:
        client = Client()
        client.cookies = cookies
        response = client.post("/forces/new/", NEW_LIST | {"once": token})
        return str(response["Location"])

    answers = at_once(2, thread_database, post)
    (made,) = at_once(1, thread_database, lambda _: list(Force.objects.filter(owner=owner)))
    assert len(made) == 1, made
    assert answers == [made[0].get_absolute_url()] * 2


# --- Every other form that makes a record ------------------------------------------------------


def _event_entry(owner: Any, other: Any) -> Event:
    event = Event.create(
        name="Spring Open",
        date=datetime.date(2026, 12, 5),
        points_limit=75,
        ruleset_version="2026.11",
        round_count=3,
        owner=other,
    )
    event.join(owner)
    return event


def _upload(text: str) -> Any:
    upload = io.BytesIO(text.encode())
    upload.name = "box.json"
    return upload


@dataclass
class Case:
    """One form that makes a record: the page that draws it ("": ``fields`` are its own),
    where it posts ("": to its page), what else it sends, and the count of the owner's
    records of its kind."""

    page: str
    action: str
    fields: dict[str, Any]
    count: Callable[[], int]
    files: Callable[[], dict[str, Any]] | None = None


def _cases() -> dict[str, Callable[[Any, Any, Client], Case]]:
    def event_list(owner: Any, other: Any, client: Client) -> Case:
        event = _event_entry(owner, other)
        url = f"/events/{event.pk}/me/new-list/"
        fields = {"name": "For the Open", "faction": "nomad-syndicate"}
        return Case(f"/events/{event.pk}/me/", url, fields, Force.objects.filter(owner=owner).count)

    def event(owner: Any, other: Any, client: Client) -> Case:
        fields = {
            "name": "Winter Cup",
            "date": "2026-12-12",
            "points_limit": 60,
            "ruleset_version": "2026.11",
            "round_count": 3,
            "notes": "",
        }
        return Case("/events/new/", "", fields, Event.objects.filter(owner=owner).count)

    def game(owner: Any, other: Any, client: Client) -> Case:
        mine, theirs = make_force(owner), make_force(owner, name="Sparring")
        fields = {"list_a": mine.pk, "list_b": theirs.pk, "table": "", "vp_target": 5}
        return Case("/games/", "/games/new/", fields, Game.objects.filter(owner=owner).count)

    def pack(owner: Any, other: Any, client: Client) -> Case:
        fields = {"seed": 5, "coverage": 0.45, "symmetry": "point", "mix": "balanced"}
        fields |= {"count": 2, "name": "Club night"}
        count = Pack.objects.filter(owner=owner).count
        return Case("/tables/packs/new/", "/tables/packs/new/", fields, count)

    def table_saved(owner: Any, other: Any, client: Client) -> Case:
        page = "/tables/new/?seed=5&coverage=0.45&symmetry=point&mix=balanced"
        return Case(page, "/tables/save/", {}, Table.objects.filter(owner=owner).count)

    def table_empty(owner: Any, other: Any, client: Client) -> Case:
        fields = {"name": "Mine", "rows": 11, "columns": 11}
        return Case(
            "/tables/new/", "/tables/empty/", fields, Table.objects.filter(owner=owner).count
        )

    def table_copy(owner: Any, other: Any, client: Client) -> Case:
        code = make_table(other).share_code
        count = Table.objects.filter(owner=owner).count
        return Case(f"/t/{code}/", f"/t/{code}/copy/", {}, count)

    def pack_copy(owner: Any, other: Any, client: Client) -> Case:
        made = Pack.objects.create(
            name="Made", count=2, made=2, params={}, tables=table_documents(2), owner=owner
        )
        page = f"/tables/packs/{made.pk}/table/?table=1"
        count = Table.objects.filter(owner=owner).count
        return Case(page, f"/tables/packs/{made.pk}/copy/", {}, count)

    def box(owner: Any, other: Any, client: Client) -> Case:
        count = TerrainBox.objects.filter(owner=owner).count
        fields = {"name": "Club", "count-crate": 2}
        return Case("/tables/boxes/new/", "/tables/boxes/new/", fields, count)

    def box_import(owner: Any, other: Any, client: Client) -> Case:
        document = {"format": "onefinity-terrain-box", "version": 1, "name": "Club"}
        text = json.dumps(document | {"pieces": {"crate": 2}})
        count = TerrainBox.objects.filter(owner=owner).count
        return Case(
            "/tables/boxes/", "/tables/boxes/import/", {}, count, lambda: {"file": _upload(text)}
        )

    def list_import(owner: Any, other: Any, client: Client) -> Case:
        document = json.dumps(LEGAL_DOCUMENT)
        # The preview (nothing saved) draws the form that saves.
        page = client.post("/forces/import/", {"document": document}).content.decode()
        fields = hidden_of(page, "/forces/import/")
        return Case("", "/forces/import/", fields, Force.objects.filter(owner=owner).count)

    def example_copy(owner: Any, other: Any, client: Client) -> Case:
        slug = example_forces()[0].slug
        count = Force.objects.filter(owner=owner).count
        return Case(f"/examples/{slug}/", f"/examples/{slug}/copy/", {}, count)

    def shared_copy(owner: Any, other: Any, client: Client) -> Case:
        code = make_force(other).share_code
        count = Force.objects.filter(owner=owner).count
        return Case(f"/s/{code}/", f"/s/{code}/copy/", {}, count)

    def duplicate(owner: Any, other: Any, client: Client) -> Case:
        force = make_force(owner)
        count = Force.objects.filter(owner=owner).count
        return Case(f"/forces/{force.pk}/", f"/forces/{force.pk}/duplicate/", {}, count)

    def duplicate_from_my_lists(owner: Any, other: Any, client: Client) -> Case:
        force = make_force(owner)
        count = Force.objects.filter(owner=owner).count
        return Case("/forces/", f"/forces/{force.pk}/duplicate/", {}, count)

    return {
        f.__name__: f
        for f in (
            event_list,
            event,
            game,
            pack,
            table_saved,
            table_empty,
            table_copy,
            pack_copy,
            box,
            box_import,
            list_import,
            example_copy,
            shared_copy,
            duplicate,
            duplicate_from_my_lists,
        )
    }


CASES = _cases()


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_double_tap_makes_one_record_and_both_answers_lead_to_it(
    name, owner, stranger, owner_client
):
    made = CASES[name](owner, stranger, owner_client)
    page = owner_client.get(made.page).content.decode() if made.page else ""
    fields = made.fields if not made.page else made.fields | hidden_of(page, made.action or None)
    before = made.count()
    answers = [
        owner_client.post(made.action or made.page, fields | (made.files() if made.files else {}))
        for _ in range(2)
    ]
    assert [a.status_code for a in answers] == [302, 302], name
    assert answers[0]["Location"] == answers[1]["Location"], name
    assert made.count() == before + 1, name
