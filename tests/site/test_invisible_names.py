"""Names lose the characters that change their look unseen (direction overrides and
isolates, direction marks, zero-width characters, the byte-order mark, tag characters):
in a dashboard, a CSV or a PDF they could make one name pass for another."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from events.models import Event
from forcebuilder.models import Force
from onefinity.rules import read_force_document
from onefinity.rules.text import normalize_name, without_invisible
from tablegen.engine.boxes import read_box_name
from tablegen.engine.tables import read_name
from tablegen.models import Table, TerrainBox
from tests.factories import make_force, make_table
from tests.forcebuilder.conftest import LEGAL_DOCUMENT

INVISIBLE = [
    *map(chr, range(0x202A, 0x202F)),
    *map(chr, range(0x2066, 0x206A)),
    *map(chr, range(0x200B, 0x2010)),
    "\u061c",
    "\ufeff",
    chr(0xE0001),
    chr(0xE0041),
    chr(0xE007F),
]
# "Alice" written so that it shows as "ecilA" reversed, with marks and joiners about.
SPOOF = "\u202eecilA\u202c\u200b\u2066\ufeff"


@given(st.text(alphabet=st.sampled_from(["a", "B", " ", "é", *INVISIBLE]), max_size=20))
def test_no_name_keeps_an_invisible_or_direction_character(text):
    for read in (normalize_name, without_invisible):
        assert not set(read(text)) & set(INVISIBLE)
    assert without_invisible(text) == "".join(ch for ch in text if ch not in INVISIBLE)


def test_what_shows_is_kept():
    assert normalize_name(SPOOF) == "ecilA"
    assert normalize_name("\u202e\u200b") == ""  # nothing shows: no name
    # Characters that show and change no direction stay: accents, CJK, an emoji.
    assert normalize_name("Équipe 東 🎲") == "Équipe 東 🎲"


def test_every_document_reader_removes_them_from_names():
    document = {
        **LEGAL_DOCUMENT,
        "name": SPOOF,
        "units": [
            {**LEGAL_DOCUMENT["units"][0], "name": "\u2067Unit\u2069"},
            *LEGAL_DOCUMENT["units"][1:],
        ],
    }
    spec = read_force_document(document)
    assert spec.name == "ecilA" and spec.units[0].name == "Unit"
    assert read_name(SPOOF) == "ecilA"
    assert read_box_name(SPOOF) == "ecilA"


pytestmark = pytest.mark.django_db


def test_typed_names_lose_them_on_every_form(owner, owner_client):
    force, table = make_force(owner), make_table(owner)
    owner_client.post(
        f"/forces/{force.pk}/edit/",
        {"action": "settings", "name": SPOOF, "faction": force.faction, "points_limit": "75"}
        | {"version": force.version},
    )
    force.refresh_from_db()
    assert force.name == "ecilA"
    owner_client.post(f"/tables/{table.pk}/rename/", {"name": SPOOF, "version": table.version})
    assert Table.objects.get(pk=table.pk).name == "ecilA"
    owner_client.post("/tables/boxes/new/", {"name": SPOOF, "count-crates": "2"})
    assert TerrainBox.objects.get().name == "ecilA"
    owner_client.post(
        "/events/new/",
        {"name": SPOOF, "date": "2026-12-05", "points_limit": "75", "round_count": "3"}
        | {"ruleset_version": "2026.11", "notes": ""},
    )
    assert Event.objects.get().name == "ecilA"
    owner_client.post("/forces/new/", {"name": SPOOF, "faction": force.faction, "points_limit": 75})
    assert Force.objects.filter(name="ecilA").count() == 2


@pytest.mark.parametrize("character", ["\u202e", "\u200b", "\ufeff", chr(0xE0041)])
def test_a_username_with_them_is_refused(client, character, django_user_model):
    response = client.post(
        "/accounts/signup/",
        {
            "username": f"ali{character}ce",
            "email": "a@example.com",
            "password1": "a-long-pass-phrase",
            "password2": "a-long-pass-phrase",
        },
    )
    assert response.status_code == 400
    assert not django_user_model.objects.exists()
