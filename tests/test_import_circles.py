"""No two modules of the project import each other, at the top or inside a function: a
circle hides which of the two is the lower one, and a lazy import only hides the circle."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROJECT = ("config", "onefinity", "accounts", "jobs", "forcebuilder", "tablegen", "events")
ENGINES = ("onefinity", "tablegen.engine")
# Circles being broken elsewhere (issue 22): delete a line when its circle is gone.
BEING_BROKEN: set[tuple[str, str]] = set()


def _module_name(root: Path, path: Path) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules(root: Path, tops: tuple[str, ...]) -> dict[str, Path]:
    return {
        _module_name(root, path): path
        for top in tops
        for path in sorted((root / top).rglob("*.py"))
        if "migrations" not in path.parts
    }


def _imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The modules of ``known`` this one imports anywhere in it (a function's imports and
    ``if TYPE_CHECKING:`` ones too); ``from package import module`` names the module."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                source = ".".join([*base, *([node.module] if node.module else [])])
            else:
                source = node.module or ""
            found.add(source)
            found |= {f"{source}.{alias.name}" for alias in node.names}
    return {module for module in found if module in known and module != name}


def two_module_circles(root: Path, tops: tuple[str, ...]) -> set[tuple[str, str]]:
    """Each pair of modules under ``tops`` (packages, dotted) that import each other."""
    known = _modules(root, tuple(top.replace(".", "/") for top in tops))
    graph = {name: _imports(name, path, known) for name, path in known.items()}
    return {(a, b) for a, imported in graph.items() for b in imported if a < b and a in graph[b]}


def test_no_two_modules_of_the_engines_import_each_other():
    assert two_module_circles(ROOT, ENGINES) == set()


def test_no_two_modules_of_the_project_import_each_other():
    assert two_module_circles(ROOT, PROJECT) <= BEING_BROKEN


def test_a_circle_through_a_function_or_a_package_is_found(tmp_path):
    package = tmp_path / "game"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "hexes.py").write_text("from game import lines\n")
    (package / "lines.py").write_text("def see():\n    from .hexes import grid\n")
    (package / "cards.py").write_text("import game.hexes\n")
    assert two_module_circles(tmp_path, ("game",)) == {("game.hexes", "game.lines")}


def reached(root: Path, tops: tuple[str, ...], start: str) -> set[str]:
    """Every module of the project that importing `start` imports, directly or not."""
    known = _modules(root, tuple(top.replace(".", "/") for top in tops))
    graph = {name: _imports(name, path, known) for name, path in known.items()}
    seen, todo = {start}, [start]
    while todo:
        for module in graph[todo.pop()] - seen:
            seen.add(module)
            todo.append(module)
    return seen - {start}


def test_the_table_models_load_no_pdf_renderer():
    """The models are loaded by every process; the pack's printing steps (and the setup
    sheets' renderer they use) only by those that print."""
    loaded = reached(ROOT, PROJECT, "tablegen.models")
    assert "tablegen.engine.tournament" in loaded  # the walk follows the imports
    assert not loaded & {"tablegen.printing", "tablegen.packs.steps"}
