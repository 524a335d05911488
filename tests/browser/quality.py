"""Outside judges of the pages: axe-core for accessibility, the Nu HTML checker for markup.

axe-core is vendored (tests/browser/vendor/axe.min.js, MPL-2.0); it is injected into a page
of a browser context that bypasses the site's Content-Security-Policy (the site rightly
forbids inline scripts, and the checker is one). The Nu HTML checker is the npm package
vnu-jar (`make checkers`), run with Java once over a folder of saved pages.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from playwright.sync_api import Page

ROOT = Path(__file__).resolve().parents[2]
AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"
VNU = ROOT / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"
# A short run of the checker: the JVM's first compiler only (half the processor's time of a
# run: 2.0 s of it instead of 4.3 s for 25 pages, the same messages), a serial collector,
# and the deeper stack that compiler needs for the checker's schema.
JAVA_OPTIONS = ("-Xss16m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC")
# WCAG 2.1 A and AA, and axe's best practices.
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]


def axe_violations(page: Page) -> list[dict[str, Any]]:
    """axe-core's violations on the page as it is now, each with its rule, impact and the
    elements concerned (empty when the page passes). The page's context must have been
    made with ``bypass_csp=True``. A page a click has just opened is judged once it has
    loaded: its style sheets (axe measures colour contrast) and its deferred scripts (they
    show and hide controls) are in by then, not when its first element can be read."""
    page.wait_for_load_state()
    page.add_script_tag(path=str(AXE))
    result: dict[str, Any] = page.evaluate(
        "async (tags) => await axe.run(document, {runOnly: {type: 'tag', values: tags}})",
        AXE_TAGS,
    )
    return [
        {
            "rule": violation["id"],
            "impact": violation["impact"],
            "help": violation["help"],
            "targets": [node["target"] for node in violation["nodes"]][:5],
        }
        for violation in result["violations"]
    ]


def markup_errors(pages: dict[str, str], folder: Path) -> dict[str, list[str]]:
    """The Nu HTML checker's errors for each page (name -> HTML), by name; pages without
    errors are left out. One Java run checks them all."""
    if not VNU.exists():
        raise AssertionError(f"{VNU} is missing: `make checkers` installs it")
    folder.mkdir(parents=True, exist_ok=True)
    for name, html in pages.items():
        (folder / f"{name}.html").write_text(html, encoding="utf-8")
    run = subprocess.run(
        ["java", *JAVA_OPTIONS, "-jar", str(VNU)]
        + ["--format", "json", "--errors-only", "--exit-zero-always"]
        + [str(folder / f"{name}.html") for name in pages],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    found: dict[str, list[str]] = {}
    for message in json.loads(run.stderr or run.stdout)["messages"]:
        name = Path(urlparse(message.get("url", "")).path).stem
        line = message.get("lastLine", "?")
        found.setdefault(name, []).append(f"line {line}: {message.get('message', '')}")
    return found
