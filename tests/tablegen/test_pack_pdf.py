"""A pack's PDF is made once by the worker, a few sheets per step, and then served as
stored."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from tablegen.models import Pack, PackPart
from tablegen.packs.steps import advance

pytestmark = pytest.mark.django_db

PARAMS = {"seed": 5, "coverage": 0.45, "symmetry": "point", "mix": "balanced"}


def new_pack(client, owner, count: int) -> Pack:
    client.post("/tables/packs/new/", PARAMS | {"count": count, "name": "Club night"})
    return owner.packs.get()


def poll(client, pack: Pack) -> str:
    return client.get(pack.get_absolute_url(), headers={"HX-Request": "true"}).content.decode()


def test_the_pdf_is_made_in_steps_with_progress_then_served_as_stored(
    owner_client, owner, monkeypatch, jobs_wait
):
    monkeypatch.setattr("tablegen.packs.steps.SHEETS_PER_PART", 1)  # one sheet a step
    pack = new_pack(owner_client, owner, 3)
    pages = []
    for _ in range(60):
        pages.append(poll(owner_client, pack))
        if pack.pdf_ready:
            break
        advance(pack)  # the worker's step
    assert pack.pdf_ready
    assert any("Making the PDF: 1 of 3 sheets" in page for page in pages)
    assert any("Making the PDF: 2 of 3 sheets" in page for page in pages)
    assert "Ready: 3 tables" in pages[-1] and "hx-trigger" not in pages[-1]
    assert not PackPart.objects.exists()  # the parts are merged and let go

    def no_rendering(*args, **kwargs):
        raise AssertionError("the download rendered the PDF again")

    monkeypatch.setattr("tablegen.printing.render_pdf", no_rendering)
    response = owner_client.get(f"/tables/packs/{pack.pk}/pack.pdf")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    pdf = PdfReader(io.BytesIO(response.content))
    assert len(pdf.pages) == 3
    assert "Club night 2 (seed" in pdf.pages[1].extract_text()


def test_the_worker_makes_the_pdf_three_sheets_a_step(owner_client, owner, jobs_wait):
    pack = new_pack(owner_client, owner, 7)
    while pack.made < pack.count:
        advance(pack)
    printed = []
    while not pack.pdf_ready:
        advance(pack)
        printed.append(pack.printed)
    assert printed == [3, 6, 7, 7]  # 3 sheets a step, then putting the PDF together


def test_an_unfinished_pdf_says_it_is_being_made(owner_client, owner, jobs_wait):
    pack = new_pack(owner_client, owner, 200)
    for suffix in ("pack.pdf", "pack.zip"):
        response = owner_client.get(f"/tables/packs/{pack.pk}/{suffix}")
        assert response.status_code == 302 and response["Location"] == pack.get_absolute_url()
    page = owner_client.get(f"/tables/packs/{pack.pk}/pack.pdf", follow=True).content.decode()
    assert "being made" in page and "0 of 200 tables" in page


def test_two_workers_advancing_one_pack_at_once_keep_it_whole(
    owner_client, owner, monkeypatch, jobs_wait
):
    monkeypatch.setattr("tablegen.packs.steps.SHEETS_PER_PART", 1)
    pack = new_pack(owner_client, owner, 2)
    while pack.made < pack.count:
        advance(pack)
    first, second = Pack.objects.get(pk=pack.pk), Pack.objects.get(pk=pack.pk)
    advance(first)
    advance(second)  # read at the same version: its work is not kept
    assert list(PackPart.objects.values_list("first", flat=True)) == [1]
    pack.refresh_from_db()
    assert pack.printed == 1
    while not pack.pdf_ready:
        advance(pack)
    assert len(PdfReader(io.BytesIO(bytes(pack.pdf))).pages) == 2


def test_repairing_a_pack_makes_its_pdf_again(owner_client, owner, monkeypatch):
    pack = new_pack(owner_client, owner, 1)
    while not pack.pdf_ready:
        advance(pack)
    Pack.objects.filter(pk=pack.pk).update(tables=[pack.tables[0] | {"name": "x\x01y"}])
    pack.refresh_from_db()
    assert pack.repair() == ("table 1: name: removed control characters",)
    pack.refresh_from_db()
    assert not pack.pdf_ready and pack.printed == 0


@pytest.mark.parametrize("seed", [20, 21, 22])
def test_a_standard_tables_setup_sheet_is_one_page_even_with_a_long_pack_name(seed):
    """Its last line spilled onto a page of its own for one standard table in ten of a pack
    (a browser walk as a new organizer, 2026-11-24): six pages for four tables."""
    from onefinity.rules import current_ruleset
    from onefinity.rules.hexgrid import standard_board
    from tablegen.engine.generate import Parameters, generate_table
    from tablegen.printing import setup_pdf

    rules = current_ruleset().table
    board = standard_board(rules.rows, rules.columns)
    name = f"Spring Open 2027 try 2 {seed} (seed {1_200_675_270 + seed})"
    spec, _ = generate_table(rules, Parameters(seed=seed, symmetry="point"), board, name=name)
    assert len(PdfReader(io.BytesIO(setup_pdf([spec], name, rules))).pages) == 1
