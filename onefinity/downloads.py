"""What every download shares: a safe file name and PDFs that read nothing from outside."""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from collections.abc import Callable, Iterable
from typing import TypeVar

from django.core.cache import cache
from django.http import HttpResponse
from django.http.response import HttpResponseBase

# A whole answer or one streamed a part at a time (a job's large file).
_Response = TypeVar("_Response", bound=HttpResponseBase)


def file_stem(name: str, fallback: str) -> str:
    """``name`` as a file name: ASCII letters, digits, dots and hyphens only, so nothing a
    person typed can break out of the header (quotes, new lines) or the folder."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    stem = re.sub(r"[^a-z0-9.]+", "-", ascii_name.lower())
    stem = re.sub(r"\.{2,}", ".", stem).strip("-.")
    return stem[:80].strip("-.") or fallback


def attachment(response: _Response, name: str, suffix: str, fallback: str) -> _Response:
    """Mark a response as a download, e.g. ``attachment(r, "Wardens", "-roster.pdf", "force")``."""
    response["Content-Disposition"] = f'attachment; filename="{file_stem(name, fallback)}{suffix}"'
    return response


def download(
    content: bytes | str, content_type: str, name: str, suffix: str, fallback: str
) -> HttpResponse:
    return attachment(HttpResponse(content, content_type=content_type), name, suffix, fallback)


# A spreadsheet runs a cell that starts with one of these as a formula (OWASP's list).
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
# Opened in a spreadsheet that splits on ";" (most of Europe) or ",", each piece between
# separators becomes a cell of its own: each is guarded, not only the start of the text.
_PIECES = re.compile(r"([,;])")


def spreadsheet_cell(value: object) -> str:
    """A value as a CSV cell no spreadsheet runs as a formula, whichever of "," and ";" it
    splits on: each piece that starts (after spaces and quotes) with = + - @, a tab or a
    carriage return gets a ' before it (OWASP's "CSV injection" advice). Numbers are
    written as they are."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    pieces = _PIECES.split(str(value))
    for i in range(0, len(pieces), 2):
        piece = pieces[i]
        stripped = piece.lstrip(' "')
        if stripped[:1] in _FORMULA_STARTS and stripped:
            at = len(piece) - len(stripped)
            pieces[i] = piece[:at] + "'" + stripped
    return "".join(pieces)


def csv_text(rows: Iterable[Iterable[object]]) -> str:
    """Rows as CSV for a spreadsheet: every cell guarded (``spreadsheet_cell``) and quoted,
    so that a ";" in a name does not split it either."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n", quoting=csv.QUOTE_ALL)
    for row in rows:
        writer.writerow([spreadsheet_cell(cell) for cell in row])
    return out.getvalue()


def render_pdf(html: str) -> bytes:
    """A PDF of our own HTML. Everything a page shows is inline (SVG, data: URLs, styles
    in the page), so the fetcher refuses every other URL: a name that smuggled in a
    ``file:///`` or ``http://`` reference reads nothing from the server or the network.

    WeasyPrint is imported here, by the processes that print (the task worker, mostly), not
    by every one that starts: it is 0.4 s of a 1.4 s start (`manage.py`, gunicorn, a worker)."""
    from weasyprint import HTML
    from weasyprint.urls import URLFetcher

    fetcher = URLFetcher(allowed_protocols={"data"}, allow_redirects=False)
    pdf: bytes = HTML(string=html, url_fetcher=fetcher).write_pdf()
    return pdf


# How long a printed PDF is kept for the next download of the same thing.
PRINTED_SECONDS = 60 * 60


def printed_once(
    key: str, render: Callable[[], bytes], on_miss: Callable[[], None] | None = None
) -> bytes:
    """The PDF `key` names, rendered the first time and kept for PRINTED_SECONDS: WeasyPrint
    takes seconds for a sheet of trooper cards or a large table, and a share link lets anyone
    ask again and again. The key must name everything the PDF shows (a record's version,
    its share link...). ``on_miss`` runs before a render (and may refuse it by raising):
    what is kept costs nothing and is never refused."""
    pdf: bytes | None = cache.get(key)
    if pdf is None:
        if on_miss is not None:
            on_miss()
        pdf = render()
        cache.set(key, pdf, PRINTED_SECONDS)
    return pdf
