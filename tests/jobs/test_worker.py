"""Jobs end to end through real task workers (`manage.py run_jobs`) on the database queue,
behind the site as `make serve` runs it: each kind of job is asked for over HTTP, made by a
worker with no page open, and its file downloaded. Workers stopped, killed and doubled."""

from __future__ import annotations

import io
import json
import os
import re
import signal
import time
import urllib.parse
import zipfile
from collections.abc import Iterator

import pytest
from pypdf import PdfReader

from tests.jobs.stack import Browser, Stack

# A database of its own on the suite's server: on PostgreSQL too (two workers, one queue).
# One worker runs this module's tests (make pytest: --dist loadgroup), so they share its stack.
pytestmark = [pytest.mark.database, pytest.mark.xdist_group("jobs-stack")]

PACK = {"seed": 5, "coverage": 0.45, "symmetry": "point", "mix": "balanced"}


@pytest.fixture(scope="module")
def stack(tmp_path_factory) -> Iterator[Stack]:
    # The web servers without a worker: each test starts the workers it needs.
    site = Stack(
        tmp_path_factory.mktemp("jobs"),
        JOB_LOST_SECONDS="3",
        JOBS_ACTIVE_PER_OWNER="10",
        IMPORT_REQUEST_BYTES="0",  # every account file to import: the worker's
        GENERATE_REQUEST_MS="0",  # a table not found at its first candidate: the worker's
    ).start(task_worker=False)
    try:
        yield site
    finally:
        site.close()


@pytest.fixture
def worker(stack) -> Iterator[object]:
    process = stack.worker()
    yield process
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=60)


def job_state(stack: Stack, job: int) -> dict:
    return stack.django(
        "import json; from jobs.models import Job; "
        f"j = Job.objects.get(pk={job}); "
        "print(json.dumps({'state': j.state, 'attempts': j.attempts, 'error': j.error}))"
    )


def new_pack(browser: Browser, name: str, count: int) -> tuple[int, int]:
    """Ask for a pack; (its id, its job's id): the page is never opened."""
    answer = browser.post("/tables/packs/new/", PACK | {"name": name, "count": count})
    assert answer.status == 302, answer.text[-1500:]
    pack = int(answer.location.rstrip("/").rsplit("/", 1)[1])
    job = browser.stack.django(
        f"from jobs.models import Job; print(Job.objects.get(params__pack={pack}).pk)"
    )
    return pack, job


def test_a_pack_is_made_by_the_worker_with_its_page_never_open(stack, worker):
    browser = Browser(stack).sign_up("packer")
    pack, job = new_pack(browser, "Club night", 8)
    status = browser.finished_job(job)
    assert status["state"] == "done" and status["done"] == status["total"] == 17
    pdf = browser.get(f"/tables/packs/{pack}/pack.pdf")
    assert pdf.status == 200 and pdf.headers["Content-Type"] == "application/pdf"
    assert len(PdfReader(io.BytesIO(pdf.body)).pages) == 8


EVENT = """
import copy, datetime, json
from django.contrib.auth import get_user_model
from events.models import Event, Pairing
from forcebuilder.models import Force
from onefinity.rules import read_force_document
from tests.events.conftest import table_documents
from tests.forcebuilder.conftest import LEGAL_DOCUMENT
users = get_user_model().objects
orga = users.create_user("orga", "o@example.com", "a-long-pass-phrase")
event = Event.create(name="Spring Open", date=datetime.date(2026, 12, 5), points_limit=75,
                     ruleset_version="2026.11", round_count=3, notes="", owner=orga)
entries = []
for name in ("ann", "bob", "cy", "dee"):
    player = users.create_user(name, f"{name}@example.com", "a-long-pass-phrase")
    spec = read_force_document(copy.deepcopy(LEGAL_DOCUMENT) | {"name": name + "'s list"})
    force = Force.create_from_spec(spec, "2026.11", 75, owner=player)
    entry = event.join(player)
    entry.submit(force, accept_problems=False)
    entries.append(entry)
event.lock_all()
round_ = event.rounds.get(number=1)
round_.tables = table_documents(2)
round_.save()
for table, (a, b) in enumerate([(0, 1), (2, 3)], start=1):
    Pairing.objects.create(round=round_, table=table, player_a=entries[a], player_b=entries[b])
print(event.pk)
"""


def test_every_printout_of_an_event_is_made_by_the_worker(stack, worker):
    event = stack.django(EVENT)
    organizer = Browser(stack)
    login = organizer.post(
        "/accounts/login/", {"username": "orga", "password": "a-long-pass-phrase"}
    )
    assert login.status == 302
    for path, pages in (
        (f"/events/{event}/rosters.pdf", 4),
        (f"/events/{event}/rounds/1/sheets.pdf", 2),
        (f"/events/{event}/event.pdf", 6),
        (f"/events/{event}/lists.zip", None),
    ):
        asked = organizer.get(path)
        assert asked.status == 302, (path, asked.status, asked.text[-500:])
        status = organizer.finished_job(asked.job())
        assert status["state"] == "done", (path, status)
        made = organizer.get(status["download"])
        assert made.status == 200, path
        if pages is None:
            assert len(zipfile.ZipFile(io.BytesIO(made.body)).namelist()) == 4
        else:
            assert len(PdfReader(io.BytesIO(made.body)).pages) == pages, path
        # Asked again, unchanged: the file made is sent at once, not made again.
        again = organizer.get(path)
        assert again.status == 200 and again.body == made.body, path


def test_a_job_queued_while_no_worker_runs_is_made_when_one_starts(stack):
    browser = Browser(stack).sign_up("patient")
    _, job = new_pack(browser, "Later", 2)
    time.sleep(1.5)
    assert job_state(stack, job)["state"] == "queued"  # a row in the database, waiting
    process = stack.worker()
    try:
        assert browser.finished_job(job)["state"] == "done"
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=60)


def test_a_worker_killed_mid_job_leaves_it_to_the_next_worker(stack):
    browser = Browser(stack).sign_up("unlucky")
    first = stack.worker()
    pack, job = new_pack(browser, "Big", 12)
    deadline = time.monotonic() + 60
    while json.loads(browser.get(f"/jobs/{job}/status.json").body)["done"] < 2:
        assert time.monotonic() < deadline
        time.sleep(0.2)
    first.kill()  # no chance to put the job back: the machine is gone
    first.wait()
    assert job_state(stack, job)["state"] == "running"
    second = stack.worker()  # finds the job silent past JOB_LOST_SECONDS and queues it again
    try:
        status = browser.finished_job(job)
        assert status["state"] == "done", status
        assert job_state(stack, job)["attempts"] == 2
        assert browser.get(f"/tables/packs/{pack}/pack.pdf").status == 200
    finally:
        second.send_signal(signal.SIGINT)
        second.wait(timeout=60)


def test_a_crashing_job_is_tried_three_times_then_failed_with_why_and_can_be_started_again(
    stack, worker
):
    browser = Browser(stack).sign_up("crasher")
    # A pack whose stored parameters the generator cannot use: each run raises.
    pack = stack.django(
        "from django.contrib.auth import get_user_model; from tablegen.models import Pack; "
        "from tablegen.engine.tournament import PackState; "
        "user = get_user_model().objects.get(username='crasher'); "
        "p = Pack.objects.create(name='Broken', count=2, params={'seed': 1}, "
        "state=PackState(seed=1).as_json(), owner=user); print(p.pk)"
    )
    page = browser.get(f"/tables/packs/{pack}/")  # the page asks the worker to make it
    assert page.status == 200
    job = stack.django(
        f"from jobs.models import Job; print(Job.objects.get(params__pack={pack}).pk)"
    )
    status = browser.finished_job(job)
    assert status["state"] == "failed"
    assert status["error"] == "The worker ran into an error (KeyError). It was tried 3 times."
    assert job_state(stack, job)["attempts"] == 3
    # The task library recorded each run as it ended: failed, with its traceback.
    runs = stack.django(
        "import json; from django_tasks_db.models import DBTaskResult; "
        "print(json.dumps([(r.status, 'KeyError' in r.traceback) for r in "
        f"DBTaskResult.objects.all() if r.args_kwargs['args'] == [{job}]]))"
    )
    assert runs == [["FAILED", True]] * 3
    shown = browser.get(f"/jobs/{job}/").text
    assert "It was tried 3 times" in shown and "Start it again" in shown
    stack.django(
        "import json; from tablegen.models import Pack; "
        f"Pack.objects.filter(pk={pack}).update(params=json.loads({json.dumps(PACK)!r})); print(1)"
    )
    assert browser.post(f"/jobs/{job}/restart/").status == 302
    assert browser.finished_job(job)["state"] == "done"


def test_two_workers_on_one_database_do_each_job_once(stack):
    browser = Browser(stack).sign_up("busy")
    workers = [stack.worker(), stack.worker()]
    try:
        jobs = [new_pack(browser, f"Pack {n}", 2)[1] for n in range(4)]
        for job in jobs:
            assert browser.finished_job(job)["state"] == "done"
    finally:
        for process in workers:
            process.send_signal(signal.SIGINT)
        for process in workers:
            process.wait(timeout=60)
    runs = stack.django(
        "import json; from jobs.models import Job; from django_tasks_db.models import DBTaskResult; "
        f"jobs = list(Job.objects.filter(pk__in={jobs}).values_list('attempts', flat=True)); "
        "results = [(r.status, len(r.worker_ids), r.args_kwargs['args'][0]) for r in "
        f"DBTaskResult.objects.all() if r.args_kwargs['args'][0] in {jobs}]; "
        "print(json.dumps({'attempts': jobs, 'results': results}))"
    )
    assert runs["attempts"] == [1] * 4
    assert sorted(job for _, _, job in runs["results"]) == sorted(jobs)  # each queued once
    assert all(status == "SUCCESSFUL" and ran == 1 for status, ran, _ in runs["results"])


LARGE = """
import copy
from django.contrib.auth import get_user_model
from forcebuilder.models import Force
from onefinity.rules import library, read_force_document
from onefinity.rules.hexgrid import Board, rows_by_columns
from tablegen.engine.tables import TableSpec
from tablegen.models import Table
from tests.forcebuilder.conftest import LEGAL_DOCUMENT
user = get_user_model().objects.create_user("big", "big@example.com", "a-long-pass-phrase")
weapon = list(library().current.weapons)[0]
document = copy.deepcopy(LEGAL_DOCUMENT) | {"name": "Horde", "units": [
    {"type": "light-infantry", "troopers": [{"weapons": [weapon]} for _ in range(4)]}
    for _ in range(4)]}
force = Force.create_from_spec(read_force_document(document), "2026.11", 200, owner=user)
table = Table(owner=user)
table.set_spec(TableSpec(Board.of(rows_by_columns(20, 20)), {}, "Big board"))
table.save()
print([force.pk, table.pk])
"""


def test_a_large_lists_printouts_a_large_setup_sheet_and_the_export_are_made_by_the_worker(
    stack, worker
):
    force, table = stack.django(LARGE)
    browser = Browser(stack)
    login = browser.post("/accounts/login/", {"username": "big", "password": "a-long-pass-phrase"})
    assert login.status == 302
    for path, kind in (
        (f"/forces/{force}/cards.pdf", "application/pdf"),
        (f"/forces/{force}/roster.pdf", "application/pdf"),
        (f"/tables/{table}/setup.pdf", "application/pdf"),
        ("/account/everything.json", "application/json"),
    ):
        asked = browser.get(path)
        assert asked.status == 302, (path, asked.status)
        status = browser.finished_job(asked.job())
        assert status["state"] == "done", (path, status)
        made = browser.get(status["download"])
        assert made.status == 200 and made.headers["Content-Type"] == kind, path
    export = json.loads(made.body)
    assert [f["name"] for f in export["forces"]] == ["Horde"]


def test_a_table_not_found_within_the_requests_time_is_generated_by_the_worker(stack, worker):
    browser = Browser(stack)
    query = "seed=1&coverage=0.45&symmetry=none&mix=balanced"
    page = browser.get(f"/tables/new/?{query}")
    assert page.status == 200 and "the server's worker goes on with it" in page.text
    job = int(re.search(r'data-hx-get="/jobs/(\d+)/\?refresh=1"', page.text)[1])
    assert browser.finished_job(job)["state"] == "done"
    made = browser.get(f"/tables/new/?{query}")
    assert "Save this table" in made.text and "Valid table" in made.text
    saved = browser.post("/tables/save/", dict(urllib.parse.parse_qsl(query)))
    assert saved.status == 302 and saved.location.startswith("/tables/")


def test_the_site_outlives_its_worker_killed_mid_pack_and_makes_the_pack_once(stack):
    """The last test of the module: the stack again as `make serve` runs it, its worker
    supervised. Killed in the middle of a pack, the worker is started again within seconds,
    takes the pack up where it was, and the site answers all along."""
    stack.stop()
    stack.start(task_worker=True)
    browser = Browser(stack).sign_up("survivor")
    pack, job = new_pack(browser, "Survivor", 12)
    deadline = time.monotonic() + 120
    while json.loads(browser.get(f"/jobs/{job}/status.json").body)["done"] < 2:
        assert time.monotonic() < deadline
        time.sleep(0.1)
    (killed,) = stack.task_worker_pids()
    os.kill(killed, signal.SIGKILL)
    assert browser.get("/").status == 200  # the site without its worker
    status = browser.finished_job(job)
    assert status["state"] == "done", status
    assert "task worker stopped (exit status -9): starting it again" in stack.log.read_text()
    (again,) = stack.task_worker_pids()
    assert again != killed
    made = stack.django(
        "import json; from jobs.models import Job; from tablegen.models import Pack; "
        "from django_tasks_db.models import DBTaskResult; "
        f"j = Job.objects.get(pk={job}); p = Pack.objects.get(pk={pack}); "
        "runs = sorted(r.status for r in DBTaskResult.objects.all() "
        f"if r.args_kwargs['args'] == [{job}]); "
        "print(json.dumps({'attempts': j.attempts, 'tables': len(p.table_specs()), 'runs': runs}))"
    )
    # Taken up once, each table made once, and the killed run recorded as failed.
    assert made == {"attempts": 2, "tables": 12, "runs": ["FAILED", "SUCCESSFUL"]}
    assert browser.get(f"/tables/packs/{pack}/pack.pdf").status == 200


def test_an_account_exported_by_the_worker_is_imported_by_the_worker(stack, worker):
    """The export of an account, downloaded, then sent to another account's import: kept
    in the database in parts, read and saved by the worker, the upload gone once done."""
    stack.django(LARGE.replace("big", "exporter"))
    first = Browser(stack)
    assert (
        first.post(
            "/accounts/login/", {"username": "exporter", "password": "a-long-pass-phrase"}
        ).status
        == 302
    )
    status = first.finished_job(first.get("/account/everything.json").job())
    exported = first.get(status["download"]).body
    second = Browser(stack).sign_up("importer")
    asked = second.upload("/account/import/", "everything.json", exported)
    assert asked.status == 302, asked.text[-2000:]
    status = second.finished_job(asked.job())
    assert status["state"] == "done", status
    assert (status["done"], status["total"]) == (2, 2)
    page = second.get(f"/jobs/{asked.job()}/").text
    assert "Imported 1 force lists, 1 tables, 0 terrain boxes." in page
    assert stack.django(
        "from forcebuilder.models import Force; from tablegen.models import Table; "
        "from jobs.models import JobUpload; import json; print(json.dumps(["
        "list(Force.objects.filter(owner__username='importer').values_list('name', flat=True)),"
        "Table.objects.filter(owner__username='importer').count(), JobUpload.objects.count()]))"
    ) == [["Horde"], 1, 0]
