"""The table requests' third pass (issue 34) taken out and put back in one process: a
``--toggle`` file for benchmarks/request_cpu.py.

    .venv/bin/python benchmarks/request_cpu.py --toggle benchmarks/tables_cpu_toggle.py \\
        --kinds "generate table,check table line of fire" --rounds 6

Out ("before"), the code this pass changed runs as it was at TABLES_BEFORE (main's 39d993a
by default, unpacked from git into a temporary folder): the generator (its whole module,
loaded beside this tree's), the map's context (tablegen/maps.py, likewise; its report made
by a whole check every time), a table's reading (``Table.to_spec``, kept by edits only), the
report of a table the worker made, the generate page's board (made anew for each request)
and its forms drawn by Django's own renderer. In ("after"), this tree's.
"""

from __future__ import annotations

import ast
import importlib.util
import os
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path
from types import ModuleType
from typing import Any

from onefinity.rules.hexgrid import standard_board
from tablegen import forms, generate_views, models, pages, views
from tablegen.engine import generate, metrics

# The checkout measured (request_cpu.py runs this file by exec: it has no __file__).
HERE = Path(generate_views.__file__).resolve().parents[1]
BEFORE = os.environ.get("TABLES_BEFORE", "39d993a")
FOLDER = Path(tempfile.mkdtemp(prefix="tables-before-"))
archive = subprocess.run(
    ["git", "archive", BEFORE, "tablegen"], cwd=HERE, check=True, capture_output=True
).stdout
subprocess.run(["tar", "-x", "-C", str(FOLDER)], input=archive, check=True)


def loaded(name: str, path: Path) -> ModuleType:
    """A module of the old tree, loaded beside this tree's (its imports are this tree's)."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def old_method(path: Path, cls: str, name: str, module: ModuleType) -> Any:
    """A method of the old tree's class, made in (a copy of) this tree's module's globals."""
    tree = ast.parse(path.read_text())
    found = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls)
    method = next(n for n in found.body if isinstance(n, ast.FunctionDef) and n.name == name)
    source = textwrap.dedent(ast.get_source_segment(path.read_text(), method) or "")
    namespace = dict(vars(module))
    exec(compile(source, str(path), "exec"), namespace)
    return namespace[name]


old_generate = loaded("tables_before_generate", FOLDER / "tablegen/engine/generate.py")
# The view catches this tree's exceptions: the old generator raises them.
old_generate.GenerationError = generate.GenerationError
old_generate.GenerationTimeout = generate.GenerationTimeout
old_maps = loaded("tables_before_maps", FOLDER / "tablegen/maps.py")
old_to_spec = old_method(FOLDER / "tablegen/models.py", "Table", "to_spec", models)


def new_board() -> Any:
    """The old pages' board: an equal one made anew for each request."""
    rules = pages.table_rules()
    return standard_board(rules.rows, rules.columns)


AFTER = {
    (generate_views, "board"): generate_views.board,
    (generate_views, "generate_table"): generate_views.generate_table,
    (generate_views, "draft_table"): generate_views.draft_table,
    (generate_views, "map_context"): generate_views.map_context,
    (generate_views, "checked_table"): generate_views.checked_table,
    (views, "map_context"): views.map_context,
    (views, "checked_table"): views.checked_table,
    (models.Table, "to_spec"): models.Table.to_spec,
    (forms.GenerateForm, "default_renderer"): forms.GenerateForm.default_renderer,
    (forms.EmptyBoardForm, "default_renderer"): forms.EmptyBoardForm.default_renderer,
}
BEFORE_VALUES = {
    (generate_views, "board"): new_board,
    (generate_views, "generate_table"): old_generate.generate_table,
    (generate_views, "draft_table"): old_generate.draft_table,
    (generate_views, "map_context"): old_maps.map_context,
    (generate_views, "checked_table"): metrics.check_table,
    (views, "map_context"): old_maps.map_context,
    (views, "checked_table"): metrics.check_table,
    (models.Table, "to_spec"): old_to_spec,
    (forms.GenerateForm, "default_renderer"): None,
    (forms.EmptyBoardForm, "default_renderer"): None,
}


def switch(on: bool) -> None:
    for (owner, name), value in (AFTER if on else BEFORE_VALUES).items():
        setattr(owner, name, value)
    if not on:
        models._READINGS.clear()  # what the old to_spec kept: edits' readings only
