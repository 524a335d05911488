"""The table pages: generating with a permalink, editing, sharing, downloads and packs."""

from __future__ import annotations

import io
import json
import re
import zipfile

import pytest
from django.test import Client
from PIL import Image
from pypdf import PdfReader

from onefinity.rules import current_ruleset
from onefinity.rules.hexgrid import standard_board
from tablegen.engine.library import terrain_library
from tablegen.engine.tables import TableSpec
from tablegen.maps import MAX_LANES_DRAWN, lanes_to_draw
from tablegen.models import Pack, Table
from tests.factories import shown
from tests.tablegen.test_pack_page import made, new_pack, table_url

pytestmark = pytest.mark.django_db

RULES = current_ruleset().table
PARAMS = {"seed": 5, "coverage": 0.45, "symmetry": "point", "mix": "balanced"}


def the_map(page: str) -> str:
    """The map's SVG (not the QR code's, nor the palette's pictures of pieces)."""
    start = page.rindex("<svg", 0, page.index('class="table-map"'))
    return page[start : page.index("</svg>", start)]


@pytest.fixture
def table(owner_client, owner) -> Table:
    """A table saved and then shared by its owner (new tables are private)."""
    owner_client.post("/tables/save/", PARAMS)
    saved = owner.tables.get()
    owner_client.post(f"/tables/{saved.pk}/sharing/", {"change": "on"})
    saved.refresh_from_db()
    return saved


def test_fresh_database_pages_answer(client):
    assert client.get("/tables/").status_code == 200
    assert client.get("/tables/new/").status_code == 200


def test_tables_page_tells_a_browser_without_an_account_where_its_tables_are_kept(
    client, owner_client
):
    page = client.get("/tables/").content.decode()
    assert "These tables are kept in this browser" in page
    assert "/accounts/signup/?next=/tables/" in page and "/accounts/login/?next=/tables/" in page
    assert "kept in this browser" not in owner_client.get("/tables/").content.decode()


def test_the_permalink_reproduces_the_same_table(client):
    first = client.get("/tables/new/", PARAMS).content.decode()
    second = client.get("/tables/new/", PARAMS).content.decode()
    assert "Valid table" in first
    picture = lambda page: page[page.index("<svg") : page.index("</svg>")]  # noqa: E731
    assert picture(first) == picture(second)
    other = client.get("/tables/new/", PARAMS | {"seed": 6}).content.decode()
    assert picture(other) != picture(first)
    assert (
        "http://testserver/tables/new/?seed=5&amp;coverage=0.45&amp;symmetry=point&amp;mix=balanced"
        in first
    )


def test_regenerate_picks_a_new_seed_and_keeps_the_other_parameters(client):
    response = client.get(
        "/tables/new/", {"coverage": 0.42, "symmetry": "mirror", "mix": "urban", "regenerate": 1}
    )
    assert response.status_code == 302
    location = response["Location"]
    assert "seed=" in location and "symmetry=mirror" in location and "mix=urban" in location


@pytest.mark.parametrize(
    ("params", "words"),
    [
        (PARAMS | {"coverage": 0.9}, "less than or equal to 0.6"),
        (PARAMS | {"symmetry": "spiral"}, "Select a valid choice"),
        (PARAMS | {"seed": "abc"}, "Enter a whole number"),
    ],
)
def test_bad_parameters_get_a_clear_message(client, params, words):
    response = client.get("/tables/new/", params)
    assert response.status_code == 400 and words in response.content.decode()


def test_the_generated_table_shows_svg_legend_metrics_and_verdict(client):
    page = client.get("/tables/new/", PARAMS).content.decode()
    # Each hex is named by its place in a player's words (2,4: the fifth row's fifth hex).
    assert "<svg" in page and "<title>Row 5 from side A, column 5: " in page
    for words in (
        "Open ground",
        "Blocking",
        "Coverage",
        "Edge-to-edge lanes",
        "Longest sightline",
        "Dominance",
        "Exposure",
    ):
        assert words in page


def test_clicking_a_hex_shows_what_it_sees_and_what_blocks_a_line(client):
    page = client.get(
        "/tables/new/",
        PARAMS | {"mode": "lof", "from": "0,4", "to": "-2,9"},
        headers={"HX-Request": "true"},
    ).content.decode()
    assert page.lstrip().startswith('<div id="table-view"')
    assert (
        "(0,4) → Row 10 from side A, column 4 (-2,9): blocked" in page and "by the hex -2,8" in page
    )
    assert 'class="hex' in page and "unseen" in page


def test_heat_maps(client):
    for mode in ("sightlines", "exposure-a", "exposure-b"):
        page = client.get("/tables/new/", PARAMS | {"mode": mode}).content.decode()
        assert "Darker red" in page


def test_saving_keeps_the_table_with_its_seed(table):
    assert table.document["seed"] == 5 and table.document["params"]["symmetry"] == "point"


def test_clicking_a_hex_cycles_its_terrain_and_updates_the_verdict(owner_client, table):
    spec = table.to_spec()
    open_hex = next(h for h in spec.board.hexes if spec.kind_at(h) is None)
    url = f"/tables/{table.pk}/terrain/"
    kinds = []
    for _ in range(4):
        page = owner_client.post(
            url,
            {"q": open_hex[0], "r": open_hex[1], **shown(table)},
            headers={"HX-Request": "true"},
        ).content.decode()
        table.refresh_from_db()
        kinds.append(table.to_spec().kind_at(open_hex))
        assert page.lstrip().startswith('<div id="table-view"')
    assert kinds == ["cover", "elevated", "blocking", None]


def test_setting_a_hex_without_javascript(owner_client, table):
    response = owner_client.post(
        f"/tables/{table.pk}/terrain/", {**shown(table), "q": 0, "r": 0, "kind": "blocking"}
    )
    assert response.status_code == 302
    table.refresh_from_db()
    assert table.to_spec().kind_at((0, 0)) == "blocking"
    page = owner_client.get(response["Location"]).content.decode()
    assert "Row 1 from side A, column 1 (0,0)</legend>" in page and "Set terrain" in page


def test_with_a_brush_one_click_paints_open_ground_blocking_and_the_brush_stays(
    owner_client, table
):
    spec = table.to_spec()
    q, r = next(h for h in spec.board.hexes if spec.kind_at(h) is None)
    page = owner_client.get(f"/tables/{table.pk}/", {"brush": "blocking"}).content.decode()
    assert 'brush=blocking" aria-current="true"' in page
    assert f'data-edit-url="/tables/{table.pk}/terrain/?brush=blocking"' in page
    assert f"hex={q}%2C{r}&amp;brush=blocking" in page  # the hexes' links keep the brush
    response = owner_client.post(
        f"/tables/{table.pk}/terrain/?brush=blocking",
        {"q": q, "r": r, "version": table.version},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    table.refresh_from_db()
    assert table.to_spec().kind_at((q, r)) == "blocking"
    assert 'brush=blocking" aria-current="true"' in response.content.decode()
    owner_client.post(
        f"/tables/{table.pk}/terrain/?brush=open", {"q": q, "r": r, "version": table.version}
    )
    table.refresh_from_db()
    assert table.to_spec().kind_at((q, r)) is None


def test_without_javascript_a_brush_preselects_the_kind_in_the_hex_form(owner_client, table):
    page = owner_client.get(
        f"/tables/{table.pk}/", {"mode": "terrain", "hex": "0,0", "brush": "elevated"}
    ).content.decode()
    assert 'value="elevated" checked' in page
    response = owner_client.post(
        f"/tables/{table.pk}/terrain/?brush=elevated",
        {"q": 0, "r": 0, "kind": "elevated", "version": table.version},
    )
    assert response["Location"] == f"/tables/{table.pk}/?mode=terrain&hex=0%2C0&brush=elevated"
    table.refresh_from_db()
    assert table.to_spec().kind_at((0, 0)) == "elevated"


@pytest.mark.parametrize("symmetry", ["point", "mirror"])
def test_symmetric_editing_changes_the_image_hex_with_each_edit(owner_client, table, symmetry):
    spec = table.to_spec()
    image = spec.board.symmetry(symmetry)
    i = next(
        i
        for i, h in enumerate(spec.board.hexes)
        if image[i] != i and spec.kind_at(h) is None and spec.board.hexes[image[i]] != h
    )
    hex_, mirrored = spec.board.hexes[i], spec.board.hexes[image[i]]
    page = owner_client.get(f"/tables/{table.pk}/", {"sym": symmetry}).content.decode()
    assert f'sym={symmetry}" aria-current="true"' in page
    assert f'data-edit-url="/tables/{table.pk}/terrain/?sym={symmetry}"' in page
    owner_client.post(
        f"/tables/{table.pk}/terrain/?brush=blocking&sym={symmetry}",
        {"q": hex_[0], "r": hex_[1], "version": table.version},
        headers={"HX-Request": "true"},
    )
    table.refresh_from_db()
    after = table.to_spec()
    assert after.kind_at(hex_) == after.kind_at(mirrored) == "blocking"
    changed = {h for h in spec.board.hexes if spec.kind_at(h) != after.kind_at(h)}
    assert changed <= {hex_, mirrored}


def test_without_symmetric_editing_only_the_hex_changes(owner_client, table):
    spec = table.to_spec()
    q, r = next(h for h in spec.board.hexes if spec.kind_at(h) is None)
    owner_client.post(
        f"/tables/{table.pk}/terrain/?brush=cover", {"q": q, "r": r, "version": table.version}
    )
    table.refresh_from_db()
    after = table.to_spec()
    assert [h for h in spec.board.hexes if spec.kind_at(h) != after.kind_at(h)] == [(q, r)]


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ("brush=cover&sym=spiral", "Symmetric editing is point, mirror or off"),
        ("brush=lava", "That brush is not in the palette"),
    ],
)
def test_an_edit_with_an_unknown_brush_or_symmetry_is_refused_and_changes_nothing(
    owner_client, table, query, words
):
    """Made anyway, it would do what was not asked: one hex where two were, or a cycle
    where a kind was (tests/tablegen/test_editor_palette.py has the pieces and turns)."""
    spec = table.to_spec()
    before = table.document
    q, r = next(h for h in spec.board.hexes if spec.kind_at(h) is None)
    response = owner_client.post(
        f"/tables/{table.pk}/terrain/?{query}", {"q": q, "r": r, "version": table.version}
    )
    assert response.status_code == 400 and words in response.content.decode()
    table.refresh_from_db()
    assert table.document == before


def test_bad_terrain_edits_change_nothing(owner_client, table):
    before = table.document
    owner_client.post(f"/tables/{table.pk}/terrain/", {**shown(table), "q": 99, "r": 99})
    owner_client.post(
        f"/tables/{table.pk}/terrain/", {**shown(table), "q": 0, "r": 0, "kind": "lava"}
    )
    owner_client.post(f"/tables/{table.pk}/terrain/", {**shown(table), "q": "x", "r": 0})
    table.refresh_from_db()
    assert table.document == before


def test_the_editor_reports_problems_with_their_hexes(owner_client, table):
    spec = table.to_spec()
    for hex_ in spec.board.hexes:
        if spec.kind_at(hex_) is not None:
            owner_client.post(
                f"/tables/{table.pk}/terrain/",
                {**shown(table), "q": hex_[0], "r": hex_[1], "kind": ""},
            )
    page = owner_client.get(f"/tables/{table.pk}/").content.decode()
    assert "table.coverage.low" in page and "table.edge-lanes" in page and "Not valid" in page


def test_the_map_marks_the_hexes_a_problem_names_and_draws_the_clear_lanes(owner_client, owner):
    board = standard_board(RULES.rows, RULES.columns)
    # Side A's edge row all cover, side B's open: unbalanced cover, and lanes everywhere.
    edge = {i: "cover" for i in board.edge_row("A")}
    table = Table(owner=owner)
    report = table.set_spec(TableSpec(board, edge, "Lanes"))
    table.save()
    assert report is not None
    page = owner_client.get(f"/tables/{table.pk}/").content.decode()
    picture = the_map(page)
    ends = {h for lane in report.lanes for h in lane}
    # Dozens of lanes: one from each edge hex at most is drawn, and the page says so.
    drawn = picture.count('class="lane"')
    assert len(report.lanes) > MAX_LANES_DRAWN and 0 < drawn <= len(board.edge_row("A"))
    assert f"{drawn} of the {len(report.lanes)} clear lanes" in page
    for q, r in ends:
        assert re.search(
            rf'class="hex [a-z]+ problem"[^>]*><title>[^<]*</title>[^>]*>[^>]*class="coord"[^>]*>{q},{r}<',
            picture,
        )
    marked = re.findall(r'class="hex [a-z]+ problem"', picture)
    # The lanes' ends and the weaker side's hexes of the unbalanced cover and exposure; not
    # every terrain hex for the low coverage.
    unbalanced = {
        h
        for p in report.problems
        if p.code in ("table.cover.unbalanced", "table.exposure.unbalanced")
        for h in p.hexes
    }
    assert unbalanced and all(r >= board.last_row - RULES.near_edge_depth for _, r in unbalanced)
    assert len(marked) == len(ends | unbalanced)
    assert "red dashed border" in page


def test_lanes_drawn_are_at_most_a_dozen_and_never_two_from_one_hex():
    few = (((0, 0), (0, 10)), ((1, 0), (1, 10)))
    assert lanes_to_draw(few) == few
    assert lanes_to_draw((((0, 0), (0, 10)), ((0, 0), (1, 10)))) == (((0, 0), (0, 10)),)
    fan = tuple(((q, 0), (p, 10)) for q in range(20) for p in range(20))
    drawn = lanes_to_draw(fan)
    assert len(drawn) == MAX_LANES_DRAWN and set(drawn) <= set(fan)
    assert len({a for a, _ in drawn}) == len({b for _, b in drawn}) == MAX_LANES_DRAWN


def test_every_metric_says_what_it_means_and_its_threshold(client):
    page = client.get("/tables/new/", PARAMS).content.decode()
    assert page.count('class="metric-note"') == 8
    assert f"Valid: {RULES.coverage_min:.0%} to {RULES.coverage_max:.0%}." in page
    assert f"Valid: at most {RULES.edge_lanes_max}." in page
    assert f"the sides differ by at most {RULES.cover_difference_max}." in page
    assert "a pack&#x27;s tables differ by at most" in page


def test_rename(owner_client, table):
    owner_client.post(f"/tables/{table.pk}/rename/", {**shown(table), "name": "Final table"})
    table.refresh_from_db()
    assert table.name == "Final table" and table.to_spec().name == "Final table"


@pytest.mark.parametrize("suffix", ["", "table.json", "table.png", "setup.pdf", "delete/"])
def test_only_the_owner_sees_a_saved_table(owner_client, stranger_client, client, table, suffix):
    assert owner_client.get(f"/tables/{table.pk}/{suffix}").status_code == 200
    assert stranger_client.get(f"/tables/{table.pk}/{suffix}").status_code == 404
    assert client.get(f"/tables/{table.pk}/{suffix}").status_code == 404


def test_a_stranger_cannot_edit_rename_or_delete(stranger_client, table):
    before = (table.name, table.document)
    for suffix, data in (
        ("terrain/", {"q": 0, "r": 0}),
        ("rename/", {"name": "Mine"}),
        ("delete/", {}),
    ):
        assert (
            stranger_client.post(
                f"/tables/{table.pk}/{suffix}", data, headers={"HX-Request": "true"}
            ).status_code
            == 404
        )
    table.refresh_from_db()
    assert (table.name, table.document) == before


@pytest.mark.parametrize("suffix", ["", "table.json", "table.png", "setup.pdf"])
def test_the_share_link_is_read_only_for_anyone(client, table, suffix):
    assert client.get(f"/t/{table.share_code}/{suffix}").status_code == 200


def test_the_shared_page_cannot_edit_but_can_inspect_and_copy(client, table, django_user_model):
    page = client.get(f"/t/{table.share_code}/").content.decode()
    assert "/terrain/" not in page and "Copy to my tables" in page
    page = client.get(f"/t/{table.share_code}/", {"mode": "lof", "from": "2,4"}).content.decode()
    assert "(2,4) sees" in page
    client.post(f"/t/{table.share_code}/copy/")
    assert Table.objects.count() == 2


def test_downloads_are_real_files(owner_client, table):
    document = json.loads(owner_client.get(f"/tables/{table.pk}/table.json").content)
    assert document["format"] == "onefinity-table" and document["board"] == {"standard": True}
    image = Image.open(io.BytesIO(owner_client.get(f"/tables/{table.pk}/table.png").content))
    assert image.format == "PNG" and image.width > 600
    pdf = PdfReader(io.BytesIO(owner_client.get(f"/tables/{table.pk}/setup.pdf").content))
    text = " ".join(pdf.pages[0].extract_text().split())
    assert "Table 5" in text and "piece by piece" in text
    placed = table.to_spec().placed()
    assert f"({len(placed)} pieces" in text
    names = {piece.name for piece in terrain_library().pieces.values()}
    assert sum(text.count(f"{name} at ") for name in names) == len(placed)


def test_a_tournament_pack_is_generated_step_by_step_with_progress(owner_client, owner):
    response = owner_client.post("/tables/packs/new/", PARAMS | {"count": 4, "name": "Club night"})
    pack = owner.packs.get()
    assert response["Location"] == f"/tables/packs/{pack.pk}/"
    page = ""
    for _ in range(100):
        page = owner_client.get(
            f"/tables/packs/{pack.pk}/", headers={"HX-Request": "true"}
        ).content.decode()
        pack.refresh_from_db()
        if pack.pdf_ready:
            break
        assert "<progress" in page
    assert pack.done and len(pack.tables) == 4 and "Ready: 4 tables" in page
    assert "Download the pack PDF" in page
    archive = zipfile.ZipFile(
        io.BytesIO(owner_client.get(f"/tables/packs/{pack.pk}/pack.zip").content)
    )
    assert len(archive.namelist()) == 4
    pdf = PdfReader(io.BytesIO(owner_client.get(f"/tables/packs/{pack.pk}/pack.pdf").content))
    assert len(pdf.pages) == 4


def test_a_pack_belongs_to_its_owner(stranger_client, owner_client, owner):
    owner_client.post("/tables/packs/new/", PARAMS | {"count": 2, "name": "Mine"})
    pack = Pack.objects.get()
    assert stranger_client.get(f"/tables/packs/{pack.pk}/").status_code == 404
    assert stranger_client.get(f"/tables/packs/{pack.pk}/pack.zip").status_code == 404


def test_an_unfinished_pack_cannot_be_downloaded_yet(owner_client, owner, jobs_wait):
    owner_client.post("/tables/packs/new/", PARAMS | {"count": 200, "name": "Big"})
    pack = owner.packs.get()
    response = owner_client.get(f"/tables/packs/{pack.pk}/pack.pdf")
    assert response.status_code == 302 and response["Location"] == pack.get_absolute_url()


def test_tables_built_without_an_account_move_into_it_at_login(client, owner):
    client.post("/tables/save/", PARAMS)
    client.post("/accounts/login/", {"username": "owner", "password": "a-long-pass-phrase"})
    assert owner.tables.count() == 1


def test_building_your_own_table_on_an_empty_board(owner_client, owner):
    response = owner_client.post("/tables/empty/", {"name": "Garage", "rows": 6, "columns": 5})
    table = owner.tables.get()
    assert response["Location"] == f"/tables/{table.pk}/"
    spec = table.to_spec()
    assert len(spec.board) == 3 * 5 + 3 * 6 and spec.terrain == {}
    assert table.document["board"] == {"rows": 6, "columns": 5}  # named, not listed
    page = owner_client.get(f"/tables/{table.pk}/").content.decode()
    assert "table.coverage.low" in page


def test_an_empty_board_has_size_limits(owner_client, owner):
    response = owner_client.post("/tables/empty/", {"name": "Huge", "rows": 41, "columns": 40})
    assert response.status_code == 400 and not owner.tables.exists()
    assert "less than or equal to 40" in response.content.decode()


def test_a_standard_sized_empty_board_is_the_standard_board(owner_client, owner):
    owner_client.post("/tables/empty/", {"name": "Std", "rows": 11, "columns": 9})
    assert owner.tables.get().document["board"] == {"standard": True}


def test_table_names_are_escaped_everywhere(owner_client, table):
    owner_client.post(
        f"/tables/{table.pk}/rename/", {**shown(table), "name": "<script>alert(1)</script>"}
    )
    for url in (f"/tables/{table.pk}/", "/tables/", f"/t/{table.share_code}/"):
        page = owner_client.get(url).content.decode()
        assert "<script>alert(1)</script>" not in page
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_the_owner_turns_a_table_link_off_or_replaces_it(
    owner_client, client, stranger_client, table
):
    code = table.share_code
    assert client.get(f"/t/{code}/").status_code == 200
    assert (
        stranger_client.post(f"/tables/{table.pk}/sharing/", {"change": "off"}).status_code == 404
    )
    owner_client.post(f"/tables/{table.pk}/sharing/", {"change": "off"})
    for suffix in ("", "table.json", "table.png", "setup.pdf"):
        assert client.get(f"/t/{code}/{suffix}").status_code == 404, suffix
    assert client.post(f"/t/{code}/copy/").status_code == 404
    # With sharing off, the new link's button says it turns sharing on.
    page = owner_client.get(f"/tables/{table.pk}/").content.decode()
    assert "Share under a new link" in page and "Make a new link" not in page
    owner_client.post(f"/tables/{table.pk}/sharing/", {"change": "new"})
    table.refresh_from_db()
    assert table.sharing and table.share_code != code
    assert client.get(f"/t/{code}/").status_code == 404
    assert client.get(f"/t/{table.share_code}/").status_code == 200
    assert "Make a new link (the old one stops working)" in (
        owner_client.get(f"/tables/{table.pk}/").content.decode()
    )


def test_every_terrain_kind_of_every_ruleset_has_a_colour_and_the_legend_follows_the_ruleset():
    from onefinity.rules import library
    from tablegen.engine.render import KIND_COLOURS, legend

    for ruleset in library().rulesets.values():
        assert set(ruleset.table.terrain) <= set(KIND_COLOURS), ruleset.version
        names = [name for name, _ in legend(ruleset.table)]
        assert names[0] == "Open ground"
        assert sorted(names[1:]) == sorted(k.name for k in ruleset.table.terrain.values())


def test_the_table_pages_set_htmx_once_on_the_map_region_with_valid_attribute_names(
    owner_client, table
):
    page = owner_client.get(f"/tables/{table.pk}/").content.decode()
    assert " hx-" not in page  # data-hx-* only: plain hx-* is not valid HTML
    assert page.count('data-hx-target="#table-view"') == 1
    assert page.count("<a href=") > len(table.to_spec().board)  # every hex is a plain link


def test_a_shared_tables_page_carries_a_qr_code_of_its_link_like_a_list(owner_client, table):
    page = owner_client.get(f"/tables/{table.pk}/").content.decode()
    assert "QR code of the share link" in page and table.share_code in page
    owner_client.post(f"/tables/{table.pk}/sharing/", {"change": "off"})
    page = owner_client.get(f"/tables/{table.pk}/").content.decode()
    assert "QR code of the share link" not in page


def test_a_setup_sheet_is_made_once_per_version_and_share_link(owner_client, table, monkeypatch):
    """A 40 x 40 table of one-hex pieces takes WeasyPrint seconds, and a share link lets
    anyone ask for its sheet: the same sheet is made once."""
    from tablegen import jobs

    made = []
    real = jobs.setup_pdf

    def counted(*args, **kwargs):
        made.append(kwargs.get("share_url"))
        return real(*args, **kwargs)

    monkeypatch.setattr(jobs, "setup_pdf", counted)
    shared = Client()  # anyone with the link
    for client, url in (
        (owner_client, f"/tables/{table.pk}/setup.pdf"),
        (owner_client, f"/tables/{table.pk}/setup.pdf"),
        (shared, f"/t/{table.share_code}/setup.pdf"),
    ):
        response = client.get(url)
        assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert len(made) == 1
    table.refresh_from_db()
    owner_client.post(
        f"/tables/{table.pk}/rename/", {"name": "Renamed", "version": table.version}
    )  # a new version
    assert "Renamed" in pdf_text(owner_client.get(f"/tables/{table.pk}/setup.pdf"))
    table.refresh_from_db()
    owner_client.post(f"/tables/{table.pk}/sharing/", {"change": "new"})
    owner_client.get(f"/tables/{table.pk}/setup.pdf")
    assert len(made) == 3 and made[1] != made[2]  # the new link's QR code


def pdf_text(response) -> str:
    return PdfReader(io.BytesIO(response.content)).pages[0].extract_text()


def test_a_new_table_is_private_until_its_owner_shares_it(owner_client, owner, client):
    owner_client.post("/tables/save/", PARAMS)
    saved = owner.tables.get()
    assert not saved.sharing
    for suffix in ("", "table.json", "table.png", "setup.pdf"):
        assert client.get(f"/t/{saved.share_code}/{suffix}").status_code == 404
    page = owner_client.get(f"/tables/{saved.pk}/").content.decode()
    assert "Only you can see this table" in page and "Turn sharing on" in page


def test_every_map_page_has_a_skip_link_to_the_map(owner_client, client, table, owner):
    """The map is one Tab stop far down the page: a second skip link, after "Skip to
    content", leads to it, on each page that draws a map (and only there)."""
    pack = made(owner_client, new_pack(owner_client, owner, count=1))
    pages = {
        "editor": owner_client.get(f"/tables/{table.pk}/"),
        "shared": client.get(f"/t/{table.share_code}/"),
        "generated": client.get("/tables/new/?seed=5&coverage=0.45&symmetry=point&mix=balanced"),
        "pack table": owner_client.get(table_url(pack, 1)),
    }
    for name, response in pages.items():
        page = response.content.decode()
        assert response.status_code == 200, name
        skips = re.findall(r'<a class="skip-link" href="#([\w-]+)"', page)
        assert skips == ["content", "map"], (name, skips)
        assert page.count('id="map"') == 1, name
    assert 'href="#map"' not in owner_client.get("/tables/").content.decode()
