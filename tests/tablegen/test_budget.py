"""Generation in a request is bounded by time, not only by the library's count of candidates:
a seed (or terrain box) that finds no table quickly gives up with a clear message, and a
budget never changes which table a seed gives."""

from __future__ import annotations

import pytest

from onefinity.rules import current_ruleset
from onefinity.rules.hexgrid import standard_board
from tablegen.engine import generate, tournament
from tablegen.engine.generate import (
    GenerationError,
    GenerationTimeout,
    Parameters,
    generate_table,
)
from tablegen.engine.tables import table_document

RULES = current_ruleset().table
BOARD = standard_board(RULES.rows, RULES.columns)


def _refusing_first(monkeypatch, refused: int) -> list[int]:
    """Make the first `refused` candidates unacceptable; return the list of tries."""
    tried: list[int] = []
    real = generate._acceptable

    def acceptable(*args):
        tried.append(1)
        return len(tried) > refused and real(*args)

    monkeypatch.setattr(generate, "_acceptable", acceptable)
    return tried


def test_a_spent_budget_gives_up_after_the_first_candidate_with_a_clear_message(monkeypatch):
    tried = _refusing_first(monkeypatch, refused=1000)
    with pytest.raises(GenerationTimeout, match="No valid table was found for seed 4 within 0 s"):
        generate_table(RULES, Parameters(seed=4), BOARD, budget_seconds=0)
    assert len(tried) == 1


def test_a_candidate_found_within_the_budget_is_the_one_found_without_it():
    for seed in (1, 2, 3):
        params = Parameters(seed=seed, symmetry="point")
        bounded, _ = generate_table(RULES, params, BOARD, budget_seconds=30)
        unbounded, _ = generate_table(RULES, params, BOARD)
        assert table_document(bounded) == table_document(unbounded)


def test_a_budget_only_stops_the_search_between_candidates(monkeypatch):
    # Three candidates refused: with time to spare the search goes on to the same table as
    # without a budget, after as many tries.
    tried = _refusing_first(monkeypatch, refused=3)
    bounded, _ = generate_table(RULES, Parameters(seed=4), BOARD, budget_seconds=30)
    tries = len(tried)
    tried.clear()
    unbounded, _ = generate_table(RULES, Parameters(seed=4), BOARD)
    assert tries > 3 and len(tried) == tries
    assert table_document(bounded) == table_document(unbounded)


def test_a_terrain_box_out_of_time_still_says_what_it_lacks(monkeypatch):
    _refusing_first(monkeypatch, refused=10_000)
    box = {"crates": 20, "scatter": 20, "container": 10}
    with pytest.raises(GenerationTimeout) as caught:
        generate_table(RULES, Parameters(seed=1, box=box), BOARD, budget_seconds=0)
    message = str(caught.value)
    assert message.startswith("This terrain box made no valid table within 0 s.")
    assert "Add " in message


def test_a_timeout_is_a_generation_error_for_every_caller():
    assert issubclass(GenerationTimeout, GenerationError)


def test_a_pack_passes_over_a_seed_that_runs_out_of_time(monkeypatch):
    real = tournament.generate_table
    slow_seed = 1003

    def generate_table_with_one_slow_seed(
        rules, params, board, name="", budget_seconds=None, advise=True
    ):
        assert budget_seconds == tournament.TABLE_SECONDS
        assert not advise  # a seed passed over needs no advice (up to 3 s of work)
        if params.seed == slow_seed:
            raise GenerationTimeout("too slow")
        return real(rules, params, board, name, budget_seconds)

    monkeypatch.setattr(tournament, "generate_table", generate_table_with_one_slow_seed)
    pack = tournament.tournament_pack(RULES, BOARD, 4, Parameters(seed=1000))
    seeds = [table.seed for table, _ in pack.tables]
    assert len(seeds) == 4 and slow_seed not in seeds
    assert pack.candidates >= 4


def test_a_pack_from_a_box_passes_over_a_seed_its_box_makes_no_table_of(monkeypatch):
    """A box's tables are fewer: seed 2 of this one runs out of candidates (a plain
    GenerationError, not a timeout), and seeds 1, 3, 4 and 5 make tables. The pack ended on
    seed 2, with a bare "cannot make a valid table" (found by a red-team pass)."""
    real = tournament.generate_table
    box = {"building-4": 6, "wall-3": 8, "hill-7": 2, "crates": 10}
    barren = 1002

    def generate_table_failing_one_seed(
        rules, params, board, name="", budget_seconds=None, advise=True
    ):
        if params.seed == barren:
            raise GenerationError(
                "This terrain box cannot make a valid table with these settings. "
            )
        return real(rules, params, board, name, budget_seconds, advise)

    monkeypatch.setattr(tournament, "generate_table", generate_table_failing_one_seed)
    pack = tournament.tournament_pack(RULES, BOARD, 3, Parameters(seed=1000, box=box))
    seeds = [table.seed for table, _ in pack.tables]
    assert len(seeds) == 3 and barren not in seeds


def test_a_pack_without_a_box_still_stops_at_a_plain_generation_error(monkeypatch):
    def failing(rules, params, board, name="", budget_seconds=None, advise=True):
        raise GenerationError("piece mix must be one of: balanced")

    monkeypatch.setattr(tournament, "generate_table", failing)
    with pytest.raises(GenerationError, match="piece mix"):
        tournament.advance(tournament.PackState(seed=1), RULES, BOARD, Parameters(seed=1), 2, 0)


@pytest.mark.django_db
def test_the_generate_page_gives_up_within_its_budget_and_says_so(client, monkeypatch):
    """A second in the request, then the worker's budget (here both nought): the request
    tries, the worker tries again, and the page says no table was found in time."""
    from tablegen import jobs, views

    tried = _refusing_first(monkeypatch, refused=10_000)
    monkeypatch.setattr(jobs, "REQUEST_SECONDS", 0)
    monkeypatch.setattr(jobs, "WORKER_SECONDS", 0)
    params = {"seed": 5, "coverage": 0.45, "symmetry": "point", "mix": "balanced"}
    page = client.get("/tables/new/", params)
    assert page.status_code == 200
    assert "No valid table was found for seed 5 within 0 s" in page.content.decode()
    assert len(tried) == 2
    saved = client.post("/tables/save/", params, follow=True)
    assert "within 0 s" in saved.content.decode()
    assert not views.Table.objects.exists()


@pytest.mark.django_db
def test_a_table_that_takes_longer_than_the_requests_second_is_made_by_the_worker(
    client, monkeypatch, jobs_wait
):
    """The request tries for its second (here none); the worker goes on with the whole
    budget, the page shows its progress and loads again, whole, once the table is made."""
    import json

    from jobs.models import Job, JobFile
    from tablegen import jobs, views
    from tests.conftest import run_waiting_jobs

    _refusing_first(monkeypatch, refused=3)
    monkeypatch.setattr(jobs, "REQUEST_SECONDS", 0)
    params = {"seed": 5, "coverage": 0.45, "symmetry": "point", "mix": "balanced"}
    page = client.get("/tables/new/", params).content.decode()
    job = Job.objects.get(kind="generate")
    assert "the server's worker goes on with it" in page and "Save this table" not in page
    assert f'data-hx-get="/jobs/{job.pk}/?refresh=1"' in page
    assert '<noscript><meta http-equiv="refresh" content="2"></noscript>' in page
    poll = client.get(f"/jobs/{job.pk}/?refresh=1", headers={"HX-Request": "true"})
    assert "HX-Refresh" not in poll  # still waiting: the progress again
    run_waiting_jobs()
    poll = client.get(f"/jobs/{job.pk}/?refresh=1", headers={"HX-Request": "true"})
    assert poll["HX-Refresh"] == "true"  # made: the page loads again, whole
    page = client.get("/tables/new/", params).content.decode()
    assert "Save this table" in page and "worker goes on" not in page
    made = json.loads(bytes(JobFile.objects.get(job=job).content))["table"]
    client.post("/tables/save/", params)
    saved = views.Table.objects.get()
    assert saved.document["terrain"] == made["terrain"]  # the worker's table, not another
    assert saved.summary["valid"] is True
