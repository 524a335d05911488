"""The figures of the tables' trust work: the worst allowed board's pages, the list of
tables, and a 200-table pack's PDF made in steps.

Run with `.venv/bin/python benchmarks/table_limits.py`. Django's test client against a
throw-away SQLite database: server time (view, engine, template, database), no network.
"""

from __future__ import annotations

import json
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
DATABASE = Path(tempfile.mkdtemp()) / "bench.sqlite3"
os.environ["DATABASE_URL"] = f"sqlite:///{DATABASE}"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

from onefinity.rules.hexgrid import (  # noqa: E402
    MAX_BOARD_COLUMNS,
    MAX_BOARD_ROWS,
    Board,
    rows_by_columns,
)
from tablegen.engine.tables import TableSpec  # noqa: E402
from tablegen.models import Pack, Table  # noqa: E402

PACK_POLL_DELAY = 0.15  # the pack page's hx-trigger="load delay:150ms"


def worst_board(seed: int) -> TableSpec:
    board = Board.of(rows_by_columns(MAX_BOARD_ROWS, MAX_BOARD_COLUMNS))
    rng = random.Random(seed)
    kinds = ["blocking", "elevated", "cover"]
    terrain = {k: rng.choice(kinds) for k in rng.sample(range(len(board)), len(board) * 45 // 100)}
    return TableSpec(board, terrain, f"Worst {seed}")


def seconds(client: Client, url: str, runs: int = 3, **headers: str) -> dict[str, float]:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        response = client.get(url, headers=headers)
        samples.append(time.perf_counter() - start)
        assert response.status_code == 200, (url, response.status_code)
    return {"median_s": round(statistics.median(samples), 3), "max_s": round(max(samples), 3)}


def main() -> int:
    setup_test_environment()
    call_command("migrate", verbosity=0)
    user = get_user_model().objects.create_user("bench", "b@example.com", "a-long-pass-phrase")
    client = Client()
    client.force_login(user)
    figures: dict[str, object] = {
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
        "load_average_at_start": os.getloadavg(),
    }

    # The worst board allowed: 40 x 40 (1,620 hexes), 45 % terrain.
    table = Table(owner=user)
    table.set_spec(worst_board(0))
    table.save()
    base = f"/tables/{table.pk}/"
    figures["worst board: editor page (SVG, metrics)"] = seconds(client, base)
    figures["worst board: line-of-fire view from a corner"] = seconds(
        client, base + "?mode=lof&from=0,0&to=-19,39"
    )
    figures["worst board: PNG"] = seconds(client, base + "table.png")
    figures["worst board: setup PDF"] = seconds(client, base + "setup.pdf")
    edits = []
    for number in range(3):
        start = time.perf_counter()
        reply = client.post(
            base + "terrain/",
            {"q": number, "r": 0, "kind": "cover"},
            headers={"HX-Request": "true"},
        )
        edits.append(time.perf_counter() - start)
        assert reply.status_code == 200
    figures["worst board: terrain edit (htmx)"] = {"median_s": round(statistics.median(edits), 3)}

    # /tables/ with 30 boards of 40 x 40.
    for seed in range(1, 30):
        other = Table(owner=user)
        other.set_spec(worst_board(seed))
        other.save()
    figures["/tables/ with 30 boards of 40 x 40 (summaries stored)"] = seconds(client, "/tables/")
    Table.objects.update(summary={})
    start = time.perf_counter()
    client.get("/tables/")
    figures["/tables/ with 30 boards of 40 x 40, none checked yet (one request)"] = round(
        time.perf_counter() - start, 3
    )

    # A 200-table pack: every request of its making, and the time to the finished PDF.
    response = client.post(
        "/tables/packs/new/",
        {
            "seed": 1,
            "coverage": 0.45,
            "symmetry": "point",
            "mix": "balanced",
            "count": 200,
            "name": "Bench",
        },
    )
    pack = Pack.objects.get()
    url = response["Location"]
    requests: list[float] = []
    started = time.perf_counter()
    by_stage: dict[str, list[float]] = {}
    while True:
        stage = Pack.objects.defer("pdf", "tables", "state").get(pk=pack.pk).stage
        if stage in ("ready", "stopped"):
            break
        start = time.perf_counter()
        reply = client.get(url, headers={"HX-Request": "true"})
        took = time.perf_counter() - start
        assert reply.status_code == 200, reply.status_code
        requests.append(took)
        by_stage.setdefault(stage, []).append(took)
        time.sleep(PACK_POLL_DELAY)
    total = time.perf_counter() - started
    assert stage == "ready", stage
    start = time.perf_counter()
    download = client.get(f"/tables/packs/{pack.pk}/pack.pdf")
    figures["pack of 200: requests"] = len(requests)
    figures["pack of 200: longest request"] = round(max(requests), 3)
    figures["pack of 200: per stage (requests, median s, max s)"] = {
        stage: (len(times), round(statistics.median(times), 3), round(max(times), 3))
        for stage, times in by_stage.items()
    }
    figures["pack of 200: time to the finished PDF, polling every 150 ms"] = round(total, 1)
    figures["pack of 200: PDF download (stored)"] = round(time.perf_counter() - start, 3)
    figures["pack of 200: PDF size (MB)"] = round(len(download.content) / 1e6, 1)
    figures["load_average_at_end"] = os.getloadavg()
    print(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
