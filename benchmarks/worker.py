"""What the task worker changed, measured (issue 21).

1. Every worst case of docs/security.md that used to run inside a request, asked for again
   with the database queue and no worker running, REPEATS times (3), each a first ask:
   each request's server time, median and slowest (the goal: none over a second; the
   heavy work is queued).
2. One worker (`manage.py run_jobs`, a process of its own) on this machine: how many jobs a
   minute it makes of 8-table packs, of rosters of 32 large lists (two PDFs of 24 and 8
   rosters), of a round's sheets for 8 painted 40 x 40 tables and of the account export,
   and each job's own time (from the worker taking it to its end).

    .venv/bin/python benchmarks/worker.py

SQLite in a throw-away folder; the requests through Django's test client (server time, no
network). The machine's load is printed beside the figures.
"""

from __future__ import annotations

import copy
import datetime
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
FOLDER = Path(tempfile.mkdtemp())
os.environ["DATABASE_URL"] = f"sqlite:///{FOLDER / 'bench.sqlite3'}"
os.environ["TASK_BACKEND"] = "database"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("JOBS_ACTIVE_PER_OWNER", "1000")
os.environ.setdefault("JOBS_ACTIVE_PER_ADDRESS", "1000")
os.environ.setdefault("FRESH_WORK_PER_VISITOR", "100000")
os.environ.setdefault("FRESH_WORK_PER_ADDRESS", "100000")

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402
from django_tasks_db.models import DBTaskResult  # noqa: E402

from events.models import Event, Pairing, Round  # noqa: E402
from forcebuilder.models import Force  # noqa: E402
from jobs.models import Job  # noqa: E402
from onefinity.rules import library, read_force_document  # noqa: E402
from onefinity.rules.hexgrid import Board, rows_by_columns  # noqa: E402
from tablegen.engine.tables import TableSpec, table_document  # noqa: E402
from tablegen.models import Table  # noqa: E402

REPEATS = int(os.environ.get("REPEATS", "3"))


def largest_list(name: str) -> dict[str, object]:
    """The largest list the reader accepts: 8 units, 30 troopers, 10 items of each kind."""
    ruleset = library().current
    return {
        "format": "onefinity-force",
        "version": 1,
        "name": name,
        "faction": "solar-concord",
        "units": [
            {
                "type": "light-infantry",
                "skills": list(ruleset.unit_skills)[:10],
                "troopers": [
                    {
                        "class": "medic",
                        "name": "Trooper",
                        "weapons": list(ruleset.weapons)[:10],
                        "equipment": list(ruleset.equipment)[:10],
                        "abilities": list(ruleset.abilities)[:10],
                    }
                    for _ in range(4 if number < 7 else 2)
                ],
            }
            for number in range(8)
        ],
    }


def painted_board(seed: int) -> TableSpec:
    board = Board.of(rows_by_columns(40, 40))
    rng = random.Random(seed)
    kinds = ["blocking", "elevated", "cover"]
    terrain = {k: rng.choice(kinds) for k in rng.sample(range(len(board)), len(board) * 45 // 100)}
    return TableSpec(board, terrain, f"Painted {seed}")


def timed(client: Client, url: str, method: str = "get", **data: object) -> tuple[int, float]:
    started = time.perf_counter()
    response = getattr(client, method)(url, data) if data else getattr(client, method)(url)
    return response.status_code, time.perf_counter() - started


def forget_jobs() -> None:
    """No job and no queued task left: the next request asks anew, and a worker started
    later finds nothing but what it is then given."""
    Job.objects.all().delete()
    DBTaskResult.objects.all().delete()


def asked(client: Client, url: str, method: str = "get", **data: object) -> str:
    """The request REPEATS times, each a first ask (every job forgotten in between): its
    statuses and its server time, median and slowest."""
    statuses, times = set(), []
    for _ in range(REPEATS):
        forget_jobs()
        status, took = timed(client, url, method, **data)
        statuses.add(status)
        times.append(took * 1000)
    shown = "/".join(str(s) for s in sorted(statuses))
    return f"{shown} | {statistics.median(times):.0f} ms | {max(times):.0f} ms"


def wait_for_jobs(limit: float = 1800) -> None:
    deadline = time.monotonic() + limit
    while Job.objects.filter(state__in=Job.ACTIVE).exists():
        if time.monotonic() > deadline:
            raise SystemExit("the worker did not finish its jobs in time")
        time.sleep(0.2)


def event_of(owner: object, players: int, tables: list[dict[str, object]]) -> Event:
    users = get_user_model().objects
    event = Event.create(
        name=f"Event {players}",
        date=datetime.date(2026, 12, 5),
        points_limit=10_000,
        ruleset_version="2026.11",
        round_count=3,
        notes="",
        owner=owner,
    )
    entries = []
    for n in range(players):
        player = users.create_user(f"p{event.pk}-{n}", "", "a-long-pass-phrase")
        spec = read_force_document(copy.deepcopy(largest_list(f"List {n}")))
        force = Force.create_from_spec(spec, "2026.11", 10_000, owner=player)
        entry = event.join(player)
        entry.submit(force, accept_problems=True)
        entries.append(entry)
    event.lock_all()
    round_ = event.rounds.get(number=1)
    for name, value in Round.tables_fields(tables).items():
        setattr(round_, name, value)
    round_.save()
    for table in range(1, min(len(tables), players // 2) + 1):
        Pairing.objects.create(
            round=round_,
            table=table,
            player_a=entries[2 * table - 2],
            player_b=entries[2 * table - 1],
        )
    return event


def main() -> int:
    setup_test_environment()
    call_command("migrate", verbosity=0)
    print(f"# {platform.machine()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}")
    users = get_user_model().objects
    owner = users.create_user("organizer", "", "a-long-pass-phrase")
    client = Client()
    client.force_login(owner)

    largest = Force.create_from_spec(
        read_force_document(largest_list("Largest")), "2026.11", 10_000, owner=owner
    )
    big = Table(owner=owner)
    big.set_spec(painted_board(1))
    big.save()
    for n in range(100):  # an account of 100 large tables, for the export
        table = Table(owner=owner)
        table.set_spec(painted_board(100 + n), check=False)
        table.save()
    painted = [table_document(painted_board(10 + n)) for n in range(8)]
    rosters = event_of(owner, 24, painted[:1])
    sheets = event_of(owner, 16, painted)

    print(f"\n## Worst cases, asked for with no worker running ({REPEATS} first asks each)\n")
    print("| Request | Before the worker | Status | Median | Slowest |\n|---|---|---|---|---|")
    cases = [
        ("Cards of the largest list", f"/forces/{largest.pk}/cards.pdf", "2.9-4.7 s"),
        ("Roster of the largest list", f"/forces/{largest.pk}/roster.pdf", "3.5 s"),
        ("Setup sheet, 40 x 40 painted", f"/tables/{big.pk}/setup.pdf", "3.8-9 s"),
        ("Account export, 100 large tables", "/account/everything.json", "3.2-15 s"),
        ("Rosters of 24 largest lists", f"/events/{rosters.pk}/rosters.pdf", "38.5 s"),
        ("Round sheets, 8 painted 40 x 40", f"/events/{sheets.pk}/rounds/1/sheets.pdf", "32 s"),
        ("Event zip of 24 largest lists", f"/events/{rosters.pk}/lists.zip", "-"),
        ("Everything in one file, 24 rosters", f"/events/{rosters.pk}/event.pdf", "-"),
        (
            "Generate from a box too small for a table",
            "/tables/new/?seed=1&coverage=0.45&symmetry=point&mix=balanced&box=crates:1",
            "5-8.5 s",
        ),
        (
            "Generate from a box that searches and makes no table",
            "/tables/new/?seed=1&coverage=0.6&symmetry=point&mix=balanced&box=building-7:40",
            "5-8.5 s",
        ),
    ]
    for label, url, before in cases:
        print(f"| {label} | {before} | {asked(client, url)} |")
    pack_fields = {"name": "Big", "count": 200, "seed": 1, "coverage": 0.45}
    pack_fields |= {"symmetry": "point", "mix": "balanced"}
    row = asked(client, "/tables/packs/new/", "post", **pack_fields)
    print(f"| Pack of 200 tables, asked for | 58 s in one request (once) | {row} |")
    pack = owner.packs.order_by("-pk").first()
    assert pack is not None
    status, took = timed(client, f"/tables/packs/{pack.pk}/")
    print(
        f"| Its page, with its job queued | 0.3 s of work a view | {status} | {took * 1000:.0f} ms | - |"
    )
    job = Job.objects.filter(kind="pack").get()
    polls = [timed(client, f"/jobs/{job.pk}/status.json")[1] * 1000 for _ in range(20)]
    print(
        f"| A job's status, polled (20 times) | - | 200 | {statistics.median(polls):.1f} ms "
        f"| {max(polls):.1f} ms |"
    )
    forget_jobs()
    owner.packs.all().delete()

    print("\n## One worker on this machine\n")
    worker = subprocess.Popen(
        [sys.executable, "manage.py", "run_jobs"],
        cwd=ROOT,
        env=dict(os.environ),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        print(
            "| Jobs | Made | Wall time | Jobs a minute | Seconds a job (median, slowest) |\n"
            "|---|---|---|---|---|"
        )
        for label, ask, count in (
            ("8-table packs (tables, PDF, zip)", "pack", 6),
            ("rosters.pdf of 32 largest lists (2 files: 24 + 8)", "rosters", 2),
            ("round sheets, 8 painted 40 x 40 tables (1 file)", "sheets", 3),
            ("account export: 101 large tables, a list, 6 packs, 6 events", "export", 1),
        ):
            urls = []
            if ask == "rosters":
                event = event_of(owner, 32, painted[:1])
                urls = [
                    f"/events/{event.pk}/rosters.pdf",
                    f"/events/{event.pk}/rosters.pdf?from=25",
                ]
            elif ask == "sheets":
                urls = [
                    f"/events/{event_of(owner, 16, painted).pk}/rounds/1/sheets.pdf"
                    for _ in range(count)
                ]
            started = time.perf_counter()
            if ask == "pack":
                for n in range(count):
                    client.post("/tables/packs/new/", pack_fields | {"count": 8, "seed": n})
            if ask == "export":
                urls = ["/account/everything.json"]
            for url in urls:
                client.get(url)
            wait_for_jobs()
            took = time.perf_counter() - started
            done = list(Job.objects.filter(state="done"))
            each = [
                (job.finished - job.started).total_seconds()
                for job in done
                if job.finished and job.started
            ]
            print(
                f"| {label} | {len(done)} of {count} | {took:.1f} s | {len(done) * 60 / took:.1f} "
                f"| {statistics.median(each):.1f} s, {max(each):.1f} s |"
            )
            forget_jobs()
    finally:
        worker.terminate()
        worker.wait()
    print(f"\n# load after: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
