"""The figures behind the fixes of the 2026-11-24 red-team pass: the slow requests it found,
measured now, each beside what it would be without the fix where the same run can tell.

- a 40 x 40 table of 1,620 one-hex pieces: its setup sheet, first made and then asked for
  again (by its owner and through its share link: made once per version);
- a pack from a terrain box that can make no table (forty 7-hex buildings, 60 %, point
  symmetry): every request of it, polled as the page polls, until it stops;
- the account export with 100 tables of 40 x 40, every hex terrain: the whole request, and
  its JSON written by orjson (now) beside json's pure-Python indenting (before), on the same
  document.

Run with `.venv/bin/python benchmarks/red_team_limits.py`. Django's test client against a
throw-away SQLite database: server time (view, engine, template, database), no network.
"""

from __future__ import annotations

import json
import os
import platform
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

from onefinity.fastjson import dumps_indented  # noqa: E402
from onefinity.rules import current_ruleset  # noqa: E402
from onefinity.rules.hexgrid import rows_by_columns  # noqa: E402
from tablegen.engine.tables import read_table_document  # noqa: E402
from tablegen.models import Pack, Table  # noqa: E402

PACK_POLL_DELAY = 0.15  # the pack page's hx-trigger="load delay:150ms"
KINDS = ("cover", "elevated", "blocking")


def one_hex_pieces(name: str) -> dict[str, object]:
    """A 40 x 40 board, every hex terrain, no two neighbours of a kind: 1,620 pieces."""
    hexes = rows_by_columns(40, 40)
    return {
        "format": "onefinity-table",
        "version": 1,
        "name": name,
        "board": {"rows": 40, "columns": 40},
        "terrain": [{"hex": [q, r], "kind": KINDS[(q - r) % 3]} for q, r in hexes],
        "pieces": [{"piece": "custom", "hexes": [[q, r]]} for q, r in hexes],
    }


def timed(client: Client, url: str) -> tuple[float, bytes]:
    start = time.perf_counter()
    response = client.get(url)
    took = time.perf_counter() - start
    assert response.status_code == 200, (url, response.status_code)
    return took, response.content


def main() -> int:
    setup_test_environment()
    call_command("migrate", verbosity=0)
    rules = current_ruleset().table
    user = get_user_model().objects.create_user("bench", "b@example.com", "a-long-pass-phrase")
    client = Client()
    client.force_login(user)
    figures: dict[str, object] = {
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
        "load_average_at_start": os.getloadavg(),
    }

    # The setup sheet of 1,620 one-hex pieces.
    table = Table(owner=user)
    table.set_spec(read_table_document(one_hex_pieces("Pieces everywhere"), rules))
    table.save()
    url = f"/tables/{table.pk}/setup.pdf"
    first, _ = timed(client, url)
    again = [timed(client, url)[0] for _ in range(3)]
    shared = [timed(Client(), f"/t/{table.share_code}/setup.pdf")[0] for _ in range(3)]
    figures["setup sheet, 1,620 one-hex pieces: first download (made)"] = round(first, 2)
    figures["setup sheet: the owner's next three (kept)"] = [round(t, 3) for t in again]
    figures["setup sheet: three through the share link (kept)"] = [round(t, 3) for t in shared]

    # A pack from a box that can make no table.
    response = client.post(
        "/tables/packs/new/",
        {
            "name": "Dead box",
            "count": 2,
            "seed": 1,
            "coverage": 0.6,
            "symmetry": "point",
            "mix": "balanced",
            "box": "building-7:40",
        },
    )
    assert response.status_code == 302, response.status_code
    pack = Pack.objects.get()
    requests: list[float] = []
    started = time.perf_counter()
    while len(requests) < 200:
        current = Pack.objects.defer("pdf", "tables").get(pk=pack.pk)
        if current.stage in ("ready", "stopped") or current.error:
            break
        took, _ = timed(client, response["Location"])
        requests.append(took)
        time.sleep(PACK_POLL_DELAY)
    figures["dead-box pack: requests until it stopped"] = len(requests)
    figures["dead-box pack: median and longest request (s)"] = [
        round(statistics.median(requests), 2),
        round(max(requests), 2),
    ]
    figures["dead-box pack: time until it stopped (s)"] = round(time.perf_counter() - started, 1)
    figures["dead-box pack: what it says"] = Pack.objects.get(pk=pack.pk).error

    # The account export with 100 tables of 1,620 pieces each.
    Table.objects.all().delete()
    document = one_hex_pieces("Export")
    spec = read_table_document(document, rules)
    for number in range(100):
        other = Table(owner=user)
        other.set_spec(spec)
        other.name = f"Export {number}"
        other.save()
    took, body = timed(client, "/account/everything.json")
    figures["account export, 100 tables of 1,620 hexes: request (s)"] = round(took, 2)
    figures["account export: size (MB)"] = round(len(body) / 1e6, 1)
    value = json.loads(body)
    start = time.perf_counter()
    ours = dumps_indented(value)
    figures["account export: its JSON written now (orjson, s)"] = round(
        time.perf_counter() - start, 3
    )
    start = time.perf_counter()
    theirs = json.dumps(value, indent=2, ensure_ascii=False).encode()
    figures["account export: its JSON written before (json, indent=2, s)"] = round(
        time.perf_counter() - start, 3
    )
    figures["account export: the same bytes"] = ours == theirs
    figures["load_average_at_end"] = os.getloadavg()
    print(json.dumps(figures, indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
