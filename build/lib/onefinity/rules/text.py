"""What text a stored document may hold: the one rule every reader and every writer applies,
and the error every document reader raises.

Names are typed by people and ids are sent by browsers, so both may carry anything a
keyboard, a paste or a script can produce. A document is refused, with the reason, when
it holds what a page, a PDF or a database cannot carry faithfully: control characters
(tabs, newlines, NUL and DEL included; PostgreSQL refuses NUL outright) and unpaired
surrogates (which are not text at all and cannot be encoded as UTF-8).
"""

from __future__ import annotations

import unicodedata


class DocumentError(ValueError):
    """A document (a force list, a table...) that cannot be read: the path of what is wrong
    (``units[1].troopers[0].name``; empty for the whole document) and the problem."""

    def __init__(self, path: str, problem: str) -> None:
        self.path = path
        self.problem = problem
        super().__init__(f"{path}: {problem}" if path else problem)


# Categories refused anywhere in a document's text: Cc (control) and Cs (surrogate).
_REFUSED = {"Cc": "control characters", "Cs": "unpaired surrogates"}


def text_problem(text: str) -> str | None:
    """Why this text cannot be stored, or None when it can."""
    if text.isprintable():
        # Fast path: printable text holds no Cc or Cs character. Text that is not
        # printable may still be fine (U+2028, a zero-width joiner), hence the loop.
        return None
    for ch in text:
        refused = _REFUSED.get(unicodedata.category(ch))
        if refused:
            return f"must not contain {refused} (found U+{ord(ch):04X})"
    return None


def quoted(value: object, limit: int = 40) -> str:
    """Untrusted input (an unknown key, a mistyped id) quoted for an error message: cut to
    `limit` characters, in quotes, with control characters and unpaired surrogates written
    as escapes (repr's rule), so that any page, PDF or log can carry the message."""
    return repr(str(value)[:limit])


def escaped(value: object, limit: int = 40) -> str:
    """Untrusted input cut to `limit` characters, without quotes, its control characters and
    unpaired surrogates written as escapes (``\\ud800``): for a path or a list of keys."""
    return "".join(
        ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii")
        for ch in str(value)[:limit]
    )


# What shows nothing on its own: format characters (zero-width space, soft hyphen,
# direction marks), combining marks with nothing to combine with, and white space.
_SHOWS_NOTHING = {"Cf", "Mn", "Me", "Zs", "Zl", "Zp", "Cc", "Cs"}


# Characters that change how the text around them is shown without showing themselves:
# direction overrides, embeddings and isolates (U+202A-202E, U+2066-2069), direction marks
# (U+200E, U+200F, U+061C), zero-width spaces and joiners (U+200B-200D), the byte-order
# mark (U+FEFF) and tag characters (U+E0000-E007F). In a name they can make one player
# look like another on a dashboard, reverse a CSV cell or hide text in a PDF; no name
# needs them, so every name loses them.
_INVISIBLE = dict.fromkeys(
    [
        *range(0x202A, 0x202F),
        *range(0x2066, 0x206A),
        0x200E,
        0x200F,
        0x061C,
        *range(0x200B, 0x200E),
        0xFEFF,
        *range(0xE0000, 0xE0080),
    ]
)


def without_invisible(text: str) -> str:
    """``text`` without the characters that change its look unseen (``_INVISIBLE``)."""
    if text.isascii():
        return text
    return text.translate(_INVISIBLE)


def normalize_name(text: str) -> str:
    """A name as typed, with runs of white space (tabs, new lines included) made one space
    and the ends trimmed: what a person meant when they pasted it. Direction overrides and
    invisible characters are removed (``without_invisible``). A name of which nothing
    shows (only zero-width spaces, say) is no name: "" (a list or link named so could not be
    seen, or clicked)."""
    name = " ".join(without_invisible(text).split())
    if name.isascii() or any(unicodedata.category(ch) not in _SHOWS_NOTHING for ch in name):
        return name
    return ""


def whole_number(text: object, low: int, high: int) -> int | None:
    """A whole number sent as text (a form field, a query, a CSV cell), or None unless it is
    ASCII digits (a leading ``-`` when ``low`` is negative) naming a number from ``low`` to
    ``high``. The bound is checked on the digits before anything is converted or used, so
    no text makes work that grows with its size: ``0001000000`` is a million and refused
    by its length, not read and then looped over; ``int()`` would also take ``" 7"``,
    ``"1_000"`` and non-ASCII digits such as ``"٣"``, none of which a form of ours sends."""
    if not isinstance(text, str) or not text.isascii():
        return None
    digits = text[1:] if text.startswith("-") and low < 0 else text
    if not digits.isdigit():
        return None
    significant = digits.lstrip("0") or "0"
    if len(significant) > len(str(max(abs(low), abs(high)))):
        return None
    number = -int(significant) if digits is not text else int(significant)
    return number if low <= number <= high else None
