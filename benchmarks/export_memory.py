"""The account export of an account at its storage quota, measured (issue 31): its file's
size, the worker's time, and the peak memory of the process that writes it (the export is
written a record at a time and kept in parts of 1 MB), against the same for a tenth of the
account.

    .venv/bin/python benchmarks/export_memory.py [--megabytes 100]

An account is filled with copies of one large table (a 40 x 40 board, every other hex
painted) until it stores ACCOUNT_STORAGE_BYTES (100 MB by default), on SQLite in a
throw-away folder; each export runs in a process of its own (`manage.py shell`), whose
peak resident memory (ru_maxrss) is printed beside the figures.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDER = Path(tempfile.mkdtemp())
# A fresh database each run (the folder is new).
ENV = os.environ | {
    "DATABASE_URL": f"sqlite:///{FOLDER / 'bench.sqlite3'}",
    "DJANGO_SETTINGS_MODULE": "config.settings",
    "TASK_BACKEND": "immediate",
    # As the worker of `make serve` runs (DEBUG off).
    "DEBUG": "0",
    "SECRET_KEY": "bench-" + "a1s2d3f4g5h6j7k8" * 4,
    "ALLOWED_HOSTS": "127.0.0.1",
    "SECURE_COOKIES": "0",
    "ALLOW_CONSOLE_EMAIL": "1",
}

FILL = """
import json, os
from django.contrib.auth import get_user_model
from onefinity.rules.hexgrid import Board, rows_by_columns
from tablegen.engine.tables import TableSpec
from tablegen.models import Table
from accounts import storage
name, megabytes = os.environ["BENCH_NAME"], int(os.environ["BENCH_MEGABYTES"])
user = get_user_model().objects.create_user(name, name + "@example.com", "a-long-pass-phrase")
board = Board.of(rows_by_columns(40, 40))
table = Table(owner=user)
table.set_spec(TableSpec(board, {k: "cover" for k in range(0, len(board), 2)}, "Big"), check=False)
table.save()
goal = megabytes * 1_000_000
while storage.used(user) + table.stored_bytes <= goal:
    table.pk = None
    table.share_code = Table._meta.get_field("share_code").get_default()
    table.save()
print(json.dumps({"tables": Table.objects.filter(owner=user).count(), "stored": storage.used(user)}))
"""

EXPORT = """
import json, os, resource, time
from django.contrib.auth import get_user_model
from django.test import RequestFactory
from jobs import running
from jobs.models import Job
user = get_user_model().objects.get(username=os.environ["BENCH_NAME"])
request = RequestFactory().get("/", REMOTE_ADDR="192.0.2.1")
request.user = user
request.session = {}
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
started = time.perf_counter()
job = running.start_job(request, "export", key="everything", label="Everything")
seconds = time.perf_counter() - started
job.refresh_from_db()
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"state": job.state, "error": job.error, "file_bytes": job.file_bytes,
                  "seconds": round(seconds, 1), "rss_before_mb": round(before / 1024, 1),
                  "rss_peak_mb": round(peak / 1024, 1)}))
"""


def django(code: str, name: str, megabytes: int) -> dict:
    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env=ENV | {"BENCH_NAME": name, "BENCH_MEGABYTES": str(megabytes)},
        capture_output=True,
        text=True,
        timeout=3600,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return dict(json.loads(result.stdout.strip().splitlines()[-1]))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--megabytes", type=int, default=100, help="the account's storage")
    options = parser.parse_args()
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=ENV, check=True)
    figures = {}
    for name, megabytes in (("tenth", options.megabytes // 10), ("full", options.megabytes)):
        filled = django(FILL, name, megabytes)
        figures[name] = filled | django(EXPORT, name, megabytes)
    print(
        json.dumps(
            {
                "date": datetime.date.today().isoformat(),
                "machine": f"{platform.machine()}, {os.cpu_count()} cores",
                "load": round(os.getloadavg()[0], 2),
                **figures,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
