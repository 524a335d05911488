"""The account file's streaming reader (accounts.account_file) against the plain one: for any
file, read in pieces of any size, it imports the same records, or refuses the file, exactly
when reading the whole text at once with parse_json would."""

from __future__ import annotations

import copy
import io
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from accounts import account_file
from accounts.account_import import importable
from accounts.part_registry import AccountFileError
from onefinity.rules.jsontext import JsonTextError, parse_json
from tests.conftest import examples
from tests.forcebuilder.conftest import LEGAL_DOCUMENT

pytestmark = pytest.mark.django_db


def whole(text: bytes) -> list[tuple[str, Any]]:
    """The plain reader: the whole text parsed at once, then walked."""
    try:
        document = parse_json(text.decode("utf-8"))
    except (JsonTextError, UnicodeDecodeError) as error:
        raise AccountFileError(str(error)) from None
    if (
        not isinstance(document, dict)
        or document.get("format") != "onefinity-account"
        or document.get("version") != 1
    ):
        raise AccountFileError("not an export")
    found = []
    for part in importable():
        records = document.get(part.key, [])
        if not isinstance(records, list):
            raise AccountFileError("not a list")
        for index, record in enumerate(records):
            assert part.read is not None
            found.append((part.key, part.read([record], index)[0]))
    return found


def streamed(text: bytes) -> list[tuple[str, Any]]:
    entries = account_file.entries(io.BytesIO(text), importable())
    return sorted(((entry.part.key, entry.record) for entry in entries), key=lambda e: e[0])


def outcome(read: Any, text: bytes) -> Any:
    try:
        return sorted(read(text), key=lambda e: e[0])
    except AccountFileError:
        return "refused"


FORCE = copy.deepcopy(LEGAL_DOCUMENT)
VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**35), 10**35) | st.floats() | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3)
    ),
    max_leaves=8,
)
PARTS = st.fixed_dictionaries(
    {},
    optional={
        "forces": st.lists(st.just(FORCE) | VALUES, max_size=3),
        "terrain_boxes": st.lists(VALUES, max_size=2),
        "events": st.lists(VALUES, max_size=2),
        "damaged": VALUES,
        "other": VALUES,
    },
)


@st.composite
def files(draw: st.DrawFn) -> bytes:
    header: dict[str, Any] = draw(
        st.sampled_from(
            [
                {"format": "onefinity-account", "version": 1},
                {"format": "onefinity-account"},
                {"format": "onefinity-account", "version": 2},
                {"format": "onefinity-force", "version": 1},
                {},
            ]
        )
    )
    items = list((header | draw(PARTS)).items())
    order = draw(st.permutations(range(len(items))))
    document = {items[i][0]: items[i][1] for i in order}
    text = json.dumps(document, indent=draw(st.sampled_from([None, 2])), allow_nan=True).encode()
    change = draw(st.sampled_from(["none", "cut", "replace", "insert"]))
    if change != "none" and text:
        at = draw(st.integers(0, len(text) - 1))
        byte = draw(
            st.sampled_from(
                [b"{", b"}", b"[", b"]", b",", b":", b'"', b"0", b" ", b"\xff", b"\xc3"]
            )
        )
        if change == "cut":
            text = text[:at]
        elif change == "replace":
            text = text[:at] + byte + text[at + 1 :]
        else:
            text = text[:at] + byte + text[at:]
    return text


@settings(max_examples=examples(300), deadline=None)
@given(files(), st.sampled_from([1, 2, 5, 13, 1 << 20]))
def test_the_streaming_reader_agrees_with_reading_the_whole_text(text, piece):
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(account_file, "PIECE", piece)
        assert outcome(streamed, text) == outcome(whole, text)


def test_line_and_column_are_counted_in_the_whole_file(monkeypatch):
    monkeypatch.setattr(account_file, "PIECE", 3)
    text = b'{\n  "format": "onefinity-account",\n  "version": 1,\n  "forces": [\n    x\n  ]\n}'
    with pytest.raises(AccountFileError) as refused:
        list(account_file.entries(io.BytesIO(text), importable()))
    assert "line 5, column 5" in str(refused.value)
    with pytest.raises(json.JSONDecodeError) as plain:
        json.loads(text)
    assert (plain.value.lineno, plain.value.colno) == (5, 5)


def test_a_value_past_the_largest_record_is_refused(monkeypatch):
    monkeypatch.setattr(account_file, "MAX_RECORD_CHARS", 100)
    monkeypatch.setattr(account_file, "PIECE", 10)
    text = b'{"format": "onefinity-account", "version": 1, "forces": ["' + b"a" * 500 + b'"]}'
    with pytest.raises(AccountFileError, match="over 100 characters"):
        list(account_file.entries(io.BytesIO(text), importable()))


def test_a_character_cut_between_two_pieces_is_read(monkeypatch):
    monkeypatch.setattr(account_file, "PIECE", 1)
    name = "Ærø\u2019s ✠ list"
    document = {
        "format": "onefinity-account",
        "version": 1,
        "forces": [FORCE | {"name": name}],
    }
    (entry,) = account_file.entries(
        io.BytesIO(json.dumps(document, ensure_ascii=False).encode()), importable()
    )
    assert entry.record.name == name


def test_a_value_over_many_pieces_is_parsed_a_few_times_not_once_a_piece(monkeypatch):
    """A value cut off at the end of what is read is parsed again once more is read: with
    what is held doubled each time, a value of n pieces is parsed about log2(n) times (once
    a piece, a 20 MB value took a minute of the worker's time)."""
    monkeypatch.setattr(account_file, "PIECE", 10)
    value = "[" + ",".join(["[]"] * 5_000) + "]"  # 15,000 characters: 1,500 pieces
    text = b'{"format": "onefinity-account", "version": 1, "events": [' + value.encode() + b"]}"
    parses = []
    decode = account_file.DECODER.raw_decode

    def counted(*args):  # type: ignore[no-untyped-def]
        parses.append(args[1])
        return decode(*args)

    monkeypatch.setattr(account_file.DECODER, "raw_decode", counted)
    assert list(account_file.entries(io.BytesIO(text), importable())) == []
    assert len(parses) < 30, len(parses)


def test_a_syntax_error_is_said_whatever_follows_it(monkeypatch):
    """A mistake followed by much more text is the mistake, not "a value over 5,000,000
    characters" (found on a walk: a broken file padded with spaces)."""
    monkeypatch.setattr(account_file, "PIECE", 1_000)
    monkeypatch.setattr(account_file, "MAX_RECORD_CHARS", 5_000)
    text = b'{"format": "onefinity-account", "version": 1, "events": [{"a": x}' + b" " * 50_000
    with pytest.raises(
        AccountFileError, match=r"not valid JSON \(line 1, column 64: Expecting value"
    ):
        list(account_file.entries(io.BytesIO(text + b"]}"), importable()))
