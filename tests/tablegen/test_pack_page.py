"""The pack's page: each table as a thumbnail with its key metrics, the pack's tolerance
verdict, a table opened large, its copy edited and put back, and the PDF's progress."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from django.test import Client

from accounts.ownership import StaleVersion
from onefinity.rules import current_ruleset
from onefinity.rules.hexgrid import CORNERS
from tablegen.engine.balance import misfits, spreads, table_summary
from tablegen.engine.metrics import check_table
from tablegen.engine.tables import TableSpec, table_document
from tablegen.engine.thumbnail import STEPS, TOP, thumbnail_svg
from tablegen.engine.tournament import pack_tolerance
from tablegen.models import Pack, PackPart, Table
from tablegen.packs.comparison import TABLES_PER_PAGE, document_key, edited_name
from tablegen.packs.steps import advance
from tests.conftest import OWNER_PASSWORD, run_waiting_jobs

pytestmark = pytest.mark.django_db

PARAMS = {"seed": 5, "coverage": 0.45, "symmetry": "point", "mix": "balanced"}
HTMX = {"HX-Request": "true"}


def new_pack(client, owner, count: int = 3, name: str = "Club night") -> Pack:
    client.post("/tables/packs/new/", PARAMS | {"count": count, "name": name})
    return owner.packs.get()


def made(client, pack: Pack) -> Pack:
    """The pack with its tables made (not its PDF), a step at a time as the worker makes
    it (with the immediate backend they were made when it was asked for)."""
    pack.refresh_from_db()
    for _ in range(200):
        if pack.made == pack.count:
            return pack
        advance(pack)
    raise AssertionError("the pack was not made")


def finished(client, pack: Pack) -> Pack:
    pack.refresh_from_db()
    for _ in range(200):
        if pack.pdf_ready:
            return pack
        advance(pack)
    raise AssertionError("the pack's PDF was not made")


def poll_url(page: str) -> str:
    """The address a pack's progress asks for itself next (htmx)."""
    found = re.search(r'data-hx-get="([^"]+)"', page)
    assert found, "the progress does not poll"
    return found[1].replace("&amp;", "&")


def table_url(pack: Pack, number: object) -> str:
    return f"/tables/packs/{pack.pk}/table/?table={number}"


def cards(page: str) -> list[str]:
    return re.findall(r'<li class="pack-card" id="pack-table-\d+">.*?</li>', page, re.S)


def mirrored(spec: TableSpec) -> TableSpec:
    """The table turned over side to side (side A's edge becomes side B's): other terrain,
    the same metrics once the sides are averaged."""
    image = spec.board.symmetry("mirror")
    assert image is not None
    return TableSpec(spec.board, {image[i]: kind for i, kind in spec.terrain.items()}, spec.name)


# --- Thumbnails and metrics --------------------------------------------------------------


def test_each_table_shows_a_thumbnail_and_its_key_metrics(owner_client, owner):
    pack = made(owner_client, new_pack(owner_client, owner, 3))
    page = owner_client.get(pack.get_absolute_url()).content.decode()
    shown = cards(page)
    assert len(shown) == 3
    rules = current_ruleset().table
    for number, card in enumerate(shown, start=1):
        spec = pack.table_spec(number)
        metrics = check_table(spec, rules).metrics
        assert f'aria-label="Map of {spec.name}"' in card and "table-thumbnail" in card
        assert f"{metrics['coverage'] * 100:.1f} %" in card
        assert f"{metrics['longest_sightline']} hexes" in card
        assert f"{metrics['dominance'] * 100:.1f} %" in card
        sides = metrics["sides"]
        assert f"{sides['A']['cover_near_edge']} / {sides['B']['cover_near_edge']}" in card
        assert f"{sides['A']['exposure']} / {sides['B']['exposure']} %" in card
        assert f'href="{table_url(pack, number)}"' in card
        assert f'name="table" value="{number}"' in card and "csrfmiddlewaretoken" in card
    assert "Is the pack balanced?" in page and "Within tolerance" in page
    for label in ("Coverage", "Longest sightline", "Dominance", "Exposure", "Cover near edge"):
        assert f'<th scope="row">{label}' in page


def test_the_summaries_kept_are_the_reports_of_the_tables_kept(owner_client, owner):
    pack = made(owner_client, new_pack(owner_client, owner, 3))
    rules = current_ruleset().table
    for number, summary in enumerate(pack.summaries, start=1):
        expected = table_summary(check_table(pack.table_spec(number), rules))
        assert summary == expected | {"ruleset": current_ruleset().version}


def test_showing_a_made_pack_checks_no_table(owner_client, owner, monkeypatch):
    pack = finished(owner_client, new_pack(owner_client, owner, 2))

    def no_checking(*args, **kwargs):
        raise AssertionError("the pack's page checked a table")

    monkeypatch.setattr("tablegen.packs.steps.check_table", no_checking)
    monkeypatch.setattr("tablegen.packs.views.check_table", no_checking)
    response = owner_client.get(pack.get_absolute_url())
    assert response.status_code == 200 and len(cards(response.content.decode())) == 2


def test_the_verdict_names_a_metric_past_its_tolerance(owner_client, owner):
    pack = made(owner_client, new_pack(owner_client, owner, 2))
    summaries = pack.summaries
    # Past the other table's coverage by more than the tolerance (whichever is higher).
    highest = max(summary["fairness"]["coverage"] for summary in summaries)
    summaries[1]["fairness"]["coverage"] = highest + pack_tolerance()["coverage"] + 0.01
    Pack.objects.filter(pk=pack.pk).update(state=pack.state_with(summaries))
    page = owner_client.get(pack.get_absolute_url()).content.decode()
    assert "Not within tolerance on coverage" in page
    assert '<tr class="over"><th scope="row">Coverage</th>' in page


def test_a_large_pack_shows_its_tables_a_page_at_a_time(owner_client, owner):
    pack = made(owner_client, new_pack(owner_client, owner, 1))
    count = TABLES_PER_PAGE + 3
    Pack.objects.filter(pk=pack.pk).update(
        count=count,
        made=count,
        tables=pack.tables * count,
        state=pack.state_with(pack.summaries * count),
    )
    first = owner_client.get(pack.get_absolute_url()).content.decode()
    second = owner_client.get(pack.get_absolute_url() + "?page=2").content.decode()
    assert len(cards(first)) == TABLES_PER_PAGE and len(cards(second)) == 3
    assert f'id="pack-table-{count}"' in second and 'aria-label="Pages of this pack' in first


def test_a_pack_kept_without_summaries_is_measured_again_by_the_worker(
    owner_client, owner, monkeypatch, jobs_wait
):
    pack = finished(owner_client, new_pack(owner_client, owner, 3))
    kept = pack.summaries
    Pack.objects.filter(pk=pack.pk).update(state=pack.state_with([]))
    monkeypatch.setattr("tablegen.packs.steps.GENERATE_STEP_SECONDS", 0)  # one table a step
    measured = []
    for _ in range(4):
        page = owner_client.get(pack.get_absolute_url(), headers=HTMX).content.decode()
        pack.refresh_from_db()
        measured.append(pack.measured)
        if pack.measured < 3:
            assert f"Measuring the tables: {pack.measured} of 3" in page
            advance(pack)  # the worker's step
    assert measured == [0, 1, 2, 3]
    # The page queued one job for the work, and only one however often it was shown.
    assert owner.jobs.filter(kind="pack", state="queued").count() == 1
    assert pack.summaries == kept and pack.pdf_ready  # the PDF was kept: the tables are


def test_a_thumbnail_is_small_and_draws_every_hex_and_piece(owner_client, owner):
    pack = made(owner_client, new_pack(owner_client, owner, 1))
    spec = pack.table_spec(1)
    picture = thumbnail_svg(spec, "Map")
    assert len(picture) < 7_000  # the full map is about 30 KB
    board = spec.board
    edge_rows = sum(1 for hex_ in board.hexes if hex_[1] in (board.first_row, board.last_row))
    assert picture.count(STEPS) == len(board) + edge_rows  # each hex once, each edge hex again
    # Open ground, a path per kind, the two edges, the pieces' outlines.
    assert picture.count('<path d="M') == 1 + len(set(spec.terrain.values())) + 2 + 1
    assert 'role="img" aria-label="Map"' in picture


def test_the_thumbnails_hexagon_goes_round_the_corners_of_the_grid():
    tokens = re.findall(r"[a-z]|-?\d+", STEPS)
    point, visited, command, numbers = TOP, [TOP], "", []
    for token in [*tokens, "z"]:
        if token.isalpha():
            command, numbers = token, []
            continue
        numbers.append(int(token))
        if command == "l" and len(numbers) == 2:
            point = (point[0] + numbers[0], point[1] + numbers[1])
            visited.append(point)
            numbers = []
        elif command == "v":
            point = (point[0], point[1] + numbers[0])
            visited.append(point)
            numbers = []
    assert tuple(visited) == CORNERS


# --- Progress -------------------------------------------------------------------------------


def test_the_pdf_progress_is_a_labelled_bar_that_advances_and_finishes(
    owner_client, owner, monkeypatch, jobs_wait
):
    monkeypatch.setattr("tablegen.packs.steps.SHEETS_PER_PART", 1)
    pack = made(owner_client, new_pack(owner_client, owner, 3))
    bars = []
    for _ in range(10):
        page = owner_client.get(pack.get_absolute_url(), headers=HTMX).content.decode()
        bar = re.search(r'<progress id="pack-bar" max="(\d+)" value="(\d+)"', page)
        if bar:
            assert '<label for="pack-bar">Making the PDF' in page
            assert "you can close this page and come back" in page
            bars.append((int(bar[1]), int(bar[2])))
        if pack.pdf_ready:
            break
        advance(pack)  # the worker's step
    assert bars == [(4, 0), (4, 1), (4, 2), (4, 3)]
    assert "Download the pack PDF" in page and "<progress" not in page
    assert "data-hx-trigger" not in page
    full = owner_client.get(pack.get_absolute_url()).content.decode()
    assert 'http-equiv="refresh"' not in full and "Download the pack PDF" in full


def test_without_javascript_the_page_refreshes_itself_while_the_pack_is_made(
    owner_client, owner, jobs_wait
):
    pack = new_pack(owner_client, owner, 3)
    page = owner_client.get(pack.get_absolute_url()).content.decode()
    assert '<noscript><meta http-equiv="refresh" content="3"></noscript>' in page
    assert "Generating the tables: 0 of 3" in page


def test_polling_sends_the_tables_only_when_more_are_made(owner_client, owner, jobs_wait):
    pack = new_pack(owner_client, owner, 3)
    url = poll_url(owner_client.get(pack.get_absolute_url()).content.decode())
    answers = []
    while not pack.pdf_ready:
        made_before = pack.made
        advance(pack)  # the worker's step, between two polls
        page = owner_client.get(url, headers=HTMX).content.decode()
        answers.append((pack.made != made_before, 'data-hx-swap-oob="true"' in page))
        if "data-hx-get" in page:
            url = poll_url(page)
    assert all(more == sent for more, sent in answers)
    assert any(sent for _, sent in answers) and not answers[-1][1]


def test_a_poll_does_no_work_the_worker_does_it(owner_client, owner, monkeypatch, jobs_wait):
    """The page only reads how far the pack is: a pack of 200 tables made on page views
    stopped when the page closed (a locked phone), and one request made its PDF in 58 s."""
    pack = new_pack(owner_client, owner, 4)
    read = []
    original = Pack.table_spec

    def counting(self, number):
        read.append(number)
        return original(self, number)

    monkeypatch.setattr(Pack, "table_spec", counting)
    for _ in range(5):
        owner_client.get(pack.get_absolute_url(), headers=HTMX)
    pack.refresh_from_db()
    assert (pack.made, pack.printed, read) == (0, 0, [])
    (job,) = owner.jobs.all()
    assert job.state == "queued" and job.label == "Tournament pack Club night"
    monkeypatch.setattr(Pack, "table_spec", original)
    assert run_waiting_jobs() == 1
    pack.refresh_from_db()
    job.refresh_from_db()
    assert pack.pdf_ready and job.state == "done" and job.steps_done == job.steps_total == 9


# --- Opening a table ------------------------------------------------------------------------


def test_a_table_opens_large_with_its_map_metrics_and_line_of_fire(owner_client, owner):
    pack = made(owner_client, new_pack(owner_client, owner, 2))
    spec = pack.table_spec(2)
    page = owner_client.get(table_url(pack, 2)).content.decode()
    assert f"<h1>{spec.name}</h1>" in page and 'class="table-map"' in page
    assert "Longest sightline" in page and "Table 2 of 2" in page
    assert "/terrain/" not in page  # read-only: no hex edits
    assert "Edit a copy" in page and "the pack keeps this table" in page
    hex_ = spec.board.hexes[len(spec.board) // 2]
    spot = f"{hex_[0]},{hex_[1]}"
    lof = owner_client.get(table_url(pack, 2) + f"&mode=lof&from={spot}")
    assert f"({spot}) sees" in lof.content.decode()
    region = owner_client.get(table_url(pack, 2) + "&mode=sightlines", headers=HTMX)
    body = region.content.decode()
    assert body.lstrip().startswith('<div id="table-view"') and "Heat map" in body


@pytest.mark.parametrize("number", ["0", "3", "x", ""])
def test_a_table_the_pack_does_not_have_is_a_clear_message(owner_client, owner, number):
    pack = made(owner_client, new_pack(owner_client, owner, 2))
    response = owner_client.get(table_url(pack, number), follow=True)
    assert response.redirect_chain[0][0] == pack.get_absolute_url()
    assert "its tables are numbered 1 to 2" in response.content.decode()


def test_only_the_owner_opens_or_copies_a_pack_table(owner_client, stranger_client, owner):
    pack = made(owner_client, new_pack(owner_client, owner, 1))
    assert stranger_client.get(table_url(pack, 1)).status_code == 404
    assert Client().get(table_url(pack, 1)).status_code == 404
    response = stranger_client.post(f"/tables/packs/{pack.pk}/copy/", {"table": 1})
    assert response.status_code == 404 and not Table.objects.exists()
    assert owner_client.get(f"/tables/packs/{pack.pk}/copy/").status_code == 405


# --- Editing a copy -----------------------------------------------------------------------


def test_edit_a_copy_makes_the_owners_table_and_opens_the_editor(owner_client, owner):
    pack = made(owner_client, new_pack(owner_client, owner, 2))
    stored = list(pack.tables)
    response = owner_client.post(f"/tables/packs/{pack.pk}/copy/", {"table": 2})
    copy = Table.objects.get()
    assert copy.owner == owner and response["Location"] == copy.get_absolute_url()
    assert copy.to_spec().terrain == pack.table_spec(2).terrain
    editor = owner_client.get(copy.get_absolute_url()).content.decode()
    assert "The pack keeps its own table 2" in editor and "/terrain/" in editor
    # The copy's editor leads back to the pack's page of that table, where it may go in.
    back = f'<a href="/tables/packs/{pack.pk}/table/?table=2#your-copy">← Table 2 of '
    assert editor.count(back) == 1
    pack.refresh_from_db()
    assert pack.tables == stored and pack.copy_of(2) == copy.pk
    page = owner_client.get(pack.get_absolute_url()).content.decode()
    assert f'Your copy: <a href="/tables/{copy.pk}/">' in page


def test_only_a_copy_leads_back_to_a_pack_and_only_to_the_owners(
    owner_client, stranger_client, owner, stranger
):
    pack = made(owner_client, new_pack(owner_client, owner, 2))
    owner_client.post(f"/tables/packs/{pack.pk}/copy/", {"table": 1})
    copy = Table.objects.get()
    other = Table.objects.create(owner=owner, name="Mine", document=copy.document)
    assert "packs/" not in owner_client.get(other.get_absolute_url()).content.decode()
    # A stranger's pack naming the owner's table as its copy gives the owner no link to it.
    foreign = made(stranger_client, new_pack(stranger_client, stranger, 2))
    Pack.objects.filter(pk=foreign.pk).update(copies={"1": other.pk, "x": other.pk})
    assert f"packs/{foreign.pk}" not in owner_client.get(other.get_absolute_url()).content.decode()


def test_the_copy_posts_with_csrf(owner):
    client = Client(enforce_csrf_checks=True)
    assert client.login(username="owner", password=OWNER_PASSWORD)
    client.post("/tables/packs/new/", PARAMS | {"count": 1, "name": "P"})  # refused: no token
    assert not Pack.objects.exists()
    page = client.get("/tables/packs/new/").content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)[1]
    client.post(
        "/tables/packs/new/", PARAMS | {"count": 1, "name": "P", "csrfmiddlewaretoken": token}
    )
    pack = made(client, owner.packs.get())
    assert client.post(f"/tables/packs/{pack.pk}/copy/", {"table": 1}).status_code == 403
    assert not Table.objects.exists()
    response = client.post(
        f"/tables/packs/{pack.pk}/copy/", {"table": 1, "csrfmiddlewaretoken": token}
    )
    assert response.status_code == 302 and Table.objects.count() == 1


def copy_form(client, pack: Pack, number: int) -> dict[str, str]:
    """The replace form of the pack's table page, as the owner's browser would send it."""
    page = client.get(table_url(pack, number)).content.decode()
    form = re.search(r'action="/tables/packs/\d+/replace/">(.*?)</form>', page, re.S)
    assert form is not None, "no form to put the copy in the pack"
    return dict(re.findall(r'name="(\w+)" value="([^"]*)"', form[1]))


def test_an_edited_copy_that_fits_takes_its_tables_place(owner_client, owner, jobs_wait):
    pack = finished(owner_client, new_pack(owner_client, owner, 3))
    owner_client.post(f"/tables/packs/{pack.pk}/copy/", {"table": 2})
    copy = Table.objects.get()
    page = owner_client.get(table_url(pack, 2)).content.decode()
    assert "It has the same terrain as this table: edit it first" in page
    turned = mirrored(copy.to_spec())
    copy.record(replace(turned, name=copy.name))
    form = copy_form(owner_client, pack, 2)
    version = pack.version
    response = owner_client.post(f"/tables/packs/{pack.pk}/replace/", form)
    assert response["Location"] == pack.get_absolute_url()
    pack.refresh_from_db()
    now = pack.table_spec(2)
    assert now.terrain == turned.terrain and now.name == edited_name(pack.name, 2)
    assert pack.version == version + 1 and not pack.pdf_ready and pack.printed == 0
    assert not PackPart.objects.exists()
    page = owner_client.get(pack.get_absolute_url()).content.decode()
    assert "Your copy is now table 2" in page and "Making the PDF" in page
    expected = table_summary(check_table(now, current_ruleset().table))
    assert pack.summaries[1] == expected | {"ruleset": current_ruleset().version}
    assert pack.table_spec(1).terrain != turned.terrain  # only its own place
    finished(owner_client, pack)  # and the PDF is made again


def test_a_copy_that_does_not_fit_leaves_the_pack_as_it_was(owner_client, owner):
    pack = finished(owner_client, new_pack(owner_client, owner, 2))
    owner_client.post(f"/tables/packs/{pack.pk}/copy/", {"table": 1})
    copy = Table.objects.get()
    spec = copy.to_spec()
    open_hexes = [i for i in range(len(spec.board)) if i not in spec.terrain]
    # Blocking terrain on every open hex of the middle: far too much cover and coverage.
    middle = {i: "blocking" for i in open_hexes[len(open_hexes) // 4 : 3 * len(open_hexes) // 4]}
    copy.record(replace(spec, terrain=spec.terrain | middle, pieces=()))
    page = owner_client.get(table_url(pack, 1)).content.decode()
    assert "It cannot take this table's place" in page and "not a valid table" in page
    assert "Put your copy in the pack" not in page
    stored, version = list(pack.tables), pack.version
    form = {"table": "1", "key": document_key(pack.tables[0]), "copy": str(copy.pk)}
    response = owner_client.post(
        f"/tables/packs/{pack.pk}/replace/", form | {"version": str(copy.version)}, follow=True
    )
    assert "Table 1 keeps its place" in response.content.decode()
    pack.refresh_from_db()
    assert pack.tables == stored and pack.version == version and pack.pdf_ready


def test_a_replacement_drawn_from_an_older_table_or_copy_changes_nothing(owner_client, owner):
    pack = finished(owner_client, new_pack(owner_client, owner, 2))
    owner_client.post(f"/tables/packs/{pack.pk}/copy/", {"table": 2})
    copy = Table.objects.get()
    copy.record(replace(mirrored(copy.to_spec()), name=copy.name))
    form = copy_form(owner_client, pack, 2)
    stored = list(pack.tables)
    stale_key = owner_client.post(
        f"/tables/packs/{pack.pk}/replace/", form | {"key": "0" * 16}, follow=True
    )
    assert "changed since this page was drawn" in stale_key.content.decode()
    stale_copy = owner_client.post(
        f"/tables/packs/{pack.pk}/replace/",
        form | {"version": str(copy.version - 1)},
        follow=True,
    )
    assert "Your copy was changed since" in stale_copy.content.decode()
    pack.refresh_from_db()
    assert pack.tables == stored and pack.pdf_ready


def test_only_the_owner_puts_a_copy_in_a_pack(owner_client, stranger_client, owner, stranger):
    pack = finished(owner_client, new_pack(owner_client, owner, 2))
    owner_client.post(f"/tables/packs/{pack.pk}/copy/", {"table": 2})
    copy = Table.objects.get()
    copy.record(replace(mirrored(copy.to_spec()), name=copy.name))
    form = copy_form(owner_client, pack, 2)
    assert stranger_client.post(f"/tables/packs/{pack.pk}/replace/", form).status_code == 404
    # Nor may the owner put someone else's table in: it is not found among theirs.
    theirs = Table(owner=stranger)
    theirs.set_spec(copy.to_spec())
    theirs.save()
    response = owner_client.post(
        f"/tables/packs/{pack.pk}/replace/", form | {"copy": str(theirs.pk)}
    )
    assert response.status_code == 404
    pack.refresh_from_db()
    assert pack.pdf_ready and pack.table_spec(2).terrain != copy.to_spec().terrain


def test_a_replacement_is_a_compare_and_swap_on_the_packs_version(owner_client, owner, jobs_wait):
    pack = made(owner_client, new_pack(owner_client, owner, 2))
    first, second = Pack.objects.get(pk=pack.pk), Pack.objects.get(pk=pack.pk)
    advance(first)  # a step of the pack (a part of its PDF) moves the version on
    spec = mirrored(second.table_spec(1))
    summary = table_summary(check_table(spec, current_ruleset().table))
    with pytest.raises(StaleVersion):
        second.replace_table(1, spec, summary)
    pack.refresh_from_db()
    assert pack.table_spec(1).terrain != spec.terrain and pack.printed == first.printed


# --- The verdict's arithmetic -------------------------------------------------------------


def test_a_spread_at_the_tolerance_is_within_it_and_one_past_is_not():
    tolerance = {"coverage": 0.05}
    assert spreads([{"coverage": 0.40}, {"coverage": 0.45}], tolerance)[0].within
    assert not spreads([{"coverage": 0.40}, {"coverage": 0.4501}], tolerance)[0].within
    assert misfits({"coverage": 0.45}, [{"coverage": 0.40}], tolerance) == []
    (over,) = misfits({"coverage": 0.46}, [{"coverage": 0.40}, {"coverage": 0.44}], tolerance)
    assert (over.low, over.high) == (0.40, 0.46)
    # A pack already too wide is not held against a table within reach of every other.
    assert misfits({"coverage": 0.43}, [{"coverage": 0.40}, {"coverage": 0.47}], tolerance) == []


def test_an_edited_tables_name_keeps_within_the_name_limit():
    long = "N" * 200
    assert len(edited_name(long, 200)) == 120 and edited_name(long, 200).endswith("… 200 (edited)")
    assert edited_name("Club night", 3) == "Club night 3 (edited)"


def test_a_table_document_key_follows_its_content(owner_client, owner):
    pack = made(owner_client, new_pack(owner_client, owner, 2))
    one, two = pack.tables
    assert document_key(one) == document_key(dict(one)) != document_key(two)
    assert document_key(table_document(pack.table_spec(1))) == document_key(one)


# --- Terrain to bring, and a stopped pack started again (issue 24) -------------------------


def test_the_pack_says_what_terrain_the_hall_needs_and_each_table_needs(owner_client, owner):
    from tablegen.engine.generate import piece_counts
    from tablegen.engine.library import terrain_library

    pack = made(owner_client, new_pack(owner_client, owner, count=3))
    library = terrain_library()
    counts = [piece_counts(pack.table_spec(n)) for n in (1, 2, 3)]
    hall = {p: sum(c.get(p, 0) for c in counts) for c in counts for p in c}
    page = owner_client.get(pack.get_absolute_url()).content.decode()
    assert "Terrain to bring" in page and "all 3 tables set up at once" in page
    for piece, total in hall.items():
        most = max(c.get(piece, 0) for c in counts)
        name = library.pieces[piece].name
        assert f'<th scope="row">{name}</th><td>{total}</td><td>{most}</td>' in page
    first = "; ".join(
        f"{n} \u00d7 {library.pieces[p].name}"
        for p, n in sorted(counts[0].items(), key=lambda kv: list(library.pieces).index(kv[0]))
    )
    assert f"Table 1: {first}</li>" in page


def test_a_stopped_pack_is_started_again_with_its_settings(owner_client, owner, stranger_client):
    owner_client.post(
        "/tables/packs/new/",
        PARAMS | {"count": 4, "name": "Dead box", "symmetry": "mirror", "box": "crates:30"},
    )
    pack = owner.packs.get()
    Pack.objects.update(error="This terrain box made no valid table of its first 5 seeds.")
    page = owner_client.get(pack.get_absolute_url()).content.decode()
    again = f"/tables/packs/new/?again={pack.pk}"
    assert f'href="{again}"' in page and "Start it again with its settings" in page
    form = owner_client.get(again).content.decode()
    assert 'value="Dead box"' in form and 'value="4"' in form
    assert '<option value="mirror" selected>' in form
    assert '<option value="crates:30" selected>' in form
    # Only the owner's pack is read back; a stranger gets the empty form.
    assert 'value="Dead box"' not in stranger_client.get(again).content.decode()


# --- Sharing a pack ---------------------------------------------------------------------------


def test_a_pack_is_private_until_its_owner_shares_it_then_read_only_by_link(
    owner_client, owner, stranger_client
):
    pack = finished(owner_client, new_pack(owner_client, owner, 3))
    link = f"/p/{pack.share_code}/"
    assert Client().get(link).status_code == 404
    page = owner_client.get(pack.get_absolute_url()).content.decode()
    assert "Only you can see this pack" in page and "Turn sharing on" in page
    assert "Share under a new link" in page and "Make a new link" not in page
    assert (
        stranger_client.post(f"/tables/packs/{pack.pk}/sharing/", {"change": "on"}).status_code
        == 404
    )
    owner_client.post(f"/tables/packs/{pack.pk}/sharing/", {"change": "on"})
    page = owner_client.get(pack.get_absolute_url()).content.decode()
    assert "Make a new link (the old one stops working)" in page
    shared = Client().get(link)
    assert shared.status_code == 200
    text = shared.content.decode()
    assert len(cards(text)) == 3 and "Is the pack balanced?" in text and "Terrain to bring" in text
    for owners_only in ("Edit a copy", "Delete", "Share this pack", "/tables/packs/"):
        assert owners_only not in text
    pdf = Client().get(f"/p/{pack.share_code}/pack.pdf")
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    old = pack.share_code
    owner_client.post(f"/tables/packs/{pack.pk}/sharing/", {"change": "new"})
    assert Client().get(link).status_code == 404  # the old link is gone
    pack.refresh_from_db()
    assert pack.share_code != old and Client().get(f"/p/{pack.share_code}/").status_code == 200
    owner_client.post(f"/tables/packs/{pack.pk}/sharing/", {"change": "off"})
    assert Client().get(f"/p/{pack.share_code}/").status_code == 404
