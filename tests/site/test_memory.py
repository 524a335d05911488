"""The server's garbage collector settings (onefinity/memory.py), applied once the application
is loaded (config/wsgi.py)."""

from __future__ import annotations

import subprocess
import sys

from onefinity.memory import MIDDLE_THRESHOLD, OLDEST_THRESHOLD, YOUNG_THRESHOLD

TUNED = [str(YOUNG_THRESHOLD), str(MIDDLE_THRESHOLD), str(OLDEST_THRESHOLD), "True"]


def test_the_wsgi_application_freezes_start_up_and_collects_less_often():
    script = (
        "import gc, os\n"
        "os.environ.setdefault('DEBUG', 'true')\n"
        "import config.wsgi\n"
        "print(*gc.get_threshold(), gc.get_freeze_count() > 10_000)\n"
    )
    found = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout.split()
    assert found == TUNED


def test_the_task_worker_runs_under_the_same_settings():
    """It renders the PDFs and packs: the same garbage as a request's, and more of it."""
    script = (
        "import gc, os, django\n"
        "os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'config.settings')\n"
        "os.environ.setdefault('DEBUG', 'true')\n"
        "django.setup()\n"
        "from unittest import mock\n"
        "from jobs.management.commands import run_jobs\n"
        "with mock.patch.object(run_jobs, 'recover', side_effect=SystemExit):\n"
        "    try:\n"
        "        run_jobs.Command().handle(worker_id='t')\n"
        "    except SystemExit:\n"
        "        pass\n"
        "print(*gc.get_threshold(), gc.get_freeze_count() > 10_000)\n"
    )
    found = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout.split()
    assert found == TUNED
