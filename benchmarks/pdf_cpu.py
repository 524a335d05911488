"""The CPU time of a list's PDFs (issue 34, third pass): onefinity.downloads.render_pdf against
WeasyPrint as it was called before (its defaults: fonts found and loaded for each PDF, the
page's styles parsed from the page, its own stylesheet whole; the roster's header a flex box),
in one process, interleaved round by round, the order turned each round.

    .venv/bin/python benchmarks/pdf_cpu.py [ROUNDS]        # 6 rounds of 3 PDFs of each

The lists: the load client's (loadtest/run.py: a unit of Medium Infantry, a Hacker among
them, shared; 4 troopers, between the 3 and 6 it keeps), and the largest list printed inside
the request (forcebuilder.jobs: 12 troopers, 36 items), shared. Each figure is the median CPU
time of one PDF from its HTML (the template's rendering is not counted), with the file's size.
"""

from __future__ import annotations

import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ["DATABASE_URL"] = f"sqlite:///{Path(tempfile.mkdtemp()) / 'bench.sqlite3'}"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from django.template.loader import render_to_string  # noqa: E402

from forcebuilder.jobs import PRINTOUTS  # noqa: E402
from forcebuilder.printing import qr_svg  # noqa: E402
from forcebuilder.sheets import force_sheet  # noqa: E402
from onefinity.downloads import render_pdf  # noqa: E402
from onefinity.rules import library, read_force_document, validate_force  # noqa: E402

SHARE_URL = "http://127.0.0.1/s/AbCdEfGhIjKl/"


class SharedList:
    """What the printouts read of a saved list besides its sheet."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.share_code = "AbCdEfGhIjKl"


def load_client_list() -> dict[str, object]:
    troopers: list[dict[str, object]] = [{"class": "hacker"}, {}, {}, {}]
    return {"name": "Load list", "faction": "solar-concord", "points_limit": 75,
            "units": [{"type": "medium-infantry", "troopers": troopers}]}  # fmt: skip


def largest_in_request() -> dict[str, object]:
    ruleset = library().current
    trooper = {
        "weapons": list(ruleset.weapons)[:3],
        "equipment": list(ruleset.equipment)[:3],
        "abilities": list(ruleset.abilities)[:3],
    }
    units = [{"type": "light-infantry", "troopers": [trooper] * 4}] * 3
    return {"name": "Largest list", "faction": "solar-concord", "units": units}


def printout_html(document: dict[str, object], which: str) -> str:
    spec = read_force_document({"format": "onefinity-force", "version": 1} | document)
    sheet = force_sheet(spec, validate_force(spec, library().current))
    context = {"force": SharedList(spec.name), "sheet": sheet, "share_url": SHARE_URL,
               "qr": qr_svg(SHARE_URL), "pdf": True}  # fmt: skip
    return render_to_string(PRINTOUTS[which], context)


def as_it_was(html: str) -> bytes:
    from weasyprint import HTML
    from weasyprint.urls import URLFetcher

    fetcher = URLFetcher(allowed_protocols={"data"}, allow_redirects=False)
    pdf: bytes = HTML(string=html, url_fetcher=fetcher).write_pdf()
    return pdf


def cpu_ms(render: Callable[[], bytes]) -> float:
    started = time.process_time()
    render()
    return (time.process_time() - started) * 1000


def main() -> int:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 6
    print(
        f"# {time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC, {platform.machine()}, "
        f"{os.cpu_count()} cores, Python {platform.python_version()}, "
        f"load {os.getloadavg()[0]:.2f}"
    )
    header = render_to_string("forcebuilder/roster_pdf_header.css")
    print("\n| PDF | before, ms CPU | now | change | size before → now |\n|---|---|---|---|---|")
    for label, document in (("the load client's list", load_client_list()),
                            ("the largest in the request", largest_in_request())):  # fmt: skip
        for which in ("roster", "cards"):
            html = printout_html(document, which)
            variants = {
                "before": lambda html=html: as_it_was(html.replace(header, "")),
                "now": lambda html=html: render_pdf(html),
            }
            sizes = {name: len(render()) for name, render in variants.items()}  # warm-up
            spent: dict[str, list[float]] = {name: [] for name in variants}
            for number in range(rounds):
                for name in list(variants)[:: 1 if number % 2 else -1]:
                    spent[name] += [cpu_ms(variants[name]) for _ in range(3)]
            before, now = (statistics.median(spent[name]) for name in variants)
            print(
                f"| {which}, {label} | {before:.1f} | {now:.1f} | {now / before - 1:+.0%} "
                f"| {sizes['before']:,} → {sizes['now']:,} bytes |"
            )
    print(f"\n# load after: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
