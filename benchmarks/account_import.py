"""An account at its bounds, exported, then imported into a new account by the task worker's
import job (jobs.imports): the file's size, the worker's time for each pass, the peak
memory of the process that imports it, and the import's write transactions, each timed
(the longest is the longest the import holds the database's write lock at once).

    .venv/bin/python benchmarks/account_import.py [--megabytes 100]

The account holds 500 force lists (its quota) and large tables (a 40 x 40 board, every hex
painted) until it stores ``--megabytes`` (ACCOUNT_STORAGE_BYTES, 100 MB by default) or
reaches its 500 tables, on SQLite in a throw-away folder. The export and the import each
run in a process of their own (`manage.py shell`, jobs run in it as the worker runs them),
whose peak resident memory (ru_maxrss) is printed beside the figures.
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
ENV = os.environ | {
    "DATABASE_URL": f"sqlite:///{FOLDER / 'bench.sqlite3'}",
    "DJANGO_SETTINGS_MODULE": "config.settings",
    "TASK_BACKEND": "immediate",
    "DEBUG": "0",
    "SECRET_KEY": "bench-" + "a1s2d3f4g5h6j7k8" * 4,
    "ALLOWED_HOSTS": "127.0.0.1",
    "SECURE_COOKIES": "0",
    "ALLOW_CONSOLE_EMAIL": "1",
    "BENCH_FILE": str(FOLDER / "everything.json"),
}

FILL = """
import copy, json, os
from django.contrib.auth import get_user_model
from forcebuilder.models import Force
from onefinity.rules import read_force_document
from onefinity.rules.hexgrid import Board, rows_by_columns
from tablegen.engine.tables import TableSpec
from tablegen.models import Table
from accounts import storage
from tests.forcebuilder.conftest import LEGAL_DOCUMENT
megabytes = int(os.environ["BENCH_MEGABYTES"])
user = get_user_model().objects.create_user("full", "full@example.com", "a-long-pass-phrase")
for n in range(Force.quota.account):
    spec = read_force_document(copy.deepcopy(LEGAL_DOCUMENT) | {"name": f"List {n}"})
    Force.create_from_spec(spec, "2026.11", 75, owner=user)
board = Board.of(rows_by_columns(40, 40))
kinds = ["cover", "blocking", "elevated"]
table = Table(owner=user)
spec = TableSpec(board, {k: kinds[k % 3] for k in range(len(board))}, "Big")
table.set_spec(spec, check=False)
table.save()
goal = megabytes * 1_000_000
while storage.used(user) + table.stored_bytes <= goal and user.tables.count() < Table.quota.account:
    table.pk = None
    table.share_code = Table._meta.get_field("share_code").get_default()
    table.save()
print(json.dumps({"lists": user.forces.count(), "tables": user.tables.count(),
                  "stored_mb": round(storage.used(user) / 1e6, 1)}))
"""

EXPORT = """
import json, os
from django.contrib.auth import get_user_model
from django.test import RequestFactory
from jobs import running
from jobs.models import JobFile
request = RequestFactory().get("/", REMOTE_ADDR="192.0.2.1")
request.user = get_user_model().objects.get(username="full")
request.session = {}
job = running.start_job(request, "export", key="everything", label="Everything")
with open(os.environ["BENCH_FILE"], "wb") as out:
    for part in JobFile.parts_of(job):
        out.write(part)
print(json.dumps({"file_mb": round(os.path.getsize(os.environ["BENCH_FILE"]) / 1e6, 1)}))
"""

IMPORT = """
import json, os, resource, statistics, time
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import TemporaryUploadedFile
from django.test import RequestFactory
from accounts import account_import
from jobs import running
from jobs.models import Job, JobFile
user = get_user_model().objects.create_user("new", "new@example.com", "a-long-pass-phrase")
request = RequestFactory().post("/account/import/", REMOTE_ADDR="192.0.2.2")
request.user = user
request.session = {}
path = os.environ["BENCH_FILE"]
marks = {}
count, save_steps = account_import.count, account_import.save_steps
def timed_count(*args, **kwargs):
    started = time.perf_counter()
    try:
        return count(*args, **kwargs)
    finally:
        marks["check_seconds"] = round(time.perf_counter() - started, 1)
steps = []
class Timed:
    # account_import's transactions, each timed: how long each holds the write lock.
    def __init__(self, real):
        self.real = real
    def atomic(self, *args, **kwargs):
        inner = self.real.atomic(*args, **kwargs)
        class Block:
            def __enter__(block):
                block.started = time.perf_counter()
                return inner.__enter__()
            def __exit__(block, *exc):
                try:
                    return inner.__exit__(*exc)
                finally:
                    steps.append(time.perf_counter() - block.started)
        return Block()
account_import.transaction = Timed(account_import.transaction)
def timed_save(*args, **kwargs):
    started = time.perf_counter()
    try:
        return save_steps(*args, **kwargs)
    finally:
        marks["save_seconds"] = round(time.perf_counter() - started, 1)
account_import.count, account_import.save_steps = timed_count, timed_save
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
started = time.perf_counter()
with open(path, "rb") as upload:
    chunks = iter(lambda: upload.read(JobFile.CHUNK), b"")
    job = running.start_job(request, "import", key="import:bench", label="Import",
                            params={"bytes": os.path.getsize(path)}, upload=chunks)
seconds = time.perf_counter() - started
job.refresh_from_db()
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"state": job.state, "error": job.error, "outcome": job.outcome,
                  "seconds": round(seconds, 1), **marks, "steps": len(steps),
                  "step_median_ms": round(1000 * statistics.median(steps), 1) if steps else None,
                  "step_max_ms": round(1000 * max(steps), 1) if steps else None,
                  "rss_before_mb": round(before / 1024, 1), "rss_peak_mb": round(peak / 1024, 1)}))
"""


def django(code: str, megabytes: int) -> dict:
    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env=ENV | {"BENCH_MEGABYTES": str(megabytes)},
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
    figures = {"filled": django(FILL, options.megabytes)}
    figures["exported"] = django(EXPORT, options.megabytes)
    figures["imported"] = django(IMPORT, options.megabytes)
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
