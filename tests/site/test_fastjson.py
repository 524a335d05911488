"""The stored documents' JSON (onefinity.fastjson): orjson's speed, the standard library's
results. Whatever value is written reads back as json would have read it back, and whatever
text is stored reads as json reads it, for any JSON value, the awkward ones included."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from onefinity.fastjson import DocumentDecoder, DocumentEncoder, dumps_indented
from tablegen.models import Table, TableRevision
from tests.conftest import examples

AWKWARD_INTEGERS = st.sampled_from(
    [0, -1, 2**53 + 1, 2**63 - 1, 2**63, 2**64, -(2**63) - 1, 10**30, -(10**40)]
)
AWKWARD_FLOATS = st.sampled_from([0.1, -0.0, 1e16, 5e-324, 1e308, math.nan, math.inf, -math.inf])
TEXT = st.text(st.characters(codec=None), max_size=12) | st.sampled_from(
    ["\ud800", "a\udfffb", "é", "\x00", "\u2028", "null", '"', "\\"]
)
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | AWKWARD_INTEGERS
    | st.floats()
    | AWKWARD_FLOATS
    | TEXT
)
KEYS = TEXT | st.integers(-5, 5) | st.booleans() | st.none() | st.floats(allow_nan=False)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(KEYS, inner, max_size=5),
    max_leaves=25,
)


def same(a: Any, b: Any) -> bool:
    """Equal, with NaN equal to NaN and -0.0 told from 0.0 (repr of the parsed values)."""
    return repr(a) == repr(b) and type(a) is type(b)


@settings(max_examples=examples(600), deadline=None)
@given(VALUES)
def test_what_is_written_reads_back_as_json_would_read_it(value):
    ours = json.dumps(value, cls=DocumentEncoder)
    theirs = json.dumps(value)
    assert same(json.loads(ours), json.loads(theirs))
    assert same(json.loads(ours, cls=DocumentDecoder), json.loads(theirs))


@settings(max_examples=examples(600), deadline=None)
@given(VALUES, st.booleans())
def test_what_is_stored_reads_as_json_reads_it(value, ascii_only):
    text = json.dumps(value, ensure_ascii=ascii_only)
    assert same(json.loads(text, cls=DocumentDecoder), json.loads(text))


@pytest.mark.parametrize(
    "text",
    [
        "NaN",
        "[Infinity]",
        '"\\ud800"',
        "123456789012345678901234567890",
        "[0.1234567890123456789]",
        '{"a": 1, "a": 2}',
    ],
)
def test_texts_orjson_reads_otherwise_are_read_by_json(text):
    assert same(json.loads(text, cls=DocumentDecoder), json.loads(text))


def test_text_that_is_not_json_is_refused_as_json_refuses_it():
    for text in ["", "{", "[1,]", "\ufeff{}", "tru"]:
        with pytest.raises(json.JSONDecodeError):
            json.loads(text, cls=DocumentDecoder)


def test_the_table_fields_use_it():
    for model in (Table, TableRevision):
        field = model._meta.get_field("document")
        assert field.encoder is DocumentEncoder and field.decoder is DocumentDecoder


def test_a_layout_asked_for_is_json_s():
    value = {"b": [1, {"é": None}], "a": 2}
    for options in ({"indent": 2}, {"sort_keys": True}, {"indent": 1, "sort_keys": True}):
        assert json.dumps(value, cls=DocumentEncoder, **options) == json.dumps(value, **options)


@settings(max_examples=examples(400))
@given(VALUES)
def test_an_indented_download_reads_back_as_what_json_wrote(value: Any) -> None:
    """The account export (accounts.account_views) is written by orjson: the same values as
    json.dumps(indent=2, ensure_ascii=False) wrote, awkward ones included, laid out alike
    (a float may be spelt otherwise: 1e-7 for 1e-07)."""
    ours = dumps_indented(value).decode("utf-8", "surrogatepass")
    theirs = json.dumps(value, indent=2, ensure_ascii=False)
    assert same(json.loads(ours), json.loads(theirs))
    assert ours.count("\n") == theirs.count("\n")


def test_an_indented_download_of_plain_values_is_byte_for_byte_json_s() -> None:
    value = {"tables": [{"name": "Café", "seed": None, "hexes": [[0, 1], [2, 3]]}], "e": {}}
    assert dumps_indented(value) == json.dumps(value, indent=2, ensure_ascii=False).encode()
