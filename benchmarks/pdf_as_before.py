"""A toggle for benchmarks/request_cpu.py (issue 34, third pass): the PDF renderer of now (on)
or WeasyPrint as render_pdf called it before, with the roster's flex header (off).

    .venv/bin/python benchmarks/request_cpu.py --kinds "editor change,roster pdf" \\
        --toggle benchmarks/pdf_as_before.py --rounds 6

(Each user edits between two PDFs, so that each PDF is of a new version, as under the load.)
"""

from django.template.loader import render_to_string

from onefinity import downloads

NOW = downloads.render_pdf
# The PDF's own header (forcebuilder/roster_styles.html), without which the roster's HTML is
# the print view's as it was.
HEADER = render_to_string("forcebuilder/roster_pdf_header.css")


def as_before(html: str) -> bytes:
    from weasyprint import HTML
    from weasyprint.urls import URLFetcher

    fetcher = URLFetcher(allowed_protocols={"data"}, allow_redirects=False)
    pdf: bytes = HTML(string=html.replace(HEADER, ""), url_fetcher=fetcher).write_pdf()
    return pdf


def switch(on: bool) -> None:
    downloads.render_pdf = NOW if on else as_before
