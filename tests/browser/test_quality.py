"""The outside judges judge: a page with known faults gets them from the Nu HTML checker as
the browser tests run it (its Java options only make it start faster), so a page passing
there has been read."""

from __future__ import annotations

from tests.browser.quality import markup_errors

FAULTY = (
    "<!DOCTYPE html><html lang=en><head><meta charset=utf-8><title>Faulty</title></head>"
    "<body><main><img src=map.png><label for=nowhere>Name</label>"
    "<table><tr><td>1</td></tr></table><p>a<div>b</div></main></body></html>"
)
CLEAN = (
    "<!DOCTYPE html><html lang=en><head><meta charset=utf-8><title>Clean</title></head>"
    "<body><main><h1>Clean</h1><img src=map.png alt=Map></main></body></html>"
)


def test_the_markup_checker_finds_each_fault_and_passes_a_clean_page(tmp_path):
    found = markup_errors({"faulty": FAULTY, "clean": CLEAN}, tmp_path)
    assert set(found) == {"faulty"}
    said = " ".join(found["faulty"])
    assert "“alt” attribute" in said
    assert "“for” attribute" in said
