"""How a tournament pack moves forward, a bounded step at a time (`advance`): its
tables are generated (each kept with its summary, the key metrics the pack's page shows),
then its setup sheets rendered a few at a time, then put together into one PDF. Tables kept
without a current summary (made before summaries were kept, under another ruleset, or
repaired) are measured first, a few per step.

The worker (tablegen.jobs) calls ``advance(pack)`` until the pack is finished, so no request
runs long: a 200-table pack's PDF in one request took 58 s, past the workers' 60 s timeout.
The model does not import its steps: loading the models loads no PDF renderer.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

from django.db import transaction

from accounts.ownership import DamagedRecord
from onefinity.rules import current_ruleset
from onefinity.rules.hexgrid import standard_board
from tablegen.engine.balance import table_summary
from tablegen.engine.generate import GenerationError, Parameters
from tablegen.engine.metrics import TableReport, check_table
from tablegen.engine.tables import (
    TableDocumentError,
    read_table_document,
    table_document,
)
from tablegen.engine.tournament import PackState, aligned, pack_table_name
from tablegen.engine.tournament import advance as generate_some
from tablegen.models import Pack
from tablegen.printing import merge_pdfs, setup_pdf

# Time spent generating tables in one request.
GENERATE_STEP_SECONDS = 0.3
# Setup sheets rendered in one request, in one PDF part: a standard table's sheet takes
# 0.1-0.25 s, and each WeasyPrint run costs about 0.2 s more; fewer, larger parts also make
# putting them together faster (200 single sheets took 2.7 s, 50 parts of 4 took 1.2 s).
SHEETS_PER_PART = 3


def advance(pack: Pack) -> None:
    """Do one bounded step of the pack's work, if any is left; DamagedRecord if a stored
    table of the pack no longer reads."""
    pack.check_name()
    if not isinstance(pack.tables, list):
        raise DamagedRecord(pack, "its tables are not a list")
    if pack.measured < pack.made:
        _measure(pack)
        return
    if pack.error or pack.pdf_ready:
        return
    if pack.made < pack.count:
        _generate(pack)
    elif pack.printed < pack.made:
        _print(pack)
    else:
        _put_together(pack)
    pack.measure()  # what it stores, for its owner's storage


def _generate(pack: Pack) -> None:
    rules = current_ruleset().table
    params = Parameters(
        seed=pack.params["seed"],
        coverage=pack.params["coverage"],
        symmetry=pack.params["symmetry"],
        mix=pack.params["mix"],
        box=pack.params.get("box"),
    )
    state = PackState.from_json(pack.state)
    tables = list(pack.tables)
    summaries = aligned(pack.summaries, len(tables))
    error = ""
    try:
        new = generate_some(
            state,
            rules,
            standard_board(rules.rows, rules.columns),
            params,
            pack.count,
            len(tables),
            GENERATE_STEP_SECONDS,
        )
    except GenerationError as problem:
        error = str(problem)
        new = []
    for spec, report in new:
        name = pack_table_name(pack.name, len(tables) + 1, spec.seed)
        document = table_document(replace(spec, name=name))
        try:
            # The contract: what is kept is what the reader makes of it.
            document = table_document(read_table_document(document, rules))
        except TableDocumentError as problem:
            error = f"table {len(tables) + 1} cannot be kept: {problem}"
            break
        tables.append(document)
        # The generator checked it anyway: its summary costs nothing now.
        summaries.append(summary_of(report))
    pack.swap_if_unmoved(
        tables=tables,
        made=len(tables),
        state=state.as_json() | {"summaries": summaries},
        error=error,
    )


def summary_of(report: TableReport) -> dict[str, Any]:
    """A table's summary as a pack keeps it: with the ruleset it was measured under."""
    return table_summary(report) | {"ruleset": current_ruleset().version}


def _measure(pack: Pack) -> None:
    """Measure the tables kept without a current summary (a pack made before summaries were
    kept, or under another ruleset), in order, for about a generation step's time."""
    rules = current_ruleset().table
    summaries = aligned(pack.summaries, pack.made)
    started = time.perf_counter()
    for number in range(pack.measured + 1, pack.made + 1):
        summaries[number - 1] = summary_of(check_table(pack.table_spec(number), rules))
        if time.perf_counter() - started > GENERATE_STEP_SECONDS:
            break
    pack.swap_if_unmoved(state=pack.state_with(summaries))


def _print(pack: Pack) -> None:
    """The next few setup sheets, as one part of the PDF."""
    rules = current_ruleset().table
    first = pack.printed + 1
    last = min(pack.made, pack.printed + SHEETS_PER_PART)
    specs = []
    for number in range(first, last + 1):
        try:
            specs.append(read_table_document(pack.tables[number - 1], rules))
        except TableDocumentError as error:
            raise DamagedRecord(pack, f"table {number}: {error}") from None
    pdf = setup_pdf(specs, pack.name, rules)
    with transaction.atomic():
        if pack.swap_if_unmoved(printed=last):
            pack.parts.create(first=first, sheets=len(specs), pdf=pdf)


def _put_together(pack: Pack) -> None:
    parts = pack.parts.order_by("first").values_list("pdf", flat=True)
    pdf = merge_pdfs(bytes(part) for part in parts)
    with transaction.atomic():
        if pack.swap_if_unmoved(pdf=pdf, pdf_bytes=len(pdf)):
            pack.parts.all().delete()
