"""A game's hexes as the players name them: the row counted from side A's table edge and
the column from the left of that row, as the map's own hex names say ("Row 3 from side A,
column 5"), and typed as two numbers ("3,5" or "3 5"). The engine and the stored state keep
axial coordinates (q, r), and so does the contract's ``hex`` field; this is the one place a
game turns one into the other, on the game's table's board (``Board.row_columns``, whose
numbers ``tablegen.engine.render.places`` words for the map)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from games.models import GameRefusal
from onefinity.rules.hexgrid import Board, Hex
from tablegen.engine.render import places

# Two whole numbers of ASCII digits, apart by a comma, spaces, or both: "3,5", "3 5", "3, 5".
_TYPED = re.compile(r"^\s*([0-9]{1,3})\s*(?:,|\s)\s*([0-9]{1,3})\s*$")
# What a typed field is cut to, its spaces around taken off, before it is read (a hex is
# at most 7 characters).
MAX_TYPED = 40


@dataclass(frozen=True)
class Places:
    """Names, typed forms and readings of the hexes of one board (the game's table)."""

    board: Board

    def name(self, hex_: Hex) -> str:
        """The hex as the map names it: "Row 3 from side A, column 5"."""
        at = self.board.index.get(hex_)
        return "off this table's map" if at is None else places(self.board)[at]

    def typed(self, hex_: Hex | None) -> str:
        """The hex as the place field takes it, "3,5" ("" for none or off the map)."""
        at = self.board.index.get(hex_) if hex_ is not None else None
        if at is None:
            return ""
        row, column = self.board.row_columns[at]
        return f"{row},{column}"

    def find(self, text: str) -> Hex | None:
        """The hex typed as "row,column", or None (for the page's own query)."""
        found = _TYPED.match(text.strip()[:MAX_TYPED])
        return self.board.at_row_column(int(found[1]), int(found[2])) if found else None

    def read(self, text: str) -> Hex:
        """The hex typed in the place field; GameRefusal (400) naming the rows and columns
        there are when it names none."""
        found = _TYPED.match(text.strip()[:MAX_TYPED])
        if not found:
            raise GameRefusal(
                f"Hex: type the row from side A ({self._rows()}), then the column "
                f"({self._columns()}), like 3,5."
            )
        row, column = int(found[1]), int(found[2])
        hex_ = self.board.at_row_column(row, column)
        if hex_ is not None:
            return hex_
        lengths = self._row_lengths()
        if row not in lengths:
            raise GameRefusal(
                f"Hex: there is no row {row}; the rows from side A are {self._rows()}."
            )
        if not lengths[row]:
            raise GameRefusal(f"Hex: row {row} from side A has no hexes on this table's map.")
        raise GameRefusal(
            f"Hex: row {row} from side A has columns 1 to {lengths[row]}, not {column}."
        )

    def _row_lengths(self) -> dict[int, int]:
        """How many hexes each row has, every row from side A's edge to side B's."""
        lengths = dict.fromkeys(range(1, self.board.last_row - self.board.first_row + 2), 0)
        for row, _ in self.board.row_columns:
            lengths[row] += 1
        return lengths

    def _rows(self) -> str:
        return f"1 to {self.board.last_row - self.board.first_row + 1}"

    def _columns(self) -> str:
        lengths = sorted({n for n in self._row_lengths().values() if n})
        if len(lengths) == 1:
            return f"1 to {lengths[0]}"
        if len(lengths) == 2:
            return f"1 to {lengths[0]} or {lengths[1]}, by the row"
        return f"1 to at most {lengths[-1]}, by the row"
