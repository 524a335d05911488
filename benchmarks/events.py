"""Benchmark of an event's print: the full PDF (every locked roster, then a sheet per table
per round) of an 8-player, 3-round event on a pack of 4 tables. Target: at most 5 s.

Run with `make bench`. Django's test client against a throw-away SQLite database: server
time (view, engine, templates, WeasyPrint, composition), no network. Each run clears the
cache first, so the figure is a first download. Also times the largest parts a bigger event
prints (24 rosters; 8 table sheets on 8 different maps).

PROFILE=parts prints the time of each WeasyPrint document and of the composition;
PROFILE=1 a cProfile of one download. SAVE_PDF=path keeps the PDF.
"""

from __future__ import annotations

import io
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
from django.core.cache import cache  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402
from pypdf import PdfReader  # noqa: E402

PLAYERS, ROUNDS, TABLES, RUNS = 8, 3, 4, 5
TARGET_SECONDS = 5.0

# A full 75-point list: 4 units, 12 troopers, the largest legal list players bring.
LIST = {
    "format": "onefinity-force",
    "version": 1,
    "name": "Bench list",
    "faction": "solar-concord",
    "ruleset": "2026.11",
    "points_limit": 75,
    "units": [
        {
            "type": "medium-infantry",
            "name": "Alpha",
            "troopers": [{"class": "hacker"}, {"weapons": ["combi-rifle"]}, {}],
        },
        {"type": "light-infantry", "name": "Bravo", "troopers": [{"class": "medic"}, {}, {}]},
        {"type": "light-infantry", "name": "Charlie", "troopers": [{"class": "engineer"}, {}]},
        {"type": "medium-infantry", "name": "Delta", "troopers": [{}, {}, {}]},
    ],
}


def main() -> int:
    setup_test_environment()
    call_command("migrate", verbosity=0)
    from events.models import Event, Pairing
    from forcebuilder.models import Force
    from onefinity.rules import current_ruleset, library, read_force_document, validate_force
    from onefinity.rules.hexgrid import standard_board
    from tablegen.engine.generate import Parameters, generate_table
    from tablegen.engine.tables import table_document
    from tablegen.models import Pack

    users = get_user_model().objects
    organizer = users.create_user("organizer", "o@example.com", "a-long-pass-phrase")
    spec = read_force_document(LIST)
    report = validate_force(spec, library().current)
    assert report.legal, report.issues
    rules = current_ruleset().table
    board = standard_board(rules.rows, rules.columns)
    pack = Pack.objects.create(
        name="Bench pack",
        count=TABLES,
        params={},
        tables=[
            table_document(generate_table(rules, Parameters(seed=s), board, f"Table {s}")[0])
            for s in range(1, TABLES + 1)
        ],
        owner=organizer,
    )
    event = Event.create(
        name="Bench Open",
        date="2026-12-05",
        points_limit=75,
        ruleset_version="2026.11",
        round_count=ROUNDS,
        owner=organizer,
    )
    entries = []
    for number in range(PLAYERS):
        player = users.create_user(f"player{number}", f"p{number}@example.com", "a-long-pass")
        force = Force.create_from_spec(spec, "2026.11", 75, owner=player)
        entry = event.join(player)
        entry.submit(force, accept_problems=False)
        entries.append(entry)
    for round_ in event.rounds.all():
        round_.set_tables(round_.version, list(pack.tables), f"the pack {pack.name}")
        for table in range(TABLES):
            shift = round_.number - 1
            a = entries[(2 * table + shift) % PLAYERS]
            b = entries[(2 * table + 1 + 3 * shift) % PLAYERS]
            if a == b:
                b = entries[(2 * table + 1) % PLAYERS]
            Pairing.objects.create(round=round_, table=table + 1, player_a=a, player_b=b)
    event.lock_all()

    client = Client()
    client.force_login(organizer)
    url = f"/events/{event.pk}/event.pdf"
    client.get(url)  # warm-up: templates, fonts, the board's geometry
    if os.environ.get("PROFILE") == "parts":
        from events import composing, printing

        def timed(name, function):
            def wrapper(*args, **kwargs):
                start = time.perf_counter()
                result = function(*args, **kwargs)
                print(name, round(time.perf_counter() - start, 2), "s")
                return result

            return wrapper

        printing.render_pdf = timed("weasyprint", printing.render_pdf)
        printing.compose = timed("compose", composing.compose)
        cache.clear()
        client.get(url)
        return 0
    if os.environ.get("PROFILE"):
        import cProfile
        import pstats

        cache.clear()
        profile = cProfile.Profile()
        profile.enable()
        client.get(url)
        profile.disable()
        pstats.Stats(profile).sort_stats("cumulative").print_stats(35)
        return 0
    samples, cpu, pages = [], [], 0
    for _ in range(RUNS):
        cache.clear()
        start, start_cpu = time.perf_counter(), time.process_time()
        response = client.get(url)
        samples.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
        assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
        pages = len(PdfReader(io.BytesIO(response.content)).pages)
        size = len(response.content)
    start = time.perf_counter()
    client.get(url)
    cached = time.perf_counter() - start
    if os.environ.get("SAVE_PDF"):
        Path(os.environ["SAVE_PDF"]).write_bytes(response.content)
    results = {
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, SQLite",
        "date": time.strftime("%Y-%m-%d"),
        "event": f"{PLAYERS} players, {ROUNDS} rounds, a pack of {TABLES} tables",
        "pages": pages,
        "pdf_bytes": size,
        "full_pdf_s": {
            "median": round(statistics.median(samples), 2),
            "max": round(max(samples), 2),
            "runs": RUNS,
        },
        # CPU time of this process: what the figure would be on an idle machine (the
        # benchmark machine is shared; its load average is printed with the figures).
        "full_pdf_cpu_s": {"median": round(statistics.median(cpu), 2), "max": round(max(cpu), 2)},
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "cached_download_ms": round(cached * 1000, 1),
    }
    results["largest_parts_s"] = largest_parts(client, organizer, spec, board, rules)
    results["target_met"] = results["full_pdf_s"]["median"] <= TARGET_SECONDS
    print(json.dumps(results, indent=2))
    assert pages == PLAYERS + ROUNDS * TABLES
    return 0 if results["target_met"] else 1


def largest_parts(client, organizer, spec, board, rules) -> dict[str, float]:  # type: ignore[no-untyped-def]
    """The slowest files a bigger event prints: a full part of rosters (24) and a full part
    of table sheets (8 tables, each on a different map)."""
    from events import printing
    from events.models import Event, Pairing
    from forcebuilder.models import Force
    from tablegen.engine.generate import Parameters, generate_table
    from tablegen.engine.tables import table_document

    users = get_user_model().objects
    event = Event.create(
        name="Bench Major",
        date="2026-12-06",
        points_limit=75,
        ruleset_version="2026.11",
        round_count=1,
        owner=organizer,
    )
    entries = []
    for number in range(printing.ROSTERS_PER_FILE):
        player = users.create_user(f"major{number}", f"m{number}@example.com", "a-long-pass")
        entry = event.join(player)
        entry.submit(Force.create_from_spec(spec, "2026.11", 75, owner=player), False)
        entries.append(entry)
    round_ = event.rounds.get()
    tables = [
        table_document(generate_table(rules, Parameters(seed=s), board, f"Major {s}")[0])
        for s in range(10, 10 + printing.SHEETS_PER_FILE)
    ]
    round_.set_tables(round_.version, tables, "bench")
    for table in range(printing.SHEETS_PER_FILE):
        Pairing.objects.create(
            round=round_,
            table=table + 1,
            player_a=entries[2 * table],
            player_b=entries[2 * table + 1],
        )
    event.lock_all()
    figures = {}
    for name, url in (
        ("rosters_24", f"/events/{event.pk}/rosters.pdf"),
        ("sheets_8_maps_8", f"/events/{event.pk}/rounds/1/sheets.pdf"),
    ):
        cache.clear()
        start = time.perf_counter()
        assert client.get(url).status_code == 200
        figures[name] = round(time.perf_counter() - start, 2)
    return figures


if __name__ == "__main__":
    raise SystemExit(main())
