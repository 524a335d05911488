"""A table's report kept in the process (tablegen.engine.metrics.checked_table) is only
ever the report of the very terrain and rules asked: a page drawn again for an unchanged
table reads it instead of checking every line again, and any change (an edit, an undo, a
redo, other rules) is checked anew. The reports kept are bounded."""

from __future__ import annotations

import dataclasses
import random
import re

import numpy as np
import pytest

from onefinity.rules import current_ruleset
from onefinity.rules.bounded_cache import Recent
from onefinity.rules.hexgrid import Board, rows_by_columns, standard_board
from onefinity.templatetags.onefinity_tags import percent
from tablegen.engine import metrics
from tablegen.engine.generate import Parameters, generate_table
from tablegen.engine.metrics import check_table, checked_table
from tablegen.engine.tables import TableSpec
from tablegen.models import Table

RULES = current_ruleset().table
BOARD = standard_board(RULES.rows, RULES.columns)
PARAMS = {"seed": 5, "coverage": 0.45, "symmetry": "point", "mix": "balanced"}


def same_report(one: metrics.TableReport, other: metrics.TableReport) -> bool:
    return (
        one.as_dict() == other.as_dict()
        and np.array_equal(one.clear, other.clear)
        and one.lanes == other.lanes
        and one.unreachable == other.unreachable
        and all(
            np.array_equal(getattr(one.terrain, name), getattr(other.terrain, name))
            for name in ("heights", "levels", "standable")
        )
    )


def random_table(rng: random.Random, board: Board = BOARD, count: int | None = None) -> TableSpec:
    kinds = sorted(RULES.terrain)
    count = rng.randrange(len(board) // 2) if count is None else count
    hexes = rng.sample(range(len(board)), count)
    return TableSpec(board, {i: rng.choice(kinds) for i in hexes})


@pytest.fixture
def counted_checks(monkeypatch) -> list[int]:
    """How many times a table is checked (a kept report is not)."""
    counted: list[int] = []
    check = metrics.check_table

    def counting(*args, **kwargs):
        counted.append(1)
        return check(*args, **kwargs)

    monkeypatch.setattr(metrics, "check_table", counting)
    return counted


def test_a_kept_report_is_the_report_a_check_gives(counted_checks):
    rng = random.Random(34)
    small = Board.of(rows_by_columns(5, 4))
    tables = [random_table(rng) for _ in range(5)] + [random_table(rng, small) for _ in range(5)]
    tables.append(generate_table(RULES, Parameters(seed=8), BOARD)[0])
    for table in tables:
        first = checked_table(table, RULES)
        again = checked_table(dataclasses.replace(table, name="Another name", seed=None), RULES)
        assert same_report(first, check_table(table, RULES)) and again is first
    assert len(counted_checks) == len(tables)


def test_a_table_changed_in_one_hex_or_under_other_rules_is_checked_anew(counted_checks):
    table = random_table(random.Random(1), count=20)  # under the ruleset's coverage
    kept = checked_table(table, RULES)
    open_hex = next(i for i in range(len(BOARD)) if i not in table.terrain)
    for kind in sorted(RULES.terrain):
        changed = dataclasses.replace(table, terrain=table.terrain | {open_hex: kind})
        report = checked_table(changed, RULES)
        assert report is not kept and same_report(report, check_table(changed, RULES))
    first_kind = next(iter(table.terrain))
    retyped = {i: ("cover" if i == first_kind else kind) for i, kind in table.terrain.items()}
    if retyped != table.terrain:
        assert checked_table(dataclasses.replace(table, terrain=retyped), RULES) is not kept
    assert "table.coverage.low" in {p.code for p in kept.problems}
    lenient = dataclasses.replace(RULES, coverage_min=0.0)
    report = checked_table(table, lenient)
    assert "table.coverage.low" not in {p.code for p in report.problems}
    assert same_report(report, check_table(table, lenient))
    assert checked_table(table, RULES) is not report  # the shipped rules' own report again


def test_the_reports_kept_are_bounded_in_bytes(monkeypatch):
    # A bound of three standard reports: the fourth table drops the least recently used.
    rng = random.Random(2)
    tables = [random_table(rng, count=40) for _ in range(6)]
    weight = metrics._report_bytes(check_table(tables[0], RULES))  # each weighs the same
    kept = Recent(3 * weight + weight // 2, lambda entry: metrics._report_bytes(entry[1]))
    monkeypatch.setattr(metrics, "_reports", kept)
    for table in tables:
        checked_table(table, RULES)
    assert len(kept) == 3
    assert {key[1] for key, _ in kept.items()} == {frozenset(t.terrain.items()) for t in tables[3:]}
    # A report weighs at least its lines of fire.
    assert weight >= len(BOARD) ** 2


# --- The pages: a shared table's line of fire and its editor, through edits and undo ---------

COVERAGE = re.compile(r"<dt>Coverage</dt><dd>([^<]*)</dd>")
LANES = re.compile(r"<dt>Edge-to-edge lanes</dt><dd>([^<]*)</dd>")


def figures(page: str) -> tuple[str, str]:
    coverage, lanes = COVERAGE.search(page), LANES.search(page)
    assert coverage and lanes, page
    return coverage[1], lanes[1]


def expected(table: Table) -> tuple[str, str]:
    table.refresh_from_db()
    report = check_table(table.to_spec(), RULES)
    return percent(report.metrics["coverage"]), str(report.metrics["edge_lanes"])


@pytest.mark.django_db
def test_a_shared_tables_pages_show_every_edit_undo_and_redo_at_once(
    owner_client, owner, client, counted_checks
):
    owner_client.post("/tables/save/", PARAMS)
    table = owner.tables.get()
    owner_client.post(f"/tables/{table.pk}/sharing/", {"change": "on"})
    table.refresh_from_db()
    line_of_fire = f"/t/{table.share_code}/?mode=lof&from=2,4"
    editor = f"/tables/{table.pk}/"

    def pages_agree() -> tuple[str, str]:
        want = expected(table)
        assert figures(client.get(line_of_fire).content.decode()) == want
        assert figures(owner_client.get(editor).content.decode()) == want
        return want

    original = pages_agree()
    counted_checks.clear()
    client.get(line_of_fire.replace("2,4", "3,5"))  # another hex of the same table
    assert counted_checks == []  # its report was kept
    spec = table.to_spec()
    walls = [i for i in range(len(spec.board)) if i not in spec.terrain][:3]
    for index in walls:
        q, r = spec.board.hexes[index]
        table.refresh_from_db()
        owner_client.post(
            f"/tables/{table.pk}/terrain/",
            {"q": q, "r": r, "kind": "blocking", "version": table.version},
        )
    edited = pages_agree()
    assert edited != original
    for step in ("undo", "undo", "undo"):
        table.refresh_from_db()
        owner_client.post(f"/tables/{table.pk}/{step}/", {"version": table.version})
    assert pages_agree() == original
    table.refresh_from_db()
    owner_client.post(f"/tables/{table.pk}/redo/", {"version": table.version})
    assert pages_agree() not in (original, edited)


def test_the_pages_board_is_the_very_board_a_stored_table_reads_as():
    # The engine's caches of a board's geometry are keyed by the board: one object for the
    # standard board, not an equal one made anew for each request.
    from tablegen.engine.tables import read_table_document, table_document
    from tablegen.pages import board

    assert board() is board() and board() == BOARD
    stored = read_table_document(table_document(TableSpec(BOARD, {0: "cover"})), RULES)
    assert stored.board is board()
