"""The editor's palette at the door: library pieces stamped with a turn, whole pieces
removed, strokes of several hexes painted as one change. Every one is a compare-and-swap on
the table's version, undone as one change, refused with a clear message that changes
nothing, and only the owner's."""

from __future__ import annotations

import re

import pytest

from onefinity.rules import current_ruleset
from tablegen.engine.library import terrain_library
from tablegen.models import Table

pytestmark = pytest.mark.django_db

RULES = current_ruleset().table
LIBRARY = terrain_library(tuple(RULES.terrain))
HTMX = {"HX-Request": "true"}


@pytest.fixture
def table(owner_client, owner) -> Table:
    """An empty standard board (11 x 9, 104 hexes)."""
    owner_client.post("/tables/empty/", {"name": "Garage", "rows": 11, "columns": 9})
    return owner.tables.get()


def click(client, table: Table, query: str, *, htmx: bool = True, **data):
    """A click on a hex (or a stroke) with the palette's settings in the query, as the page
    sends it: with the version the page showed (the current one unless given)."""
    table.refresh_from_db()
    values = {"version": table.version, **data}
    headers = HTMX if htmx else {}
    return client.post(f"/tables/{table.pk}/terrain/?{query}", values, headers=headers)


def terrain(table: Table) -> dict[tuple[int, int], str]:
    table.refresh_from_db()
    spec = table.to_spec()
    return {spec.board.hexes[i]: kind for i, kind in spec.terrain.items()}


def pieces(table: Table) -> list[tuple[str, set[tuple[int, int]]]]:
    table.refresh_from_db()
    spec = table.to_spec()
    return [(p.piece, {spec.board.hexes[i] for i in p.hexes}) for p in spec.placed()]


def cells(piece_id: str, turn: int, anchor: tuple[int, int]) -> dict[tuple[int, int], str]:
    q, r = anchor
    return {(q + dq, r + dr): kind for dq, dr, kind in LIBRARY.pieces[piece_id].cells(turn)}


def unchanged(table: Table, before: tuple[int, object, int]) -> bool:
    table.refresh_from_db()
    return (table.version, table.document, table.revisions.count()) == before


def snapshot(table: Table) -> tuple[int, object, int]:
    table.refresh_from_db()
    return table.version, table.document, table.revisions.count()


# --- Stamping --------------------------------------------------------------------------------


def test_a_click_with_a_piece_sets_it_down_anchored_on_the_hex(owner_client, table):
    version = table.version
    response = click(owner_client, table, "brush=piece:building-5-l", q=2, r=3)
    assert response.status_code == 200
    page = response.content.decode()
    assert page.lstrip().startswith('<div id="table-view"')
    assert "L-shaped building, 5 hexes set down at 2,3." in page
    assert terrain(table) == cells("building-5-l", 0, (2, 3))
    assert pieces(table) == [("building-5-l", set(cells("building-5-l", 0, (2, 3))))]
    assert table.version == version + 1


@pytest.mark.parametrize("turn", [1, 2, 3, 4, 5])
def test_the_turn_in_the_query_turns_the_piece_about_its_anchor(owner_client, table, turn):
    click(owner_client, table, f"brush=piece:building-walkway&turn={turn}", q=2, r=4)
    assert terrain(table) == cells("building-walkway", turn, (2, 4))
    assert terrain(table) != cells("building-walkway", 0, (2, 4))
    assert pieces(table)[0][0] == "building-walkway"


def test_a_piece_set_down_over_terrain_replaces_it(owner_client, table):
    click(owner_client, table, "brush=cover", q=2, r=3)
    click(owner_client, table, "brush=piece:building-4", q=2, r=3)
    assert terrain(table) == cells("building-4", 0, (2, 3))


def test_a_symmetric_stamp_sets_down_the_image_too(owner_client, table):
    response = click(owner_client, table, "brush=piece:building-4&sym=point", q=1, r=1)
    assert "set down at 1,1 (and its point image)." in response.content.decode()
    spec = table.to_spec()
    board, image = spec.board, spec.board.symmetry("point")
    first = frozenset(cells("building-4", 0, (1, 1)))
    second = frozenset(board.hexes[image[board.index[h]]] for h in first)
    placed = pieces(table)
    assert [piece for piece, _ in placed] == ["building-4", "building-4"]
    assert {frozenset(hexes) for _, hexes in placed} == {first, second}
    assert set(terrain(table)) == first | second and not first & second


def test_without_javascript_a_stamp_returns_to_the_map_with_the_piece_still_chosen(
    owner_client, table
):
    response = click(
        owner_client, table, "brush=piece:building-4&turn=1&sym=mirror", htmx=False, q=2, r=2
    )
    assert response.status_code == 302
    assert response["Location"] == (
        f"/tables/{table.pk}/?mode=terrain&brush=piece%3Abuilding-4&turn=1&sym=mirror"
    )
    page = owner_client.get(response["Location"]).content.decode()
    assert "Large building, 4 hexes set down at 2,2 (and its mirror image)." in page
    assert "Turned 60°" in page


def test_without_javascript_the_chosen_hex_shows_where_the_piece_lands_before_it_is_set_down(
    owner_client, table
):
    before = snapshot(table)
    page = owner_client.get(
        f"/tables/{table.pk}/", {"mode": "terrain", "hex": "2,3", "brush": "piece:hill-4"}
    ).content.decode()
    assert "Set the piece down here" in page and unchanged(table, before)
    outlined = set(
        re.findall(
            r'class="hex open highlighted"[^>]*><title>[^<]*</title>[^>]*>[^>]*class="coord"[^>]*>(-?\d+),(-?\d+)<',
            page,
        )
    )
    assert {(int(q), int(r)) for q, r in outlined} == set(cells("hill-4", 0, (2, 3)))
    page = owner_client.get(
        f"/tables/{table.pk}/", {"mode": "terrain", "hex": "3,10", "brush": "piece:hill-4"}
    ).content.decode()
    assert "Hill, 4 hexes does not fit there: part of it is off the table." in page
    assert "Set the piece down here" not in page


# --- The palette ----------------------------------------------------------------------------


def test_the_palette_offers_every_library_piece_by_role_keeping_symmetric_editing(
    owner_client, table
):
    page = owner_client.get(f"/tables/{table.pk}/", {"sym": "point"}).content.decode()
    for role, name, role_pieces in LIBRARY.by_role():
        if role_pieces:
            assert f'<h2 id="role-{role}">{name}</h2>' in page
    for piece in LIBRARY.pieces.values():
        assert f"brush=piece%3A{piece.id}&amp;sym=point" in page
        assert f"<span>{piece.name}</span>" in page
    assert "brush=remove&amp;sym=point" in page and "Remove piece" in page
    # Drawn to one scale: a crate is smaller than a large hill.
    sizes = dict(
        re.findall(
            r'brush=piece%3A([a-z0-9-]+)&amp;sym=point"><span class="piece-thumb"><svg '
            r'width="(\d+)"',
            page,
        )
    )
    assert int(sizes["crate"]) < int(sizes["shack-2"]) < int(sizes["hill-7"])


def test_a_chosen_piece_shows_with_its_turn_and_its_footprint_rides_on_the_map(owner_client, table):
    page = owner_client.get(
        f"/tables/{table.pk}/", {"brush": "piece:building-5-l", "turn": "2"}
    ).content.decode()
    assert 'aria-current="true"><span class="piece-thumb"><svg' in page  # chosen in the list
    assert "L-shaped building, 5 hexes</strong><br>Turned 120°" in page
    footprint = re.search(r'data-footprint="([^"]+)"', page)
    assert footprint is not None
    offsets = {tuple(int(v) for v in cell.split(",")[:2]) for cell in footprint[1].split()}
    assert offsets == {(dq, dr) for dq, dr, _ in LIBRARY.pieces["building-5-l"].cells(2)}
    assert f'data-edit-url="/tables/{table.pk}/terrain/?brush=piece%3Abuilding-5-l&amp;turn=2"' in (
        page
    )


def test_rotate_moves_on_to_the_next_distinct_turn_and_round_pieces_do_not_turn(
    owner_client, table
):
    def rotate_link(query: dict[str, str]) -> str | None:
        page = owner_client.get(f"/tables/{table.pk}/", query).content.decode()
        found = re.search(r'<a href="([^"]+)" class="rotate" data-rotate>', page)
        return found[1] if found else None

    assert "turn=1" in (rotate_link({"brush": "piece:building-5-l"}) or "")
    assert "turn=" not in (rotate_link({"brush": "piece:building-5-l", "turn": "5"}) or "turn=")
    # Two hexes look the same turned half way round: three turns, then back to the first.
    assert LIBRARY.pieces["shack-2"].turns == (0, 1, 2)
    assert "turn=" not in (rotate_link({"brush": "piece:shack-2", "turn": "2"}) or "turn=")
    assert rotate_link({"brush": "piece:building-7"}) is None
    page = owner_client.get(f"/tables/{table.pk}/", {"brush": "piece:crate"}).content.decode()
    assert "The same every way round." in page


@pytest.mark.parametrize(
    ("query", "chosen"),
    [
        ({"brush": "piece:tower"}, None),
        ({"brush": "piece:"}, None),
        (
            {"brush": "piece:building-4", "turn": "9"},
            "Large building, 4 hexes</strong><br>Turned 0°",
        ),
    ],
)
def test_a_page_reads_an_unknown_piece_as_no_brush_and_a_turn_out_of_range_as_none(
    owner_client, table, query, chosen
):
    """A page drawn from an old link still shows (an edit with it is refused: below)."""
    response = owner_client.get(f"/tables/{table.pk}/", {"mode": "terrain", **query})
    assert response.status_code == 200
    page = response.content.decode()
    if chosen is None:
        assert 'class="chosen-piece"' not in page
        assert re.search(r'aria-current="true">Cycle</a>', page)
    else:
        assert chosen in page


# --- Removing --------------------------------------------------------------------------------


def test_remove_piece_takes_the_whole_piece_on_the_hex_away(owner_client, table):
    click(owner_client, table, "brush=piece:building-4", q=2, r=3)
    click(owner_client, table, "brush=piece:wall-2", q=3, r=6)
    response = click(owner_client, table, "brush=remove", q=3, r=4)  # not its anchor
    assert "The piece on 3,4 removed." in response.content.decode()
    assert terrain(table) == cells("wall-2", 0, (3, 6))


def test_symmetric_removing_takes_the_image_piece_away_too(owner_client, table):
    click(owner_client, table, "brush=piece:building-4&sym=point", q=1, r=1)
    click(owner_client, table, "brush=remove&sym=point", q=1, r=1)
    assert terrain(table) == {}


# --- Refusals change nothing ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "hex_", "words"),
    [
        (
            "brush=piece:building-7",
            (3, 10),
            "Hub building, 7 hexes does not fit there: part of it is off the table.",
        ),
        ("brush=piece:building-4", (99, 99), "does not fit there"),
        (
            "brush=piece:building-4&sym=point",
            (1, 4),
            "Large building, 4 hexes would overlap its own image under the symmetry: "
            "set it down further from the middle of the table.",
        ),
        ("brush=remove", (0, 0), "There is no piece on 0,0."),
    ],
)
def test_a_piece_that_cannot_go_there_is_refused_with_why_and_nothing_changes(
    owner_client, table, query, hex_, words
):
    click(owner_client, table, "brush=piece:wall-2", q=0, r=4)
    before = snapshot(table)
    response = click(owner_client, table, query, q=hex_[0], r=hex_[1])
    assert response.status_code == 400
    assert words in response.content.decode()
    assert unchanged(table, before)


def test_a_stamp_from_a_stale_page_is_refused_and_changes_nothing(owner_client, table):
    stale = table.version
    click(owner_client, table, "brush=cover", q=0, r=0)
    before = snapshot(table)
    response = click(owner_client, table, "brush=piece:building-4", q=2, r=3, version=stale)
    assert response.status_code == 409
    assert "changed in another tab" in response.content.decode()
    assert unchanged(table, before)


def test_only_the_owner_may_stamp_remove_or_paint_a_stroke(
    owner_client, stranger_client, client, table
):
    click(owner_client, table, "brush=piece:building-4", q=2, r=3)
    before = snapshot(table)
    for someone in (stranger_client, client):
        for query, data in (
            ("brush=piece:building-4", {"q": 5, "r": 6}),
            ("brush=remove", {"q": 2, "r": 3}),
            ("brush=blocking", {"hexes": "0,0 1,0"}),
        ):
            assert click(someone, table, query, **data).status_code == 404
    assert unchanged(table, before)


# --- Undo -------------------------------------------------------------------------------------


def test_a_stamp_and_a_removal_are_each_undone_as_one_change(owner_client, table):
    click(owner_client, table, "brush=piece:building-4&sym=point", q=1, r=1)
    stamped = terrain(table)
    click(owner_client, table, "brush=remove&sym=point", q=1, r=1)
    assert terrain(table) == {}
    owner_client.post(f"/tables/{table.pk}/undo/", {"version": table.version})
    assert terrain(table) == stamped
    owner_client.post(f"/tables/{table.pk}/undo/", {"version": table.version})
    assert terrain(table) == {}
    owner_client.post(f"/tables/{table.pk}/redo/", {"version": table.version})
    assert terrain(table) == stamped
    assert [piece for piece, _ in pieces(table)] == ["building-4", "building-4"]


# --- Strokes ------------------------------------------------------------------------------------


def test_a_stroke_paints_every_hex_as_one_change_and_undo_takes_it_all_back(owner_client, table):
    version = table.version
    response = click(owner_client, table, "brush=blocking", hexes="0,3 1,3 2,3 2,4 2,4")
    assert response.status_code == 200
    assert terrain(table) == dict.fromkeys([(0, 3), (1, 3), (2, 3), (2, 4)], "blocking")
    assert table.version == version + 1
    owner_client.post(f"/tables/{table.pk}/undo/", {"version": table.version})
    assert terrain(table) == {}


def test_a_stroke_with_symmetric_editing_paints_the_images_too(owner_client, table):
    click(owner_client, table, "brush=cover&sym=mirror", hexes="0,1 1,1")
    spec = table.to_spec()
    image = spec.board.symmetry("mirror")
    painted = {spec.board.index[h] for h in terrain(table)}
    assert len(painted) == 4 and {image[i] for i in painted} == painted


def test_a_stroke_of_open_ground_clears_terrain(owner_client, table):
    click(owner_client, table, "brush=piece:building-4", q=2, r=3)
    click(owner_client, table, "brush=open", hexes="2,3 3,3")
    assert terrain(table) == {(2, 4): "blocking", (3, 4): "blocking"}


def test_a_stroke_may_name_every_hex_of_the_board_and_no_more(owner_client, table):
    spec = table.to_spec()
    every = " ".join(f"{q},{r}" for q, r in spec.board.hexes)
    assert click(owner_client, table, "brush=cover", hexes=every).status_code == 200
    assert len(terrain(table)) == len(spec.board) == 104
    before = snapshot(table)
    response = click(owner_client, table, "brush=blocking", hexes=every + " 0,0")
    assert response.status_code == 400
    assert "A stroke paints at most 104 hexes (the whole board); that one names 105." in (
        response.content.decode()
    )
    assert unchanged(table, before)


@pytest.mark.parametrize(
    ("query", "hexes", "words"),
    [
        ("brush=blocking", "0,0 99,99", "That hex is not on the table."),
        ("brush=blocking", "0,0 zero,one", "That stroke names a hex that is not on the table."),
        ("brush=blocking", "   ", "That stroke names no hex."),
        ("", "0,0 1,0", "To paint several hexes at once, choose open ground or a kind"),
        ("brush=piece:building-4", "0,0 1,0", "To paint several hexes at once"),
        ("brush=remove", "0,0", "To paint several hexes at once"),
    ],
)
def test_a_bad_stroke_is_refused_with_why_and_changes_nothing(
    owner_client, table, query, hexes, words
):
    before = snapshot(table)
    response = click(owner_client, table, query, hexes=hexes)
    assert response.status_code == 400
    assert words in response.content.decode()
    assert unchanged(table, before)


def test_a_stroke_from_a_stale_page_is_refused(owner_client, table):
    stale = table.version
    click(owner_client, table, "brush=cover", q=0, r=0)
    before = snapshot(table)
    response = click(owner_client, table, "brush=blocking", hexes="1,0 2,0", version=stale)
    assert response.status_code == 409 and unchanged(table, before)


def test_a_painting_brush_marks_the_map_for_dragging_and_others_do_not(owner_client, table):
    def view(query: dict[str, str]) -> str:
        page = owner_client.get(f"/tables/{table.pk}/", query).content.decode()
        return page[page.index('<div id="table-view"') :].split(">", 1)[0]

    assert 'data-drag="paint" style="--brush: #4b4f5c"' in view({"brush": "blocking"})
    assert 'data-drag="paint"' in view({"brush": "open"})
    for query in ({}, {"brush": "remove"}, {"brush": "piece:crate"}):
        assert "data-drag" not in view(query)


def test_the_map_of_links_is_a_group_of_controls_to_assistive_technology(owner_client, table):
    page = owner_client.get(f"/tables/{table.pk}/").content.decode()
    assert 'class="table-map" role="group" aria-label="Garage: Terrain"' in page
    assert 'class="table-map" role="img"' not in page


def test_undo_and_redo_keep_the_brush_its_turn_and_symmetric_editing(owner_client, table):
    query = "brush=piece%3Abuilding-4&turn=1&sym=point"
    escaped = query.replace("&", "&amp;")
    page = owner_client.get(f"/tables/{table.pk}/?{query}").content.decode()
    assert f'action="/tables/{table.pk}/undo/?{escaped}"' in page
    assert f'action="/tables/{table.pk}/redo/?{escaped}"' in page
    click(owner_client, table, query, q=1, r=1)
    table.refresh_from_db()
    response = owner_client.post(
        f"/tables/{table.pk}/undo/?{query}", {"version": table.version}, headers=HTMX
    )
    assert response.status_code == 200 and terrain(table) == {}
    assert f'data-edit-url="/tables/{table.pk}/terrain/?{escaped}"' in response.content.decode()
    table.refresh_from_db()
    response = owner_client.post(f"/tables/{table.pk}/redo/?{query}", {"version": table.version})
    assert response["Location"] == f"/tables/{table.pk}/?mode=terrain&{query}"
    assert len(terrain(table)) == 8


def test_an_edit_answers_without_drawing_the_palette_again_which_the_page_keeps(
    owner_client, table
):
    """An htmx edit does not change the palette: its answer carries an empty palette that
    htmx replaces by the page's own (hx-preserve). Every other answer draws it whole: a
    brush chosen, an edit refused, the page without htmx, undo (which may come from the
    line-of-fire view, where there is no palette to keep)."""
    kept = '<div class="palette" id="palette" data-hx-preserve="true"></div>'
    edit = click(owner_client, table, "brush=elevated", q=2, r=3).content.decode()
    assert kept in edit
    assert "Library pieces" not in edit and "Remove piece" not in edit
    assert 'data-drag="paint"' in edit  # the brush still rides on the region
    stamp = click(owner_client, table, "brush=piece:crate&turn=1", q=5, r=5).content.decode()
    assert kept in stamp and 'data-footprint="' in stamp
    drawn = [
        owner_client.get(f"/tables/{table.pk}/", {"brush": "cover"}, headers=HTMX),
        click(owner_client, table, "brush=piece:hill-4", q=3, r=10),  # off the table
    ]
    table.refresh_from_db()
    drawn.append(
        owner_client.post(f"/tables/{table.pk}/undo/", {"version": table.version}, headers=HTMX)
    )
    assert [response.status_code for response in drawn] == [200, 400, 200]
    for response in drawn:
        page = response.content.decode()
        assert kept not in page
        assert '<div class="palette" id="palette" data-hx-boost="true">' in page
        assert "Remove piece" in page


def test_painting_a_library_piece_its_own_kind_saves_nothing(owner_client, table):
    """A crate is cover: painting its hex cover changes nothing, and saves nothing (no new
    version, no undo step that undoes nothing, the crate still a crate)."""
    assert click(owner_client, table, "brush=piece:crate", q=4, r=6).status_code == 200
    before = snapshot(table)
    assert click(owner_client, table, "brush=cover", q=4, r=6).status_code == 200
    assert unchanged(table, before)
    assert pieces(table) == [("crate", {(4, 6)})]
    assert click(owner_client, table, "brush=elevated", q=4, r=6).status_code == 200
    assert pieces(table) == [("custom", {(4, 6)})]


def test_answers_to_edits_keep_the_page_address(owner_client, table):
    """An edit, undo or redo answered in place tells htmx not to put its POST address in
    the address bar (a reload of it answers 405); a view of the table does not."""
    answers = [click(owner_client, table, "brush=cover", q=2, r=3)]
    answers.append(click(owner_client, table, "brush=piece:hill-4", q=3, r=10))  # refused
    table.refresh_from_db()
    answers.append(
        owner_client.post(f"/tables/{table.pk}/undo/", {"version": table.version}, headers=HTMX)
    )
    answers.append(owner_client.post(f"/tables/{table.pk}/redo/", {"version": 0}, headers=HTMX))
    assert [a.status_code for a in answers] == [200, 400, 200, 409]
    assert [a.headers.get("HX-Push-Url") for a in answers] == ["false"] * 4
    view = owner_client.get(f"/tables/{table.pk}/", {"mode": "lof"}, headers=HTMX)
    assert "HX-Push-Url" not in view.headers


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ("brush=piece:does-not-exist", "The terrain library has no piece “does-not-exist”"),
        ("brush=piece:", "The terrain library has no piece “”"),
        ("brush=piece:custom", "The terrain library has no piece “custom”"),
        ("brush=sparkles", "That brush is not in the palette"),
        ("brush=piece:crate&turn=9", "A piece turns 0 to 5 steps"),
        ("brush=piece:building-4&turn=6", "A piece turns 0 to 5 steps"),
        ("brush=piece:building-4&turn=-1", "A piece turns 0 to 5 steps"),
        ("brush=piece:building-4&turn=NaN", "A piece turns 0 to 5 steps"),
        ("brush=cover&sym=diagonal", "Symmetric editing is point, mirror or off"),
        ("sym=sideways", "Symmetric editing is point, mirror or off"),
    ],
)
def test_an_edit_with_a_brush_turn_or_symmetry_that_is_not_one_is_refused_and_changes_nothing(
    owner_client, table, query, words
):
    """A page reads an unknown brush as none, but an edit made with it would do what was not
    asked: move the hex on to the next kind, or set the piece down unturned."""
    before = snapshot(table)
    for htmx in (True, False):
        response = click(owner_client, table, query, htmx=htmx, q=2, r=3)
        assert response.status_code == 400
        assert words in response.content.decode()
        assert unchanged(table, before)
