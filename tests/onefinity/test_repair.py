"""A stored list that no longer reads can be mended, keeping everything that can be kept."""

from __future__ import annotations

import copy

from hypothesis import given, settings
from hypothesis import strategies as st

from onefinity.rules import ForceDocumentError, force_document, read_force_document
from onefinity.rules.repair import repair_force_document
from tests.conftest import examples
from tests.onefinity.test_force_document import DOCUMENT
from tests.onefinity.test_properties import forces, json_values


@settings(max_examples=examples(300))
@given(json_values)
def test_any_json_value_is_repaired_into_a_readable_force(value):
    spec, _ = repair_force_document(value)
    assert read_force_document(force_document(spec)) == spec


@settings(max_examples=examples(200))
@given(forces.map(force_document), st.data())
def test_a_damaged_value_anywhere_is_repaired(document, data):
    key = data.draw(st.sampled_from(list(document)))
    document[key] = data.draw(json_values | st.text().map(lambda t: t + "\x01"))
    spec, _ = repair_force_document(document)
    assert read_force_document(force_document(spec)) == spec


@settings(max_examples=examples(200))
@given(forces)
def test_a_readable_document_is_left_exactly_as_it_is(force):
    spec, changes = repair_force_document(force_document(force))
    assert changes == ()
    assert spec == read_force_document(force_document(force))


def test_the_repair_says_what_it_changed():
    document = copy.deepcopy(DOCUMENT)
    document["name"] = "Wardens\x01 of the gate"
    document["units"] = document["units"] * 9
    document["units"][0]["troopers"][0]["weapons"] = ["combi-rifle", "x" * 81]
    try:
        read_force_document(document)
    except ForceDocumentError:
        pass
    else:  # pragma: no cover - the document is meant to be unreadable
        raise AssertionError("expected an unreadable document")
    spec, changes = repair_force_document(document)
    assert spec.name == "Wardens of the gate"
    assert len(spec.units) == 8
    assert spec.units[0].troopers[0].weapons == ("combi-rifle", "x" * 80)
    assert "name: removed control characters" in changes
    assert "units: kept the first 8 of 9" in changes
    assert "units[0].troopers[0].weapons[1]: cut to 80 characters" in changes
