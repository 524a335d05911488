"""The fair queue, measured (issue 31): three accounts on one address ask for 4 packs each,
then an owner on another address asks for the export of their account. How long the export
waits, against how long one pack takes and all twelve together (first come first served
made it wait for all twelve: 7 min 46 s on SQLite for packs of 200 tables).

    .venv/bin/python benchmarks/fair_queue.py [--tables 30]

The site as `make serve` runs it (nginx, gunicorn, one supervised task worker), SQLite in a
throw-away folder (PostgreSQL with DATABASE_URL), over HTTP.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.jobs.stack import Browser, Stack  # noqa: E402

PACK = {"seed": 5, "coverage": 0.45, "symmetry": "point", "mix": "balanced"}


def pack_times(stack: Stack) -> list[list[float]]:
    """Each pack job's own time (from the worker taking it to its end) and its end, or 0s."""
    return list(
        stack.django(
            "import json; from jobs.models import Job; "
            "print(json.dumps([((j.finished - j.started).total_seconds() "
            "if j.finished and j.started else 0, j.finished.timestamp() if j.finished else 0) "
            "for j in Job.objects.filter(kind='pack')]))"
        )
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=30, help="tables in each pack")
    options = parser.parse_args()
    stack = Stack(
        Path(tempfile.mkdtemp()),
        TRUSTED_PROXIES="1",  # one proxy more than nginx: the browsers' addresses count
        JOBS_ACTIVE_PER_OWNER="4",
        JOBS_ACTIVE_PER_ADDRESS="20",
    ).start()
    try:
        sybils = [Browser(stack, "198.51.100.7").sign_up(f"sybil{n}") for n in range(3)]
        victim = Browser(stack, "203.0.113.5").sign_up("victim")
        victim.post("/forces/new/", {"name": "Mine", "faction": "panoceania"})
        packs = []
        asked = time.monotonic()
        for n in range(4):
            for i, sybil in enumerate(sybils):
                answer = sybil.post(
                    "/tables/packs/new/", PACK | {"name": f"P{i}-{n}", "count": options.tables}
                )
                assert answer.status == 302, answer.text[-800:]
                packs.append(int(answer.location.rstrip("/").rsplit("/", 1)[1]))
        time.sleep(1)  # the worker is on the first pack
        start = time.monotonic()
        answer = victim.get("/account/everything.json")
        job = answer.job() if answer.status == 302 else None
        if job is not None:
            status = victim.finished_job(job, seconds=3600)
            assert status["state"] == "done", status
        export_wait = time.monotonic() - start
        print(f"the export waited {export_wait:.1f} s", flush=True)
        jobs = pack_times(stack)
        deadline = time.monotonic() + 3600
        while len([j for j in jobs if j[1]]) < 12 and time.monotonic() < deadline:
            time.sleep(2)
            jobs = pack_times(stack)
        all_packs = time.monotonic() - asked
        lengths = sorted(length for length, _ in jobs if length)
        print(
            json.dumps(
                {
                    "date": datetime.date.today().isoformat(),
                    "machine": f"{platform.machine()}, {os.cpu_count()} cores",
                    "load": os.getloadavg()[0],
                    "tables_per_pack": options.tables,
                    "packs": len(packs),
                    "export_wait_s": round(export_wait, 1),
                    "one_pack_median_s": round(lengths[len(lengths) // 2], 1) if lengths else None,
                    "one_pack_longest_s": round(lengths[-1], 1) if lengths else None,
                    "all_twelve_packs_s": round(all_packs, 1),
                },
                indent=2,
            )
        )
    finally:
        stack.close()


if __name__ == "__main__":
    main()
