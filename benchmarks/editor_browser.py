"""A hex click in the table editor as a player feels it: Debian's Chromium (Playwright)
against a running server, from the click to the redrawn map, on an empty board of each
size (104, 410 and 1,620 hexes).

The issue measured 1.3 to 2.2 s for a click on a 40 x 40 board. Each click paints one
hex with the blocking brush (hexes spread over the board), waits until htmx has swapped
and settled the answer, the hex's label says it is blocking and a frame is drawn, and
times that in the page (performance.now(): request, server, transfer, parsing, the swap
and drawing). The answer's own time on the wire is given beside it (Resource Timing).

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

from playwright.sync_api import Page, Response, sync_playwright

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


# In the page: a click on the hex as Enter on a focused hex sends it (one edit, like a
# pointer's click, whose press and release send it), then the time until htmx has settled
# the answer and the hex's label says it is blocking. Measured inside the page, so the
# figure has none of the test driver's own round trips.
CLICK = """async (spot) => {
  const find = () => document.querySelector(`[data-table-map] a[aria-label^="${spot} "]`);
  const start = performance.now();
  find().dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true, detail: 0 }));
  await new Promise((done) => {
    const check = () => {
      const link = find();
      const busy = document.querySelector(".htmx-request, .htmx-settling, .htmx-swapping");
      if (link && link.getAttribute("aria-label").endsWith("Blocking scenery") && !busy) done();
      else requestAnimationFrame(check);
    };
    check();
  });
  // One more frame: the browser has drawn the new map.
  await new Promise((done) => requestAnimationFrame(() => done()));
  return performance.now() - start;
}"""


def click_times(page: Page, spots: list[str]) -> list[float]:
    """Milliseconds from each click to the map showing the painted hex."""
    times = []
    for spot in spots:
        settled(page)
        times.append(page.evaluate(CLICK, spot))
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
            page.evaluate("() => performance.clearResourceTimings()")
            # Which answers patched the map (the page's server process had drawn it) and
            # which drew it whole (another process had).
            answers: list[bool] = []

            def answered(response: Response, answers: list[bool] = answers) -> None:
                if response.request.method == "POST":
                    answers.append(b"data-map-patch" in response.body())

            page.on("response", answered)
            clicks = click_times(page, spots)
            page.remove_listener("response", answered)
            requests = page.evaluate(
                "() => performance.getEntriesByType('resource')"
                ".filter((e) => e.name.includes('/terrain/')).map((e) => e.duration)"
            )
            results[key] = {
                "click to painted map": spread(clicks),
                "the request alone (sent to answered)": spread(requests),
                "page bytes": len(page.content()),
                "answers patching the map": f"{sum(answers)} of {len(answers)}",
            }
        browser.close()
    print(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
