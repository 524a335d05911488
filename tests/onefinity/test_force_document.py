"""The force document is read strictly, with the path and problem of anything wrong."""

from __future__ import annotations

import copy

import pytest

from onefinity.rules import (
    ForceDocumentError,
    check_force_document,
    force_document,
    library,
    read_force_document,
)

DOCUMENT = {
    "format": "onefinity-force",
    "version": 1,
    "name": "Wardens",
    "faction": "exomorph-collective",
    "ruleset": "2026.11",
    "points_limit": 50,
    "units": [
        {
            "type": "medium-infantry",
            "name": "Alpha",
            "skills": ["regeneration"],
            "troopers": [
                {
                    "class": "medic",
                    "name": "Doc",
                    "weapons": ["combi-rifle"],
                    "abilities": ["cc-specialist"],
                },
                {},
                {"equipment": ["medkit"]},
            ],
        }
    ],
}


def test_a_complete_document_is_read():
    force = read_force_document(DOCUMENT)
    assert (force.name, force.faction, force.ruleset, force.points_limit) == (
        "Wardens",
        "exomorph-collective",
        "2026.11",
        50,
    )
    first = force.units[0].troopers[0]
    assert (first.trooper_class, first.name, first.weapons) == ("medic", "Doc", ("combi-rifle",))
    assert force.units[0].troopers[1].trooper_class == "trooper"


def test_export_then_import_gives_the_same_force():
    force = read_force_document(DOCUMENT)
    assert read_force_document(force_document(force)) == force


def test_optional_keys_default():
    force = read_force_document(
        {"format": "onefinity-force", "version": 1, "name": "x", "faction": "y"}
    )
    assert force.ruleset is None and force.points_limit is None and force.units == ()


def _mutated(path, value):
    document = copy.deepcopy(DOCUMENT)
    target = document
    for key in path[:-1]:
        target = target[key]
    if value is KeyError:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return document


@pytest.mark.parametrize(
    ("path", "value", "error_path", "words"),
    [
        (("format",), "onefinity-table", "format", "not a force document"),
        (("version",), 2, "version", "not supported"),
        (("version",), True, "version", "not supported"),
        (("name",), KeyError, "name", "missing"),
        (("name",), "", "name", "must not be empty"),
        (("name",), "x" * 121, "name", "at most 120"),
        (("faction",), 7, "faction", "expected text"),
        (("points_limit",), 0, "points_limit", "from 1 to"),
        (("points_limit",), "75", "points_limit", "whole number"),
        (("units",), {}, "units", "expected a list"),
        (("units",), [{}] * 9, "units", "at most 8"),
        (("units", 0, "type"), KeyError, "units[0].type", "missing"),
        (("units", 0, "troopers"), "many", "units[0].troopers", "expected a list"),
        (("units", 0, "troopers", 1), [], "units[0].troopers[1]", "expected an object"),
        (
            ("units", 0, "troopers", 0, "weapons"),
            "rifle",
            "units[0].troopers[0].weapons",
            "list of ids",
        ),
        (
            ("units", 0, "troopers", 0, "weapons"),
            [None],
            "units[0].troopers[0].weapons[0]",
            "expected text",
        ),
        (
            ("units", 0, "troopers", 0, "weapon"),
            ["rifle"],
            "units[0].troopers[0]",
            "unknown key 'weapon'",
        ),
        (
            ("units", 0, "troopers", 0, "name"),
            "a\x00b",
            "units[0].troopers[0].name",
            "control characters",
        ),
    ],
)
def test_a_malformed_document_names_the_path_and_the_problem(path, value, error_path, words):
    with pytest.raises(ForceDocumentError) as caught:
        read_force_document(_mutated(path, value))
    assert caught.value.path == error_path
    assert words in str(caught.value)


@pytest.mark.parametrize("value", [None, 3, "text", [], [1, 2]])
def test_a_value_that_is_not_an_object_is_not_a_force_document(value):
    with pytest.raises(ForceDocumentError):
        read_force_document(value)


def test_the_web_api_reports_an_unreadable_document_as_one_issue():
    report = check_force_document({"format": "onefinity-force"}, library())
    assert not report.legal
    assert [(i.code, i.path) for i in report.issues] == [("document.invalid", "version")]


@pytest.mark.parametrize(
    "character", ["\x00", "\x01", "\x08", "\t", "\n", "\x1f", "\x7f", "\x85", "\ud800"]
)
@pytest.mark.parametrize(
    "path",
    [
        ("name",),
        ("units", 0, "name"),
        ("units", 0, "troopers", 0, "name"),
        ("units", 0, "troopers", 0, "weapons", 0),
        ("units", 0, "skills", 0),
    ],
)
def test_control_characters_and_surrogates_are_refused_in_every_text(path, character):
    with pytest.raises(ForceDocumentError, match="must not contain"):
        read_force_document(_mutated(path, f"abc{character}def"))


@pytest.mark.parametrize("text", ["Café — 2nd", "Δ-squad 🚀", "line\u2028separator"])
def test_printable_and_harmless_unicode_is_kept(text):
    force = read_force_document(_mutated(("name",), text))
    assert force.name == text


@pytest.mark.parametrize(
    ("text", "name"), [("zw\u200dj", "zwj"), ("\u202eSalty\u202c", "Salty"), ("a\ufeffb", "ab")]
)
def test_invisible_and_direction_characters_leave_a_name(text, name):
    assert read_force_document(_mutated(("name",), text)).name == name


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (("units", 0, "troopers", 0, "class"), "medic "),
        (("units", 0, "troopers", 0, "weapons", 0), " combi-rifle"),
        (("units", 0, "type"), "medium-infantry "),
        (("faction",), " exomorph-collective"),
    ],
)
def test_ids_are_exact_so_a_padded_id_is_unknown_not_trimmed(path, value):
    force = read_force_document(_mutated(path, value))
    report = check_force_document(force_document(force), library())
    assert "ref.unknown" in {issue.code for issue in report.issues}


def test_an_id_at_its_length_limit_is_read_and_one_more_is_refused():
    read_force_document(_mutated(("units", 0, "skills", 0), "x" * 80))
    with pytest.raises(ForceDocumentError, match="at most 80"):
        read_force_document(_mutated(("units", 0, "skills", 0), "x" * 81))


def _with_troopers(counts):
    document = copy.deepcopy(DOCUMENT)
    document["units"] = [
        {"type": "light-infantry", "troopers": [{} for _ in range(n)]} for n in counts
    ]
    return document


def test_a_document_holds_at_most_eight_units_and_thirty_troopers():
    assert len(read_force_document(_with_troopers([1] * 8)).units) == 8
    with pytest.raises(ForceDocumentError, match="at most 8"):
        read_force_document(_with_troopers([1] * 9))
    read_force_document(_with_troopers([10, 10, 10]))
    with pytest.raises(ForceDocumentError, match="31 troopers in all; a document holds at most 30"):
        read_force_document(_with_troopers([10, 10, 11]))


def test_a_trooper_carries_at_most_ten_items_of_a_kind():
    read_force_document(_mutated(("units", 0, "troopers", 0, "weapons"), ["rifle"] * 10))
    with pytest.raises(ForceDocumentError, match="at most 10"):
        read_force_document(_mutated(("units", 0, "troopers", 0, "weapons"), ["rifle"] * 11))
