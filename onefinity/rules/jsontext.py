"""Parsing JSON that a visitor sent: refused with a reason, never an exception of Python's.

Python's ``json`` accepts what JSON does not (NaN, Infinity) and turns a 5,000-digit
number into a ValueError about integer conversion; a deeply nested file overflows the
stack. Every document read from outside (pasted, uploaded, a file given to a command)
goes through :func:`parse_json`, so each of these is one clear message.
"""

from __future__ import annotations

import json
from typing import Any

# No number in our documents needs more digits than this (seeds are below 2**63).
MAX_NUMBER_DIGITS = 30


class JsonTextError(ValueError):
    """Text that is not JSON we read, with the reason in words."""


def _number_digits(text: str) -> int:
    return sum(ch.isdigit() for ch in text)


def _integer(text: str) -> int:
    if _number_digits(text) > MAX_NUMBER_DIGITS:
        raise JsonTextError(f"a number has at most {MAX_NUMBER_DIGITS} digits")
    return int(text)


def _float(text: str) -> float:
    if _number_digits(text) > MAX_NUMBER_DIGITS:
        raise JsonTextError(f"a number has at most {MAX_NUMBER_DIGITS} digits")
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise JsonTextError(f"the number {text[:20]} is too large")
    return value


def _constant(name: str) -> Any:
    raise JsonTextError(f"{name} is not a number JSON allows")


# The reader of parse_json, for a reader that walks a large document's outer levels itself
# and reads each value inside with it (accounts.account_file): the same refusals, in the
# same words. Its raw_decode raises json.JSONDecodeError, JsonTextError and RecursionError.
DECODER = json.JSONDecoder(parse_int=_integer, parse_float=_float, parse_constant=_constant)


def parse_json(text: str) -> Any:
    """The JSON value in ``text``; JsonTextError (with line and column where known)."""
    try:
        return json.loads(text, parse_int=_integer, parse_float=_float, parse_constant=_constant)
    except json.JSONDecodeError as error:
        raise JsonTextError(
            f"this is not valid JSON (line {error.lineno}, column {error.colno}: {error.msg})"
        ) from None
    except RecursionError:
        raise JsonTextError("this document is nested too deeply") from None
