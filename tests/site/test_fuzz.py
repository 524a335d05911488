"""Hostile and broken input, thousands of cases: no server error, no traceback, nothing
half-saved."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from forcebuilder.actions import ACTIONS
from forcebuilder.models import Force
from tablegen.models import Table
from tests.conftest import examples
from tests.forcebuilder.conftest import LEGAL_DOCUMENT

pytestmark = pytest.mark.django_db

FUZZ = settings(
    max_examples=examples(500),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
text = st.text(max_size=40)
junk = st.one_of(
    text,
    st.integers(-(2**70), 2**70).map(str),
    st.sampled_from(["", "0", "-1", "1", "NaN", "1e309", "0,0", "<script>"]),
)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | text,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(text, children, max_size=4),
    max_leaves=20,
)


def no_traceback(response) -> None:  # type: ignore[no-untyped-def]
    assert response.status_code < 500
    assert b"Traceback" not in response.content


@pytest.fixture
def owner_client(django_user_model) -> Client:
    client = Client()
    client.force_login(
        django_user_model.objects.create_user("fuzzer", "f@example.com", "a-long-pass-phrase")
    )
    return client


@FUZZ
@given(
    document=st.one_of(json_values.map(json.dumps), text, st.just(json.dumps(LEGAL_DOCUMENT))),
    confirm=st.booleans(),
)
def test_force_import(owner_client, document, confirm):
    before = Force.objects.count()
    response = owner_client.post(
        "/forces/import/", {"document": document, "confirm": "save" if confirm else ""}
    )
    no_traceback(response)
    if response.status_code != 302:
        assert Force.objects.count() == before


@FUZZ
@given(
    action=st.sampled_from([*sorted(ACTIONS), "nonsense", ""]),
    fields=st.dictionaries(
        st.sampled_from(
            [
                "unit",
                "trooper",
                "name",
                "class",
                "unit_type",
                "faction",
                "points_limit",
                "version",
                "kind",
                "item",
            ]
        ),
        junk,
        max_size=6,
    ),
    lists=st.dictionaries(
        st.sampled_from(["weapons", "equipment", "abilities", "skills"]),
        st.lists(junk, max_size=4),
        max_size=3,
    ),
)
def test_editor_actions(owner_client, action, fields, lists):
    force = Force.objects.first()
    if force is None:
        owner_client.post(
            "/forces/import/", {"document": json.dumps(LEGAL_DOCUMENT), "confirm": "save"}
        )
        force = Force.objects.get()
    force.refresh_from_db()
    before = (force.units, force.revision, force.name, force.points_limit, force.faction)
    response = owner_client.post(
        f"/forces/{force.pk}/edit/",
        {"action": action, **fields, **lists},
        headers={"HX-Request": "true"},
    )
    no_traceback(response)
    force.refresh_from_db()
    if response.status_code >= 400:
        assert (
            force.units,
            force.revision,
            force.name,
            force.points_limit,
            force.faction,
        ) == before
    else:
        assert force.revision in (before[1], before[1] + 1)
        force.to_spec()  # what was saved is still a readable force


@FUZZ
@given(
    params=st.dictionaries(
        st.sampled_from(
            ["seed", "coverage", "symmetry", "mix", "mode", "from", "to", "hex", "regenerate"]
        ),
        junk,
        max_size=8,
    )
)
def test_table_parameters(client, params):
    no_traceback(client.get("/tables/new/", params))


@FUZZ
@given(
    q=junk,
    r=junk,
    kind=st.one_of(st.none(), junk, st.sampled_from(["", "cover", "elevated", "blocking"])),
)
def test_table_terrain_edits(owner_client, q, r, kind):
    table = Table.objects.first()
    if table is None:
        owner_client.post(
            "/tables/save/", {"seed": 5, "coverage": 0.45, "symmetry": "point", "mix": "balanced"}
        )
        table = Table.objects.get()
    table.refresh_from_db()
    data = {"q": q, "r": r} | ({} if kind is None else {"kind": kind})
    response = owner_client.post(
        f"/tables/{table.pk}/terrain/", data, headers={"HX-Request": "true"}
    )
    no_traceback(response)
    table.to_spec()


@FUZZ
@given(
    params=st.dictionaries(
        st.sampled_from(
            ["attacker", "defender", "ties_fail", "target", "mode", "band", "combat", "defense"]
        ),
        junk,
        max_size=8,
    )
)
def test_odds_pages(owner_client, params):
    no_traceback(owner_client.get("/odds/", params))
    force = Force.objects.first()
    if force is None:
        owner_client.post(
            "/forces/import/", {"document": json.dumps(LEGAL_DOCUMENT), "confirm": "save"}
        )
        force = Force.objects.get()
    no_traceback(
        owner_client.get(f"/forces/{force.pk}/odds/", params, headers={"HX-Request": "true"})
    )


@FUZZ
@given(
    fields=st.dictionaries(
        st.sampled_from(
            [
                "name",
                "faction",
                "points_limit",
                "seed",
                "coverage",
                "symmetry",
                "mix",
                "count",
                "rows",
                "columns",
            ]
        ),
        junk,
        max_size=8,
    )
)
def test_creation_forms(owner_client, fields):
    for url in ("/forces/new/", "/tables/empty/", "/tables/packs/new/", "/tables/save/"):
        # Counted before each form: an earlier one may have made something (a 1 x 2 empty
        # table is a table).
        before = (Force.objects.count(), Table.objects.count())
        response = owner_client.post(url, fields)
        no_traceback(response)
        if response.status_code != 302:
            assert (Force.objects.count(), Table.objects.count()) == before, url


@FUZZ
@given(
    content=st.one_of(
        json_values.map(json.dumps),
        text,
        st.builds(
            lambda forces, tables: json.dumps(
                {"format": "onefinity-account", "version": 1, "forces": forces, "tables": tables}
            ),
            st.lists(st.one_of(json_values, st.just(LEGAL_DOCUMENT)), max_size=3),
            st.lists(json_values, max_size=2),
        ),
    )
)
def test_account_import(owner_client, content):
    from django.core.files.uploadedfile import SimpleUploadedFile

    before = (Force.objects.count(), Table.objects.count())
    upload = SimpleUploadedFile("everything.json", content.encode(), "application/json")
    response = owner_client.post("/account/import/", {"file": upload})
    no_traceback(response)
    if response.status_code != 302:
        assert (Force.objects.count(), Table.objects.count()) == before
