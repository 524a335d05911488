"""Units and troopers may carry their own short id in the force document: read strictly,
written back as read, never shared by two, and optional (older documents have none)."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from onefinity.rules import (
    ForceDocumentError,
    ForceSpec,
    TrooperSpec,
    UnitSpec,
    current_ruleset,
    force_document,
    read_force_document,
)
from onefinity.rules.force import MAX_KEY_LENGTH
from onefinity.rules.repair import repair_force_document
from onefinity.rules.upgrade import move_force
from tests.conftest import examples
from tests.onefinity.test_force_document import DOCUMENT
from tests.onefinity.test_properties import forces

RULESET = current_ruleset()
KEYS = st.text(alphabet="abcxyz0189-_", min_size=1, max_size=MAX_KEY_LENGTH)


def with_ids(document: dict) -> dict:
    document = copy.deepcopy(document)
    document["units"][0]["id"] = "u1"
    for number, trooper in enumerate(document["units"][0]["troopers"]):
        trooper["id"] = f"t{number}"
    return document


def test_ids_are_read_and_written_back_first_in_their_object():
    force = read_force_document(with_ids(DOCUMENT))
    assert force.units[0].id == "u1"
    assert [t.id for t in force.units[0].troopers] == ["t0", "t1", "t2"]
    written = force_document(force)
    assert next(iter(written["units"][0])) == "id" and written["units"][0]["troopers"][1] == {
        "id": "t1",
        "class": "trooper",
    }


def test_a_document_without_ids_still_reads_and_writes_none():
    force = read_force_document(DOCUMENT)
    assert force.units[0].id == "" and all(t.id == "" for t in force.units[0].troopers)
    assert "id" not in force_document(force)["units"][0]


@pytest.mark.parametrize(
    ("value", "words"),
    [
        (7, "expected text (an id), got a number"),
        ("", "must not be empty"),
        ("x" * (MAX_KEY_LENGTH + 1), f"at most {MAX_KEY_LENGTH}"),
        ("a b", "only letters, digits, '-' and '_'"),
        ("a/b", "only letters, digits, '-' and '_'"),
        ("é", "only letters, digits, '-' and '_'"),
        ("a\x01", "must not contain control characters (found U+0001)"),
    ],
)
def test_a_bad_id_is_refused_with_its_path(value, words):
    document = copy.deepcopy(DOCUMENT)
    document["units"][0]["troopers"][1]["id"] = value
    with pytest.raises(ForceDocumentError) as raised:
        read_force_document(document)
    assert raised.value.path == "units[0].troopers[1].id"
    assert words in str(raised.value)


def test_an_id_at_its_length_limit_is_read():
    document = copy.deepcopy(DOCUMENT)
    document["units"][0]["id"] = "x" * MAX_KEY_LENGTH
    assert read_force_document(document).units[0].id == "x" * MAX_KEY_LENGTH


def test_two_troopers_with_one_id_are_refused_naming_both():
    document = with_ids(DOCUMENT)
    document["units"][0]["troopers"][2]["id"] = "t0"
    with pytest.raises(ForceDocumentError) as raised:
        read_force_document(document)
    assert raised.value.path == "units[0].troopers[2].id"
    assert "'t0' is already the id of units[0].troopers[0]" in str(raised.value)


def test_a_unit_and_a_trooper_share_no_id_either():
    document = with_ids(DOCUMENT)
    document["units"][0]["troopers"][0]["id"] = "u1"
    with pytest.raises(ForceDocumentError, match="already the id of units\\[0\\]"):
        read_force_document(document)


def test_repair_keeps_good_ids_and_drops_bad_or_repeated_ones():
    document = with_ids(DOCUMENT)
    document["units"][0]["troopers"][1]["id"] = "no spaces"
    document["units"][0]["troopers"][2]["id"] = "t0"
    spec, changes = repair_force_document(document)
    assert [t.id for t in spec.units[0].troopers] == ["t0", "", ""]
    assert spec.units[0].id == "u1"
    assert "units[0].troopers[1].id: not a usable id, dropped" in changes
    assert "units[0].troopers[2].id: not a usable id, dropped" in changes


def test_moving_to_another_ruleset_keeps_the_ids():
    force = read_force_document(with_ids(DOCUMENT))
    moved = move_force(force, RULESET, RULESET).moved
    assert [t.id for t in moved.units[0].troopers] == ["t0", "t1", "t2"]
    assert moved.units[0].id == "u1"


def give_ids(force: ForceSpec, keys: list[str]) -> ForceSpec:
    """The force with distinct ids drawn from ``keys`` on some units and troopers."""
    pool = iter(dict.fromkeys(keys))
    units = []
    for unit in force.units:
        troopers = tuple(
            TrooperSpec(
                trooper_class=t.trooper_class,
                name=t.name,
                weapons=t.weapons,
                equipment=t.equipment,
                abilities=t.abilities,
                id=next(pool, ""),
            )
            for t in unit.troopers
        )
        units.append(
            UnitSpec(
                type=unit.type,
                name=unit.name,
                troopers=troopers,
                skills=unit.skills,
                id=next(pool, ""),
            )
        )
    return ForceSpec(force.name, force.faction, tuple(units), force.ruleset, force.points_limit)


@settings(max_examples=examples(200))
@given(forces, st.lists(KEYS, max_size=40))
def test_export_then_import_keeps_every_id(force, keys):
    force = give_ids(force, keys)
    read_back = read_force_document(force_document(force))
    assert read_back == force
    assert [t.id for u in read_back.units for t in u.troopers] == [
        t.id for u in force.units for t in u.troopers
    ]


@settings(max_examples=examples(200))
@given(forces, st.lists(KEYS, max_size=40))
def test_a_readable_document_with_ids_needs_no_repair(force, keys):
    force = give_ids(force, keys)
    spec, changes = repair_force_document(force_document(force))
    assert changes == () and spec == force
