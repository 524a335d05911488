"""Setup sheets as PDF: one table's, or a pack's, a sheet at a time, put together with pypdf.

The map on a sheet is the table's PNG (drawn by Pillow), not its SVG: WeasyPrint makes a
PDF object for every text of an SVG, so a 40 x 40 board's sheet took 13 s and each pack sheet
about 0.6 s with a hundred objects that merging then had to copy one by one.
"""

from __future__ import annotations

import base64
import functools
import io
from collections.abc import Iterable

import segno
from django.http import HttpRequest
from django.template.loader import render_to_string

from onefinity.downloads import render_pdf
from onefinity.rules.ruleset import TableRules
from tablegen.engine.library import terrain_library
from tablegen.engine.metrics import TableReport, check_table
from tablegen.engine.render import legend, piece_rows, png
from tablegen.engine.tables import TableSpec

# Pixels of a sheet's map: printed 150 mm wide, the standard board is about 170 dpi at the
# usual scale, and the largest board stays small enough to embed quickly.
SHEET_MAP_PIXELS = 4_000_000


# The same link makes the same picture: drawing it (segno's mask search) was half of a shared
# list's page and of the roster print view under load (docs/performance.md, issue 34).
@functools.lru_cache(maxsize=512)
def qr_svg(url: str) -> str:
    """The QR code of a share link (as lists have), for the page and the setup sheet."""
    return str(
        segno.make(url, error="m").svg_inline(
            scale=3, dark="#000", light="#fff", title="QR code of the share link"
        )
    )


def sheet(
    spec: TableSpec, report: TableReport, rules: TableRules, share_url: str = ""
) -> dict[str, object]:
    """A setup sheet: the map with each piece outlined and numbered, and the pieces by number
    with where each stands, so a person can lay the table out from paper."""
    picture = base64.b64encode(
        png(spec, max_pixels=SHEET_MAP_PIXELS, numbers=True, rules=rules)
    ).decode("ascii")
    return {
        "spec": spec,
        "report": report,
        "picture": f"data:image/png;base64,{picture}",
        "pieces": piece_rows(spec, terrain_library(tuple(rules.terrain)), rules),
        "share_url": share_url,
        "qr": qr_svg(share_url) if share_url else "",
    }


def setup_pdf(
    specs: Iterable[TableSpec],
    title: str,
    rules: TableRules,
    request: HttpRequest | None = None,
    reports: Iterable[TableReport | None] | None = None,
    share_url: str = "",
) -> bytes:
    """One setup sheet (a page or more) per table, in one PDF (a single shared table's with
    the QR code of its share link)."""
    specs = list(specs)
    known = list(reports) if reports is not None else [None] * len(specs)
    sheets = [
        sheet(spec, report or check_table(spec, rules), rules, share_url)
        for spec, report in zip(specs, known, strict=True)
    ]
    html = render_to_string(
        "tablegen/setup.html",
        {"sheets": sheets, "title": title, "legend": legend()},
        request=request,
    )
    return render_pdf(html)


def merge_pdfs(parts: Iterable[bytes]) -> bytes:
    """The parts' pages, in order, as one PDF (pypdf imported by the processes that print,
    as WeasyPrint is: onefinity.downloads.render_pdf)."""
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter()
    for part in parts:
        writer.append(PdfReader(io.BytesIO(part)))  # with its bookmark: one per table
    buffer = io.BytesIO()
    writer.write(buffer)
    return buffer.getvalue()
