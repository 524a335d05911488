"""An edit in the list editor reads its stored list once and validates the changed list once
(forcebuilder.editing): counted at every module that reads or validates a list."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import ExitStack
from unittest import mock

import pytest

import forcebuilder.views  # noqa: F401  (every module an edit goes through, loaded to be counted)
from onefinity.rules import read_force_document, validate_force
from tests.factories import make_force

pytestmark = pytest.mark.django_db


class Counted:
    """Calls of the reader and the validator, by what they were given."""

    def __init__(self) -> None:
        self.reads: list[object] = []  # documents, compared by value (jsonb orders keys)
        self.validations: list[object] = []

    def clear(self) -> None:
        self.reads.clear()
        self.validations.clear()

    def read(self, document, *args, **kwargs):
        self.reads.append(document)
        return read_force_document(document, *args, **kwargs)

    def validate(self, spec, *args, **kwargs):
        self.validations.append(spec)
        return validate_force(spec, *args, **kwargs)


@pytest.fixture
def counted() -> Iterator[Counted]:
    counter = Counted()
    with ExitStack() as stack:
        for name, module in list(sys.modules.items()):
            # The editor's judge of its choices validates copies of the list, each with one
            # choice made (forcebuilder.choices): those are its trials, not the list's.
            if not name.startswith(("forcebuilder", "onefinity", "accounts")) or name.endswith(
                ".choices"
            ):
                continue
            if getattr(module, "read_force_document", None) is read_force_document:
                stack.enter_context(mock.patch.object(module, "read_force_document", counter.read))
            if getattr(module, "validate_force", None) is validate_force:
                stack.enter_context(mock.patch.object(module, "validate_force", counter.validate))
        yield counter


@pytest.mark.parametrize(
    "data",
    [
        {"action": "add-trooper", "unit": "0"},
        {"action": "remove-trooper", "unit": "0", "trooper": "0"},
        {"action": "rename-unit", "unit": "0", "name": "Night raid"},
    ],
    ids=["adding", "taking-away", "renaming"],
)
def test_an_edit_reads_its_stored_list_once_and_validates_once(owner_client, owner, counted, data):
    force = make_force(owner)  # the legal Wardens: several units, none of them the whole list
    stored = force.document()
    before = read_force_document(force.document())  # this module's reader is not counted
    counted.clear()  # making the list read it too
    response = owner_client.post(
        f"/forces/{force.pk}/edit/",
        data | {"version": force.version},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200, response.content.decode()[:500]
    force.refresh_from_db()
    assert force.version == 1  # the change was made
    after = read_force_document(force.document())
    # One read of the stored list, one of the changed list as it is saved: nothing else.
    assert sum(1 for document in counted.reads if document == stored) == 1
    assert len(counted.reads) == 2
    # The changed list is validated once, and the list as it was not at all (the change
    # broke no rule, so there is no added error to tell from an old one).
    assert [spec for spec in counted.validations if spec == after] == [after], counted.validations
    assert sum(1 for spec in counted.validations if spec == before) == 0


def test_a_refused_addition_is_told_from_the_problems_the_list_had(owner_client, owner, counted):
    """Only when the changed list breaks a rule is the list as it was validated too: once."""
    force = make_force(owner)
    before = read_force_document(force.document())
    counted.clear()
    tag = next(i for i, unit in enumerate(before.units) if unit.type == "tag")
    response = owner_client.post(
        f"/forces/{force.pk}/edit/",
        {"action": "duplicate-unit", "unit": str(tag), "version": force.version},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 400
    assert "Not added" in response.content.decode()
    force.refresh_from_db()
    assert force.version == 0
    assert sum(1 for spec in counted.validations if spec == before) <= 2  # the judge, the page
