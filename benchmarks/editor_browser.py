"""A hex click in the table editor as a player feels it: Debian's Chromium (Playwright)
against a running server, from the click to the redrawn map, on an empty board of each
size (104, 410 and 1,620 hexes).

The issue measured 1.3 to 2.2 s for a click on a 40 x 40 board. Each click paints one
hex with the blocking brush (then the next hex along), waits until htmx has swapped and
settled the answer and the hex's label says it is blocking, and times that in the page
(performance.now() around the click, so the figure is the browser's wall time: request,
server, transfer, parsing and drawing).

Run against `make serve` (or `make run`): `.venv/bin/python benchmarks/editor_browser.py
[--base http://127.0.0.1:8000] [--clicks 15]`. It makes its tables as an anonymous browser
(kept for that browser: nothing of an account is touched).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from typing import Any

from playwright.sync_api import Page, sync_playwright

CHROMIUM = "/usr/bin/chromium"
SIZES = ((11, 9), (20, 20), (40, 40))  # rows x columns: 104, 410 and 1,620 hexes


def settled(page: Page) -> None:
    page.wait_for_function(
        "() => !document.querySelector('.htmx-request, .htmx-settling, .htmx-swapping')"
    )


def empty_board(page: Page, base: str, rows: int, columns: int) -> str:
    page.goto(base + "/tables/new/")
    page.get_by_text("Or build your own on an empty board").click()
    page.get_by_label("Name").fill(f"Bench {rows} x {columns}")
    page.get_by_label("Rows").fill(str(rows))
    page.get_by_label("Columns").fill(str(columns))
    page.get_by_role("button", name="Start building").click()
    page.wait_for_selector("[data-table-map] svg")
    return page.url.split("?")[0]


def click_times(page: Page, spots: list[str]) -> list[float]:
    """Milliseconds from each click to the map showing the painted hex."""
    times = []
    for spot in spots:
        selector = f'[data-table-map] a[aria-label^="{spot} "]'
        page.locator(selector).scroll_into_view_if_needed()
        settled(page)
        start = page.evaluate("() => performance.now()")
        page.locator(selector).click()
        page.wait_for_function(
            "(s) => { const a = document.querySelector(s);"
            " return a && a.getAttribute('aria-label').endsWith('Blocking scenery')"
            " && !document.querySelector('.htmx-request, .htmx-settling, .htmx-swapping'); }",
            arg=selector,
            timeout=30_000,
        )
        times.append(page.evaluate("() => performance.now()") - start)
    return times


def spread(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "median_ms": round(statistics.median(ordered), 1),
        "p90_ms": round(ordered[int(0.9 * (len(ordered) - 1))], 1),
        "clicks": len(ordered),
    }


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", default="http://127.0.0.1:8000")
    parser.add_argument("--clicks", type=int, default=15)
    options = parser.parse_args()
    results: dict[str, Any] = {"date": time.strftime("%Y-%m-%d"), "base": options.base}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
        )
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        for rows, columns in SIZES:
            url = empty_board(page, options.base, rows, columns)
            page.goto(url + "?mode=terrain&brush=blocking")
            page.wait_for_selector("#table-view[data-drag=paint]")
            hexes = page.eval_on_selector_all(
                "[data-table-map] a[aria-label]",
                "links => links.map(a => a.getAttribute('aria-label').split(' ')[0])",
            )
            # Hexes spread over the board, away from each other.
            step = max(1, len(hexes) // (options.clicks + 1))
            spots = hexes[step::step][: options.clicks]
            key = f"{len(hexes)} hexes"
            results[key] = {
                "empty board": spread(click_times(page, spots)),
                "page bytes": len(page.content()),
            }
        browser.close()
    print(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
