"""JSON for large stored documents, written and read by orjson with the standard library's
exact results.

A 1,620-hex table's document is about 50 KB of small lists; every edit reads it from the
database once and writes it twice (the table and its revision). Python's json takes 1 to
3 ms for each; orjson a fifth of that. For the model fields that hold such documents:
``models.JSONField(encoder=DocumentEncoder, decoder=DocumentDecoder)``.

Where orjson would not give what the standard library gives, the standard library does the
work, so a stored value reads back exactly as it did before:

- written: orjson refuses integers beyond 64 bits, strings with lone surrogates and keys
  that are not strings (json turns them into text), and writes NaN and infinities as
  null (json writes NaN, which it reads back): any null in orjson's text hands the value
  to json;
- read: orjson reads integers beyond 64 bits as floats, so a text with 19 digits in a row
  goes to json; NaN, Infinity and escaped lone surrogates, which orjson refuses, too.

orjson writes non-ASCII characters as they are, where json escapes them: the same value.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

# 19 digits in a row may be an integer orjson would read as a float (int64 holds 18 digits
# whole); long decimals count too, and are read by json, exactly as before. Found in the
# text's UTF-8 with every digit made "0" and everything else " ": a translation and a
# substring search, a tenth of a regular expression's time on 50 KB.
_DIGITS_AS_ZEROS = bytes(0x30 if 0x30 <= i <= 0x39 else 0x20 for i in range(256))
_LONG_RUN = b"0" * 19


def _long_number(s: str) -> bool:
    return _LONG_RUN in s.encode("utf-8", "surrogatepass").translate(_DIGITS_AS_ZEROS)


class DocumentEncoder(json.JSONEncoder):
    def encode(self, o: Any) -> str:
        if self.indent is not None or self.sort_keys:  # a layout asked for: json's
            return super().encode(o)
        try:
            text = orjson.dumps(o)
        except TypeError:  # orjson.JSONEncodeError is a TypeError
            return super().encode(o)
        if b"null" in text:  # a None, or a NaN or infinity that json writes otherwise
            return super().encode(o)
        return text.decode()


class DocumentDecoder(json.JSONDecoder):
    def decode(self, s: str, *args: Any, **kwargs: Any) -> Any:
        if not _long_number(s):
            try:
                return orjson.loads(s)
            except orjson.JSONDecodeError:
                pass
        return super().decode(s, *args, **kwargs)


def dumps_indented(value: Any) -> bytes:
    """`value` as json.dumps(value, indent=2, ensure_ascii=False) writes it, in UTF-8, by
    orjson: the standard library's encoder is pure Python when it indents (2.5 s for an
    account export of 100 large tables; orjson a tenth of a second). What orjson refuses
    (integers beyond 64 bits, lone surrogates, keys that are not strings) or would write
    otherwise (NaN and infinities, as null) is written by json."""
    try:
        text = orjson.dumps(value, option=orjson.OPT_INDENT_2)
    except TypeError:
        text = b""
    if not text or (b"null" in text and _has_special_float(value)):
        return json.dumps(value, indent=2, ensure_ascii=False).encode("utf-8", "surrogatepass")
    return text


def _has_special_float(value: Any) -> bool:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, float) and (item != item or item in (float("inf"), float("-inf"))):
            return True
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return False
