"""The one URL converter for the codes and keys a link carries (share links, join links,
a locked list's code, a unit's or trooper's key): only the characters such codes are made
of, so that nothing else reaches a query. A NUL (``/s/%00/``) made PostgreSQL refuse the
query, a 500, where SQLite found nothing; now every such address is a 404 on both, before
any view runs."""

from __future__ import annotations


class CodeConverter:
    # secrets.token_urlsafe's alphabet, and the dot of a position key (``t.0.1``); the
    # longest code made is 32 characters.
    regex = "[A-Za-z0-9_.-]{1,64}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value
