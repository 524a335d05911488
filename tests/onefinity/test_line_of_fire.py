"""Line of fire: hand-made cases for each clause of the policy, laws that must hold, and
agreement with an independent shapely reference."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from onefinity.rules import current_ruleset
from onefinity.rules.hexgrid import Board, BoardError, distance, rows_by_columns, standard_board
from onefinity.rules.lineoffire import Terrain, line_of_fire
from onefinity.rules.lineoffire import _board_geometry as board_geometry
from onefinity.rules.lineoffire import _visibility_by_pairs as visibility
from tests.conftest import examples
from tests.onefinity.lineoffire_reference import reference_clear

RULES = current_ruleset().table
BOARD = standard_board(RULES.rows, RULES.columns)
GEOMETRY = board_geometry(BOARD)


def terrain(**kinds: list[tuple[int, int]]) -> Terrain:
    return Terrain.of(
        BOARD, {BOARD.index[h]: kind for kind, hexes in kinds.items() for h in hexes}, RULES
    )


def clear(t: Terrain, a, b) -> bool:
    result = line_of_fire(BOARD, t, a, b)
    matrix = visibility(GEOMETRY, t)
    assert matrix[BOARD.index[a], BOARD.index[b]] == result.clear, (
        "fast and explaining paths disagree"
    )
    assert reference_clear(BOARD, t, a, b) == result.clear, "the shapely reference disagrees"
    return result.clear


def test_the_standard_board_is_104_hexes_in_rows_of_9_and_10():
    assert len(BOARD) == 104
    rows = [sum(1 for _, r in BOARD.hexes if r == row) for row in range(11)]
    assert rows == [9, 10] * 5 + [9]
    assert BOARD.hexes[0] == (0, 0) and (-5, 10) in BOARD and (8, 0) in BOARD


def test_a_line_through_a_hex_is_blocked_by_blocking_terrain():
    t = terrain(blocking=[(0, 4)])
    assert not clear(t, (2, 4), (-3, 5))
    assert line_of_fire(BOARD, t, (2, 4), (-3, 5)).blocked_by == ((0, 4),)


def test_touching_a_corner_does_not_block():
    # (2,4) -> (-3,5) passes exactly through a corner of (-1,4) and one of (0,5).
    assert clear(terrain(blocking=[(-1, 4), (0, 5)]), (2, 4), (-3, 5))


def test_a_side_shared_by_two_blocking_hexes_blocks():
    # (0,0) -> (1,1) runs along the side between (1,0) and (0,1).
    t = terrain(blocking=[(1, 0), (0, 1)])
    result = line_of_fire(BOARD, t, (0, 0), (1, 1))
    assert (
        not result.clear and result.blocked_by == () and result.blocked_along == (((1, 0), (0, 1)),)
    )
    assert clear(terrain(blocking=[(1, 0), (0, 1)]), (0, 0), (1, 1)) is False


def test_running_along_the_outer_side_of_one_blocking_hex_does_not_block():
    assert clear(terrain(blocking=[(1, 0)]), (0, 0), (1, 1))
    assert clear(terrain(blocking=[(0, 1)], cover=[(1, 0)]), (0, 0), (1, 1))


def test_a_shared_side_blocks_only_when_both_hexes_would_block():
    # Elevated (height 1) and blocking (height 2) both block a ground-to-ground line...
    assert not clear(terrain(blocking=[(1, 0)], elevated=[(0, 1)]), (0, 0), (1, 1))
    # ...but from an elevated end only the blocking one would, so the side does not.
    assert clear(terrain(blocking=[(1, 0)], elevated=[(0, 1), (0, 0)]), (0, 0), (1, 1))


def test_elevated_terrain_blocks_ground_to_ground_lines_only():
    assert not clear(terrain(elevated=[(0, 4)]), (2, 4), (-3, 5))
    assert clear(terrain(elevated=[(0, 4), (2, 4)]), (2, 4), (-3, 5))  # shooter on a platform
    assert clear(terrain(elevated=[(0, 4), (-3, 5)]), (2, 4), (-3, 5))  # target on a platform
    assert not clear(terrain(blocking=[(0, 4)], elevated=[(2, 4)]), (2, 4), (-3, 5))


def test_cover_never_blocks():
    assert clear(terrain(cover=[(0, 4), (1, 4), (-2, 5), (-1, 5)]), (2, 4), (-3, 5))


def test_end_hexes_never_block_and_adjacent_hexes_always_see_each_other():
    t = terrain(blocking=[(2, 4), (-3, 5)])
    assert line_of_fire(BOARD, t, (2, 4), (-3, 5)).clear
    surrounded = terrain(blocking=[(1, 4), (3, 3), (2, 3), (1, 5)])
    assert clear(surrounded, (2, 4), (3, 4))


def test_about_a_quarter_of_lines_pass_exactly_through_corners_or_along_sides():
    # The reason sampling points along a line is not good enough.
    from onefinity.rules.hexgrid import CORNERS, crosses_interior, orient

    touching = 0
    pairs = 0
    for i, a in enumerate(BOARD.centres):
        for j in range(i + 1, len(BOARD)):
            b = BOARD.centres[j]
            pairs += 1
            for k, c in enumerate(BOARD.centres):
                if k in (i, j):
                    continue
                on_line = [
                    (c[0] + dx, c[1] + dy)
                    for dx, dy in CORNERS
                    if orient(*a, *b, c[0] + dx, c[1] + dy) == 0
                    and min(a[0], b[0]) <= c[0] + dx <= max(a[0], b[0])
                    and min(a[1], b[1]) <= c[1] + dy <= max(a[1], b[1])
                ]
                if on_line and not crosses_interior(a, b, c):
                    touching += 1
                    break
    assert 0.15 < touching / pairs < 0.45


# --- Laws -------------------------------------------------------------------------------------

kinds = st.sampled_from(["blocking", "elevated", "cover"])
layouts = st.dictionaries(st.integers(0, len(BOARD) - 1), kinds, max_size=60)


@settings(max_examples=examples(60), deadline=None)
@given(layouts)
def test_a_sees_b_exactly_when_b_sees_a(layout):
    matrix = visibility(GEOMETRY, Terrain.of(BOARD, layout, RULES))
    assert np.array_equal(matrix, matrix.T)


@settings(max_examples=examples(60), deadline=None)
@given(layouts, st.integers(0, len(BOARD) - 1))
def test_adding_blocking_terrain_never_clears_a_line(layout, extra):
    before = visibility(GEOMETRY, Terrain.of(BOARD, layout, RULES))
    after = visibility(GEOMETRY, Terrain.of(BOARD, {**layout, extra: "blocking"}, RULES))
    others = np.ones(len(BOARD), dtype=bool)
    others[extra] = False  # lines ending on the new hex change level, so leave them out
    assert not np.any(after[np.ix_(others, others)] & ~before[np.ix_(others, others)])


@settings(max_examples=examples(60), deadline=None)
@given(layouts, st.data())
def test_removing_terrain_never_blocks_a_line(layout, data):
    if not layout:
        return
    removed = data.draw(st.sampled_from(sorted(layout)))
    before = visibility(GEOMETRY, Terrain.of(BOARD, layout, RULES))
    smaller = {k: v for k, v in layout.items() if k != removed}
    after = visibility(GEOMETRY, Terrain.of(BOARD, smaller, RULES))
    others = np.ones(len(BOARD), dtype=bool)
    others[removed] = False
    assert not np.any(before[np.ix_(others, others)] & ~after[np.ix_(others, others)])


@pytest.mark.parametrize("seed", range(3))
def test_the_engine_agrees_with_the_shapely_reference_on_every_pair(seed):
    rng = random.Random(seed)
    layout = {
        k: rng.choice(["blocking", "elevated", "cover"]) for k in rng.sample(range(len(BOARD)), 45)
    }
    t = Terrain.of(BOARD, layout, RULES)
    matrix = visibility(GEOMETRY, t)
    for i, a in enumerate(BOARD.hexes):
        for j in range(i + 1, len(BOARD)):
            assert matrix[i, j] == reference_clear(BOARD, t, a, BOARD.hexes[j]), (a, BOARD.hexes[j])


def test_custom_boards_rows_by_columns_and_hex_lists():
    board = Board.of(rows_by_columns(4, 3))
    assert len(board) == 3 + 4 + 3 + 4
    geometry = board_geometry(board)
    assert len(geometry.pair_i) == len(board) * (len(board) - 1) // 2
    with pytest.raises(BoardError, match="at least 2 rows"):
        Board.of([(0, 0), (1, 0)])
    with pytest.raises(BoardError, match="listed twice"):
        Board(((0, 0), (0, 1), (0, 1)))


def test_hex_distance():
    assert distance((0, 0), (0, 0)) == 0
    assert distance((0, 0), (1, 1)) == 2
    assert distance((2, 4), (-3, 5)) == 5


def test_point_and_mirror_symmetry_of_the_standard_board():
    point = BOARD.symmetry("point")
    mirror = BOARD.symmetry("mirror")
    assert point is not None and mirror is not None
    assert BOARD.hexes[point[BOARD.index[(0, 0)]]] == (3, 10)
    assert BOARD.hexes[mirror[BOARD.index[(0, 0)]]] == (-5, 10)
    assert all(point[point[i]] == i for i in range(len(BOARD)))


@pytest.mark.parametrize(
    "hexes",
    [
        rows_by_columns(11, 9),
        rows_by_columns(20, 20),
        rows_by_columns(6, 25),
        # An irregular board with holes: lines may pass over hexes that are not there.
        [h for h in rows_by_columns(14, 14) if (h[0] * 7 + h[1] * 3) % 11],
    ],
    ids=["standard", "20x20", "6x25", "holes"],
)
def test_large_board_patterns_agree_with_the_per_pair_geometry(hexes):
    from onefinity.rules.lineoffire import _visibility_by_patterns as visibility_by_patterns

    board = Board.of(hexes)
    rng = random.Random(len(board))
    for _ in range(3):
        layout = {
            k: rng.choice(["blocking", "elevated", "cover"])
            for k in rng.sample(range(len(board)), len(board) // 2)
        }
        t = Terrain.of(board, layout, RULES)
        assert np.array_equal(
            visibility(board_geometry(board), t), visibility_by_patterns(board, t)
        )


def test_a_1600_hex_board_is_checked_by_direction_patterns():
    from onefinity.rules.lineoffire import PAIR_GEOMETRY_LIMIT
    from onefinity.rules.visibility import board_visibility

    board = Board.of(rows_by_columns(40, 40))
    assert len(board) >= 1600 > PAIR_GEOMETRY_LIMIT
    t = Terrain.of(board, {board.index[(0, 20)]: "blocking"}, RULES)
    matrix = board_visibility(board, t)
    assert matrix.shape == (len(board), len(board)) and np.array_equal(matrix, matrix.T)
    # Spot-check a few pairs against the explaining path.
    for a, b in [((0, 19), (0, 21)), ((-5, 10), (5, 30)), ((0, 0), (-19, 39))]:
        assert matrix[board.index[a], board.index[b]] == line_of_fire(board, t, a, b).clear


def test_patterns_mapped_by_symmetry_equal_the_directly_computed_ones():
    from onefinity.rules.lineoffire import _direction_pattern as direction_pattern
    from onefinity.rules.lineoffire import _direction_pattern_direct as _direction_pattern

    for dq in range(-12, 13):
        for dr in range(-12, 13):
            if (dq, dr) == (0, 0):
                continue
            mapped_crossed, mapped_sides = direction_pattern(dq, dr)
            direct_crossed, direct_sides = _direction_pattern(dq, dr)
            assert {tuple(x) for x in mapped_crossed} == {tuple(x) for x in direct_crossed}, (
                dq,
                dr,
            )
            as_sides = lambda rows: {frozenset({(a, b), (c, d)}) for a, b, c, d in rows}  # noqa: E731
            assert as_sides(mapped_sides) == as_sides(direct_sides), (dq, dr)


def test_vectorised_hex_distances_match_distance():
    from onefinity.rules.hexgrid import hex_distances

    a = np.array(BOARD.hexes[:50], dtype=np.int64)
    b = np.array(BOARD.hexes[-50:], dtype=np.int64)
    assert hex_distances(a, b).tolist() == [
        distance(x, y) for x, y in zip(BOARD.hexes[:50], BOARD.hexes[-50:], strict=True)
    ]


def test_crossed_hexes_are_exactly_the_hexes_whose_interior_the_line_crosses():
    from onefinity.rules.hexgrid import crosses_interior
    from onefinity.rules.lineoffire import crossed_hexes

    for a in BOARD.hexes[::7]:
        for b in BOARD.hexes:
            expected = tuple(
                h
                for h in BOARD.hexes
                if h not in (a, b)
                and crosses_interior(
                    BOARD.centres[BOARD.index[a]],
                    BOARD.centres[BOARD.index[b]],
                    BOARD.centres[BOARD.index[h]],
                )
            )
            assert sorted(crossed_hexes(BOARD, a, b)) == sorted(expected), (a, b)
