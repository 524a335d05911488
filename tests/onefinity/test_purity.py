"""The rules engine stays pure: it imports no Django, directly or through anything else."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "onefinity" / "rules"


def test_no_engine_module_imports_django_in_its_source():
    for path in ENGINE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                assert not name.startswith("django"), f"{path.name} imports {name}"


def test_importing_the_whole_engine_loads_no_django_module():
    modules = sorted(
        f"onefinity.rules.{p.stem}" for p in ENGINE.glob("*.py") if p.stem != "__init__"
    )
    script = (
        "import importlib, sys\n"
        f"for name in {modules!r}: importlib.import_module(name)\n"
        "from onefinity.rules import library; library()\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'django'))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"
