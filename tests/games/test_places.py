"""A game names and takes hexes one way, the players' way, as the map's own hex names say:
the row counted from side A's table edge, the column from the left of that row ("Row 3
from side A, column 5"), typed as "3,5" or "3 5". The stored state and steps keep axial
coordinates, and the contract's ``hex`` field ("q,r") still places by them."""

from __future__ import annotations

import json
import re

import pytest

from games.models import Game, GameRefusal, GameStep
from games.places import Places
from onefinity.rules.hexgrid import Board, rows_by_columns
from tablegen.engine.render import places
from tests.games.test_playing import alice as alice  # fixtures
from tests.games.test_playing import bob as bob
from tests.games.test_playing import game as game
from tests.games.test_playing import ids, signed_in, state, step

# --- Reading and naming, on a board of its own ------------------------------------------------

# 12 rows from side A: the first 8 hexes long, the second 9 (starting at q = -1), and so on.
BOARD = Board.of(rows_by_columns(12, 8))
PLACES = Places(BOARD)
RANGES = "the row from side A (1 to 12), then the column (1 to 8 or 9, by the row)"


def refusal(text: str, places_: Places = PLACES) -> str:
    with pytest.raises(GameRefusal) as refused:
        places_.read(text)
    assert refused.value.status == 400
    return str(refused.value)


@pytest.mark.parametrize(
    ("typed", "hex_"),
    [
        ("1,1", (0, 0)),  # side A's edge, first and last column
        ("1,8", (7, 0)),
        ("2,1", (-1, 1)),  # a long row starts half a hex further left
        ("2,9", (7, 1)),
        ("12,1", (-6, 11)),  # side B's edge
        ("12,9", (2, 11)),
        ("3,5", (3, 2)),
    ],
)
def test_the_first_and_last_row_and_column_read_as_the_map_names_them(typed, hex_):
    assert PLACES.read(typed) == hex_
    assert PLACES.typed(hex_) == typed
    row, column = typed.split(",")
    assert PLACES.name(hex_) == f"Row {row} from side A, column {column}"


def test_every_hex_reads_back_from_its_typed_place_and_is_named_as_the_map_names_it():
    named = places(BOARD)
    for i, hex_ in enumerate(BOARD.hexes):
        assert PLACES.read(PLACES.typed(hex_)) == hex_
        assert PLACES.name(hex_) == named[i]


@pytest.mark.parametrize(
    "typed",
    [" 3,5 ", "3 5", "3, 5", "3 ,5", "3  ,  5", "3\t5", "03,05", " " * 100 + "3,5" + " " * 100],
)
def test_spaces_around_or_instead_of_the_comma_are_taken(typed):
    assert PLACES.read(typed) == PLACES.read("3,5")
    assert PLACES.find(typed) == PLACES.read("3,5")


@pytest.mark.parametrize(
    ("typed", "words"),
    [
        ("0,1", "Hex: there is no row 0; the rows from side A are 1 to 12."),
        ("13,1", "Hex: there is no row 13; the rows from side A are 1 to 12."),
        ("999,1", "Hex: there is no row 999; the rows from side A are 1 to 12."),
        ("1,0", "Hex: row 1 from side A has columns 1 to 8, not 0."),
        ("1,9", "Hex: row 1 from side A has columns 1 to 8, not 9."),  # a short row
        ("2,10", "Hex: row 2 from side A has columns 1 to 9, not 10."),  # a long one
        ("12,10", "Hex: row 12 from side A has columns 1 to 9, not 10."),
    ],
)
def test_a_hex_off_the_board_is_refused_naming_the_rows_or_the_rows_columns(typed, words):
    assert refusal(typed) == words
    assert PLACES.find(typed) is None


@pytest.mark.parametrize(
    "typed",
    [
        "",
        " ",
        "3",
        "3,",
        ",5",
        "3,5,1",
        "-1,3",  # axial coordinates' minus sign means nothing here
        "3;5",
        "3.5",
        "row 3, column 5",
        "1234,1",
        "\u0663,\u0665",  # digits, but not ASCII ones
        "3\n,5x",
        "1" * 400,
        "3,5" + "0" * 100,
    ],
)
def test_anything_else_is_refused_naming_the_ranges(typed):
    assert refusal(typed) == f"Hex: type {RANGES}, like 3,5."
    assert PLACES.find(typed) is None


def test_a_board_with_rows_of_many_lengths_or_none_says_so():
    # Rows 0 and 2 of 1 and 3 hexes, row 1 empty, row 3 of 2 hexes.
    board = Board.of([(0, 0), (0, 2), (1, 2), (2, 2), (0, 3), (1, 3)])
    odd = Places(board)
    assert odd.read("3,3") == (2, 2) and odd.read("4,2") == (1, 3)
    assert refusal("2,1", odd) == "Hex: row 2 from side A has no hexes on this table's map."
    assert refusal("x", odd) == (
        "Hex: type the row from side A (1 to 4), then the column (1 to at most 3, by the row), "
        "like 3,5."
    )
    square = Places(Board.of([(q, r) for r in range(3) for q in range(4)]))
    assert refusal("x", square).endswith("then the column (1 to 4), like 3,5.")
    assert square.name((9, 9)) == "off this table's map" and square.typed((9, 9)) == ""


# --- A game's page and steps -------------------------------------------------------------------


def _placing(game: Game, client) -> str:
    """Side A active with AP, its first infantry trooper on the table (not yet placed)."""
    current = state(client, game)
    mine = ids(current, "a", "medium-infantry")[0]
    step(client, game, kind="first", side="a")
    step(client, game, kind="ap", value="13")
    step(client, game, kind="act", trooper=mine, action="move")
    return mine


def _game_places(game: Game) -> Places:
    from games.table_odds import table_spec

    return Places(table_spec(game, game.ruleset()).board)


def _standable_typed(game: Game) -> list[str]:
    """Every hex a trooper may stand on, typed as the players count it."""
    places_ = _game_places(game)
    return [places_.typed(tuple(h)) for h in game.state["board"]]


def _hex_of(trooper: str) -> tuple[int, int] | None:
    stored = Game.objects.get()
    return next(t.hex for t in stored.game_state().troopers if t.id == trooper)


@pytest.mark.django_db
def test_the_place_form_places_on_the_hex_typed_as_row_and_column(game, alice):
    a = signed_in(alice)
    mine = _placing(game, a)
    places_ = _game_places(game)
    typed = sorted(_standable_typed(game), key=lambda t: tuple(map(int, t.split(","))))
    first, last = typed[0], typed[-1]
    for text in (first, last.replace(",", " ")):
        response = step(a, game, kind="place", trooper=mine, row_column=text)
        assert response.status_code == 200, response.content
        hex_ = _hex_of(mine)
        assert hex_ is not None and places_.typed(hex_) == text.replace(" ", ",")
    # The stored step keeps the axial coordinates; its words are the map's name of the hex.
    kept = GameStep.objects.filter(game=game).order_by("-number").first()
    assert kept is not None and kept.step["hex"] == f"{hex_[0]},{hex_[1]}"
    name = next(t["name"] for t in state(a, game)["troopers"] if t["id"] == mine)
    assert kept.description == f"{name} placed on {places_.name(hex_)}"
    assert re.search(r"\(-?\d+, -?\d+\)", kept.description) is None


@pytest.mark.django_db
def test_bad_typed_hexes_are_400_naming_the_ranges_and_change_nothing(game, alice):
    a = signed_in(alice)
    mine = _placing(game, a)
    board = _game_places(game).board
    rows = board.last_row - board.first_row + 1
    before = Game.objects.get().version
    for text in ("", "garbage", f"{rows + 1},1", "0,0", "1,99", "-1,2", "1" * 400):
        response = step(a, game, kind="place", trooper=mine, row_column=text)
        assert response.status_code == 400, text
        error = json.loads(response.content)["error"]
        assert error.startswith("Hex: ") and "from side A" in error, error
        assert re.search(r"\b1 to \d+", error), error  # the allowed range
    assert Game.objects.get().version == before and _hex_of(mine) is None
    # The page without JavaScript: the reason on the page, the game where it was.
    page = a.post(
        f"/games/{game.code}/steps/",
        {"version": before, "kind": "place", "trooper": mine, "row_column": f"{rows + 1},1"},
    )
    assert page.status_code == 400
    assert f"Hex: there is no row {rows + 1}; the rows from side A are 1 to {rows}." in (
        page.content.decode()
    )
    assert Game.objects.get().version == before


@pytest.mark.django_db
def test_a_hex_nobody_stands_on_is_refused_by_its_name(game, alice):
    a = signed_in(alice)
    mine = _placing(game, a)
    places_ = _game_places(game)
    standable = {tuple(h) for h in game.state["board"]}
    blocking = next(h for h in places_.board.hexes if h not in standable)
    before = Game.objects.get().version
    response = step(a, game, kind="place", trooper=mine, row_column=places_.typed(blocking))
    assert response.status_code == 400
    assert json.loads(response.content)["error"] == (
        f"Hex: {places_.name(blocking)} is not a hex a trooper may stand on "
        "(terrain nobody enters)."
    )
    assert Game.objects.get().version == before


@pytest.mark.django_db
def test_the_contracts_hex_field_still_places_by_axial_coordinates(game, alice):
    """Tools and steps a phone kept offline from an older page send ``hex`` as "q,r"."""
    a = signed_in(alice)
    mine = _placing(game, a)
    hex_ = tuple(sorted(tuple(h) for h in game.state["board"])[0])
    assert step(a, game, kind="place", trooper=mine, hex=f"{hex_[0]},{hex_[1]}").status_code == 200
    assert _hex_of(mine) == hex_
    refused = step(a, game, kind="place", trooper=mine, hex="3 5")
    assert refused.status_code == 400
    assert json.loads(refused.content)["error"] == "hex must be 'q,r', like '3,4'"


@pytest.mark.django_db
def test_the_page_names_every_hex_as_the_map_does(game, alice, bob):
    """The trooper's line, the place field (its label and value), a tapped hex's note, the
    odds panel's target: each names the hex as the map's own title for it."""
    a, b = signed_in(alice), signed_in(bob)
    mine = _placing(game, a)
    places_ = _game_places(game)
    typed = _standable_typed(game)
    step(a, game, kind="place", trooper=mine, row_column=typed[0])
    step(b, game, kind="pass")
    step(b, game, kind="ap", value="13")
    theirs = ids(state(b, game), "b", "medium-infantry")[0]
    step(b, game, kind="act", trooper=theirs, action="move")
    assert step(b, game, kind="place", trooper=theirs, row_column=typed[-1]).status_code == 200
    mine_at, theirs_at = _hex_of(mine), _hex_of(theirs)
    assert mine_at is not None and theirs_at is not None
    mine_name, theirs_name = places_.name(mine_at), places_.name(theirs_at)

    tapped = typed[len(typed) // 2]
    html = a.get(f"/games/{game.code}/", {"trooper": mine, "at": tapped}).content.decode()
    # The map's own titles for the two hexes, and the page's words for them.
    assert f"<title>{mine_name}: " in html and f"<title>{theirs_name}: " in html
    assert f"· {mine_name}</span>" in html and f"· {theirs_name}</span>" in html
    assert ">Hex (row from side A, column): tap the map</label>" in html
    assert f'name="row_column" size="6" maxlength="12" value="{tapped}"' in html
    assert f"{places_.name(places_.read(tapped))} chosen: press Place" in html
    assert f"({theirs_name})</option>" in html
    # The map's links carry the hex as the place field takes it.
    assert f"at={typed[0].replace(',', '%2C')}" in html
    # No axial coordinates anywhere a player reads.
    visible = re.sub(r"<svg.*?</svg>", "", html, flags=re.DOTALL)
    assert not re.search(r"hex -?\d+,-?\d+", visible) and "(hex" not in visible
    assert "Hex (q,r)" not in visible
    # Without a tap, the field holds where the trooper stands.
    html = a.get(f"/games/{game.code}/", {"trooper": mine}).content.decode()
    assert f'name="row_column" size="6" maxlength="12" value="{typed[0]}"' in html


@pytest.mark.django_db
def test_a_blocked_line_of_fire_names_its_blockers_as_the_map_does(game, alice):
    from games.table_odds import table_spec
    from onefinity.rules.map_odds import read_map

    a = signed_in(alice)
    mine = _placing(game, a)
    table = table_spec(game, game.ruleset())
    places_ = Places(table.board)
    standable = sorted(tuple(h) for h in game.state["board"])
    source = standable[len(standable) // 3]
    blocked, reading = next(
        (h, r)
        for h in standable
        if not (r := read_map(table.board, table.terrain, game.ruleset(), source, h)).clear
        and r.blocked_by
    )
    theirs = ids(state(a, game), "b", "medium-infantry")[0]
    step(a, game, kind="place", trooper=mine, row_column=places_.typed(source))
    step(a, game, kind="pass")
    step(a, game, kind="ap", value="13")
    step(a, game, kind="act", trooper=theirs, action="move")
    step(a, game, kind="place", trooper=theirs, row_column=places_.typed(blocked))
    query = {"trooper": mine, "target": theirs, "mode": "shooting"}
    html = a.get(f"/games/{game.code}/", query).content.decode()
    blockers = "; ".join(places_.name(h) for h in reading.blocked_by)
    assert f"No line of fire: {blockers} block" in html
    assert "hex -" not in html and not re.search(r"hex -?\d+,-?\d+", html)


@pytest.mark.django_db
def test_the_log_names_a_placing_by_the_maps_name_older_steps_too(game, alice):
    """A placing logged before the change said its hex in axial coordinates: the page, the
    undo button and log.json say it the players' way; the stored words are left alone."""
    a = signed_in(alice)
    mine = _placing(game, a)
    places_ = _game_places(game)
    hex_ = tuple(sorted(tuple(h) for h in game.state["board"])[0])
    assert step(a, game, kind="place", trooper=mine, hex=f"{hex_[0]},{hex_[1]}").status_code == 200
    kept = GameStep.objects.filter(game=game).order_by("-number").first()
    assert kept is not None
    name = kept.description.split(" placed on ")[0]
    old = f"{name} placed on ({hex_[0]}, {hex_[1]})"
    GameStep.objects.filter(pk=kept.pk).update(description=old)
    words = f"{name} placed on {places_.name(hex_)}"

    html = a.get(f"/games/{game.code}/").content.decode()
    assert f"Undo: {words}</button>" in html and f"</span> {words}</li>" in html
    assert old not in html
    log = json.loads(a.get(f"/games/{game.code}/log.json").content)["steps"]
    assert log[-1]["words"] == words and log[-1]["step"]["hex"] == f"{hex_[0]},{hex_[1]}"
    assert GameStep.objects.get(pk=kept.pk).description == old
    # Undo says what it took back the same way (the page without JavaScript: a message).
    version = Game.objects.get().version
    undone = a.post(f"/games/{game.code}/undo/", {"version": version}, follow=True)
    assert f"Undone: {words}." in undone.content.decode()


def test_the_new_game_address_opened_leads_to_the_games_page(owner_client):
    response = owner_client.get("/games/new/")
    assert response.status_code == 302 and response["Location"] == "/games/"


@pytest.mark.django_db
def test_placing_a_trooper_still_off_the_table_says_how_it_comes_on(game, alice):
    a = signed_in(alice)
    current = state(a, game)
    waiting = ids(current, "a", "medium-infantry")[0]
    step(a, game, kind="first", side="a")
    step(a, game, kind="ap", value="13")
    response = step(a, game, kind="place", trooper=waiting, row_column=_standable_typed(game)[0])
    assert response.status_code == 400
    assert "is off the table: its first action brings it on, then place it" in (
        response.content.decode()
    )


@pytest.mark.django_db
def test_a_refused_typed_hex_stays_in_its_field(game, alice):
    a = signed_in(alice)
    mine = _placing(game, a)
    response = a.post(
        f"{game.get_absolute_url()}steps/",
        {
            "version": Game.objects.get().version,
            "kind": "place",
            "trooper": mine,
            "selected": mine,
            "row_column": "99,1",
        },
    )
    assert response.status_code == 400
    page = response.content.decode()
    assert "there is no row 99" in page and 'value="99,1"' in page
