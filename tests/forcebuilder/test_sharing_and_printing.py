"""Export, import, printing, odds and moving a list to a newer ruleset."""

from __future__ import annotations

import io
import json
import tomllib
from unittest import mock

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from pypdf import PdfReader

from forcebuilder.edits import with_keys
from forcebuilder.models import Force
from onefinity.rules import force_document, read_force_document
from onefinity.rules.ruleset import RULESET_DIR, RulesetLibrary
from onefinity.rules.ruleset_file import library, parse_ruleset
from tests.forcebuilder.conftest import LEGAL_DOCUMENT

pytestmark = pytest.mark.django_db


def pdf_text(content: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages)


def test_export_json_is_a_force_document_that_imports_back_equal(owner_client, force):
    response = owner_client.get(f"/forces/{force.pk}/export.json")
    assert 'filename="wardens.json"' in response["Content-Disposition"]
    document = json.loads(response.content)
    spec = read_force_document(document)
    assert spec == force.to_spec()
    # The same list as the one it was made from, each unit and trooper now with its id.
    assert force_document(with_keys(read_force_document(LEGAL_DOCUMENT))).keys() == document.keys()
    assert all(unit["id"] and all(t["id"] for t in unit["troopers"]) for unit in document["units"])
    owner_client.post("/forces/import/", {"document": json.dumps(document), "confirm": "save"})
    copy = Force.objects.exclude(pk=force.pk).get()
    assert copy.document() == force.document()  # ids included


def test_the_text_roster_reads_well_in_a_chat(client, force):
    text = client.get(f"/s/{force.share_code}/roster.txt").content.decode()
    assert text.startswith("Wardens — Solar Concord\n28/75 points · ruleset 2026.11 · legal")
    assert "Alpha (Medium Infantry) — 15 pts" in text
    assert f"/s/{force.share_code}/" in text


def test_import_shows_the_list_before_saving_it(owner_client, owner):
    response = owner_client.post("/forces/import/", {"document": json.dumps(LEGAL_DOCUMENT)})
    page = response.content.decode()
    assert response.status_code == 200
    assert "Wardens" in page and "28/75 points" in page and "Save to my lists" in page
    assert not owner.forces.exists()
    owner_client.post(
        "/forces/import/", {"document": json.dumps(LEGAL_DOCUMENT), "confirm": "save"}
    )
    assert owner.forces.get().name == "Wardens"


def test_import_accepts_an_uploaded_file(owner_client, owner):
    upload = SimpleUploadedFile(
        "list.json", json.dumps(LEGAL_DOCUMENT).encode(), "application/json"
    )
    response = owner_client.post("/forces/import/", {"file": upload})
    assert "Save to my lists" in response.content.decode()


def test_an_illegal_list_can_be_imported_and_its_problems_are_shown(owner_client):
    document = dict(LEGAL_DOCUMENT, units=[{"type": "tag", "troopers": [{}, {}]}])
    page = owner_client.post("/forces/import/", {"document": json.dumps(document)}).content.decode()
    assert "at most 1" in page and "Not legal" in page


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "Paste a force document"),
        ("{not json", "not valid JSON"),
        ('{"format": "onefinity-table", "version": 1}', "not a force document"),
        (json.dumps(dict(LEGAL_DOCUMENT, ruleset="1999.1")), "ruleset 1999.1"),
        (
            json.dumps(dict(LEGAL_DOCUMENT, units={"a": 1})),
            "expected a list, got an object (units)",
        ),
        ("[" * 100_001, "at most 100,000 bytes"),
        ("[" * 5000 + "]" * 5000, "nested too deeply"),
        (json.dumps(dict(LEGAL_DOCUMENT, name="x" * 500)), "at most 120"),
    ],
)
def test_a_malformed_or_hostile_import_gets_a_clear_message_and_saves_nothing(
    owner_client, owner, text, words
):
    response = owner_client.post("/forces/import/", {"document": text, "confirm": "save"})
    assert response.status_code == 400
    assert words in response.content.decode()
    assert not owner.forces.exists()


def test_a_too_large_upload_is_refused(owner_client, owner):
    upload = SimpleUploadedFile("big.json", b" " * 200_000, "application/json")
    response = owner_client.post("/forces/import/", {"file": upload})
    assert (
        response.status_code == 400 and "a force document is at most" in response.content.decode()
    )


def test_names_are_escaped_everywhere(owner_client, owner):
    document = dict(LEGAL_DOCUMENT, name="<script>alert(1)</script>")
    owner_client.post("/forces/import/", {"document": json.dumps(document), "confirm": "save"})
    force = owner.forces.get()
    force.set_sharing("on")
    for url in (
        f"/forces/{force.pk}/",
        "/forces/",
        f"/s/{force.share_code}/",
        f"/forces/{force.pk}/roster/",
    ):
        page = owner_client.get(url).content.decode()
        assert "<script>alert(1)</script>" not in page
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_the_print_view_has_everything_on_one_page_with_qr_and_share_code(client, force):
    page = client.get(f"/forces/{force.pk}/roster/", follow=True)
    page = client.get(f"/s/{force.share_code}/roster/").content.decode()
    assert "Wardens" in page and "28/75 points" in page and "Legal" in page
    assert force.share_code in page and "<svg" in page  # share code and QR
    assert "Combi Rifle 3/3/2/\N{EN DASH}" in page  # cards per range band
    assert "@page" in page


def test_the_roster_pdf_has_the_list(client, force):
    response = client.get(f"/s/{force.share_code}/roster.pdf")
    assert response["Content-Type"] == "application/pdf"
    text = pdf_text(response.content)
    assert "Wardens" in text and "Spitfire" in text and force.share_code in text


def test_trooper_cards_are_poker_sized_with_wound_and_state_boxes(client, force):
    response = client.get(f"/s/{force.share_code}/cards.pdf")
    text = pdf_text(response.content)
    assert text.count("Downed") == 4 and "Hacked" in text and "Wounds" in text
    assert f"Share code {force.share_code}" in text  # the list card, with the QR code
    html = client.get(f"/s/{force.share_code}/cards.pdf")  # rendered from cards.html
    assert html.status_code == 200
    from django.template.loader import get_template

    assert "width: 63mm; height: 88mm" in get_template("forcebuilder/cards.html").template.source


def test_the_odds_panel_uses_the_engine(owner_client, keyed_force):
    force = keyed_force
    params = {
        "attacker": "cmb:combi-rifle",
        "target": "type:medium-infantry",
        "mode": "shooting",
        "band": "medium",
        "defense": "cover",
    }
    page = owner_client.get(
        f"/forces/{force.pk}/odds/", params, headers={"HX-Request": "true"}
    ).content.decode()
    # Combi Rifle at medium: 3 cards; target: 1 + armor 1 + cover 1 = 3 cards: an even
    # fight for each shot, and the Combi Rifle shoots twice (B 2) while the first misses.
    assert (
        '<strong class="attacker">3</strong> cards against <strong class="defender">3</strong>'
        in page
    )
    assert 'wins <data value="1/2">50.0 %</data>' in page
    assert 'data-outcome="attacker">75.0 %' in page  # 1 - 1/2 x 1/2


def test_the_odds_panel_explains_an_impossible_shot(owner_client, keyed_force):
    force = keyed_force
    params = {
        "attacker": "cmb:combi-rifle",
        "target": "type:tag",
        "mode": "shooting",
        "band": "extreme",
    }
    page = owner_client.get(
        f"/forces/{force.pk}/odds/", params, headers={"HX-Request": "true"}
    ).content.decode()
    assert "cannot fire at extreme range" in page


def test_the_odds_panel_offers_troopers_of_my_other_lists_as_targets(
    owner_client, keyed_force, owner
):
    force = keyed_force
    other = Force.create_from_spec(force.to_spec(), "2026.11", 75, owner=owner)
    other.name = "Rivals"
    other.save()
    page = owner_client.get(f"/forces/{force.pk}/", {"open": "odds"}).content.decode()
    assert f'<option value="list:{other.pk}:tag1">Trooper (TAG)</option>' in page


# --- Moving to a newer ruleset -------------------------------------------------------------


@pytest.fixture
def newer_ruleset():
    with (RULESET_DIR / "onefinity-2026.11.toml").open("rb") as handle:
        document = tomllib.load(handle)
    document["version"] = "2027.1"
    document["unit_types"]["tag"]["cost"] = 12
    spitfire = document["weapons"].pop("spitfire")
    spitfire["name"] = "Spitfire Mk II"
    spitfire["replaces"] = ["spitfire"]
    document["weapons"]["spitfire-mk2"] = spitfire
    newer = parse_ruleset(document, "rulesets/2027.1.toml")
    shipped = library()
    both = RulesetLibrary({**shipped.rulesets, "2027.1": newer})
    with (
        mock.patch("forcebuilder.views.library", return_value=both),
        mock.patch("forcebuilder.sheets.library", return_value=both),
    ):
        yield newer


def test_a_list_says_what_a_newer_ruleset_would_change(owner_client, force, newer_ruleset):
    page = owner_client.get(f"/forces/{force.pk}/").content.decode()
    assert "Ruleset 2027.1 is available" in page
    assert "would cost 30 points (now 28)" in page
    assert "spitfire → Spitfire Mk II" in page


def test_moving_a_list_to_the_newer_ruleset_renames_its_items(owner_client, force, newer_ruleset):
    owner_client.post(f"/forces/{force.pk}/move-ruleset/", {"version": force.version})
    force.refresh_from_db()
    assert force.ruleset_version == "2027.1"
    assert force.units[1]["troopers"][0]["weapons"] == ["spitfire-mk2"]
    owner_client.post(f"/forces/{force.pk}/undo/", {"version": force.version})
    force.refresh_from_db()
    assert force.ruleset_version == "2026.11"  # undo goes back to the older ruleset too


def test_the_list_page_shows_the_share_link_and_its_qr_code(owner_client, force):
    page = owner_client.get(f"/forces/{force.pk}/").content.decode()
    assert f"http://testserver/s/{force.share_code}/" in page
    assert 'class="segno"' in page


def test_the_stat_line_shows_fire_power_when_bonuses_change_the_cards(owner_client, force):
    owner_client.post(
        f"/forces/{force.pk}/edit/",
        {
            "action": "loadout",
            "unit": 0,
            "trooper": 1,
            "weapons": ["sniper-rifle"],
            "abilities": ["marksman"],
            "version": force.version,
        },
    )
    key = force.to_spec().units[0].troopers[1].id
    page = owner_client.get(f"/forces/{force.pk}/", {"open": key}).content.decode()
    # Sniper Rifle at long range: fire power 2, Marksman +1: 3 cards.
    assert '3 <small class="fp" title="fire power 2 plus bonuses">FP 2</small>' in page


# --- Turning a share link off, or replacing it ------------------------------------------------


def test_the_owner_can_turn_sharing_off_and_the_link_answers_not_found(owner_client, client, force):
    code = force.share_code
    assert client.get(f"/s/{code}/").status_code == 200
    response = owner_client.post(f"/forces/{force.pk}/sharing/", {"change": "off"}, follow=True)
    assert "Sharing is off" in response.content.decode()
    for suffix in ("", "roster/", "roster.pdf", "cards.pdf", "export.json", "roster.txt"):
        assert client.get(f"/s/{code}/{suffix}").status_code == 404, suffix
    assert client.post(f"/s/{code}/copy/").status_code == 404
    roster = owner_client.get(f"/forces/{force.pk}/roster/").content.decode()
    assert code not in roster and "<svg" not in roster  # no dead link on a printout
    owner_client.post(f"/forces/{force.pk}/sharing/", {"change": "on"})
    assert client.get(f"/s/{code}/").status_code == 200


def test_a_new_link_replaces_the_old_one_for_good(owner_client, client, force):
    old = force.share_code
    owner_client.post(f"/forces/{force.pk}/sharing/", {"change": "new"})
    force.refresh_from_db()
    assert force.share_code != old and force.sharing
    assert client.get(f"/s/{old}/").status_code == 404
    assert client.get(f"/s/{force.share_code}/").status_code == 200
    assert force.share_code in owner_client.get(f"/forces/{force.pk}/roster/").content.decode()


def test_with_sharing_off_the_new_link_button_says_it_turns_sharing_on(owner_client, force):
    owner_client.post(f"/forces/{force.pk}/sharing/", {"change": "off"})
    page = owner_client.get(f"/forces/{force.pk}/").content.decode()
    # No working link to replace: the button says what it does, turn it on under a new one.
    assert "Share under a new link" in page and "Make a new link" not in page
    owner_client.post(f"/forces/{force.pk}/sharing/", {"change": "on"})
    page = owner_client.get(f"/forces/{force.pk}/").content.decode()
    assert "Make a new link (the old one stops working)" in page
    assert "Share under a new link" not in page


def test_only_the_owner_changes_sharing_and_nonsense_changes_nothing(
    owner_client, stranger_client, force
):
    assert (
        stranger_client.post(f"/forces/{force.pk}/sharing/", {"change": "off"}).status_code == 404
    )
    assert owner_client.get(f"/forces/{force.pk}/sharing/").status_code == 405
    owner_client.post(f"/forces/{force.pk}/sharing/", {"change": "sideways"})
    force.refresh_from_db()
    assert force.sharing


def test_a_new_list_is_private_until_its_owner_shares_it(owner_client, owner, client):
    owner_client.post(
        "/forces/new/", {"name": "Secret", "faction": "solar-concord", "points_limit": 75}
    )
    force = owner.forces.get()
    assert not force.sharing
    assert client.get(f"/s/{force.share_code}/").status_code == 404
    page = owner_client.get(f"/forces/{force.pk}/").content.decode()
    assert "Only you can see this list" in page and "Turn sharing on" in page
    assert force.share_code not in page  # no link to hand out before it works
    owner_client.post(f"/forces/{force.pk}/sharing/", {"change": "on"})
    assert client.get(f"/s/{force.share_code}/").status_code == 200


def test_a_list_shared_before_lists_were_private_stays_shared(force, client):
    # The migration changed the default only: a stored list keeps its sharing.
    assert Force._meta.get_field("sharing").default is False
    assert force.sharing and client.get(f"/s/{force.share_code}/").status_code == 200


def test_the_shared_page_offers_editing_to_its_owner_only(
    owner_client, stranger_client, client, force
):
    url = f"/s/{force.share_code}/"
    assert "It is yours" in owner_client.get(url).content.decode()
    assert "It is yours" not in stranger_client.get(url).content.decode()
    assert "It is yours" not in client.get(url).content.decode()
    # A list made without an account: its own browser is offered editing, another is not.
    maker = Client()
    made = maker.post(
        "/forces/new/", {"name": "Mine", "faction": "solar-concord", "points_limit": 75}
    )
    pk = made["Location"].rstrip("/").split("/")[-1]
    maker.post(f"/forces/{pk}/sharing/", {"change": "on"})
    code = Force.objects.get(pk=pk).share_code
    assert "It is yours" in maker.get(f"/s/{code}/").content.decode()
    other = Client()
    other.post("/forces/new/", {"name": "Theirs", "faction": "solar-concord", "points_limit": 75})
    assert "It is yours" not in other.get(f"/s/{code}/").content.decode()
