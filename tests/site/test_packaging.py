"""A non-editable install ships every app: the wheel holds each Django app of the project
(the package list left `accounts` out, and a site installed from the wheel had no accounts)."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_wheel_holds_every_app_with_its_migrations_and_data(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(tmp_path), "."],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    (wheel,) = tmp_path.glob("onefinity_site-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    apps = sorted(path.parent.name for path in ROOT.glob("*/apps.py"))
    assert {"accounts", "events", "forcebuilder", "jobs", "onefinity", "tablegen"} <= set(apps)
    for app in apps:
        assert f"{app}/apps.py" in names, app
        migrations = sorted(
            p.relative_to(ROOT).as_posix() for p in ROOT.glob(f"{app}/migrations/0*.py")
        )
        assert set(migrations) <= names, app
    assert any(name.startswith("onefinity/data/rulesets/") for name in names)
    assert any(name.startswith("tablegen/data/") for name in names)
