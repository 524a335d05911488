"""The pure pairings reader: every rule at its boundary."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from events.pairings import MAX_CSV_BYTES, PairingsError, check_rows, csv_label, read_csv_rows

PLAYERS = {"alice": 1, "bob": 2, "carol": 3, "dave": 4}
NAMES = {1: "alice", 2: "bob", 3: "carol", 4: "dave"}


def read(text: str, rounds: int = 3, tables: dict[int, int] | None = None):
    return check_rows(
        read_csv_rows(text, 100), PLAYERS, NAMES, rounds, tables or {}, 128, csv_label
    )


def test_it_reads_rows_with_spaces_and_any_case():
    (row,) = read("1, 2 ,  Alice , BOB\n")
    assert (row.round, row.table, row.player_a, row.player_b) == (1, 2, 1, 2)


def test_the_last_round_and_table_are_allowed_one_past_is_not():
    assert read("3,128,alice,bob\n")[0].table == 128
    with pytest.raises(PairingsError, match="not a round"):
        read("4,1,alice,bob\n")
    with pytest.raises(PairingsError, match="not a table"):
        read("1,129,alice,bob\n")
    assert read("1,2,alice,bob\n", tables={1: 2})[0].table == 2
    with pytest.raises(PairingsError, match="round 1 has 2 tables"):
        read("1,3,alice,bob\n", tables={1: 2})


def test_the_same_player_may_play_once_per_round():
    assert len(read("1,1,alice,bob\n2,1,alice,bob\n")) == 2
    with pytest.raises(PairingsError, match="bob already plays in round 1"):
        read("1,1,alice,bob\n1,2,bob,carol\n")


def test_every_problem_is_reported_not_only_the_first():
    with pytest.raises(PairingsError) as error:
        read("9,1,alice,bob\n1,1,zoe,bob\n1,2,carol\n")
    assert len(error.value.problems) == 3
    assert [p.split(":")[0] for p in error.value.problems] == [
        "line 1, column 1 (round)",
        "line 2, column 3 (player A)",
        "line 3",
    ]


def test_rows_and_bytes_are_bounded():
    with pytest.raises(PairingsError, match="at most 100 pairings"):
        read_csv_rows("1,1,alice,bob\n" * 101, 100)
    with pytest.raises(PairingsError, match=f"at most {MAX_CSV_BYTES:,} bytes"):
        read_csv_rows("x" * (MAX_CSV_BYTES + 1), 100)
    with pytest.raises(PairingsError, match="at most 150 characters"):
        read("1,1,alice," + "b" * 151 + "\n")


@given(st.text(max_size=300))
def test_any_text_is_read_or_refused_with_a_reason(text):
    try:
        rows = read(text)
    except PairingsError as error:
        assert error.problems and all(isinstance(p, str) and p for p in error.problems)
    else:
        assert all(1 <= r.round <= 3 for r in rows)
