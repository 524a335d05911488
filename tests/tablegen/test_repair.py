"""repair_table_document: whatever is stored, a table the reader accepts, keeping what can
be kept, with one line for each change."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from onefinity.rules import current_ruleset
from onefinity.rules.hexgrid import MAX_BOARD_HEXES, Board, rows_by_columns
from tablegen.engine.repair import REPAIRED_NAME, repair_table_document
from tablegen.engine.tables import TableSpec, read_table_document, table_document
from tests.conftest import examples

RULES = current_ruleset().table
BOARD = Board.of(rows_by_columns(4, 4))
GOOD = table_document(TableSpec(BOARD, {0: "cover", 5: "blocking"}, "Garage", 7, {"coverage": 0.4}))


def reads(spec: TableSpec) -> TableSpec:
    return read_table_document(table_document(spec), RULES)


def test_a_table_that_reads_is_kept_as_it_is():
    spec, changes = repair_table_document(GOOD, RULES)
    assert changes == () and table_document(spec) == GOOD


def test_terrain_off_the_board_of_unknown_kinds_twice_or_malformed_is_dropped():
    terrain = [
        *GOOD["terrain"],
        {"hex": [50, 50], "kind": "cover"},
        {"hex": [1, 0], "kind": "lava"},
        {"hex": [0, 0], "kind": "elevated"},
        {"hex": "here", "kind": "cover"},
        "rubble",
    ]
    spec, changes = repair_table_document(GOOD | {"terrain": terrain}, RULES)
    assert spec.terrain == {0: "cover", 5: "blocking"}
    assert "terrain: dropped 1 entry off the board" in changes
    assert "terrain: dropped 1 entry of an unknown kind" in changes
    assert "terrain: dropped 1 entry for a hex that already has terrain" in changes
    assert "terrain: dropped 2 entries that are not a hex and a kind" in changes


def test_a_name_with_control_characters_or_too_long_is_mended():
    spec, changes = repair_table_document(GOOD | {"name": "Old\x01table\t two"}, RULES)
    assert spec.name == "Old table two"
    assert changes == ("name: removed control characters",)
    spec, changes = repair_table_document(GOOD | {"name": "x" * 130}, RULES)
    assert spec.name == "x" * 120 and changes == ("name: cut to 120 characters",)
    spec, changes = repair_table_document(GOOD | {"name": 5}, RULES)
    assert spec.name == REPAIRED_NAME and changes == ("name: not text, replaced",)


def test_a_board_over_the_limits_is_cropped():
    spec, changes = repair_table_document({"board": {"rows": 1249, "columns": 1}}, RULES)
    assert len({r for _, r in spec.board.hexes}) == 40
    assert changes == ("board: 1249 x 1 is over the limit of 40 x 40; cropped to 40 x 1",)
    spread = {"board": {"hexes": [[0, 10 * k] for k in range(20)] + [[1, 0], [1, 10]]}}
    spec, changes = repair_table_document(spread, RULES)
    assert spec.board.hexes == ((0, 0), (1, 0), (0, 10), (1, 10), (0, 20), (0, 30))
    assert changes == ("board: kept 6 of 22 hexes, the part within 40 rows by 40 columns",)


def test_a_board_that_cannot_be_read_is_replaced_by_the_standard_board():
    spec, changes = repair_table_document(GOOD | {"board": {"rows": "x"}}, RULES)
    assert spec.board.standard
    assert changes[0].startswith("board: ") and changes[0].endswith("the standard board used")
    # Terrain that fits the standard board is kept.
    assert spec.terrain


def test_a_seed_params_and_unknown_keys_the_reader_refuses_are_dropped():
    document = GOOD | {"seed": -3, "params": {"coverage": 9, "mix": "urban", "x": 1}, "y": 2}
    spec, changes = repair_table_document(document, RULES)
    assert spec.seed is None
    assert spec.params == {"mix": "urban"}
    assert set(changes) == {
        "dropped unknown keys: y",
        "seed: dropped (not a whole number from 0 to 2^63 - 1)",
        "params: dropped coverage, x",
    }


def test_something_that_is_not_a_table_document_becomes_an_empty_standard_board():
    spec, changes = repair_table_document(["not", "a", "table"], RULES)
    assert spec.board.standard and spec.terrain == {} and spec.name == REPAIRED_NAME
    assert changes == ("not a table document: an empty standard board instead",)


def test_a_huge_stored_hex_list_is_bounded():
    hexes = [[q, r] for r in range(60) for q in range(60)]
    spec, changes = repair_table_document({"board": {"hexes": hexes}}, RULES)
    assert len(spec.board) <= MAX_BOARD_HEXES
    assert changes == ("board: kept 1240 of 3600 hexes, the part within 40 rows by 40 columns",)
    reads(spec)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=20,
)
PARTS = st.fixed_dictionaries(
    {},
    optional={
        "format": JSON,
        "version": JSON,
        "name": st.text(max_size=130) | JSON,
        "board": JSON
        | st.fixed_dictionaries({"rows": st.integers(-5, 60), "columns": st.integers(-5, 60)})
        | st.fixed_dictionaries(
            {"hexes": st.lists(st.lists(st.integers(-50, 50), min_size=2, max_size=2), max_size=60)}
        ),
        "terrain": JSON
        | st.lists(
            st.fixed_dictionaries(
                {
                    "hex": st.lists(st.integers(-12, 12), min_size=2, max_size=2) | JSON,
                    "kind": st.sampled_from(["cover", "elevated", "blocking", "lava"]) | JSON,
                }
            ),
            max_size=20,
        ),
        "seed": JSON,
        "params": JSON,
    },
)


@settings(max_examples=examples(300), deadline=None)
@given(document=PARTS | JSON)
def test_repair_never_raises_and_what_it_makes_always_reads(document):
    spec, changes = repair_table_document(document, RULES)
    assert reads(spec) == spec
    assert isinstance(changes, tuple)
