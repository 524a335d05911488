"""An owner keeps a bounded number of tables and packs: one more gets the quota page (403)
and nothing is saved, whichever way it would have been made."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from accounts.ownership import Quota
from tablegen.models import Pack, Table

pytestmark = pytest.mark.django_db

PARAMS = {"seed": 5, "coverage": 0.45, "symmetry": "point", "mix": "balanced"}
PACK = PARAMS | {"count": 2, "name": "Club night"}


@pytest.fixture
def small_quotas(monkeypatch):
    monkeypatch.setattr(Table, "quota", Quota("tables", browser=2, account=3))
    monkeypatch.setattr(Pack, "quota", Quota("packs", browser=1, account=2))


def every_way_to_make_a_table(client: Client, shared: Table):
    yield "save", client.post("/tables/save/", PARAMS)
    yield "empty", client.post("/tables/empty/", {"name": "Garage", "rows": 6, "columns": 5})
    yield "copy", client.post(f"/t/{shared.share_code}/copy/")


def test_a_browser_at_its_table_quota_gets_the_quota_page_and_nothing_is_saved(
    small_quotas, owner_client, owner
):
    owner_client.post("/tables/save/", PARAMS)
    shared = owner.tables.get()
    shared.set_sharing("on")
    browser = Client()
    assert browser.post("/tables/save/", PARAMS).status_code == 302
    assert browser.post("/tables/empty/", {"name": "G", "rows": 6, "columns": 5}).status_code == 302
    before = Table.objects.count()
    for way, response in every_way_to_make_a_table(browser, shared):
        assert response.status_code == 403, way
        text = response.content.decode()
        assert "You have 2 tables; this browser keeps at most 2" in text and "Sign up" in text
    assert Table.objects.count() == before


def test_an_account_at_its_table_quota_gets_the_quota_page(small_quotas, owner_client, owner):
    for _ in range(3):
        assert owner_client.post("/tables/save/", PARAMS).status_code == 302
    shared = owner.tables.first()
    shared.set_sharing("on")
    for way, response in every_way_to_make_a_table(owner_client, shared):
        assert response.status_code == 403, way
        assert "an account keeps at most 3" in response.content.decode()
    assert owner.tables.count() == 3


def test_a_browser_at_its_pack_quota_gets_the_quota_page(small_quotas):
    browser = Client()
    assert browser.post("/tables/packs/new/", PACK).status_code == 302
    response = browser.post("/tables/packs/new/", PACK)
    assert response.status_code == 403
    assert "You have 1 packs; this browser keeps at most 1" in response.content.decode()
    assert Pack.objects.count() == 1


def test_an_account_at_its_pack_quota_gets_the_quota_page(small_quotas, owner_client, owner):
    for _ in range(2):
        assert owner_client.post("/tables/packs/new/", PACK).status_code == 302
    assert owner_client.post("/tables/packs/new/", PACK).status_code == 403
    assert owner.packs.count() == 2


def test_an_account_import_that_would_pass_the_table_quota_saves_nothing(
    small_quotas, owner_client, owner
):
    owner_client.post("/tables/save/", PARAMS)
    document = json.loads(owner_client.get(f"/tables/{owner.tables.get().pk}/table.json").content)
    account = {"format": "onefinity-account", "version": 1, "tables": [document] * 3}
    upload = SimpleUploadedFile("e.json", json.dumps(account).encode(), "application/json")
    response = owner_client.post("/account/import/", {"file": upload})
    assert response.status_code == 403
    assert "You have 1 tables; an account keeps at most 3" in response.content.decode()
    assert owner.tables.count() == 1
