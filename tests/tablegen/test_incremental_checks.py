"""A table's check after an edit, brought up to date from the check before it, equals a
whole check; and the whole check's metrics, computed with packed bits, flood fills and
lines counted by length, equal the plain all-pairs formulas written out below."""

from __future__ import annotations

import random
from collections import deque

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from onefinity.rules import current_ruleset
from onefinity.rules.hexgrid import Board, distance, rows_by_columns, standard_board
from onefinity.rules.lineoffire import Terrain, _visibility_by_patterns
from onefinity.rules.visibility import Visibility
from tablegen.engine import metrics
from tablegen.engine.metrics import check_table, forget_kept_states
from tablegen.engine.tables import TableSpec
from tests.conftest import examples

RULES = current_ruleset().table
KINDS = ["blocking", "elevated", "cover"]
BOARDS = {
    "standard": standard_board(RULES.rows, RULES.columns),
    "tiny": Board.of(rows_by_columns(3, 2)),
    "6x25": Board.of(rows_by_columns(6, 25)),
    "20x20": Board.of(rows_by_columns(20, 20)),
    "holes": Board.of([h for h in rows_by_columns(14, 14) if (h[0] * 7 + h[1] * 3) % 11]),
    "ring": Board.of(
        [(q, r) for q, r in rows_by_columns(12, 12) if not (3 < r < 8 and 2 < q + r // 2 < 9)]
    ),
}
LARGEST = Board.of(rows_by_columns(40, 40))


def layout(board: Board, rng: random.Random, share: float) -> dict[int, str]:
    count = int(share * len(board))
    return {k: rng.choice(KINDS) for k in rng.sample(range(len(board)), count)}


def reference_metrics(table: TableSpec) -> dict[str, object]:
    """The metrics that depend on all pairs, straight from their definitions: the clear
    matrix by the direction patterns, distances pair by pair, reachability by search."""
    board = table.board
    terrain = Terrain.of(board, table.terrain, RULES)
    clear = _visibility_by_patterns(board, terrain)
    stand = [i for i in range(len(board)) if terrain.standable[i]]
    longest = max(
        (distance(board.hexes[i], board.hexes[j]) for i in stand for j in stand if clear[i, j]),
        default=0,
    )
    near = {
        side: [i for i in stand if board.depth_from_edge(i, side) <= RULES.near_edge_depth]
        for side in "AB"
    }
    exposure = {
        side: round(
            100 * sum(any(clear[i, j] for j in near[enemy]) for i in near[side]) / len(near[side]),
            1,
        )
        if near[side]
        else 0.0
        for side, enemy in (("A", "B"), ("B", "A"))
    }
    counts = [sum(bool(clear[i, j]) for j in stand) - 1 for i in stand]
    best = counts.index(max(counts)) if counts else 0

    def reached(side: str) -> set[int]:
        found = {i for i in board.edge_row(side) if terrain.standable[i]}
        queue = deque(found)
        while queue:
            for m in board.neighbours[queue.popleft()]:
                if terrain.standable[m] and m not in found:
                    found.add(m)
                    queue.append(m)
        return found

    both = reached("A") & reached("B")
    return {
        "longest_sightline": longest,
        "exposure": exposure,
        "dominance": round(counts[best] / max(1, len(stand) - 1), 4) if counts else 0.0,
        "dominant_hex": list(board.hexes[stand[best]]) if stand else None,
        "unreachable": tuple(board.hexes[i] for i in stand if i not in both),
    }


def as_reference(report: metrics.TableReport) -> dict[str, object]:
    found = report.metrics
    return {
        "longest_sightline": found["longest_sightline"],
        "exposure": {side: found["sides"][side]["exposure"] for side in "AB"},
        "dominance": found["dominance"],
        "dominant_hex": found["dominant_hex"],
        "unreachable": report.unreachable,
    }


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_a_whole_check_equals_the_plain_formulas(name):
    board = BOARDS[name]
    rng = random.Random(name)
    for share in (0.0, 0.2, 0.45, 0.8):
        table = TableSpec(board, layout(board, rng, share))
        forget_kept_states()
        assert as_reference(check_table(table, RULES)) == reference_metrics(table), share
        # The same through a kept line-of-fire state (how boards over 400 hexes are checked).
        state = check_table(table, RULES, before=table.terrain)
        assert as_reference(state) == reference_metrics(table), share


@pytest.mark.parametrize("name", [*sorted(BOARDS), "largest"])
def test_lines_counted_by_length_agree_pair_by_pair_by_segments_and_longest_first(name):
    board = BOARDS.get(name, LARGEST)
    facts = metrics._board_facts(board)
    rng = random.Random(len(board))
    for share in (0.0, 0.3, 0.6, 0.9):
        terrain = Terrain.of(board, layout(board, rng, share), RULES)
        state = Visibility.of(board, terrain)
        by_pairs = metrics._lengths_whole(facts, state.clear, terrain.standable)
        by_segments = metrics._lengths_of(facts, state, terrain.standable)
        assert np.array_equal(by_pairs, by_segments)
        stand = np.flatnonzero(terrain.standable)
        assert by_pairs.sum() == np.triu(state.clear[np.ix_(stand, stand)], 1).sum()
        longest = int(np.flatnonzero(by_pairs)[-1]) if by_pairs.any() else 0
        assert metrics._longest(state, terrain.standable) == longest


def test_an_edit_that_moves_lines_counts_them_by_length_from_then_on():
    board = BOARDS["20x20"]
    kinds = layout(board, random.Random(2), 0.45)
    forget_kept_states()
    check_table(TableSpec(board, kinds), RULES, before=kinds)
    assert metrics._kept[metrics._key(board, Terrain.of(board, kinds, RULES))].lengths is None
    new = _edited(board, kinds, [(0.5, "blocking"), (0.25, None)])
    check_table(TableSpec(board, new), RULES, before=kinds)
    lengths = metrics._kept[metrics._key(board, Terrain.of(board, new, RULES))].lengths
    whole = check_table(TableSpec(board, new), RULES)
    terrain = Terrain.of(board, new, RULES)
    assert lengths is not None and np.array_equal(
        lengths, metrics._lengths_whole(metrics._board_facts(board), whole.clear, terrain.standable)
    )


edits = st.lists(
    st.tuples(st.floats(0, 1, exclude_max=True), st.sampled_from([None, *KINDS])),
    min_size=1,
    max_size=4,
)


def _edited(board: Board, start: dict[int, str], changes) -> dict[int, str]:
    result = dict(start)
    for where, kind in changes:
        index = int(where * len(board))
        if kind is None:
            result.pop(index, None)
        else:
            result[index] = kind
    return result


def _agrees_after_edits(board: Board, kinds: dict[int, str], steps) -> None:
    forget_kept_states()
    check_table(TableSpec(board, kinds), RULES, before=kinds)  # kept, as a page leaves it
    for changes in steps:
        new = _edited(board, kinds, changes)
        table = TableSpec(board, new)
        updated = check_table(table, RULES, before=kinds)
        lengths = metrics._kept[metrics._key(board, Terrain.of(board, new, RULES))].lengths
        forget_kept_states()
        whole = check_table(table, RULES)
        assert updated.as_dict() == whole.as_dict()
        assert updated.unreachable == whole.unreachable and updated.lanes == whole.lanes
        assert np.array_equal(updated.clear, whole.clear)
        terrain = Terrain.of(board, new, RULES)
        # Counted by length once an edit needed them (a change of cover alone moves no line).
        assert lengths is None or np.array_equal(
            lengths,
            metrics._lengths_whole(metrics._board_facts(board), whole.clear, terrain.standable),
        )
        check_table(table, RULES, before=kinds)  # kept again for the next step
        kinds = new


@settings(max_examples=examples(60), deadline=None)
@given(
    name=st.sampled_from(sorted(BOARDS)),
    seed=st.integers(0, 10_000),
    share=st.sampled_from([0.0, 0.3, 0.6]),
    steps=st.lists(edits, min_size=1, max_size=4),
)
def test_a_check_brought_up_to_date_after_edits_equals_a_whole_check(name, seed, share, steps):
    board = BOARDS[name]
    _agrees_after_edits(board, layout(board, random.Random(seed), share), steps)


@settings(max_examples=examples(6), deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.lists(edits, min_size=1, max_size=3))
def test_a_check_brought_up_to_date_on_the_largest_board_equals_a_whole_check(seed, steps):
    _agrees_after_edits(LARGEST, layout(LARGEST, random.Random(seed), 0.45), steps)


def test_the_kept_state_is_used_for_an_edit_of_a_large_board(monkeypatch):
    board = BOARDS["20x20"]
    kinds = layout(board, random.Random(1), 0.45)
    forget_kept_states()
    check_table(TableSpec(board, kinds), RULES, before=kinds)
    monkeypatch.setattr(
        metrics.Visibility, "of", lambda *a: pytest.fail("checked every line again")
    )
    new = _edited(board, kinds, [(0.5, "blocking")])
    check_table(TableSpec(board, new), RULES, before=kinds)


def test_a_state_a_few_edits_old_is_brought_up_to_date_not_checked_whole(monkeypatch):
    """As on a server's other worker, which kept the table as it was two edits ago: the
    edit's check changes that state (exactly) instead of checking every line again."""
    board = BOARDS["20x20"]
    rng = random.Random(2)
    kinds = layout(board, rng, 0.45)
    first = _edited(board, kinds, [(0.4, "blocking")])
    second = _edited(board, first, [(0.6, None)])
    forget_kept_states()
    whole = check_table(TableSpec(board, second), RULES)
    forget_kept_states()
    check_table(TableSpec(board, kinds), RULES)  # the other worker's last sight of it
    check_table(TableSpec(board, layout(board, random.Random(9), 0.45)), RULES)  # another
    with monkeypatch.context() as patched:
        patched.setattr(metrics.Visibility, "of", lambda *a: pytest.fail("checked whole"))
        updated = check_table(TableSpec(board, second), RULES, before=first)
    assert updated.as_dict() == whole.as_dict() and np.array_equal(updated.clear, whole.clear)
    # Nothing within INCREMENTAL_HEXES of it kept: checked whole.
    far = layout(board, random.Random(3), 0.45)
    assert check_table(TableSpec(board, far), RULES, before=second).as_dict() == (
        check_table(TableSpec(board, far), RULES).as_dict()
    )


def test_a_whole_check_of_a_large_table_imports_nothing_new():
    """A server's first check of a large board pays for its lines, not for imports: numpy's
    np.unique imports numpy.ma on its first call, 30 ms, a third of the cold check's
    budget. In a new process (as a server's worker), after standard tables were checked."""
    import subprocess
    import sys

    script = (
        "import sys, random\n"
        "from onefinity.rules import current_ruleset\n"
        "from onefinity.rules.hexgrid import Board, rows_by_columns, standard_board\n"
        "from tablegen.engine.metrics import check_table\n"
        "from tablegen.engine.tables import TableSpec\n"
        "rules = current_ruleset().table\n"
        "def layout(board, seed):\n"
        "    rng = random.Random(seed)\n"
        "    kinds = ['blocking', 'elevated', 'cover']\n"
        "    return {k: rng.choice(kinds) for k in rng.sample(range(len(board)), len(board) // 2)}\n"
        "small = standard_board(rules.rows, rules.columns)\n"
        "check_table(TableSpec(small, layout(small, 1)), rules)\n"
        "before = set(sys.modules)\n"
        "big = Board.of(rows_by_columns(40, 40))\n"
        "check_table(TableSpec(big, layout(big, 2)), rules)\n"
        "print(sorted(m for m in set(sys.modules) - before if m.startswith('numpy')))\n"
    )
    found = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert found == "[]"
