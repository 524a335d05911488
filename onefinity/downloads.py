"""What every download shares: a safe file name and PDFs that read nothing from outside."""

from __future__ import annotations

import csv
import functools
import io
import re
import threading
import unicodedata
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

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
    by every one that starts: it is 0.4 s of a 1.4 s start (`manage.py`, gunicorn, a worker).
    What WeasyPrint would otherwise do again for every PDF is done once per process or
    thread (docs/performance.md, "The PDFs' CPU"): finding and loading the fonts
    (``_thread_fonts``), parsing the page's stylesheets (``_styles_apart``), and working out
    the styles of five pseudo-elements of every element that no printout has
    (``_user_agent_sheet``); the PDF is the same, operation for operation."""
    from weasyprint.urls import URLFetcher

    html, styles = _styles_apart(html)
    fetcher = URLFetcher(allowed_protocols={"data"}, allow_redirects=False)
    document = _printed_html()(string=html, url_fetcher=fetcher)
    pdf: bytes = document.write_pdf(
        font_config=_thread_fonts(), stylesheets=[_stylesheet(style) for style in styles]
    )
    return pdf


# A thread's fonts are found and loaded anew after this many PDFs (_thread_fonts).
PRINTS_PER_FONT_CONFIG = 500
_printing = threading.local()


def _thread_fonts() -> Any:
    """This thread's WeasyPrint FontConfiguration. Made for each PDF, finding the fonts
    (fontconfig) and loading them into a new Pango font map was a fifth to a quarter of a
    roster's CPU; one a thread because Pango's font map is not made to be shared between
    threads (and WeasyPrint lets go of the GIL in Pango's calls). Made anew after
    PRINTS_PER_FONT_CONFIG PDFs, so that whatever it and Pango keep stays bounded in a
    long-lived process (a thread that ends takes its own with it)."""
    fonts = getattr(_printing, "fonts", None)
    if fonts is None or _printing.prints >= PRINTS_PER_FONT_CONFIG:
        from weasyprint.text.fonts import FontConfiguration

        fonts = _printing.fonts = FontConfiguration()
        _printing.prints = 0
    _printing.prints += 1
    return fonts


_STYLE = re.compile(r"<style>(.*?)</style>", re.S)


def _styles_apart(html: str) -> tuple[str, list[str]]:
    """The page without the ``<style>`` elements of its head, and their text. A printout's
    styles are all it has, so given to WeasyPrint as the user's stylesheets (each parsed
    once a process, ``_stylesheet``) they style it as they did from the page: they still
    come after WeasyPrint's own, and a ``style`` attribute still wins. A head with anything
    else that styles (a ``<link>``, ``<style media=...>``, ``@font-face``, which needs the
    thread's fonts) is left as it is."""
    end = html.find("</head>")
    head = html[: max(end, 0)]
    styles = _STYLE.findall(head)
    if not styles or "<link" in head or "@font-face" in head or head.count("<style") > len(styles):
        return html, []
    return _STYLE.sub("", head) + html[end:], styles


@functools.lru_cache(maxsize=32)
def _stylesheet(text: str) -> Any:
    """A printout's stylesheet, parsed once a process (WeasyPrint reads it and never changes
    it, so threads share it); at most 32 kept."""
    from weasyprint import CSS
    from weasyprint.urls import URLFetcher

    return CSS(
        string=text, url_fetcher=URLFetcher(allowed_protocols={"data"}, allow_redirects=False)
    )


# WeasyPrint's own stylesheet for HTML styles ::footnote-call, ::footnote-marker,
# ::note-call, ::note-marker and ::note-callback of any element: their styles were worked
# out for every element of every printout (six of each element's seven styles; 8 % of the
# CPU of the largest roster printed in a request), and no printout has a footnote or a note.
_NOTE_PSEUDO_ELEMENTS = re.compile(r"^::(?:footnote|note)-[a-z]+ \{[^}]*\}\n", re.M)


@functools.cache
def _user_agent_sheet() -> Any:
    """WeasyPrint's stylesheet for HTML without its five rules for footnotes and notes, or
    None when it does not have exactly those five: WeasyPrint is pinned (pyproject.toml),
    and a version that words them otherwise prints with its own stylesheet, as slowly as
    before (tests/forcebuilder/test_pdf_rendering.py says so)."""
    from weasyprint import CSS
    from weasyprint.css.counters import CounterStyle
    from weasyprint.html import UA

    text, removed = _NOTE_PSEUDO_ELEMENTS.subn("", UA)
    if removed != 5:
        return None
    # Its counter styles are WeasyPrint's own already (HTML._ua_counter_style).
    return CSS(string=text, counter_style=CounterStyle())


@functools.cache
def _printed_html() -> Any:
    """WeasyPrint's HTML document, styled by ``_user_agent_sheet`` (a form's fields, which
    no printout has, by WeasyPrint's own)."""
    from weasyprint import HTML

    class PrintedHTML(HTML):
        def _ua_stylesheets(self, forms: bool = False) -> list[Any]:
            sheet = _user_agent_sheet()
            return super()._ua_stylesheets(forms) if forms or sheet is None else [sheet]

    return PrintedHTML


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
