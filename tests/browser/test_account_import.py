"""Importing a large account file from the page, on a phone and a desktop: the file chosen
and sent, the job's page saying what was imported (or why nothing was, with the way to
send it again), by keyboard; judged by axe-core and the Nu HTML checker."""

from __future__ import annotations

import copy
import json

import pytest
from django.test import Client
from playwright.sync_api import expect

from forcebuilder.models import Force
from tests.browser.conftest import DESKTOP, PHONE, patient, screenshot
from tests.browser.quality import ROOT, axe_violations, markup_errors
from tests.forcebuilder.conftest import LEGAL_DOCUMENT

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "a-long-pass-phrase"


def account_file(count: int) -> bytes:
    forces = [copy.deepcopy(LEGAL_DOCUMENT) | {"name": f"List {n}"} for n in range(count)]
    document = {"format": "onefinity-account", "version": 1, "forces": forces}
    return json.dumps(document, indent=2).encode()


@pytest.mark.parametrize(("viewport", "suffix"), [(DESKTOP, "desktop"), (PHONE, "phone")])
def test_a_large_account_file_is_imported_from_the_page(
    browser, live_server, django_user_model, settings, viewport, suffix
):
    settings.IMPORT_REQUEST_BYTES = 0  # every file to the worker (here, in the request)
    person = django_user_model.objects.create_user("importer", "i@example.com", PASSWORD)
    client = Client()
    client.force_login(person)
    context = browser.new_context(viewport=viewport, has_touch=viewport == PHONE, bypass_csp=True)
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    page = patient(context.new_page())
    html = {}
    page.goto(f"{live_server.url}/account/import/")
    html[f"import-{suffix}"] = page.content()
    assert axe_violations(page) == []
    page.get_by_label("File").set_input_files(
        {"name": "everything.json", "mimeType": "application/json", "buffer": account_file(3)}
    )
    page.get_by_role("button", name="Import", exact=True).focus()
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", level=1)).to_have_text("Import of everything.json")
    expect(page.get_by_role("status")).to_contain_text(
        "Imported 3 force lists, 0 tables, 0 terrain boxes."
    )
    assert Force.objects.filter(owner=person).count() == 3
    screenshot(page, f"account-import-done-{suffix}")
    html[f"done-{suffix}"] = page.content()
    assert axe_violations(page) == []

    page.goto(f"{live_server.url}/account/import/")
    page.get_by_label("File").set_input_files(
        {"name": "broken.json", "mimeType": "application/json", "buffer": b'{"format": "x"}'}
    )
    page.get_by_role("button", name="Import", exact=True).click()
    expect(page.get_by_role("alert")).to_contain_text("not an export of everything")
    expect(page.get_by_role("alert")).to_contain_text("Nothing was imported")
    screenshot(page, f"account-import-failed-{suffix}")
    html[f"failed-{suffix}"] = page.content()
    assert axe_violations(page) == []
    page.get_by_role("link", name="Send it again").focus()
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", level=1)).to_have_text("Import your data")
    assert Force.objects.filter(owner=person).count() == 3
    assert markup_errors(html, ROOT / "test-artifacts" / "markup" / "account-import") == {}
    context.close()
