"""Laws that hold for every input: validation never raises, export/import round-trips,
points add up."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from onefinity.rules import (
    ForceSpec,
    TrooperSpec,
    UnitSpec,
    check_force_document,
    current_ruleset,
    force_cost,
    force_document,
    library,
    read_force_document,
    validate_force,
)
from tests.conftest import examples

RULESET = current_ruleset()

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=10), children, max_size=5)
    ),
    max_leaves=30,
)


# Ids mostly from the ruleset, sometimes not, so that unknown ids are exercised too.
def ids_from(choices) -> st.SearchStrategy[str]:
    return st.sampled_from(sorted(choices)) | st.text(alphabet="abcdefgh-", min_size=1, max_size=12)


troopers = st.builds(
    TrooperSpec,
    trooper_class=ids_from(RULESET.trooper_classes),
    name=st.text(alphabet="abc XYZ", max_size=10).map(str.strip),
    weapons=st.lists(ids_from(RULESET.weapons), max_size=3).map(tuple),
    equipment=st.lists(ids_from(RULESET.equipment), max_size=2).map(tuple),
    abilities=st.lists(ids_from(RULESET.abilities), max_size=4).map(tuple),
)
units = st.builds(
    UnitSpec,
    type=ids_from(RULESET.unit_types),
    name=st.text(alphabet="abc XYZ", max_size=10).map(str.strip),
    troopers=st.lists(troopers, max_size=5).map(tuple),
    skills=st.lists(ids_from(RULESET.unit_skills), max_size=2).map(tuple),
)
forces = st.builds(
    ForceSpec,
    name=st.text(alphabet="abc XYZ", min_size=1, max_size=10).filter(str.strip).map(str.strip),
    faction=ids_from(RULESET.factions),
    units=st.lists(units, max_size=6).map(tuple),
    ruleset=st.none() | st.just(RULESET.version),
    points_limit=st.none() | st.integers(min_value=1, max_value=200),
)


@settings(max_examples=examples(400), suppress_health_check=[HealthCheck.too_slow])
@given(json_values)
def test_validation_never_raises_on_arbitrary_json(document):
    report = check_force_document(document, library())
    assert isinstance(report.legal, bool)


@settings(max_examples=examples(300))
@given(forces.map(force_document), st.data())
def test_validation_never_raises_on_damaged_force_documents(document, data):
    # Replace one value somewhere in a well-formed document by arbitrary JSON.
    keys = list(document)
    key = data.draw(st.sampled_from(keys))
    document[key] = data.draw(json_values)
    report = check_force_document(document, library())
    assert isinstance(report.issues, tuple)


@settings(max_examples=examples(300))
@given(forces)
def test_export_then_import_is_the_identity(force):
    assert read_force_document(force_document(force)) == force


@settings(max_examples=examples(300))
@given(forces)
def test_every_issue_is_well_formed_and_points_add_up(force):
    report = validate_force(force, RULESET)
    for issue in report.issues:
        assert issue.code and issue.message and issue.fix
        assert issue.severity in {"error", "warning"}
    assert report.points == force_cost(force, RULESET).total >= 0
    assert report.legal == (not report.errors)
