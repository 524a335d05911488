"""Undo and redo over a table's revisions: every edit can be taken back, whichever way the
table was made, an edit after an undo drops what could be redone, and only the owner can."""

from __future__ import annotations

import pytest

from tablegen.models import Table

pytestmark = pytest.mark.django_db

PARAMS = {"seed": 5, "coverage": 0.45, "symmetry": "point", "mix": "balanced"}


@pytest.fixture
def table(owner_client, owner) -> Table:
    owner_client.post("/tables/save/", PARAMS)
    return owner.tables.get()


def open_hex(table: Table) -> tuple[int, int]:
    spec = table.to_spec()
    return next(h for h in spec.board.hexes if spec.kind_at(h) is None)


def post(client, table: Table, action: str, **data) -> object:
    table.refresh_from_db()
    return client.post(f"/tables/{table.pk}/{action}/", {"version": table.version, **data})


def test_undo_takes_an_edit_back_and_redo_makes_it_again(owner_client, table):
    original = table.to_spec().terrain
    q, r = open_hex(table)
    post(owner_client, table, "terrain", q=q, r=r, kind="blocking")
    table.refresh_from_db()
    edited = table.to_spec().terrain
    assert edited != original
    post(owner_client, table, "undo")
    table.refresh_from_db()
    assert table.to_spec().terrain == original
    post(owner_client, table, "redo")
    table.refresh_from_db()
    assert table.to_spec().terrain == edited


def test_the_page_offers_undo_only_when_there_is_something_to_undo(owner_client, table):
    page = owner_client.get(f"/tables/{table.pk}/").content.decode()
    assert 'aria-keyshortcuts="Control+Z" disabled>Undo' in page and "disabled>Redo" in page
    q, r = open_hex(table)
    response = post(owner_client, table, "terrain", q=q, r=r, kind="cover")
    page = owner_client.get(f"/tables/{table.pk}/").content.decode()
    assert 'aria-keyshortcuts="Control+Z">Undo' in page and "disabled>Redo" in page
    assert response.status_code == 302


def test_an_edit_after_an_undo_cannot_be_redone_past(owner_client, table):
    q, r = open_hex(table)
    post(owner_client, table, "terrain", q=q, r=r, kind="cover")
    post(owner_client, table, "undo")
    post(owner_client, table, "terrain", q=q, r=r, kind="elevated")
    table.refresh_from_db()
    assert not table.can_redo()
    response = post(owner_client, table, "redo")
    assert response.status_code == 400 and "Nothing to redo" in response.content.decode()
    table.refresh_from_db()
    assert table.to_spec().kind_at((q, r)) == "elevated"


def test_an_edit_that_changes_nothing_saves_nothing_and_adds_no_undo_step(owner_client, table):
    q, r = open_hex(table)
    post(owner_client, table, "terrain", q=q, r=r, kind="cover")
    table.refresh_from_db()
    before = (table.version, table.revision, table.revisions.count())
    # The same kind again, by a click with the cover brush, and a rename to the same name.
    post(owner_client, table, "terrain", q=q, r=r, kind="cover")
    post(owner_client, table, "rename", name=table.name)
    table.refresh_from_db()
    assert (table.version, table.revision, table.revisions.count()) == before
    # One undo takes the one real edit back.
    post(owner_client, table, "undo")
    table.refresh_from_db()
    assert table.to_spec().kind_at((q, r)) is None and not table.can_undo()


def test_nothing_to_undo_says_so_and_changes_nothing(owner_client, table):
    before = (table.version, table.document)
    response = post(owner_client, table, "undo")
    assert response.status_code == 400 and "Nothing to undo" in response.content.decode()
    table.refresh_from_db()
    assert (table.version, table.document) == before


def test_an_undo_from_a_stale_page_is_refused(owner_client, table):
    q, r = open_hex(table)
    stale = table.version
    post(owner_client, table, "terrain", q=q, r=r, kind="cover")
    response = owner_client.post(f"/tables/{table.pk}/undo/", {"version": stale})
    assert response.status_code == 409
    table.refresh_from_db()
    assert table.to_spec().kind_at((q, r)) == "cover"


def test_only_the_owner_can_undo_or_redo(owner_client, stranger_client, client, table):
    q, r = open_hex(table)
    post(owner_client, table, "terrain", q=q, r=r, kind="cover")
    table.refresh_from_db()
    for other in (stranger_client, client):
        for action in ("undo", "redo"):
            assert post(other, table, action).status_code == 404
            assert other.get(f"/tables/{table.pk}/{action}/").status_code == 405
    table.refresh_from_db()
    assert table.to_spec().kind_at((q, r)) == "cover"


def test_undo_works_for_htmx_and_answers_with_the_editor_region(owner_client, table):
    q, r = open_hex(table)
    post(owner_client, table, "terrain", q=q, r=r, kind="cover")
    table.refresh_from_db()
    edited = table.version
    response = owner_client.post(
        f"/tables/{table.pk}/undo/", {"version": edited}, headers={"HX-Request": "true"}
    )
    # The edit is taken back, and the answer draws the table as it is now (a refused or a
    # stale undo answers with the region too, so the region alone proves nothing).
    assert response.status_code == 200
    table.refresh_from_db()
    assert table.version > edited and table.to_spec().kind_at((q, r)) is None
    page = response.content.decode()
    assert page.lstrip().startswith('<div id="table-view"')
    assert f'name="version" value="{table.version}"' in page


def test_the_undo_bar_an_htmx_answer_draws_is_the_one_the_database_holds(owner_client, table):
    """An edit's answer knows its undo bar without asking the database again (the revision
    before is there, none after): after edits, undos and redos it agrees with a fresh page."""
    q, r = open_hex(table)
    steps = [
        ("terrain", {"q": q, "r": r, "kind": "cover"}),
        ("terrain", {"q": q, "r": r, "kind": "elevated"}),
        ("undo", {}),
        ("undo", {}),
        ("redo", {}),
        ("terrain", {"q": q, "r": r, "kind": "blocking"}),
        ("undo", {}),
    ]
    for action, data in steps:
        table.refresh_from_db()
        answer = owner_client.post(
            f"/tables/{table.pk}/{action}/",
            {"version": table.version, **data},
            headers={"HX-Request": "true"},
        ).content.decode()
        page = owner_client.get(f"/tables/{table.pk}/").content.decode()
        for button in ('id="undo"', 'id="redo"'):
            drawn = answer.split(button, 1)[1].split(">", 1)[0]
            held = page.split(button, 1)[1].split(">", 1)[0]
            assert drawn == held, (action, button)
    fresh = Table.objects.get(pk=table.pk)
    assert fresh.can_undo() and fresh.can_redo()


@pytest.mark.parametrize(
    ("query", "action", "back_to"),
    [
        ("mode=lof&from=2,3&to=5,7", "mode=lof&from=2%2C3&to=5%2C7", None),
        ("mode=lof&from=2,3", "mode=lof&from=2%2C3", None),
        ("mode=lof&from=99,99&to=nonsense", "mode=lof", None),  # hexes off the table dropped
        ("mode=sightlines&from=2,3", "mode=sightlines", None),  # hexes ride with lof only
        ("mode=exposure-b", "mode=exposure-b", None),
        ("mode=nonsense", "", None),
        ("mode=terrain&sym=point", "sym=point", "mode=terrain&sym=point"),
    ],
)
def test_undo_and_redo_without_javascript_go_back_to_the_view_they_came_from(
    owner_client, table, query, action, back_to
):
    back_to = action if back_to is None else back_to
    page = owner_client.get(f"/tables/{table.pk}/?{query}").content.decode()
    for step in ("undo", "redo"):
        sent_to = f"/tables/{table.pk}/{step}/" + (f"?{action}" if action else "")
        assert f'action="{sent_to.replace("&", "&amp;")}"' in page
    q, r = open_hex(table)
    post(owner_client, table, "terrain", q=q, r=r, kind="cover")
    for step in ("undo", "redo"):
        table.refresh_from_db()
        response = owner_client.post(
            f"/tables/{table.pk}/{step}/?{query}", {"version": table.version}
        )
        assert response.status_code == 302
        assert response["Location"] == f"/tables/{table.pk}/" + (f"?{back_to}" if back_to else "")
