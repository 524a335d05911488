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
import re
from typing import Any

import orjson

# 19 digits in a row may be an integer orjson would read as a float (int64 holds 18 digits
# whole); long decimals match too, and are read by json, exactly as before.
_LONG_NUMBER = re.compile(r"\d{19}")


class DocumentEncoder(json.JSONEncoder):
    def encode(self, o: Any) -> str:
        try:
            text = orjson.dumps(o)
        except TypeError:  # orjson.JSONEncodeError is a TypeError
            return super().encode(o)
        if b"null" in text:  # a None, or a NaN or infinity that json writes otherwise
            return super().encode(o)
        return text.decode()


class DocumentDecoder(json.JSONDecoder):
    def decode(self, s: str, *args: Any, **kwargs: Any) -> Any:
        if not _LONG_NUMBER.search(s):
            try:
                return orjson.loads(s)
            except orjson.JSONDecodeError:
                pass
        return super().decode(s, *args, **kwargs)
