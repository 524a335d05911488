"""The server's garbage collector settings (config/memory.py), applied once the application
is loaded (config/wsgi.py)."""

from __future__ import annotations

import subprocess
import sys

from config.memory import YOUNG_THRESHOLD


def test_the_wsgi_application_freezes_start_up_and_collects_the_young_less_often():
    script = (
        "import gc, os\n"
        "os.environ.setdefault('DEBUG', 'true')\n"
        "import config.wsgi\n"
        "print(gc.get_threshold()[0], gc.get_freeze_count() > 10_000)\n"
    )
    found = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout.split()
    assert found == [str(YOUNG_THRESHOLD), "True"]
