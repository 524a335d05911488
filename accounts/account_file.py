"""An account file ("download everything") read as a stream: a record at a time, in bounded
memory, whatever the file's size (an account at its storage bound exports about 134 MB).

The file is one JSON object: its header (``format``, ``version``) and a list for each part
(``forces``, ``tables``, ...). This module walks those two outer levels itself and reads
each value inside them whole with the reader of every other document a visitor sends
(onefinity.rules.jsontext.DECODER): the same refusals in the same words (NaN, a number of
5,000 digits, nesting too deep), and line and column counted in the whole file. The text is
decoded as UTF-8 a piece at a time, so a file that is not UTF-8 is refused where it stops
being so.

``entries`` yields each record of an importable part, read by its part (AccountFileError,
naming the record, at the first that does not read). A record larger than
MAX_RECORD_CHARS is refused: no document the site writes comes near it.
"""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol

from accounts.part_registry import ACCOUNT_FORMAT, ACCOUNT_VERSION, AccountFileError, AccountPart
from onefinity.rules.jsontext import DECODER, JsonTextError

# Characters read from the file at a time.
PIECE = 1 << 20
# The most one value inside the file may hold (a 40 x 40 table's document is about 300 kB).
MAX_RECORD_CHARS = 5_000_000
NOT_AN_EXPORT = (
    "This is not an export of everything from this site (format onefinity-account, version 1)."
)
_SPACE = re.compile(r"[ \t\n\r]*")
# What may follow a number or a word within the same token.
_TOKEN = re.compile(r"[^ \t\n\r,:\]}]*")


class Readable(Protocol):
    def read(self, size: int = -1, /) -> bytes: ...


@dataclass(frozen=True)
class Entry:
    """One record of the file: its part, its place in the part's list, and what the part
    read from it."""

    part: AccountPart
    index: int
    record: Any


def _unreadable(message: str) -> AccountFileError:
    return AccountFileError(f"This file cannot be read: {message}.")


class _Text:
    """The file's text, decoded a piece at a time: what is read and not yet taken is
    ``buffer[at:]``; ``line`` and ``column`` are where the buffer starts, in the file."""

    def __init__(self, stream: Readable, progress: Callable[[int], None] | None = None) -> None:
        self.stream = stream
        self.progress = progress
        self.pieces = 0
        self.decoder = codecs.getincrementaldecoder("utf-8")()
        self.buffer = ""
        self.at = 0
        self.ended = False
        self.line, self.column = 1, 1

    def more(self) -> bool:
        """Read the next piece (what was taken is let go); False at the end of the file."""
        if self.ended:
            return False
        data = self.stream.read(PIECE)
        try:
            text = self.decoder.decode(data, final=not data)
        except UnicodeDecodeError:
            raise AccountFileError("That file is not UTF-8 text.") from None
        self.ended = not data
        if not self.pieces and text.startswith("\ufeff"):
            text = text[1:]  # a byte order mark, as a Windows editor may save the file
        self.pieces += 1
        if self.progress is not None:
            self.progress(self.pieces)
        taken = self.buffer[: self.at]
        newlines = taken.count("\n")
        if newlines:
            self.line += newlines
            self.column = len(taken) - taken.rfind("\n")
        else:
            self.column += len(taken)
        self.buffer = self.buffer[self.at :] + text
        self.at = 0
        return True

    def peek(self) -> str:
        """The next character after any white space; "" at the end of the file."""
        while True:
            self.at = _SPACE.match(self.buffer, self.at).end()  # type: ignore[union-attr]
            if self.at < len(self.buffer):
                return self.buffer[self.at]
            if not self.more():
                return ""

    def take(self, expected: str, what: str) -> None:
        if self.peek() != expected:
            raise self.invalid(what)
        self.at += 1

    def ends(self, closing: str) -> bool:
        """After a member of an object or a list: True at its ``closing`` bracket (taken),
        False at a comma (taken); anything else is not JSON."""
        following = self.peek()
        if following not in (closing, ","):
            raise self.invalid("Expecting ',' delimiter")
        self.at += 1
        return following == closing

    def value(self) -> Any:
        """The next JSON value, read whole (more of the file read as long as it may be cut
        off at the end of what is read so far)."""
        self.peek()
        while True:
            try:
                value, end = DECODER.raw_decode(self.buffer, self.at)
            except json.JSONDecodeError as error:
                if self._cut_off(error) and self._read_on():
                    continue
                raise self._at(error.msg, error.pos) from None
            except JsonTextError as error:
                raise _unreadable(str(error)) from None
            except RecursionError:
                raise _unreadable("this document is nested too deeply") from None
            # A number or a word (true, false, null) that runs to the end of what is read so
            # far may go on in the next piece ("0" of "0.5"); an object, a list or a string
            # read is whole.
            scalar = not isinstance(value, dict | list | str)
            token_end = _TOKEN.match(self.buffer, end).end()  # type: ignore[union-attr]
            if scalar and token_end == len(self.buffer) and self._read_on():
                continue
            self.at = end
            return value

    def _cut_off(self, error: json.JSONDecodeError) -> bool:
        """Whether the value may only be cut off by the end of what is read so far (a
        string still open, or the error at the last word, number or spaces read), not
        wrong: a syntax error with more text after it is said at once, whatever follows."""
        if error.msg.startswith("Unterminated string"):
            return True
        return _TOKEN.match(self.buffer, error.pos).end() == len(self.buffer)  # type: ignore[union-attr]

    def _read_on(self) -> bool:
        """Read on past the end of a value cut off; False at the end of the file. What is
        held is at least doubled before the value is parsed again, so a value over many
        pieces is parsed a few times, not once a piece."""
        held = len(self.buffer) - self.at
        if held > MAX_RECORD_CHARS:
            raise AccountFileError(
                f"One value in this file is over {MAX_RECORD_CHARS:,} characters; "
                "no export of this site holds one."
            )
        if not self.more():
            return False
        while len(self.buffer) - self.at < 2 * held and self.more():
            pass
        return True

    def invalid(self, what: str) -> AccountFileError:
        return self._at(what, self.at)

    def _at(self, message: str, position: int) -> AccountFileError:
        before = self.buffer[:position]
        newlines = before.count("\n")
        line = self.line + newlines
        column = position - before.rfind("\n") if newlines else self.column + position
        return _unreadable(f"this is not valid JSON (line {line}, column {column}: {message})")


def entries(
    stream: Readable, parts: list[AccountPart], progress: Callable[[int], None] | None = None
) -> Iterator[Entry]:
    """Every record of the importable ``parts`` in the file, in the file's order, each read
    by its part; AccountFileError at the first problem (a record of another part, such as
    an event, is passed over unread). The header is checked as soon as it is read, and at
    the end if it never was. ``progress(pieces)`` is told after each piece of the file read."""
    text = _Text(stream, progress)
    by_key = {part.key: part for part in parts}
    if text.peek() != "{":
        text.value()  # not JSON at all is said so; JSON, but not an object, is not an export
        raise AccountFileError(NOT_AN_EXPORT)
    text.take("{", "Expecting '{'")
    header: dict[str, Any] = {}
    seen: set[str] = set()
    if text.peek() == "}":
        raise AccountFileError(NOT_AN_EXPORT)
    while True:
        if text.peek() != '"':
            raise text.invalid("Expecting property name enclosed in double quotes")
        key = text.value()
        text.take(":", "Expecting ':' delimiter")
        if key in seen:
            raise AccountFileError(f"{key} is in this file twice.")
        seen.add(key)
        if text.peek() == "[":
            yield from _list(text, key, by_key.get(key))
        else:
            value = text.value()
            if key in by_key:
                raise AccountFileError(f"{key} must be a list.")
            if key in ("format", "version"):
                header[key] = value
                _check_header(header)
        if text.ends("}"):
            break
    if text.peek() != "":
        raise text.invalid("Extra data")
    if header.get("format") != ACCOUNT_FORMAT or header.get("version") != ACCOUNT_VERSION:
        raise AccountFileError(NOT_AN_EXPORT)


def _check_header(header: dict[str, Any]) -> None:
    if "format" in header and header["format"] != ACCOUNT_FORMAT:
        raise AccountFileError(NOT_AN_EXPORT)
    if "version" in header and header["version"] != ACCOUNT_VERSION:
        raise AccountFileError(NOT_AN_EXPORT)


def _list(text: _Text, key: str, part: AccountPart | None) -> Iterator[Entry]:
    """The records of one part's list (passed over, unread, for a part not imported)."""
    text.take("[", "Expecting '['")
    if text.peek() == "]":
        text.at += 1
        return
    index = 0
    while True:
        value = text.value()
        if part is not None and part.read is not None:
            (record,) = part.read([value], index)
            yield Entry(part, index, record)
        index += 1
        if text.ends("]"):
            return
