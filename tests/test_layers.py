"""Imports run downhill only: config -> feature apps -> accounts -> onefinity -> the pure
engines. A lower layer never imports a higher one, and the pure engines import no Django,
directly or through anything else (docs/architecture.md draws the layers)."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PROJECT = {"config", "onefinity", "accounts", "jobs", "forcebuilder", "tablegen", "events", "games"}
# Each package and what of the project it may import (besides itself).
MAY_IMPORT = {
    "onefinity/rules": {"onefinity.rules"},
    "tablegen/engine": {"onefinity.rules", "tablegen.engine"},
    "onefinity": {"onefinity"},
    "accounts": {"onefinity", "accounts"},
    # Background jobs: below the feature apps, which declare their kinds of job.
    "jobs": {"onefinity", "accounts", "jobs"},
    "forcebuilder": {"onefinity", "accounts", "jobs", "forcebuilder"},
    "tablegen": {"onefinity", "accounts", "jobs", "tablegen"},
    # Events are built on the lists players bring and the tables organizers make.
    "events": {"onefinity", "accounts", "jobs", "forcebuilder", "tablegen", "events"},
    # Games sit above events: a game is played with lists on a table, and a game of an
    # event round starts from its pairing and reports its result to the round.
    "games": {"onefinity", "accounts", "jobs", "forcebuilder", "tablegen", "events", "games"},
    "config": PROJECT,
}
PURE = ("onefinity/rules", "tablegen/engine")


def imported_modules(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module)
    return found


def package_of(path: Path) -> str:
    """The most specific package of MAY_IMPORT that holds the file."""
    relative = path.relative_to(ROOT).as_posix()
    return max((p for p in MAY_IMPORT if relative.startswith(p + "/")), key=len)


def source_files() -> list[Path]:
    return [
        path
        for top in sorted(PROJECT)
        for path in (ROOT / top).rglob("*.py")
        if "migrations" not in path.parts
    ]


def allowed(module: str, package: str) -> bool:
    if module.split(".")[0] not in PROJECT:
        return package not in PURE or not module.startswith("django")
    return any(
        module == prefix or module.startswith(prefix + ".") for prefix in MAY_IMPORT[package]
    )


@pytest.mark.parametrize("path", source_files(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_each_module_imports_only_from_below_its_layer(path):
    package = package_of(path)
    wrong = sorted(m for m in imported_modules(path) if not allowed(m, package))
    assert not wrong, f"{package} may not import {wrong}"


def test_the_rules_app_imports_no_feature_app_and_no_accounts():
    for path in (ROOT / "onefinity").rglob("*.py"):
        for module in imported_modules(path):
            assert module.split(".")[0] not in {
                "accounts",
                "forcebuilder",
                "tablegen",
                "events",
                "games",
                "config",
            }, f"{path.relative_to(ROOT)} imports {module}"


@pytest.mark.parametrize("engine", ["onefinity.rules", "tablegen.engine"])
def test_importing_a_pure_engine_loads_no_django_module(engine):
    folder = ROOT / engine.replace(".", "/")
    modules = sorted(f"{engine}.{p.stem}" for p in folder.glob("*.py") if p.stem != "__init__")
    script = (
        "import importlib, sys\n"
        f"for name in {modules!r}: importlib.import_module(name)\n"
        "from onefinity.rules import library; library()\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'django'))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert result.stdout.strip() == "[]"


# Which app each template tag library belongs to, and which app each template folder.
TAG_LIBRARIES = {
    path.stem: path.parents[1].name
    for top in sorted(PROJECT)
    for path in (ROOT / top).glob("templatetags/*.py")
    if path.stem != "__init__"
}
LOAD = re.compile(r"{%\s*load\s+([^%]+?)\s*%}")


def template_app(path: Path) -> str:
    """A template's app: its folder under config/templates/ (account and registration pages are
    the accounts app's). The site's own pages (base.html, home.html) count as the rules
    app's, the lowest that draws pages: every page extends them."""
    if path.parent == ROOT / "config" / "templates":
        return "onefinity"
    folder = path.relative_to(ROOT / "config" / "templates").parts[0]
    return {"account": "accounts", "registration": "accounts"}.get(folder, folder)


def test_a_template_loads_only_the_tags_of_its_own_layer_or_below():
    upward = []
    for path in sorted((ROOT / "config" / "templates").rglob("*.html")):
        app = template_app(path)
        for names in LOAD.findall(path.read_text(encoding="utf-8")):
            for library in names.split():
                owner = TAG_LIBRARIES.get(library)
                if owner is not None and not allowed(owner, app):
                    upward.append(f"{path.relative_to(ROOT).as_posix()} ({app}) loads {library}")
    assert TAG_LIBRARIES["forcebuilder_tags"] == "forcebuilder"  # the libraries are found
    assert not upward, upward
