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


def test_player_a_alone_without_a_table_is_a_bye():
    game, bye, said = read("1,1,alice,bob\n1,,carol,\n1, ,dave,Bye\n")
    assert (game.bye, game.table, game.player_b) == (False, 1, 2)
    assert (bye.bye, bye.round, bye.table, bye.player_a, bye.player_b) == (True, 1, None, 3, None)
    assert (said.bye, said.player_a) == (True, 4)


def test_a_player_called_bye_plays_their_game():
    players, names = PLAYERS | {"bye": 5}, NAMES | {5: "Bye"}
    (row,) = check_rows(read_csv_rows("1,1,alice,BYE\n", 10), players, names, 3, {}, 128, csv_label)
    assert (row.bye, row.player_b) == (False, 5)


def test_a_bye_takes_no_table_and_is_one_seat_of_the_round():
    with pytest.raises(PairingsError, match=r"column 2 \(table\): a bye .* takes no table"):
        read("1,3,alice,\n")
    with pytest.raises(PairingsError, match="alice already plays in round 1"):
        read("1,1,alice,bob\n1,,alice,\n")
    with pytest.raises(PairingsError, match="alice already plays in round 1"):
        read("1,,alice,\n1,,alice,bye\n")
    with pytest.raises(PairingsError, match="no registered player is called 'zoe'"):
        read("1,,zoe,\n")
    # Player B alone is not a bye: player A is missing.
    with pytest.raises(PairingsError, match="column 3 \\(player A\\): a player's name is missing"):
        read("1,1,,bob\n")
    # Byes in two rounds are two rows.
    assert [r.round for r in read("1,,alice,\n2,,alice,\n")] == [1, 2]
