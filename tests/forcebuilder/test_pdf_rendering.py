"""How a list's PDFs are rendered (onefinity.downloads.render_pdf, issue 34's third pass): with
what WeasyPrint would otherwise do again for every PDF done once (a thread's fonts, the page's
stylesheets parsed, no styles for pseudo-elements no printout has) and the roster's header
without a flex box, the PDF draws what WeasyPrint drew from the print view before."""

from __future__ import annotations

import io
import threading
from collections import Counter

import pytest
from django.template.loader import render_to_string
from pypdf import PdfReader

from forcebuilder.jobs import PRINTOUTS, printout, printout_context
from onefinity import downloads
from tests.factories import make_force

pytestmark = pytest.mark.django_db

SHARE_URL = "http://testserver/s/AbCdEfGhIjKl/"
# Three units of four troopers, each with three weapons, three pieces of equipment and three
# abilities: the largest list printed inside the request (forcebuilder.jobs), over two pages.
LARGE_UNITS = [
    {
        "type": "light-infantry",
        "troopers": [
            {
                "weapons": ["rifle", "combi-rifle", "submachine-gun"],
                "equipment": ["light-armor-plate", "multispectral-visor", "smoke-grenades"],
                "abilities": ["cc-specialist", "marksman", "veteran"],
            }
        ]
        * 4,
    }
] * 3


def weasyprint_as_it_was(html: str) -> bytes:
    """The PDF as render_pdf made it before: WeasyPrint's defaults (its own stylesheet, fonts
    found for this PDF alone, the page's styles parsed from the page)."""
    from weasyprint import HTML
    from weasyprint.urls import URLFetcher

    fetcher = URLFetcher(allowed_protocols={"data"}, allow_redirects=False)
    pdf: bytes = HTML(string=html, url_fetcher=fetcher).write_pdf()
    return pdf


def drawing(pdf: bytes) -> list[Counter[str]]:
    """Each page's drawing operations with their operands (a text's position, font and
    glyphs, a line's ends, a fill's colour), in any order: WeasyPrint paints a positioned
    box after the others, which only adds a saved state and a text object around it."""
    pages = PdfReader(io.BytesIO(pdf)).pages
    return [
        Counter(
            line
            for line in page.get_contents().get_data().decode("latin-1").split("\n")
            if line not in {"q", "Q", "BT", "ET"}
        )
        for page in pages
    ]


@pytest.mark.parametrize(
    ("which", "units", "share_url", "pages"),
    [
        ("roster", None, SHARE_URL, 1),  # the load client's kind of list, shared
        ("roster", None, "", 1),  # not shared: no QR code, the header as wide as the page
        ("roster", LARGE_UNITS, SHARE_URL, 2),
        ("cards", None, SHARE_URL, 1),
    ],
)
def test_a_list_pdf_draws_what_weasyprint_drew_from_the_print_view(
    owner, which, units, share_url, pages
):
    force = make_force(owner, **({"units": units} if units else {}))
    html = render_to_string(PRINTOUTS[which], printout_context(force, share_url))
    # The print view's own header (a flex box), which the PDF's header stands in for.
    header = render_to_string("forcebuilder/roster_pdf_header.css")
    assert (header in html) == (which == "roster")
    before = drawing(weasyprint_as_it_was(html.replace(header, "")))
    after = drawing(printout(force, which, share_url))
    assert len(after) == pages
    assert after == before


def test_the_pdf_header_keeps_the_text_clear_of_the_qr_code(owner):
    # A share link broken wherever a line ends (.share-url): where each of its lines ends
    # is where the text stops short of the QR code, to the width of a character.
    force = make_force(owner, name="A name long enough to reach the corner of the page " * 2)
    share_url = "http://testserver/s/" + "AbCdEfGhIjKl" * 12 + "/"
    pdf = printout(force, "roster", share_url)
    html = render_to_string(PRINTOUTS["roster"], printout_context(force, share_url))
    header = render_to_string("forcebuilder/roster_pdf_header.css")
    assert drawing(pdf) == drawing(weasyprint_as_it_was(html.replace(header, "")))
    assert "reach the corner" in PdfReader(io.BytesIO(pdf)).pages[0].extract_text()


def test_a_thread_keeps_its_fonts_for_so_many_pdfs_then_finds_them_anew(monkeypatch):
    monkeypatch.setattr(downloads, "PRINTS_PER_FONT_CONFIG", 2)
    monkeypatch.setattr(downloads, "_printing", threading.local())
    page = "<html><head><style>p { color: #333 }</style></head><body><p>Wardens</p></body></html>"
    kept = []
    for _ in range(3):
        assert downloads.render_pdf(page).startswith(b"%PDF")
        kept.append(downloads._printing.fonts)
    assert kept[0] is kept[1] and kept[2] is not kept[0]  # bounded: made anew after two

    elsewhere = []
    thread = threading.Thread(
        target=lambda: (downloads.render_pdf(page), elsewhere.append(downloads._printing.fonts))
    )
    thread.start()
    thread.join()
    assert elsewhere and elsewhere[0] is not kept[2]  # never shared between threads


def test_a_pdf_reads_nothing_from_outside_whatever_its_styles_ask(tmp_path):
    outside = tmp_path / "outside.css"
    outside.write_text('body::before { content: "READ FROM OUTSIDE" }')
    picture = tmp_path / "outside.svg"
    picture.write_text('<svg xmlns="http://www.w3.org/2000/svg"><text>OUTSIDE</text></svg>')
    pages = [
        # A head whose styles render_pdf parses once a process: an @import in them.
        f'<html><head><style>@import url("file://{outside}"); p {{ color: #000 }}</style>'
        "</head><body><p>Wardens</p></body></html>",
        # A head it leaves to WeasyPrint: a <link>.
        f'<html><head><link rel="stylesheet" href="file://{outside}"></head>'
        f'<body><p>Wardens</p><img src="file://{picture}" alt=""></body></html>',
    ]
    for page in pages:
        text = PdfReader(io.BytesIO(downloads.render_pdf(page))).pages[0].extract_text()
        assert "Wardens" in text and "OUTSIDE" not in text


def test_weasyprints_stylesheet_lost_only_its_five_note_rules():
    from weasyprint.html import UA

    # None would mean WeasyPrint's stylesheet words them otherwise (a new version): the PDFs
    # would be right, and as slow as before.
    sheet = downloads._user_agent_sheet()
    assert sheet is not None and sheet is downloads._user_agent_sheet()
    kept = downloads._NOTE_PSEUDO_ELEMENTS.sub("", UA)
    assert "::footnote" not in kept and "::note" not in kept
    assert len(UA) - len(kept) < 400 and "::marker" in kept
