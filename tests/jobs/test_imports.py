"""An account file of any size the site exports is imported: a small one in the request, a
large one by the worker (jobs.imports), checked whole before anything is saved, saved a few
records at a time, taken up again after a crash without saving anything twice, and its
upload deleted however the job ends."""

from __future__ import annotations

import copy
import io
import json
from datetime import timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import RequestFactory
from django.utils import timezone

from accounts import account_import
from forcebuilder.models import Force
from jobs import running
from jobs.models import Job, JobFile, JobUpload
from tablegen.models import Table
from tests.conftest import run_waiting_jobs
from tests.forcebuilder.conftest import LEGAL_DOCUMENT

pytestmark = pytest.mark.django_db


def account_file(count: int, **extra: object) -> bytes:
    forces = []
    for n in range(count):
        forces.append(copy.deepcopy(LEGAL_DOCUMENT) | {"name": f"List {n}"})
    document = {"format": "onefinity-account", "version": 1, "forces": forces} | extra
    return json.dumps(document, indent=2).encode()


def upload(content: bytes, name: str = "everything.json") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, content, "application/json")


@pytest.fixture
def to_the_worker(settings):
    """Every file goes to the worker (as a file over IMPORT_REQUEST_BYTES does)."""
    settings.IMPORT_REQUEST_BYTES = 0


def test_a_small_file_is_imported_in_the_request(owner_client, owner):
    response = owner_client.post("/account/import/", {"file": upload(account_file(3))})
    assert response.status_code == 302 and response["Location"] == "/account/"
    assert owner.forces.count() == 3 and not Job.objects.exists()


def test_a_file_with_more_records_than_a_request_imports_goes_to_the_worker(
    owner_client, owner, monkeypatch
):
    monkeypatch.setattr(account_import, "MAX_ITEMS", 2)
    response = owner_client.post("/account/import/", {"file": upload(account_file(3))})
    job = Job.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/jobs/{job.pk}/"
    assert job.kind == "import" and job.state == "done"
    assert sorted(owner.forces.values_list("name", flat=True)) == ["List 0", "List 1", "List 2"]
    assert job.outcome == "Imported 3 force lists, 0 tables, 0 terrain boxes."
    assert not JobUpload.objects.exists()  # the upload is gone with the job's end
    page = owner_client.get(f"/jobs/{job.pk}/").content.decode()
    assert "Imported 3 force lists" in page


def test_a_large_file_is_kept_in_parts_and_imported_by_the_worker_with_progress(
    owner_client, owner, jobs_wait, to_the_worker, monkeypatch
):
    monkeypatch.setattr(JobFile, "CHUNK", 4_096)  # several parts, as a large file has
    monkeypatch.setattr(account_import, "STEP", 7)
    content = account_file(45)
    response = owner_client.post(
        "/account/import/", {"file": upload(content, "mine.json"), "once": "first-form-token-a1"}
    )
    job = Job.objects.get()
    assert response["Location"] == f"/jobs/{job.pk}/" and job.state == "queued"
    assert job.label == "Import of mine.json"
    parts = list(JobUpload.objects.filter(job=job).order_by("index"))
    assert len(parts) == -(-len(content) // 4_096) > 1
    assert b"".join(bytes(part.content) for part in parts) == content
    assert not owner.forces.exists()  # nothing before the worker runs it
    page = owner_client.get(f"/jobs/{job.pk}/").content.decode()
    assert "waiting for the worker" in page
    assert run_waiting_jobs() == 1
    job.refresh_from_db()
    assert job.state == "done", job.error
    assert (job.steps_done, job.steps_total) == (45, 45)
    assert job.params["saved"] == {"forces": 45}
    assert owner.forces.count() == 45
    assert not JobUpload.objects.exists()


def test_the_same_form_sent_twice_starts_one_import(owner_client, owner, jobs_wait, to_the_worker):
    for _ in range(2):
        response = owner_client.post(
            "/account/import/", {"file": upload(account_file(2)), "once": "same-page-token-0001"}
        )
        assert response.status_code == 302
    assert Job.objects.count() == 1
    run_waiting_jobs()
    assert owner.forces.count() == 2


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b'{"format": "onefinity-account", "version": 1, "forces": [', "not valid JSON"),
        (b'{"format": "onefinity-table", "forces": []}', "not an export of everything"),
        (b'{"format": "onefinity-account", "version": 1, "forces": [NaN]}', "NaN"),
        (b'{"format": "onefinity-account", "version": 1, "forces": {}}', "forces must be a list"),
        (b'{"format": "onefinity-account", "version": 1, "forces": [], "forces": []}', "twice"),
        (b'{"forces": [], "format": "onefinity-account"}', "not an export of everything"),
        (b'{"format": "onefinity-account", "version": 1} {}', "Extra data"),
        (b'{"format": "onefinity-account", "version": 1, "forces": ["\xff"]}', "not UTF-8"),
    ],
)
def test_a_bad_large_file_fails_its_job_saves_nothing_and_keeps_no_upload(
    owner_client, owner, to_the_worker, content, words
):
    response = owner_client.post("/account/import/", {"file": upload(content)})
    job = Job.objects.get()
    assert response["Location"] == f"/jobs/{job.pk}/"
    assert job.state == "failed" and words in job.error and "Nothing was imported" in job.error
    assert not owner.forces.exists() and not JobUpload.objects.exists()
    page = owner_client.get(f"/jobs/{job.pk}/").content.decode()
    assert 'href="/account/import/">Send it again' in page and "Start it again" not in page
    again = owner_client.post(f"/jobs/{job.pk}/restart/")
    assert again.status_code == 302 and again["Location"] == "/account/import/"
    assert Job.objects.get().state == "failed"


def test_a_bad_record_anywhere_in_a_large_file_saves_none_of_it(owner_client, owner, to_the_worker):
    document = json.loads(account_file(30))
    document["forces"][29] = {"format": "onefinity-force", "version": 1}
    response = owner_client.post(
        "/account/import/", {"file": upload(json.dumps(document).encode())}
    )
    assert response.status_code == 302
    job = Job.objects.get()
    assert job.state == "failed" and job.error.startswith("List 30:"), job.error
    assert not owner.forces.exists()


def test_a_large_file_past_the_quota_saves_nothing(owner_client, owner, to_the_worker, monkeypatch):
    from accounts.ownership import Quota

    monkeypatch.setattr(Force, "quota", Quota("lists", browser=1, account=4))
    owner_client.post("/account/import/", {"file": upload(account_file(5))})
    job = Job.objects.get()
    assert job.state == "failed" and "keeps at most 4" in job.error
    assert not owner.forces.exists()


def test_a_crash_mid_import_is_taken_up_where_it_stopped_and_saves_nothing_twice(
    owner_client, owner, to_the_worker, monkeypatch
):
    monkeypatch.setattr(account_import, "STEP", 4)
    made = Force.create_from_spec
    calls = {"n": 0}

    def crash_once(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 10:  # in the third step: two steps (8 lists) are saved
            raise RuntimeError("the machine went away")
        return made(*args, **kwargs)

    monkeypatch.setattr(Force, "create_from_spec", crash_once)
    owner_client.post("/account/import/", {"file": upload(account_file(13))})
    job = Job.objects.get()
    assert job.state == "done" and job.attempts == 2, job.error
    names = sorted(owner.forces.values_list("name", flat=True))
    assert names == sorted(f"List {n}" for n in range(13))  # each once
    # The second run saved only what the first had not: 8 + 1 (the step that crashed,
    # undone) + 5 = 13 creations after the crash's, not 13 more.
    assert calls["n"] == 10 + 5


def test_an_import_stopped_by_its_owner_keeps_no_upload(
    owner_client, owner, jobs_wait, to_the_worker
):
    owner_client.post("/account/import/", {"file": upload(account_file(2))})
    job = Job.objects.get()
    assert JobUpload.objects.filter(job=job).exists()
    assert owner_client.post(f"/jobs/{job.pk}/cancel/").status_code == 302
    assert not JobUpload.objects.exists()
    assert run_waiting_jobs() == 0


def test_a_job_whose_asker_stopped_before_it_was_queued_is_failed_with_its_upload(owner):
    job = Job.objects.create(owner=owner, kind="import", key="k", label="Import", slot=1)
    JobUpload.keep(job, [b"{}"])
    running.sweep()
    assert Job.objects.get().state == "queued"  # just asked for: perhaps being queued now
    Job.objects.update(created=timezone.now() - timedelta(minutes=11))
    running.sweep()
    job.refresh_from_db()
    assert job.state == "failed" and "ask for it again" in job.error
    assert job.slot is None and not JobUpload.objects.exists()


def test_an_upload_gone_is_said_so(owner_client, owner, jobs_wait, to_the_worker):
    owner_client.post("/account/import/", {"file": upload(account_file(2))})
    JobUpload.objects.all().delete()
    run_waiting_jobs()
    job = Job.objects.get()
    assert job.state == "failed" and "no longer kept" in job.error


def test_a_browser_imports_into_its_own_things(client, to_the_worker):
    response = client.post("/account/import/", {"file": upload(account_file(2))})
    job = Job.objects.get()
    assert response["Location"] == f"/jobs/{job.pk}/" and job.state == "done", job.error
    forces = Force.objects.all()
    assert forces.count() == 2 and {force.owner_id for force in forces} == {None}
    assert {force.anonymous_owner for force in forces} == {job.anonymous_owner}
    assert client.get("/forces/").content.decode().count("List ") >= 2


def test_an_account_file_with_events_and_games_imports_its_lists_and_tables(
    owner_client, owner, to_the_worker
):
    owner_client.post(
        "/tables/save/", {"seed": 5, "coverage": 0.45, "symmetry": "point", "mix": "balanced"}
    )
    owner_client.post(
        "/forces/import/", {"document": json.dumps(LEGAL_DOCUMENT), "confirm": "save"}
    )
    exported = owner_client.get("/account/everything.json").getvalue()
    assert b'"events"' in exported and b'"games"' in exported
    Force.objects.all().delete()
    Table.objects.all().delete()
    owner_client.post("/account/import/", {"file": upload(exported)})
    job = Job.objects.filter(kind="import").get()
    assert job.state == "done", job.error
    assert owner.forces.count() == 1 and owner.tables.count() == 1


def test_the_reader_gives_the_same_records_whatever_the_pieces(monkeypatch):
    from accounts import account_file as reader

    content = account_file(6, damaged=[{"kind": "list"}], events=[{"name": "x"}])
    whole = account_import.read_small(io.BytesIO(content))
    for piece in (1, 2, 3, 7, 64, 1000):
        monkeypatch.setattr(reader, "PIECE", piece)
        assert account_import.read_small(io.BytesIO(content)) == whole


def test_large_records_are_saved_a_few_at_a_time(owner_client, owner):
    """A step of a large import holds the write lock while it saves: tables (large
    documents) are saved five at a time, lists twenty."""
    owner_client.post(
        "/tables/save/", {"seed": 5, "coverage": 0.45, "symmetry": "point", "mix": "balanced"}
    )
    table = json.loads(owner_client.get(f"/tables/{owner.tables.get().pk}/table.json").content)
    document = json.loads(account_file(23)) | {"tables": [table] * 7}
    request = RequestFactory().post("/account/import/")
    request.user, request.session = owner, {}
    told: list[dict[str, int]] = []
    saved: dict[str, int] = {}
    content = io.BytesIO(json.dumps(document).encode())
    account_import.save_steps(request, content, saved, lambda after: told.append(dict(after)))
    assert told == [
        {"forces": 20},
        {"forces": 23, "tables": 2},  # the lists' last 3, then tables: a step of 5 at most
        {"forces": 23, "tables": 7},
    ]
    assert saved == {"forces": 23, "tables": 7} and owner.tables.count() == 8


def test_an_import_stopped_while_its_file_is_received_keeps_none_of_it(
    owner_client, owner, jobs_wait, monkeypatch
):
    """Its owner may stop it as soon as it is listed, while the request still writes the
    upload: what was written and what comes after are not kept, and it is never queued."""
    monkeypatch.setattr(JobFile, "CHUNK", 1_000)
    request = RequestFactory().post("/account/import/")
    request.user, request.session = owner, {}

    def chunks():  # type: ignore[no-untyped-def]
        yield b"x" * 2_500
        running.cancel(Job.objects.get())
        yield b"y" * 2_500

    job = running.start_job(request, "import", key="import:t", label="Import", upload=chunks())
    assert job.state == "failed" and job.error == "You stopped it." and job.task_id == ""
    assert not JobUpload.objects.exists()


def test_the_sweep_forgets_an_upload_whose_job_ended(owner):
    job = Job.objects.create(owner=owner, kind="import", key="k", label="Import", state="done")
    JobUpload.objects.create(job=job, index=0, content=b"{}")
    running.sweep()
    assert not JobUpload.objects.exists()


def test_a_browser_signing_in_during_its_import_gets_every_record_in_its_account(
    client, django_user_model, to_the_worker, jobs_wait, monkeypatch
):
    monkeypatch.setattr(account_import, "STEP", 3)
    client.post("/account/import/", {"file": upload(account_file(10))})
    job = Job.objects.get()
    token = job.anonymous_owner
    person = django_user_model.objects.create_user("late", "l@example.com", "a-long-pass-phrase")
    prepared = account_import._prepared
    steps = {"n": 0}

    def signing_in_between_steps(*args, **kwargs):  # type: ignore[no-untyped-def]
        steps["n"] += 1
        if steps["n"] == 2:  # after the first step: the browser signs in (its things move)
            from accounts.ownership import move_into_account

            move_into_account(person, token)
        return prepared(*args, **kwargs)

    monkeypatch.setattr(account_import, "_prepared", signing_in_between_steps)
    run_waiting_jobs()
    job.refresh_from_db()
    assert job.state == "done" and job.owner == person, job.error
    assert person.forces.count() == 10 and not Force.objects.filter(owner=None).exists()
    assert job.outcome == "Imported 10 force lists, 0 tables, 0 terrain boxes."


def test_storage_filling_up_midway_stops_the_import_saying_what_was_saved(
    owner_client, owner, to_the_worker, monkeypatch
):
    from accounts.storage import StorageFull

    monkeypatch.setattr(account_import, "STEP", 4)
    made = Force.create_from_spec
    calls = {"n": 0}

    def filling(*args, **kwargs):  # type: ignore[no-untyped-def]
        calls["n"] += 1
        if calls["n"] == 7:
            raise StorageFull("Your account would store 100.1 MB, more than its 100.0 MB.")
        return made(*args, **kwargs)

    monkeypatch.setattr(Force, "create_from_spec", filling)
    owner_client.post("/account/import/", {"file": upload(account_file(10))})
    job = Job.objects.get()
    assert job.state == "failed" and job.attempts == 1  # refused, not a crash tried again
    assert job.error.startswith("Your account would store 100.1 MB")
    assert job.outcome == (
        "Saved before it stopped: 4 force lists, 0 tables, 0 terrain boxes. "
        "Sending the file again imports these again."
    )
    assert owner.forces.count() == 4
    page = owner_client.get(f"/jobs/{job.pk}/").content.decode()
    assert "Saved before it stopped: 4 force lists" in page


def test_the_check_tells_its_progress_by_the_files_pieces_read(monkeypatch):
    from accounts import account_file as reader

    monkeypatch.setattr(reader, "PIECE", 100)
    content = account_file(0, events=[{"name": "x" * 1_000}])
    told: list[int] = []
    assert account_import.count(io.BytesIO(content), told.append) == {}
    assert told == list(range(1, len(told) + 1)) and len(told) > len(content) // 100


def test_a_file_saved_with_a_byte_order_mark_is_read(owner_client, owner):
    response = owner_client.post(
        "/account/import/", {"file": upload("\ufeff".encode() + account_file(1))}
    )
    assert response.status_code == 302 and owner.forces.count() == 1


def test_the_same_form_sent_again_with_another_file_imports_that_file(
    owner_client, owner, to_the_worker
):
    """After Back, a browser may show the form as it was (its token too): another file
    sent with it is another import, not the first one's page."""
    for count in (1, 2):
        response = owner_client.post(
            "/account/import/",
            {"file": upload(account_file(count)), "once": "same-page-token-0001"},
        )
        assert response.status_code == 302
    assert Job.objects.count() == 2 and owner.forces.count() == 3


def test_a_small_file_sent_twice_by_one_form_is_imported_once(owner_client, owner):
    content = account_file(2)
    sent = [
        owner_client.post(
            "/account/import/", {"file": upload(content), "once": "same-page-token-0002"}
        )
        for _ in range(2)
    ]
    assert [answer.status_code for answer in sent] == [302, 302]
    assert owner.forces.count() == 2
    followed = owner_client.get("/account/").content.decode()
    assert "That file was imported a moment ago (the form was sent twice)" in followed
    # The same form with another file (after Back) imports that file.
    again = {"file": upload(account_file(1)), "once": "same-page-token-0002"}
    assert owner_client.post("/account/import/", again).status_code == 302
    assert owner.forces.count() == 3


def test_the_import_form_carries_a_one_time_token(owner_client):
    pages = [owner_client.get("/account/import/").content.decode() for _ in range(2)]
    tokens = [page.split('name="once" value="')[1].split('"')[0] for page in pages]
    assert tokens[0] != tokens[1] and all(len(token) >= 16 for token in tokens)
