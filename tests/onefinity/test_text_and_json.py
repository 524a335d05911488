"""The text rule every document shares, and JSON from outside read without surprises."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from onefinity.rules.jsontext import MAX_NUMBER_DIGITS, JsonTextError, parse_json
from onefinity.rules.text import normalize_name, text_problem, whole_number


@given(st.text())
def test_text_is_accepted_exactly_when_it_has_no_control_character_or_surrogate(text):
    import unicodedata

    refused = any(unicodedata.category(ch) in ("Cc", "Cs") for ch in text)
    assert (text_problem(text) is not None) == refused


@given(st.text())
def test_a_normalized_name_has_no_white_space_at_its_ends_or_in_runs(text):
    name = normalize_name(text)
    assert name == name.strip()
    assert "  " not in name and "\t" not in name and "\n" not in name


@pytest.mark.parametrize(
    ("typed", "name"),
    [
        ("\u200b", ""),  # zero-width space
        ("\u202e\u200b", ""),  # right-to-left override and a zero-width space
        ("\u00ad \u00ad", ""),  # soft hyphens
        ("\u0301\u0301", ""),  # combining accents with nothing to accent
        ("\u2003\u3000", ""),  # wide spaces
        ("a\u200b", "a"),  # something shows: kept, without the zero-width space
        ("\u200bCafé\u0301", "Café\u0301"),
        ("  Night   raid ", "Night raid"),
        ("\ue000", "\ue000"),  # private use: a font may show it
    ],
)
def test_a_name_of_which_nothing_shows_is_no_name(typed, name):
    assert normalize_name(typed) == name


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("NaN", "NaN is not a number"),
        ('{"points": Infinity}', "Infinity is not a number"),
        ("[-Infinity]", "-Infinity is not a number"),
        ("1" * 4301, f"at most {MAX_NUMBER_DIGITS} digits"),
        ("1" * (MAX_NUMBER_DIGITS + 1), f"at most {MAX_NUMBER_DIGITS} digits"),
        ("0." + "1" * 40, f"at most {MAX_NUMBER_DIGITS} digits"),
        ("1e999", "too large"),
        ("[" * 100_000, "nested too deeply"),
        ("{", "line 1, column 2"),
        ("", "not valid JSON"),
    ],
)
def test_json_that_python_would_mishandle_is_refused_with_a_reason(text, words):
    with pytest.raises(JsonTextError, match=words):
        parse_json(text)


def test_a_number_at_the_digit_limit_is_read():
    assert parse_json("9" * MAX_NUMBER_DIGITS) == int("9" * MAX_NUMBER_DIGITS)


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**62), 2**62)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(), children, max_size=4)
    ),
    max_leaves=20,
)


@given(json_values)
def test_every_ordinary_json_value_reads_back_as_json_would(value):
    text = json.dumps(value)
    assert parse_json(text) == json.loads(text)


# --- whole numbers sent as text ----------------------------------------------------------


@given(st.integers(-(10**6), 10**6), st.integers(0, 50))
def test_a_whole_number_within_its_bounds_reads_as_itself_however_zero_padded(number, zeros):
    text = ("-" if number < 0 else "") + "0" * zeros + str(abs(number))
    assert whole_number(text, -(10**6), 10**6) == number


@given(st.integers(), st.integers(0, 5_000))
def test_a_whole_number_outside_its_bounds_is_none_without_reading_its_digits(number, zeros):
    text = ("-" if number < 0 else "") + "0" * zeros + str(abs(number))
    expected = number if 1 <= number <= 128 else None
    assert whole_number(text, 1, 128) == expected


@pytest.mark.parametrize(
    "text",
    [
        *["", "-", "--1", "+5", " 7", "7 ", "1_000", "1e3", "0x10", "12\x00", "-1"],
        # Digits int() reads but no form of ours sends: Arabic-Indic, full-width, superscript.
        *["\u0663", "\uff11\uff12", "\u00b2"],
    ],
)
def test_only_ascii_digits_are_a_whole_number(text):
    assert whole_number(text, 0, 10**6) is None


def test_a_whole_number_at_its_bounds():
    assert whole_number("1", 1, 128) == 1
    assert whole_number("128", 1, 128) == 128
    assert whole_number("0", 1, 128) is None
    assert whole_number("129", 1, 128) is None
    assert whole_number("-5", -5, 5) == -5
    assert whole_number("-6", -5, 5) is None
    assert whole_number(None, 0, 1) is None
    # Ten thousand digits are refused by their count, not converted (int() would raise).
    assert whole_number("9" * 10_000, 0, 10**6) is None
