"""An edit's answer redraws only what changed on the map (render.DrawnMap, maps.remember_drawn):
the hexes drawn from the last drawing are exactly the ones a whole drawing gives, the patch
names every hex drawn differently and no other, and only the page showing that drawing (its
token) gets a patch; anything else gets the whole map. The browser test
(tests/browser/test_tables.py) checks the patched page against a fresh page's map."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from onefinity.rules import current_ruleset
from onefinity.rules.hexgrid import Board, rows_by_columns
from tablegen.engine.render import DrawnMap, Overlay, draw_map
from tablegen.engine.tables import TableSpec, placed_pieces
from tablegen.models import Table
from tests.conftest import examples

RULES = current_ruleset().table
BOARD = Board.of(rows_by_columns(6, 7))
KINDS = [None, *sorted(RULES.terrain)]
HTMX = {"HX-Request": "true"}


def spec_of(terrain: dict[int, str]) -> TableSpec:
    return TableSpec(BOARD, terrain, "Patched", pieces=placed_pieces(BOARD, terrain, ()))


def link(hex_) -> str:
    return f"/t/?hex={hex_[0]}%2C{hex_[1]}"


def drawn(terrain: dict[int, str], overlay: Overlay, before: DrawnMap | None = None) -> DrawnMap:
    return draw_map(spec_of(terrain), overlay, link, "Map", RULES, link_key="k", before=before)


def overlay_of(problems: set[int], lanes: list[tuple[int, int]]) -> Overlay:
    hexes = BOARD.hexes
    return Overlay(
        problems=frozenset(hexes[i] for i in problems),
        lanes=tuple((hexes[a], hexes[b]) for a, b in lanes),
    )


indices = st.integers(0, len(BOARD) - 1)
steps = st.tuples(
    st.dictionaries(indices, st.sampled_from(KINDS), max_size=6),  # hexes painted
    st.sets(indices, max_size=5),  # hexes a problem names
    st.lists(st.tuples(indices, indices), max_size=3),  # lanes
)


@settings(max_examples=examples(60), deadline=None)
@given(
    st.dictionaries(indices, st.sampled_from(sorted(RULES.terrain)), max_size=20), st.lists(steps)
)
def test_a_map_drawn_from_the_last_one_is_the_whole_drawing_and_its_patch_is_exact(start, edits):
    terrain = dict(start)
    last = drawn(terrain, Overlay())
    for painted, problems, lanes in edits:
        for index, kind in painted.items():
            if kind is None:
                terrain.pop(index, None)
            else:
                terrain[index] = kind
        overlay = overlay_of(problems, lanes)
        whole = drawn(terrain, overlay)
        kept = drawn(terrain, overlay, before=last)
        assert kept.svg == whole.svg
        changed = kept.changed_since(last)
        assert changed is not None
        assert changed == [i for i in range(len(BOARD)) if last.hexes[i] != whole.hexes[i]]
        patched = [whole.hexes[i] if i in changed else last.hexes[i] for i in range(len(BOARD))]
        assert patched == list(whole.hexes)
        patch = kept.patch(last)
        assert patch is not None
        assert [int(i) for i in re.findall(r'data-at="(\d+)"', patch)] == changed
        assert whole.pieces in patch and ('class="marks"' in patch)
        last = kept


def test_another_view_title_or_links_draw_the_whole_map():
    terrain = {0: "cover", 5: "blocking"}
    last = drawn(terrain, Overlay())
    spec = spec_of(terrain)
    other_links = draw_map(spec, Overlay(), link, "Map", RULES, link_key="other", before=last)
    assert other_links.changed_since(last) is None and other_links.patch(last) is None
    unkeyed = draw_map(spec, Overlay(), link, "Map", RULES, before=last)
    assert unkeyed.changed_since(last) is None
    retitled = draw_map(spec, Overlay(), link, "Renamed", RULES, link_key="k", before=last)
    assert retitled.changed_since(last) is None
    heat = Overlay(heat=[0.5] * len(BOARD))
    heated = draw_map(spec, heat, link, "Map", RULES, link_key="k", before=last)
    assert heated.changed_since(last) is None
    assert heated.svg == draw_map(spec, heat, link, "Map", RULES, link_key="k").svg


# --- The editor's answers ---------------------------------------------------------------------

pytestmark = pytest.mark.django_db


def new_table(client, owner, name: str) -> Table:
    client.post("/tables/empty/", {"name": name, "rows": 11, "columns": 9})
    return owner.tables.get(name=name)


def drawn_token(page: str) -> str:
    found = re.search(r'data-drawn="([^"]+)"', page)
    assert found is not None
    return found[1]


def edit(client, table: Table, drawn: str, q: int = 2, r: int = 3, kind: str = "blocking"):
    table.refresh_from_db()
    return client.post(
        f"/tables/{table.pk}/terrain/",
        {"q": q, "r": r, "kind": kind, "version": table.version, "drawn": drawn},
        headers=HTMX,
    )


def hexes_drawn(answer) -> int:
    return answer.content.decode().count('class="hex ')


def test_an_edit_naming_the_map_its_page_shows_gets_what_changed(owner_client, owner):
    table = new_table(owner_client, owner, "Garage")
    page = owner_client.get(f"/tables/{table.pk}/").content.decode()
    assert page.count('class="hex ') == 104 and 'id="table-map"' in page
    answer = edit(owner_client, table, drawn_token(page))
    assert answer.status_code == 200
    body = answer.content.decode()
    assert "<template data-map-patch>" in body and 'data-hx-preserve="true"' in body
    index = table.to_spec().board.index[(2, 3)]
    assert f'data-at="{index}"' in body
    assert 0 < hexes_drawn(answer) < 104  # the painted hex and those whose marks changed
    # The answer's own token names the map as patched: the next edit gets a patch too.
    again = edit(owner_client, table, drawn_token(body), q=3, r=3)
    assert "data-map-patch" in again.content.decode()
    assert drawn_token(again.content.decode()) != drawn_token(body)


def test_any_other_token_gets_the_whole_map(owner_client, owner, client):
    table = new_table(owner_client, owner, "Garage")
    other = new_table(owner_client, owner, "Shed")
    others = drawn_token(owner_client.get(f"/tables/{other.pk}/").content.decode())
    for token in (others, "forgotten", ""):
        answer = edit(owner_client, table, token, kind="cover" if token else "elevated")
        assert answer.status_code == 200
        assert "data-map-patch" not in answer.content.decode() and hexes_drawn(answer) == 104
    # A page (GET) is always drawn whole, whatever it is sent.
    page = owner_client.get(f"/tables/{table.pk}/", {"drawn": others}, headers=HTMX)
    assert hexes_drawn(page) == 104
    # Without htmx an edit still goes back to the page.
    table.refresh_from_db()
    plain = owner_client.post(
        f"/tables/{table.pk}/terrain/",
        {"q": 1, "r": 1, "kind": "cover", "version": table.version, "drawn": others},
    )
    assert plain.status_code == 302


def test_a_stale_tab_gets_the_latest_table_drawn_whole(owner_client, owner):
    table = new_table(owner_client, owner, "Garage")
    first_tab = drawn_token(owner_client.get(f"/tables/{table.pk}/").content.decode())
    table.refresh_from_db()
    stale_version = table.version
    second_tab = drawn_token(owner_client.get(f"/tables/{table.pk}/").content.decode())
    assert edit(owner_client, table, second_tab, q=4, r=4).status_code == 200
    answer = owner_client.post(
        f"/tables/{table.pk}/terrain/",
        {"q": 1, "r": 1, "kind": "cover", "version": stale_version, "drawn": first_tab},
        headers=HTMX,
    )
    assert answer.status_code == 409
    assert "data-map-patch" not in answer.content.decode() and hexes_drawn(answer) == 104
    # the other tab's
    assert re.search(
        r'class="hex blocking"[^>]*><title>[^<]*</title>[^>]*>[^>]*class="coord"[^>]*>4,4<',
        answer.content.decode(),
    )


def test_an_answer_draws_the_view_its_page_shows(owner_client, owner):
    """Undo and redo from a line of fire view answer with that view, as a reload of the
    page's address (which the answer keeps) draws it; so does an edit with a hex chosen."""
    table = new_table(owner_client, owner, "Garage")
    edit(owner_client, table, "", q=2, r=3)
    table.refresh_from_db()
    page = f"http://testserver/tables/{table.pk}/?mode=lof&from=2%2C5"
    undone = owner_client.post(
        f"/tables/{table.pk}/undo/",
        {"version": table.version},
        headers=HTMX | {"HX-Current-URL": page},
    )
    assert undone.status_code == 200
    assert ": Line of fire" in undone.content.decode() and "mode=terrain&amp;hex" not in (
        undone.content.decode()
    )
    # Another page's address is not taken for this one's.
    table.refresh_from_db()
    redone = owner_client.post(
        f"/tables/{table.pk}/redo/",
        {"version": table.version},
        headers=HTMX | {"HX-Current-URL": f"http://testserver/tables/{table.pk + 1}/?mode=lof"},
    )
    assert redone.status_code == 200 and ": Terrain" in redone.content.decode()
    # Nor is something that is not an address at all (no browser sends it; anyone may).
    for header in ("http://[x/", "\x00", "http://testserver/tables/1/?" + "x" * 5000):
        table.refresh_from_db()
        odd = owner_client.post(
            f"/tables/{table.pk}/undo/",
            {"version": table.version},
            headers=HTMX | {"HX-Current-URL": header},
        )
        assert odd.status_code in (200, 400) and ": Terrain" in odd.content.decode()
    # A hex chosen in the address stays chosen (highlighted) after an edit elsewhere.
    chosen = drawn_token(
        owner_client.get(f"/tables/{table.pk}/?mode=terrain&hex=1%2C1").content.decode()
    )
    table.refresh_from_db()
    answer = owner_client.post(
        f"/tables/{table.pk}/terrain/",
        {"q": 4, "r": 4, "kind": "cover", "version": table.version, "drawn": chosen},
        headers=HTMX
        | {"HX-Current-URL": f"http://testserver/tables/{table.pk}/?mode=terrain&hex=1%2C1"},
    )
    assert answer.status_code == 200 and "(1,1)</legend>" in answer.content.decode()
