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


@dataclass(frozen=True)
class EventBounds:
    """What a row is checked against: rounds 1 to ``rounds``; tables 1 to the round's number
    of tables (``tables[round]``, or ``max_tables`` for a round without tables); players by
    name (``players``: player_key(name) -> key; ``names``: key -> name as shown)."""

    players: Mapping[str, int]
    names: Mapping[int, str]
    rounds: int
    tables: Mapping[int, int]
    max_tables: int


class _RowRefused(Exception):
    """This row's problems are noted: the next row is read."""


class _RowsCheck:
    """The rows read one after another, each through its steps (the row's cells, its round,
    its table or bye, its players, then whether a player or table is already taken in the
    round); every problem is noted with its row and column. What it remembers from row to
    row: who plays and which table is taken in each round, with the row that took it."""

    def __init__(self, bounds: EventBounds, label: Callable[[str, int], str]) -> None:
        self.bounds = bounds
        self.label = label
        self.problems: list[str] = []
        self.seen_players: dict[tuple[int, int], str] = {}
        self.seen_tables: dict[tuple[int, int], str] = {}

    def refuse(self, where: str, column: int, problem: str) -> _RowRefused:
        self.problems.append(f"{self.label(where, column)}: {problem}")
        return _RowRefused()

    def read(self, row: RawRow) -> PairingRow:
        self.check_cells(row)
        round_text, table_text, a_text, b_text = row.cells
        number = self.round_of(row.where, round_text)
        b_key = player_key(b_text)
        bye = b_key not in self.bounds.players and b_key in ("", BYE) and bool(player_key(a_text))
        table: int | None = None
        if bye:
            self.bye_without_table(row.where, table_text)
        else:
            table = self.table_of(row.where, number, table_text)
        keys = self.players_of(row.where, (a_text,) if bye else (a_text, b_text))
        self.check_free(row.where, number, table, keys)
        if table is not None:
            self.seen_tables[number, table] = row.where
        for key in keys:
            self.seen_players[number, key] = row.where
        return PairingRow(number, table, keys[0], keys[1] if len(keys) == 2 else None, row.where)

    def check_cells(self, row: RawRow) -> None:
        """Four cells of readable text, none too long (every bad cell named)."""
        if len(row.cells) != len(COLUMNS):
            self.problems.append(
                f"{row.where}: expected 4 columns (round, table, player A, player B), "
                f"found {len(row.cells)}."
            )
            raise _RowRefused
        bad = False
        for index, cell in enumerate(row.cells):
            problem = text_problem(cell)
            if problem:
                self.refuse(row.where, index, f"the text {problem}.")
                bad = True
            elif len(cell) > MAX_CELL_LENGTH:
                self.refuse(row.where, index, f"at most {MAX_CELL_LENGTH} characters.")
                bad = True
        if bad:
            raise _RowRefused

    def round_of(self, where: str, text: str) -> int:
        number = _whole_number(text)
        rounds = self.bounds.rounds
        if number is None or not 1 <= number <= rounds:
            raise self.refuse(
                where, 0, f"{text.strip()[:20]!r} is not a round of this event (1 to {rounds})."
            )
        return number

    def bye_without_table(self, where: str, table_text: str) -> None:
        if table_text.strip():
            raise self.refuse(
                where,
                1,
                "a bye (player A without player B) takes no table: leave the table empty, "
                "or name player B.",
            )

    def table_of(self, where: str, number: int, text: str) -> int:
        counted = self.bounds.tables.get(number)
        limit = counted or self.bounds.max_tables
        table = _whole_number(text)
        if table is None or not 1 <= table <= limit:
            where_limit = (
                f"round {number} has {limit} table{'s' if limit > 1 else ''}"
                if counted
                else f"tables are numbered 1 to {limit}"
            )
            raise self.refuse(
                where, 1, f"{quoted(text.strip(), 20)} is not a table ({where_limit})."
            )
        return table

    def players_of(self, where: str, typed_names: tuple[str, ...]) -> list[int]:
        """The players' keys (player A, then B); every unknown or missing name named."""
        keys: list[int] = []
        for index, typed in enumerate(typed_names, start=2):
            key = self.bounds.players.get(player_key(typed))
            if key is None:
                shown = normalize_name(typed)[:40]
                self.refuse(
                    where,
                    index,
                    f"no registered player is called {shown!r}."
                    if shown
                    else "a player's name is missing.",
                )
            else:
                keys.append(key)
        if len(keys) != len(typed_names):
            raise _RowRefused
        if len(keys) == 2 and keys[0] == keys[1]:
            raise self.refuse(
                where, 3, f"{self.bounds.names[keys[0]]} cannot play against themselves."
            )
        return keys

    def check_free(self, where: str, number: int, table: int | None, keys: list[int]) -> None:
        """Neither the table nor a player already taken in this round (by an earlier row)."""
        if table is not None and (number, table) in self.seen_tables:
            raise self.refuse(
                where,
                1,
                f"table {table} of round {number} is already used "
                f"({self.seen_tables[number, table]}).",
            )
        twice = False
        for index, key in zip((2, 3), keys, strict=False):
            if (number, key) in self.seen_players:
                self.refuse(
                    where,
                    index,
                    f"{self.bounds.names[key]} already plays in round {number} "
                    f"({self.seen_players[number, key]}).",
                )
                twice = True
        if twice:
            raise _RowRefused


def check_rows(
    rows: list[RawRow],
    players: Mapping[str, int],
    names: Mapping[int, str],
    rounds: int,
    tables: Mapping[int, int],
    max_tables: int,
    label: Callable[[str, int], str],
) -> list[PairingRow]:
    """Check rows of four cells against the event (EventBounds says how). PairingsError
    with every problem, or the rows."""
    check = _RowsCheck(EventBounds(players, names, rounds, tables, max_tables), label)
    read: list[PairingRow] = []
    for row in rows:
        try:
            read.append(check.read(row))
        except _RowRefused:
            continue
    if check.problems:
        raise PairingsError(check.problems)
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
