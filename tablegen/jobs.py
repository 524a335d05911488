"""Tablegen's kinds of job (jobs.kinds): making a tournament pack, and a large table's
setup sheet.

A table of up to WORKER_HEXES hexes prints its setup sheet inside the request
(benchmarks/render_sizes.py: the standard board's in about 0.4 s on a loaded 2-core
machine); a larger board's goes to the worker (a 40 x 40 board of single-hex pieces: 3 s,
and up to 9 s on a busy machine)."""

from __future__ import annotations

import json
import secrets
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.http import HttpRequest

from accounts.ownership import DamagedRecord, owned
from jobs.kinds import JobKind, JobOutput, JobRefused, Progress, register
from jobs.models import Job, JobFile
from jobs.running import start_job
from onefinity.downloads import file_stem
from onefinity.rules import current_ruleset
from tablegen.engine.boxes import decode_counts
from tablegen.engine.generate import (
    BUDGET_SECONDS,
    GenerationError,
    Parameters,
    generate_table,
)
from tablegen.engine.library import terrain_library
from tablegen.engine.tables import TableSpec, read_board, table_document
from tablegen.models import Pack, Table
from tablegen.packs.steps import advance
from tablegen.printing import setup_pdf


def make_pack(job: Job, progress: Progress) -> None:
    """Every step of the pack (tablegen.packs.steps), one after another until its PDF is
    kept: its tables, their measures, its setup sheets, the PDF put together. Each step is
    a compare-and-swap on the pack, so a second worker (or an old page still stepping it)
    never spoils it; a pack that stops (a terrain box that makes no table) says why itself."""
    pack = Pack.objects.defer("pdf").filter(pk=job.params["pack"]).first()
    if pack is None:
        raise JobRefused("The pack was deleted.")
    total = 2 * pack.count + 1
    while pack.measured < pack.made or not (pack.pdf_ready or pack.error):
        try:
            advance(pack)
        except DamagedRecord as damaged:
            raise JobRefused(f"The pack no longer reads: {damaged.problem}.") from None
        if not type(pack).objects.filter(pk=pack.pk).exists():
            raise JobRefused("The pack was deleted.")
        progress(pack.made + pack.printed + (1 if pack.pdf_ready else 0), total)
    return None


register(JobKind("pack", make_pack, time_limit=30 * 60, keep_days=2))

WORKER_HEXES = 300


def worker_prints(spec: TableSpec) -> bool:
    return len(spec.board) > WORKER_HEXES


def setup_sheet(table: Table, share_url: str) -> bytes:
    """The table's setup sheet as a PDF (DamagedRecord if it no longer reads)."""
    return setup_pdf([table.to_spec()], table.name, current_ruleset().table, share_url=share_url)


def print_setup_sheet(job: Job, progress: Progress) -> JobOutput:
    table = Table.objects.filter(pk=job.params["table"]).first()
    if table is None:
        raise JobRefused("The table was deleted.")
    progress(0, 1)
    try:
        pdf = setup_sheet(table, job.params["share"])
    except DamagedRecord as damaged:
        raise JobRefused(f"The table no longer reads: {damaged.problem}.") from None
    return JobOutput(pdf, f"{file_stem(table.name, 'table')}-setup.pdf", "application/pdf")


register(JobKind("setup-sheet", print_setup_sheet, time_limit=5 * 60, keep_days=2, priority=5))


def setup_sheet_job(request: HttpRequest, table: Table, share_url: str) -> Job:
    return start_job(
        request,
        "setup-sheet",
        key=f"setup:{table.pk}:{table.version}:{current_ruleset().version}:{share_url}",
        label=f"Setup sheet of {table.name}",
        params={"table": table.pk, "share": share_url},
        back=request.get_full_path().rsplit("/", 1)[0] + "/",
    )


def pack_job(request: HttpRequest, pack: Pack) -> Job:
    """The job making ``pack``, which has work left: the one waiting or running, or the one
    that failed (its page offers to start it again), else a new one. A finished job of the
    pack is past: the pack has work again (a repair, a table put back, a new ruleset to
    measure under). jobs.running's JobsBusy or QuotaExceeded past its bounds."""
    prefix = f"pack:{pack.pk}:"
    current = (
        owned(request, Job)
        .filter(kind="pack", key__startswith=prefix)
        .exclude(state=Job.State.DONE)
        .order_by("-created", "-pk")
        .first()
    )
    if current is not None:
        return current
    return start_job(
        request,
        "pack",
        key=f"{prefix}{pack.version}:{current_ruleset().version}:{secrets.token_hex(4)}",
        label=f"Tournament pack {pack.name}",
        params={"pack": pack.pk},
        back=pack.get_absolute_url(),
    )


# --- Generating one table -------------------------------------------------------------------

# A table's generation is tried inside the request for this long (a table usually takes
# 0.03 to 0.3 s, a realistic box's 0.1 to 0.7 s); past it, the worker goes on with the
# whole budget (tablegen.engine.generate.BUDGET_SECONDS) and the page shows its progress.
REQUEST_SECONDS = settings.GENERATE_REQUEST_MS / 1000
# The worker's budget for one table, its advice included: the engine's, which
# `generate_table --budget` also defaults to.
WORKER_SECONDS = BUDGET_SECONDS


def generation_key(params: Parameters) -> str:
    return "generate:" + urlencode(sorted(params.query().items()))


def generate(job: Job, progress: Progress) -> JobOutput:
    """The seed's table (the same whatever the budget), or why none was made: the draft's
    candidate and the box's advice, as JSON the generate page reads (generation_result)."""
    params = parameters_of(job.params)
    rules = current_ruleset().table
    progress(0, 1)
    result: dict[str, Any]
    try:
        # The kept standard board (tablegen.pages.board says why).
        board = read_board({"standard": True}, rules)
        spec, _ = generate_table(rules, params, board, budget_seconds=WORKER_SECONDS)
        result = {"table": table_document(spec)}
    except GenerationError as error:
        advice = error.advice
        result = {
            "error": str(error),
            "draft": error.draft_attempt,
            "advice": None
            if advice is None
            else {"cause": advice.cause, "message": advice.message, "add": dict(advice.add)},
        }
    return JobOutput(json.dumps(result).encode(), "generated.json", "application/json")


register(JobKind("generate", generate, time_limit=2 * 60, keep_days=1, priority=5))


def parameters_of(query: dict[str, Any]) -> Parameters:
    """The generation parameters a job keeps (Parameters.query), read back."""
    box = query.get("box")
    return Parameters(
        seed=int(query["seed"]),
        coverage=float(query["coverage"]),
        symmetry=str(query["symmetry"]),
        mix=str(query.get("mix", "balanced")),
        box=decode_counts(box, terrain_library(tuple(current_ruleset().table.terrain)))
        if box
        else None,
    )


def generation_job(request: HttpRequest, params: Parameters) -> Job:
    return start_job(
        request,
        "generate",
        key=generation_key(params),
        label=f"Generating the table of seed {params.seed}",
        params=dict(params.query()),
        back=request.get_full_path(),
    )


def generation_result(request: HttpRequest, params: Parameters) -> dict[str, Any] | None:
    """What the worker made of these parameters, if it has: see ``generate``."""
    job = (
        owned(request, Job)
        .filter(kind="generate", key=generation_key(params), state=Job.State.DONE)
        .first()
    )
    if job is None or not job.has_file:
        return None
    content = JobFile.read(job)
    return None if content is None else dict(json.loads(content))
