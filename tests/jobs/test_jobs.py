"""Jobs asked for from the site's pages, run by the Tasks API's immediate backend (or left
waiting with the dummy one): what goes to the worker, its page, its bounds, its failures."""

from __future__ import annotations

import copy
import dataclasses
import json
import threading
import time
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.utils import timezone

from forcebuilder.models import Force
from jobs import kinds, running
from jobs.models import Job, JobFile
from onefinity.rules import library, read_force_document
from tablegen.models import Table
from tests.conftest import run_waiting_jobs
from tests.factories import make_force, make_table
from tests.forcebuilder.conftest import LEGAL_DOCUMENT

pytestmark = pytest.mark.django_db


def large_list(owner) -> Force:
    """A list past forcebuilder.jobs.WORKER_TROOPERS: 16 troopers."""
    ruleset = library().current
    document = copy.deepcopy(LEGAL_DOCUMENT) | {
        "name": "Horde",
        "units": [
            {
                "type": "light-infantry",
                "troopers": [{"weapons": list(ruleset.weapons)[:1]} for _ in range(4)],
            }
            for _ in range(4)
        ],
    }
    return Force.create_from_spec(read_force_document(document), "2026.11", 200, owner=owner)


def large_table(owner) -> Table:
    from onefinity.rules.hexgrid import Board, rows_by_columns
    from tablegen.engine.tables import TableSpec

    table = Table(owner=owner)
    table.set_spec(TableSpec(Board.of(rows_by_columns(20, 20)), {}, "Big board"))
    table.save()
    return table


def test_a_large_lists_cards_are_made_by_the_worker_then_downloaded(
    owner_client, owner, jobs_wait, monkeypatch
):
    force = large_list(owner)
    asked = owner_client.get(f"/forces/{force.pk}/cards.pdf")
    job = Job.objects.get()
    assert asked.status_code == 302 and asked["Location"] == f"/jobs/{job.pk}/"
    page = owner_client.get(asked["Location"]).content.decode()
    assert "Trooper cards of Horde: waiting for the worker" in page and "<progress" in page
    assert run_waiting_jobs() == 1
    job.refresh_from_db()
    assert job.state == "done" and job.file_name == "horde-cards.pdf"

    def no_render(*args, **kwargs):
        raise AssertionError("made again")

    monkeypatch.setattr("forcebuilder.jobs.render_pdf", no_render)
    again = owner_client.get(f"/forces/{force.pk}/cards.pdf")
    assert again.status_code == 200 and again["Content-Type"] == "application/pdf"
    assert again.content.startswith(b"%PDF")


def test_a_list_of_ordinary_size_prints_in_the_request(owner_client, owner, jobs_wait):
    force = make_force(owner)
    response = owner_client.get(f"/forces/{force.pk}/cards.pdf")
    assert response.status_code == 200 and not Job.objects.exists()


def test_a_large_tables_setup_sheet_is_made_by_the_worker(owner_client, owner, jobs_wait):
    table = large_table(owner)
    asked = owner_client.get(f"/tables/{table.pk}/setup.pdf")
    assert asked.status_code == 302 and asked["Location"].startswith("/jobs/")
    run_waiting_jobs()
    made = owner_client.get(f"/tables/{table.pk}/setup.pdf")
    assert made.status_code == 200 and made.content.startswith(b"%PDF")
    small = make_table(owner)
    assert owner_client.get(f"/tables/{small.pk}/setup.pdf").status_code == 200
    assert Job.objects.count() == 1  # the standard board's sheet was made in the request


def test_the_export_is_a_job_whose_file_is_kept_until_something_changes(owner_client, owner):
    make_force(owner)
    first = owner_client.get("/account/everything.json")
    assert first.status_code == 200 and first["Content-Type"] == "application/json"
    content = first.getvalue()  # sent a part at a time: read once
    assert json.loads(content)["format"] == "onefinity-account"
    assert owner_client.get("/account/everything.json").getvalue() == content
    assert Job.objects.count() == 1  # unchanged: the same file
    make_table(owner)
    second = owner_client.get("/account/everything.json")
    assert len(json.loads(second.getvalue())["tables"]) == 1 and Job.objects.count() == 2


def test_a_job_page_answers_its_owner_only(owner_client, stranger_client, owner):
    owner_client.get("/account/everything.json")
    job = Job.objects.get()
    for url in (f"/jobs/{job.pk}/", f"/jobs/{job.pk}/status.json", job.get_download_url()):
        assert owner_client.get(url).status_code == 200
        assert stranger_client.get(url).status_code == 404
        assert Client().get(url).status_code == 404
    assert stranger_client.post(f"/jobs/{job.pk}/restart/").status_code == 404


def test_the_status_says_how_far_a_job_is_in_a_few_fields(owner_client, owner, jobs_wait):
    force = large_list(owner)
    owner_client.get(f"/forces/{force.pk}/roster.pdf")
    job = Job.objects.get()
    Job.objects.filter(pk=job.pk).update(
        state="running", started=timezone.now() - timedelta(seconds=10), steps_done=2, steps_total=6
    )
    status = owner_client.get(f"/jobs/{job.pk}/status.json").json()
    assert status == {
        "id": job.pk,
        "label": "Roster of Horde",
        "state": "running",
        "done": 2,
        "total": 6,
        "percent": 33,
        "seconds_left": 20,
        "stalled": False,
        "error": "",
        "download": None,
        "expires": None,
    }


def test_jobs_at_once_are_bounded_per_owner(owner_client, owner, jobs_wait, settings):
    settings.JOBS_ACTIVE_PER_OWNER = 2
    forces = [large_list(owner) for _ in range(3)]
    for force in forces[:2]:
        assert owner_client.get(f"/forces/{force.pk}/cards.pdf").status_code == 302
    refused = owner_client.get(f"/forces/{forces[2].pk}/cards.pdf")
    assert refused.status_code == 429
    assert "You have 2 printouts or downloads being made" in refused.content.decode()
    assert Job.objects.count() == 2
    # Asking again for one being made is no new job: it is the same one.
    assert owner_client.get(f"/forces/{forces[0].pk}/cards.pdf").status_code == 302


def test_jobs_at_once_are_bounded_per_address(owner, stranger, jobs_wait, settings):
    settings.JOBS_ACTIVE_PER_ADDRESS = 2
    codes = []
    for user in (owner, stranger, owner):
        client = Client(REMOTE_ADDR="192.0.2.9")
        client.force_login(user)
        codes.append(client.get(f"/forces/{large_list(user).pk}/cards.pdf").status_code)
    assert codes == [302, 302, 429]


def test_fresh_printouts_are_limited_per_visitor_and_kept_ones_are_free(
    owner_client, owner, settings
):
    settings.FRESH_WORK_PER_VISITOR = 2
    force = make_force(owner)
    assert owner_client.get(f"/forces/{force.pk}/cards.pdf").status_code == 200
    assert owner_client.get(f"/forces/{force.pk}/roster.pdf").status_code == 200
    refused = owner_client.get(f"/forces/{force.pk}/cards.pdf?fresh").status_code
    assert refused == 200  # the same version's cards: kept, not made again
    force.record(force.to_spec(), description="touch")  # a new version: new printouts
    refused = owner_client.get(f"/forces/{force.pk}/cards.pdf")
    assert refused.status_code == 429 and "wait" in refused.content.decode()


def test_a_run_that_crashes_is_retried_then_done(owner_client, owner, monkeypatch):
    calls = []
    real = kinds.job_kind("export")

    def flaky(job, progress):
        calls.append(job.attempts)
        if len(calls) < 3:
            raise RuntimeError("the disk hiccupped")
        return real.run(job, progress)

    monkeypatch.setitem(kinds._KINDS, "export", dataclasses.replace(real, run=flaky))
    assert owner_client.get("/account/everything.json").status_code == 200
    job = Job.objects.get()
    assert (job.state, job.attempts, calls) == ("done", 3, [1, 2, 3])


def test_a_run_that_always_crashes_fails_with_why_and_can_be_started_again(
    owner_client, owner, monkeypatch
):
    real = kinds.job_kind("export")
    broken = dataclasses.replace(real, run=lambda job, progress: 1 / 0)
    monkeypatch.setitem(kinds._KINDS, "export", broken)
    asked = owner_client.get("/account/everything.json")
    job = Job.objects.get()
    assert asked["Location"] == f"/jobs/{job.pk}/"
    page = owner_client.get(asked["Location"]).content.decode()
    assert "The worker ran into an error (ZeroDivisionError). It was tried 3 times." in page
    assert "Start it again" in page
    monkeypatch.setitem(kinds._KINDS, "export", real)
    owner_client.post(f"/jobs/{job.pk}/restart/")
    job.refresh_from_db()
    assert job.state == "done" and job.attempts == 1


def test_a_run_past_its_time_limit_is_stopped_and_fails(owner_client, owner, monkeypatch):
    real = kinds.job_kind("export")

    def slow(job, progress):
        time.sleep(60)
        return real.run(job, progress)

    monkeypatch.setitem(kinds._KINDS, "export", dataclasses.replace(real, run=slow, time_limit=1))
    started = time.monotonic()
    owner_client.get("/account/everything.json")
    # Stopped after its second, not waited out (a minute): the bound leaves a busy machine
    # twenty times the limit.
    assert time.monotonic() - started < 20
    job = Job.objects.get()
    assert job.state == "failed"
    assert job.error == "It took longer than 1 second, the most one job may take, and was stopped."


def test_a_job_whose_subject_is_gone_fails_at_once_with_why(owner_client, owner, jobs_wait):
    force = large_list(owner)
    owner_client.get(f"/forces/{force.pk}/cards.pdf")
    force.delete()
    run_waiting_jobs()
    job = Job.objects.get()
    assert (job.state, job.attempts, job.error) == ("failed", 1, "The list was deleted.")


def test_expired_jobs_and_their_files_are_forgotten(owner_client, owner):
    owner_client.get("/account/everything.json")
    job = Job.objects.get()
    Job.objects.filter(pk=job.pk).update(expires=timezone.now() - timedelta(seconds=1))
    assert owner_client.get(job.get_download_url()).status_code == 404
    owner_client.get("/jobs/")
    assert not Job.objects.exists() and not JobFile.objects.exists()


def test_an_owners_files_are_kept_within_their_bytes_the_oldest_go_first(
    owner_client, owner, settings
):
    force = make_force(owner)
    owner_client.get("/account/everything.json")
    first = Job.objects.get()
    settings.JOB_FILES_BYTES_PER_OWNER = first.file_bytes * 2 - 1
    force.record(dataclasses.replace(force.to_spec(), name="A longer name than before"))
    owner_client.get("/account/everything.json")
    first.refresh_from_db()
    assert first.file_bytes == 0 and first.expired  # made room for the new one
    assert Job.objects.exclude(pk=first.pk).get().has_file


def test_a_lost_run_is_queued_again_by_the_next_sweep(owner_client, owner, jobs_wait, settings):
    force = large_list(owner)
    owner_client.get(f"/forces/{force.pk}/cards.pdf")
    job = Job.objects.get()
    long_ago = timezone.now() - timedelta(seconds=settings.JOB_LOST_SECONDS + 1)
    Job.objects.filter(pk=job.pk).update(state="running", attempts=1, beat=long_ago)
    running.sweep()
    job.refresh_from_db()
    assert job.state == "queued" and "stopped while making it" in job.error
    run_waiting_jobs()
    job.refresh_from_db()
    assert job.state == "done" and job.attempts == 2


@pytest.mark.django_db(transaction=True)  # the heartbeat writes from a thread of its own
def test_a_run_whose_step_outlasts_the_lost_time_is_not_taken_for_lost(owner, settings):
    """A live worker's run beats while a step goes on (jobs.running.heartbeat), so the sweep
    leaves it running instead of queueing it again beside the run still making it."""
    # Beats every 0.67 s; the sweep takes a run silent for 4 s as lost, so only a machine
    # that stalls the heartbeat's thread for over 3 s could fail this.
    settings.JOB_LOST_SECONDS = 4
    long_ago = timezone.now() - timedelta(seconds=60)
    job = Job.objects.create(kind="export", key="k", owner=owner, state="running", beat=long_ago)
    with running.heartbeat(job):
        time.sleep(4.5)  # one step longer than the lost time: the thread beat meanwhile
        running.sweep()
    job.refresh_from_db()
    assert job.state == "running" and job.beat > long_ago
    with running.heartbeat(job):
        pass  # a run that ends at once stops its heartbeat at once
    assert not [t for t in threading.enumerate() if t.name.endswith("-heartbeat")]


def test_the_list_of_jobs_shows_each_with_its_state(owner_client, owner, jobs_wait):
    owner_client.get(f"/forces/{large_list(owner).pk}/cards.pdf")
    page = owner_client.get("/jobs/").content.decode()
    assert "Trooper cards of Horde" in page and "waiting for the worker" in page
    assert '<noscript><meta http-equiv="refresh" content="5"></noscript>' in page


def test_the_time_limit_waits_while_the_connection_takes_or_gives_back_a_writers_turn():
    # Raised between taking a turn and noting it (config.sqlite), the limit would leave the
    # turn held and every writer of every process waiting out its timeout.
    reached = []
    with pytest.raises(running.JobTimeLimit), running.time_limit(1):
        connection.taking_turn = True
        try:
            time.sleep(1.3)  # the limit is due meanwhile, and waits
            reached.append(True)
        finally:
            connection.taking_turn = False
        time.sleep(1)  # then it is raised, a moment later
    assert reached == [True]
