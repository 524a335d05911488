"""Bounded work per request: bodies over the limit are refused before they are read, JSON
numbers Python mishandles are a message, and an owner keeps a bounded number of things."""

from __future__ import annotations

import io
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from config.uploads import request_limit
from forcebuilder.models import Force
from tests.forcebuilder.conftest import LEGAL_DOCUMENT

pytestmark = pytest.mark.django_db


class ExplodingStream(io.RawIOBase):
    """A request body that fails the test if anything reads it."""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:  # type: ignore[no-untyped-def]
        raise AssertionError("the body of a refused request was read")


@pytest.mark.parametrize("path", ["/forces/import/", "/account/import/"])
def test_a_body_over_the_limit_is_refused_before_it_is_read(client, path):
    # An account file may be far larger than any other upload (config.uploads).
    declared = request_limit(path) + 1
    response = client.generic(
        "POST",
        path,
        data=b"",
        content_type="multipart/form-data; boundary=x",
        CONTENT_LENGTH=str(declared),
        **{"wsgi.input": ExplodingStream()},
    )
    assert response.status_code == 413
    assert "too large" in response.content.decode()


def test_a_one_gibibyte_upload_is_refused_at_once(client):
    response = client.generic(
        "POST",
        "/forces/import/",
        data=b"",
        content_type="multipart/form-data; boundary=x",
        CONTENT_LENGTH=str(2**30),
        **{"wsgi.input": ExplodingStream()},
    )
    assert response.status_code == 413


def test_a_body_at_the_limit_is_read(owner_client, settings):
    settings.MAX_REQUEST_BYTES = 10_000
    settings.MAX_UPLOAD_BYTES = 9_000
    document = json.dumps(LEGAL_DOCUMENT)
    upload = SimpleUploadedFile("list.json", document.encode(), "application/json")
    response = owner_client.post("/forces/import/", {"file": upload})
    assert response.status_code == 200  # the preview


def test_an_uploaded_file_over_its_limit_is_refused_even_without_a_declared_length(
    owner_client, settings
):
    settings.MAX_UPLOAD_BYTES = 1_000
    upload = SimpleUploadedFile("big.json", b" " * 5_000, "application/json")
    response = owner_client.post("/forces/import/", {"file": upload})
    assert response.status_code == 400
    assert not Force.objects.exists()


@pytest.mark.parametrize(
    ("number", "words"),
    [("1" * 4301, "at most 30 digits"), ("NaN", "NaN is not a number"), ("Infinity", "Infinity")],
)
def test_json_numbers_python_mishandles_are_a_clear_400(owner_client, number, words):
    document = json.dumps(LEGAL_DOCUMENT).replace('"points_limit": 75', f'"points_limit": {number}')
    response = owner_client.post("/forces/import/", {"document": document})
    assert response.status_code == 400
    assert words in response.content.decode()
    account = '{"format": "onefinity-account", "version": 1, "forces": [' + number + "]}"
    upload = SimpleUploadedFile("everything.json", account.encode(), "application/json")
    response = owner_client.post("/account/import/", {"file": upload})
    assert response.status_code == 400
    assert words in response.content.decode()


def test_a_browser_keeps_a_bounded_number_of_lists_and_is_told_to_sign_up(monkeypatch):
    from accounts.ownership import Quota

    monkeypatch.setattr(Force, "quota", Quota("lists", browser=2, account=3))
    browser = Client()
    for _ in range(2):
        response = browser.post(
            "/forces/new/", {"name": "List", "faction": "solar-concord", "points_limit": 75}
        )
        assert response.status_code == 302
    response = browser.post(
        "/forces/new/", {"name": "List", "faction": "solar-concord", "points_limit": 75}
    )
    assert response.status_code == 403
    text = response.content.decode()
    assert "You have 2 lists; this browser keeps at most 2" in text and "Sign up" in text
    assert Force.objects.count() == 2
    force = Force.objects.first()
    assert browser.post(f"/forces/{force.pk}/duplicate/").status_code == 403
    assert Force.objects.count() == 2


def test_an_account_import_that_would_pass_the_quota_saves_nothing(owner_client, monkeypatch):
    from accounts.ownership import Quota

    monkeypatch.setattr(Force, "quota", Quota("lists", browser=1, account=2))
    account = {"format": "onefinity-account", "version": 1, "forces": [LEGAL_DOCUMENT] * 3}
    upload = SimpleUploadedFile("e.json", json.dumps(account).encode(), "application/json")
    response = owner_client.post("/account/import/", {"file": upload})
    assert response.status_code == 403
    assert "keeps at most 2" in response.content.decode()
    assert not Force.objects.exists()
