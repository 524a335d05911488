"""Benchmarks of the force builder: editor changes and the printed PDFs, server side.

Run with `make bench`. It uses Django's test client against a throw-away SQLite database,
so the figures are server time (view, engine, template, database) without a network.
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
# Editor changes measured per figure (RUNS=50 for a quick look).
RUNS = int(os.environ.get("RUNS", "200"))

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment  # noqa: E402


def percentile(samples: list[float], share: float) -> float:
    ordered = sorted(samples)
    return ordered[max(0, int(len(ordered) * share) - 1)]


def summary(samples: list[float]) -> dict[str, float]:
    return {
        "median_ms": round(statistics.median(samples), 2),
        "p95_ms": round(percentile(samples, 0.95), 2),
        "runs": len(samples),
    }


def main() -> int:
    setup_test_environment()
    call_command("migrate", verbosity=0)
    client = Client()
    response = client.post(
        "/forces/new/", {"name": "Bench", "faction": "solar-concord", "points_limit": 75}
    )
    pk = response["Location"].strip("/").split("/")[-1]
    edit_url = f"/forces/{pk}/edit/"
    for unit_type in ("medium-infantry", "medium-infantry", "light-infantry", "light-infantry"):
        client.post(edit_url, {"action": "add-unit", "unit_type": unit_type})
    client.post(edit_url, {"action": "add-trooper", "unit": 0})  # 3 + 3 + 2 + 2 + 1 = 11 troopers
    client.post(
        edit_url,
        {
            "action": "loadout",
            "unit": 0,
            "trooper": 1,
            "weapons": ["combi-rifle"],
            "abilities": ["marksman"],
        },
    )

    # Troopers and units are named by id, as the editor's forms do; with JavaScript the
    # page also sends the rows it has open (here none, then one with its picker).
    from forcebuilder.models import Force

    spec = Force.objects.get(pk=pk).to_spec()
    unit_key = spec.units[1].id
    trooper_key = spec.units[2].troopers[0].id
    htmx = {"HX-Request": "true"}

    from forcebuilder.views import _sheet

    # How many choices one redraw tries on copies of the list (each is one validation).
    tried = _sheet(Force.objects.get(pk=pk), with_options=True).tried
    add_trooper, queries = [], 0
    for _ in range(RUNS):
        start = time.perf_counter()
        with CaptureQueriesContext(connection) as captured:
            reply = client.post(
                edit_url, {"action": "add-trooper", "unit_id": unit_key}, headers=htmx
            )
        add_trooper.append((time.perf_counter() - start) * 1000)
        queries = max(queries, len(captured))
        assert reply.status_code == 200
        client.post(f"/forces/{pk}/undo/", headers=htmx)

    set_class = []
    for index in range(RUNS // 2):
        chosen = "medic" if index % 2 else "trooper"
        start = time.perf_counter()
        client.post(
            edit_url,
            {"action": "set-class", "trooper_id": trooper_key, "class": chosen},
            headers=htmx,
        )
        set_class.append((time.perf_counter() - start) * 1000)

    # The same, with the trooper's row open: class menu and loadout picker drawn, every
    # item of it tried on a copy of the list.
    picker_open = []
    for index in range(RUNS // 2):
        weapons = ["pistol"] if index % 2 else []
        start = time.perf_counter()
        reply = client.post(
            edit_url,
            {
                "action": "loadout",
                "trooper_id": trooper_key,
                "weapons": weapons,
                "open": trooper_key,
            },
            headers=htmx,
        )
        picker_open.append((time.perf_counter() - start) * 1000)
        assert "Save loadout" in reply.content.decode()

    opening = []
    for _ in range(RUNS // 2):
        start = time.perf_counter()
        client.get(f"/forces/{pk}/troopers/{trooper_key}/", headers=htmx)
        opening.append((time.perf_counter() - start) * 1000)

    from django.core.cache import cache

    pdf = []
    for _ in range(20):
        cache.clear()  # each run renders: the figure is the first download of a version
        start = time.perf_counter()
        reply = client.get(f"/forces/{pk}/roster.pdf")
        pdf.append((time.perf_counter() - start) * 1000)
        assert reply["Content-Type"] == "application/pdf"

    # The largest list the reader accepts (8 units, 30 troopers, 10 items of each kind):
    # its card sheet is the slowest download a visitor can ask for. First render, then the
    # cached copy of the same version.
    from onefinity.rules import library

    ruleset = library().current
    largest = {
        "format": "onefinity-force",
        "version": 1,
        "name": "Largest",
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
    reply = client.post("/forces/import/", {"document": json.dumps(largest), "confirm": "save"})
    largest_pk = reply["Location"].strip("/").split("/")[-1]
    worst = {}
    for name in ("cards.pdf", "roster.pdf"):
        start = time.perf_counter()
        assert client.get(f"/forces/{largest_pk}/{name}").status_code == 200
        first = (time.perf_counter() - start) * 1000
        start = time.perf_counter()
        assert client.get(f"/forces/{largest_pk}/{name}").status_code == 200
        again = (time.perf_counter() - start) * 1000
        worst[name] = {"first_ms": round(first), "cached_ms": round(again, 2)}

    results = {
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, SQLite",
        "date": time.strftime("%Y-%m-%d"),
        "add_trooper_to_11_trooper_list": summary(add_trooper),
        "add_trooper_max_queries": queries,
        "choices_tried_per_change": tried,
        "set_trooper_class_on_11_trooper_list": summary(set_class),
        "loadout_tick_with_the_picker_open": summary(picker_open),
        "open_a_trooper_row": summary(opening),
        "roster_pdf": summary(pdf),
        "largest_list_pdfs": worst,
    }
    results["editor_target_met"] = all(
        results[name]["p95_ms"] <= 30
        for name in ("add_trooper_to_11_trooper_list", "set_trooper_class_on_11_trooper_list")
    )
    results["pdf_target_met"] = results["roster_pdf"]["median_ms"] <= 500
    print(json.dumps(results, indent=2))
    return 0 if results["editor_target_met"] and results["pdf_target_met"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
