"""Every message a reader gives about a bad document can be put on a page.

A JSON file may carry anything its escapes can spell, unpaired surrogates (``"\\ud800"``)
and control characters included, in its keys as well as its values. A reader that echoes
such a key into its message ("'\\ud800' is not a piece id") must escape it: a page holding
a surrogate cannot be encoded as UTF-8 and answers 500 (CI found this in a box import).

Each test starts from a document the reader accepts, damages it in one to three places
with hostile keys and values, and checks that whatever the reader says, raised or listed
as a repair, encodes as UTF-8.
"""

from __future__ import annotations

import copy
import io
import json
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from accounts.part_registry import AccountFileError
from onefinity.rules import current_ruleset, force_document, library, read_force_document
from onefinity.rules.force import ForceDocumentError
from onefinity.rules.hexgrid import standard_board
from onefinity.rules.jsontext import JsonTextError, parse_json
from onefinity.rules.repair import repair_force_document
from onefinity.rules.validation import check_force_document
from tablegen.engine.boxes import BoxError, decode_counts, read_box_document
from tablegen.engine.generate import Parameters, generate_table
from tablegen.engine.library import terrain_library
from tablegen.engine.repair import repair_table_document
from tablegen.engine.tables import TableDocumentError, read_table_document, table_document
from tests.conftest import examples
from tests.onefinity.test_force_document import DOCUMENT

RULES = current_ruleset().table
LIBRARY = terrain_library(tuple(RULES.terrain))

FORCE = DOCUMENT  # a list the reader accepts
TABLE = table_document(
    generate_table(RULES, Parameters(seed=3), standard_board(RULES.rows, RULES.columns))[0]
)
BOX = {
    "format": "onefinity-terrain-box",
    "version": 1,
    "name": "Club box",
    "pieces": {"wall-3": 4, "building-4": 2, "barricade": 3},
}

# The characters that broke pages, or could: surrogates, C0 and C1 controls, markup.
HOSTILE = st.sampled_from(["\ud800", "\udfff", "\x00", "\x1b", "\x7f", "\x9b", "\n", "<b>", "'"])
TEXT = st.lists(st.one_of(HOSTILE, st.characters()), max_size=12).map("".join)
SCALAR = st.one_of(
    TEXT,
    st.integers(-(10**6), 10**6),
    st.floats(allow_nan=False),
    st.booleans(),
    st.none(),
)
VALUE = st.recursive(
    SCALAR,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(TEXT, inner, max_size=3)),
    max_leaves=6,
)


def _places(document: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every container in the document, by its path."""
    if isinstance(document, dict):
        items = list(document.items())
    elif isinstance(document, list):
        items = list(enumerate(document))
    else:
        return []
    found = [path]
    for key, item in items:
        found += _places(item, (*path, key))
    return found


@st.composite
def damaged(draw: st.DrawFn, document: dict[str, Any]) -> Any:
    """The document with one to three of its containers given a hostile key, or one of
    their values replaced by a hostile value."""
    document = copy.deepcopy(document)
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(_places(document)))
        place = document
        for step in path:
            place = place[step]
        if isinstance(place, dict) and (not place or draw(st.booleans())):
            place[draw(TEXT)] = draw(VALUE)
        elif isinstance(place, dict):
            place[draw(st.sampled_from(sorted(place)))] = draw(VALUE)
        elif place:
            place[draw(st.integers(0, len(place) - 1))] = draw(VALUE)
        else:
            place.append(draw(VALUE))
    return document


def shown(text: object) -> None:
    """The message as a page would carry it."""
    str(text).encode("utf-8")


def test_a_surrogate_key_in_a_box_is_named_with_an_escape():
    box = {**BOX, "pieces": {"abc\ud800def": 1}}
    with pytest.raises(BoxError) as caught:
        read_box_document(box, LIBRARY)
    assert str(caught.value) == "pieces.abc\\ud800def: no piece of the library has this id"
    shown(caught.value)


@settings(max_examples=examples(150))
@given(damaged(BOX))
def test_every_box_message_can_be_shown(document):
    try:
        read_box_document(document, LIBRARY)
    except BoxError as error:
        shown(error)


@settings(max_examples=examples(50))
@given(TEXT)
def test_every_box_query_message_can_be_shown(text):
    try:
        decode_counts(text, LIBRARY)
    except BoxError as error:
        shown(error)


@settings(max_examples=examples(150))
@given(damaged(FORCE))
@example({**FORCE, "\ud800": 1})
def test_every_force_message_can_be_shown(document):
    try:
        read_force_document(document)
    except ForceDocumentError as error:
        shown(error)
    for issue in check_force_document(document, library()).issues:
        shown(issue.message)
        shown(issue.fix)
        shown(issue.path)
    _, changes = repair_force_document(document)
    for change in changes:
        shown(change)


@settings(max_examples=examples(100))
@given(damaged(TABLE))
@example({**TABLE, "\ud800": 1, "params": {"\x9b": 2}})
def test_every_table_message_can_be_shown(document):
    try:
        read_table_document(document, RULES)
    except TableDocumentError as error:
        shown(error)
    table, changes = repair_table_document(document, RULES)
    for change in changes:
        shown(change)
    shown(json.dumps(table_document(table), ensure_ascii=False))


@settings(max_examples=examples(60))
@given(
    damaged(
        {"format": "onefinity-account", "version": 1, "forces": [FORCE], "terrain_boxes": [BOX]}
    )
)
@pytest.mark.django_db
def test_every_account_file_message_can_be_shown(document):
    from accounts.account_import import read_small

    text = json.dumps(document)
    try:
        read_small(io.BytesIO(text.encode()))
    except (AccountFileError, JsonTextError) as error:
        shown(error)


@settings(max_examples=examples(100))
@given(TEXT)
def test_every_json_message_can_be_shown(text):
    try:
        parse_json(text)
    except JsonTextError as error:
        shown(error)


def test_the_sample_documents_are_read():
    read_force_document(FORCE)
    force_document(read_force_document(FORCE))
    read_table_document(TABLE, RULES)
    read_box_document(BOX, LIBRARY)
