"""Views read the request, call one use case and pick the template: no view function (nor a
helper of a views module) over 45 lines, and the two editors' view modules within their
bounds (docs/architecture.md, "Use cases")."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
VIEW_MODULES = sorted(
    path
    for app in ("accounts", "events", "forcebuilder", "jobs", "tablegen", "onefinity")
    for path in (ROOT / app).glob("*.py")
    if "views" in path.name or path.name == "pages.py"
)
MOST_LINES = 45
MODULE_BOUNDS = {"tablegen/views.py": 400, "forcebuilder/views.py": 450}


def test_the_view_modules_are_found():
    names = {str(path.relative_to(ROOT)) for path in VIEW_MODULES}
    assert set(MODULE_BOUNDS) <= names and "events/round_views.py" in names


@pytest.mark.parametrize("path", VIEW_MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_view_function_is_over_45_lines(path):
    tree = ast.parse(path.read_text())
    long = [
        f"{node.name}: {node.end_lineno - node.lineno + 1} lines"
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.end_lineno is not None
        and node.end_lineno - node.lineno + 1 > MOST_LINES
    ]
    assert not long, long


@pytest.mark.parametrize("name", sorted(MODULE_BOUNDS))
def test_the_editors_view_modules_stay_within_their_bounds(name):
    lines = len((ROOT / name).read_text().splitlines())
    assert lines <= MODULE_BOUNDS[name], f"{name} has {lines} lines"
