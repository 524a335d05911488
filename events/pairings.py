"""Pairings for an event's rounds, read from CSV (round, table, player A, player B) or from
the organizer's form: every problem is named with its line (or row) and column, and when
there is any, nothing is read. Pure Python: the caller passes the players and tables.

A bye is a row with player A and no player B (an empty cell, or BYE where no registered
player is called that), and no table: a player without a game, who scores the event's bye
VP as a win."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from onefinity.rules.text import normalize_name, quoted, text_problem, whole_number

COLUMNS = ("round", "table", "player A", "player B")
# What player B says for a bye, besides an empty cell (compared case-blind).
BYE = "bye"
MAX_CSV_BYTES = 100_000
MAX_CELL_LENGTH = 150
MAX_PROBLEMS_SHOWN = 20


@dataclass(frozen=True)
class PairingRow:
    round: int
    table: int | None  # None for a bye
    player_a: int  # the players' keys, as the caller's mapping gives them
    player_b: int | None  # None: player A has a bye
    where: str

    @property
    def bye(self) -> bool:
        return self.player_b is None


class PairingsError(ValueError):
    """The pairings cannot be read; ``problems`` says where and why, one line each."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        shown = problems[:MAX_PROBLEMS_SHOWN]
        more = len(problems) - len(shown)
        if more:
            shown = [*shown, f"... and {more} more problem{'s' if more > 1 else ''}."]
        super().__init__("\n".join(shown))

    @property
    def shown(self) -> list[str]:
        return str(self).split("\n")


@dataclass(frozen=True)
class RawRow:
    where: str  # "line 3" or "row 3"
    cells: tuple[str, ...]


def player_key(name: str) -> str:
    """How a typed name finds its player: spaces tidied, case ignored."""
    return normalize_name(name).casefold()


def _whole_number(text: str) -> int | None:
    return whole_number(text.strip(), 0, 999_999)


def check_rows(
    rows: list[RawRow],
    players: Mapping[str, int],
    names: Mapping[int, str],
    rounds: int,
    tables: Mapping[int, int],
    max_tables: int,
    label: Callable[[str, int], str],
) -> list[PairingRow]:
    """Check rows of four cells against the event: rounds 1 to ``rounds``, tables 1 to the
    round's number of tables (``tables[round]``, or ``max_tables`` for a round without
    tables), players by name (``players``: player_key(name) -> key; ``names``: key ->
    name as shown). PairingsError with every problem, or the rows."""
    problems: list[str] = []
    read: list[PairingRow] = []
    seen_players: dict[tuple[int, int], str] = {}
    seen_tables: dict[tuple[int, int], str] = {}
    for row in rows:
        if len(row.cells) != len(COLUMNS):
            problems.append(
                f"{row.where}: expected 4 columns (round, table, player A, player B), "
                f"found {len(row.cells)}."
            )
            continue
        bad = False
        for index, cell in enumerate(row.cells):
            problem = text_problem(cell)
            if problem:
                problems.append(f"{label(row.where, index)}: the text {problem}.")
                bad = True
            elif len(cell) > MAX_CELL_LENGTH:
                problems.append(f"{label(row.where, index)}: at most {MAX_CELL_LENGTH} characters.")
                bad = True
        if bad:
            continue
        round_text, table_text, a_text, b_text = row.cells
        round_number = _whole_number(round_text)
        if round_number is None or not 1 <= round_number <= rounds:
            problems.append(
                f"{label(row.where, 0)}: {round_text.strip()[:20]!r} is not a round of this "
                f"event (1 to {rounds})."
            )
            continue
        b_key = player_key(b_text)
        bye = b_key not in players and b_key in ("", BYE) and bool(player_key(a_text))
        table: int | None = None
        if bye and table_text.strip():
            problems.append(
                f"{label(row.where, 1)}: a bye (player A without player B) takes no table: "
                "leave the table empty, or name player B."
            )
            continue
        if not bye:
            limit = tables.get(round_number) or max_tables
            table = _whole_number(table_text)
            if table is None or not 1 <= table <= limit:
                where_limit = (
                    f"round {round_number} has {limit} table{'s' if limit > 1 else ''}"
                    if tables.get(round_number)
                    else f"tables are numbered 1 to {limit}"
                )
                problems.append(
                    f"{label(row.where, 1)}: {quoted(table_text.strip(), 20)} is not a table "
                    f"({where_limit})."
                )
                continue
        typed_players = ((2, a_text),) if bye else ((2, a_text), (3, b_text))
        keys: list[int] = []
        for index, typed in typed_players:
            key = players.get(player_key(typed))
            if key is None:
                shown = normalize_name(typed)[:40]
                problems.append(
                    f"{label(row.where, index)}: no registered player is called {shown!r}."
                    if shown
                    else f"{label(row.where, index)}: a player's name is missing."
                )
            else:
                keys.append(key)
        if len(keys) != len(typed_players):
            continue
        if len(keys) == 2 and keys[0] == keys[1]:
            problems.append(
                f"{label(row.where, 3)}: {names[keys[0]]} cannot play against themselves."
            )
            continue
        if table is not None and (round_number, table) in seen_tables:
            problems.append(
                f"{label(row.where, 1)}: table {table} of round {round_number} is already "
                f"used ({seen_tables[round_number, table]})."
            )
            continue
        twice = False
        for index, key in zip((2, 3), keys, strict=False):
            if (round_number, key) in seen_players:
                problems.append(
                    f"{label(row.where, index)}: {names[key]} already plays in round "
                    f"{round_number} ({seen_players[round_number, key]})."
                )
                twice = True
        if twice:
            continue
        if table is not None:
            seen_tables[round_number, table] = row.where
        for key in keys:
            seen_players[round_number, key] = row.where
        read.append(
            PairingRow(round_number, table, keys[0], keys[1] if len(keys) == 2 else None, row.where)
        )
    if problems:
        raise PairingsError(problems)
    return read


def csv_label(where: str, column: int) -> str:
    return f"{where}, column {column + 1} ({COLUMNS[column]})"


def form_label(where: str, column: int) -> str:
    return f"{where}, {COLUMNS[column]}"


def read_csv_rows(text: str, max_rows: int) -> list[RawRow]:
    """The CSV's rows with their line numbers; a first line naming the columns is skipped,
    blank lines too. Separated by commas, or by semicolons as some spreadsheets write."""
    if len(text.encode("utf-8")) > MAX_CSV_BYTES:
        raise PairingsError([f"A pairings file is at most {MAX_CSV_BYTES:,} bytes."])
    text = text.removeprefix("\ufeff")
    first = next((line for line in text.splitlines() if line.strip()), "")
    delimiter = ";" if ";" in first and "," not in first else ","
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    rows: list[RawRow] = []
    try:
        for cells in reader:
            if not any(cell.strip() for cell in cells):
                continue
            if not rows and cells[0].strip().casefold() == "round":
                continue  # the header
            rows.append(RawRow(f"line {reader.line_num}", tuple(cells)))
            if len(rows) > max_rows:
                raise PairingsError(
                    [f"line {reader.line_num}: at most {max_rows} pairings in one file."]
                )
    except csv.Error as error:
        raise PairingsError(
            [f"line {reader.line_num}: this is not CSV we can read ({error})."]
        ) from None
    if not rows:
        raise PairingsError(
            ["The file holds no pairings: one line per game, round, table, player A, player B."]
        )
    return rows
