"""The words of the list pages: a reader's refusal says the problem first and where in a
player's words (never the reader's path), rule codes come after the problem they stand for,
and units of one type are numbered wherever a list is shown."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from forcebuilder.models import Force
from onefinity.rules import ForceDocumentError
from onefinity.wording import place_in_words, problem_in_words
from tests.factories import LEGAL_DOCUMENT, make_force

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("path", "words"),
    [
        ("units[1].troopers[0].weapons", "unit 2, trooper 1, weapons"),
        ("units[0].troopers[2].weapons[1]", "unit 1, trooper 3, weapon 2"),
        ("units[3].skills[0]", "unit 4, unit skill 1"),
        ("points_limit", "points limit"),
        ("forces[0]", "list 1"),
        ("not a path!", "not a path!"),
    ],
)
def test_a_path_reads_as_a_place_counted_from_one(path, words):
    assert place_in_words(path) == words


def test_a_refusal_says_the_problem_first_then_where():
    error = ForceDocumentError("units[0].troopers", "expected a list, got a number")
    assert problem_in_words(error) == "expected a list, got a number (unit 1, troopers)"
    # A path inside the problem is put in words too, and where is not said twice.
    error = ForceDocumentError(
        "units[0].troopers[0]", "unknown key 'bogus' in units[0].troopers[0] (expected: id)"
    )
    assert problem_in_words(error) == "unknown key 'bogus' in unit 1, trooper 1 (expected: id)"
    assert problem_in_words(ForceDocumentError("", "not JSON")) == "not JSON"


_STEP = st.tuples(
    st.sampled_from(["units", "troopers", "weapons", "name", "points_limit", "tables"]),
    st.one_of(st.none(), st.integers(0, 999)),
)


@given(steps=st.lists(_STEP, min_size=1, max_size=5), problem=st.text(max_size=40))
def test_no_reader_path_is_left_in_what_a_refusal_says(steps, problem):
    path = ".".join(f"{name}[{i}]" if i is not None else name for name, i in steps)
    said = problem_in_words(ForceDocumentError(path, problem.replace("[", "(")))
    assert "[" not in said and said.startswith(problem.replace("[", "(")[:1])


def test_the_import_preview_numbers_units_of_one_type(owner_client):
    heavy = {"type": "heavy-infantry", "troopers": [{}, {}]}
    document = dict(LEGAL_DOCUMENT, units=[heavy, heavy])
    page = owner_client.post("/forces/import/", {"document": json.dumps(document)}).content.decode()
    assert "<li>Heavy Infantry 1: 2 troopers" in page
    assert "<li>Heavy Infantry 2: 2 troopers" in page


def test_rule_codes_follow_the_problem_they_stand_for(owner_client, owner):
    force = make_force(owner, units=[{"type": "tag", "troopers": [{}, {}]}])
    page = owner_client.get(f"/forces/{force.pk}/").content.decode()
    codes = page[page.index('<details class="codes">') :].split("</details>")[0]
    items = re.findall(r"<li>(.*?)</li>", codes, re.S)
    assert items and all(not item.lstrip().startswith("<code>") for item in items)
    assert "(error, unit 1)" in codes and "<code>unit.troopers.too-many</code>" in codes


def test_a_damaged_list_says_what_is_wrong_in_words(owner_client, owner):
    force = make_force(owner)
    Force.objects.filter(pk=force.pk).update(units=[{"type": "tag", "troopers": 3}])
    page = owner_client.get(f"/forces/{force.pk}/").content.decode()
    assert "no longer reads: expected a list, got a number (unit 1, troopers)." in page
