"""A person can download everything they own, import it again, and delete their account."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from forcebuilder.models import Force
from tablegen.models import Table
from tests.forcebuilder.conftest import LEGAL_DOCUMENT

pytestmark = pytest.mark.django_db


@pytest.fixture
def person(owner):
    return owner


@pytest.fixture
def person_client(owner_client) -> Client:
    client = owner_client
    client.post("/forces/import/", {"document": json.dumps(LEGAL_DOCUMENT), "confirm": "save"})
    client.post(
        "/tables/save/", {"seed": 5, "coverage": 0.45, "symmetry": "point", "mix": "balanced"}
    )
    return client


def upload(content: str | bytes) -> SimpleUploadedFile:
    return SimpleUploadedFile(
        "everything.json",
        content.encode() if isinstance(content, str) else content,
        "application/json",
    )


def test_export_then_import_restores_everything(person_client, person, django_user_model):
    exported = person_client.get("/account/everything.json")
    assert "attachment" in exported["Content-Disposition"]
    content = exported.getvalue()  # sent a part at a time: read once
    document = json.loads(content)
    assert len(document["forces"]) == 1 and len(document["tables"]) == 1
    newcomer = django_user_model.objects.create_user(
        "newcomer", "n@example.com", "another-long-phrase"
    )
    client = Client()
    client.force_login(newcomer)
    response = client.post("/account/import/", {"file": upload(content)})
    assert response.status_code == 302
    assert newcomer.forces.get().document() == person.forces.get().document()
    assert newcomer.tables.get().document == person.tables.get().document


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ("{", "not valid JSON"),
        ('{"format": "onefinity-force"}', "not an export of everything"),
        (
            json.dumps(
                {
                    "format": "onefinity-account",
                    "version": 1,
                    "forces": [LEGAL_DOCUMENT, {"format": "x"}],
                }
            ),
            "List 2: expected &#x27;onefinity-force&#x27;",
        ),
        (
            json.dumps(
                {
                    "format": "onefinity-account",
                    "version": 1,
                    "tables": [{"format": "onefinity-table", "version": 1, "terrain": "x"}],
                }
            ),
            "tables[0]",
        ),
        (b"\xff\xfe", "not UTF-8"),
    ],
)
def test_a_bad_file_imports_nothing(person_client, person, content, words):
    before = (Force.objects.count(), Table.objects.count())
    response = person_client.post("/account/import/", {"file": upload(content)})
    assert response.status_code == 400 and words in response.content.decode()
    assert (Force.objects.count(), Table.objects.count()) == before


def test_deleting_the_account_deletes_its_data(person_client, person):
    assert person_client.post("/account/delete/", {"password": "wrong"}).status_code == 400
    assert Force.objects.filter(owner=person).exists()
    response = person_client.post("/account/delete/", {"password": "a-long-pass-phrase"})
    assert response.status_code == 302
    assert not Force.objects.exists() and not Table.objects.exists()
    assert "_auth_user_id" not in person_client.session


def test_a_browser_without_an_account_can_download_its_things(client):
    client.post("/forces/import/", {"document": json.dumps(LEGAL_DOCUMENT), "confirm": "save"})
    document = json.loads(client.get("/account/everything.json").getvalue())
    assert len(document["forces"]) == 1
    assert client.get("/account/delete/").status_code == 302  # deleting needs an account


def test_a_list_of_a_faction_the_ruleset_lacks_is_refused_with_the_file(person_client, person):
    document = LEGAL_DOCUMENT | {"faction": "no-such-faction"}
    account = {"format": "onefinity-account", "version": 1, "forces": [LEGAL_DOCUMENT, document]}
    before = Force.objects.count()
    response = person_client.post("/account/import/", {"file": upload(json.dumps(account))})
    assert response.status_code == 400
    assert (
        "List 2: faction &#x27;no-such-faction&#x27; is not one of ruleset"
        in response.content.decode()
    )
    assert Force.objects.count() == before
