"""The pages of the foundation: home, the ruleset reference and the card-odds calculator."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_the_home_page_says_what_the_site_does_and_checks_the_examples(client):
    response = client.get("/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "Build Onefinity forces" in page
    assert "Exomorph TAG Strike" in page and "Legal" in page
    assert "This force has 2 TAGs; at most 1 is allowed." in page
    assert 'media="print"' in page
    assert "X-CSRFToken" in page  # htmx requests carry the CSRF token


def test_pages_only_answer_get(client):
    for url in ("/", "/rules/", "/odds/"):
        assert client.post(url).status_code == 405


def test_the_ruleset_page_shows_the_rules_and_marks_provisional_entries(client):
    page = client.get(reverse("onefinity:ruleset")).content.decode()
    assert "Medium Infantry" in page and "Exomorph Collective" in page
    assert "2 points off every TAG (Tactical Armored Gear)" in page
    assert "provisional" in page
    assert "spades > hearts > diamonds > clubs" in page


def test_the_ruleset_page_says_which_modifiers_count_in_one_kind_of_exchange_only(client):
    page = client.get(reverse("onefinity:ruleset")).content.decode()
    assert "Charging in close combat +1 (close combat only)" in page
    assert "Cover +1 (shooting only)" in page
    document = client.get("/rules/2026.11/ruleset.json").json()
    assert document["defense_modifiers"]["cover"]["exchanges"] == ["shooting"]


def test_the_ruleset_page_shows_each_effect_in_words_made_from_the_data(client):
    from django.utils.html import escape

    from onefinity.rules import current_ruleset
    from onefinity.rules.effects import describe, describe_entry

    ruleset = current_ruleset()
    page = client.get(reverse("onefinity:ruleset")).content.decode()
    for catalogue in (ruleset.abilities, ruleset.equipment, ruleset.unit_skills):
        for entry in catalogue.values():
            words = describe_entry(entry, ruleset)
            assert words and escape(words) in page, entry.id
    # The words follow the data: another amount, other words, with no template change.
    mimetism = ruleset.unit_skills["mimetism"].effects[0]
    assert describe(mimetism, ruleset) == (
        "an enemy shooting at it at long or extreme range draws 1 card less"
    )
    from dataclasses import replace

    assert describe(replace(mimetism, amount=-2, bands=("extreme",)), ruleset) == (
        "an enemy shooting at it at extreme range draws 2 cards less"
    )
    assert "its effect is on healing (not part of the odds)" in page


def test_the_ruleset_page_explains_the_exchange_and_marks_our_choices(client):
    page = client.get(reverse("onefinity:ruleset")).content.decode()
    start = page.index('<section id="exchange">')
    exchange = page[start : page.index("</section>", start)]
    assert "its fire power limited to 1" in exchange
    # Ties, bursts, AP, the wounds a hit costs, the least a side draws.
    assert exchange.count('class="badge provisional">provisional<') == 5
    weapons = page[page.index('<section id="weapons">') :]
    assert "provisional</span> (the rules give fire power by range" in weapons
    assert "Rifle</td>" not in page  # the default weapon is marked where it is shown
    assert 'Rifle <span class="badge provisional">provisional</span></td>' in page


def test_a_ruleset_version_has_its_own_page_and_json(client):
    assert client.get("/rules/2026.11/").status_code == 200
    response = client.get("/rules/2026.11/ruleset.json")
    assert response.status_code == 200
    assert "attachment" in response["Content-Disposition"]
    assert json.loads(response.content)["force_limits"]["points"] == 75


def test_an_unknown_ruleset_version_is_not_found(client):
    assert client.get("/rules/1999.1/").status_code == 404
    assert client.get("/rules/1999.1/ruleset.json").status_code == 404


def test_the_odds_page_works_without_javascript(client):
    response = client.get("/odds/", {"attacker": 1, "defender": 1})
    page = response.content.decode()
    assert response.status_code == 200
    assert "<html" in page and "50.0 %" in page and "fresh, full" in page


def test_the_odds_page_answers_htmx_with_only_the_result(client):
    response = client.get("/odds/", {"attacker": 3, "defender": 2}, headers={"HX-Request": "true"})
    page = response.content.decode()
    assert "<html" not in page
    assert page.strip().startswith('<section id="odds-result"')
    assert "60.6 %" in page and "39.4 %" in page


def test_the_odds_page_works_out_a_reaction_and_a_burst_as_a_whole_exchange(client):
    params = {"attacker": 1, "defender": 1, "burst": 2, "reaction": "on", "reaction_cards": 1}
    page = client.get("/odds/", params, headers={"HX-Request": "true"}).content.decode()
    assert "The whole exchange" in page and "up to 2 shots" in page
    # The defender's one shot at once: the attacker ends downed exactly half the time.
    assert 'The attacker ends</strong> unhurt <data value="1/2">50.0 %</data>' in page
    plain = client.get("/odds/", {"attacker": 3, "defender": 2}).content.decode()
    assert "The whole exchange" not in plain  # one plain shot says it all above


def test_the_odds_page_refuses_a_reaction_that_needs_more_than_a_deck(client):
    params = {"attacker": 30, "defender": 1, "reaction": "on", "attacker_defense": 30}
    page = client.get("/odds/", params).content.decode()
    assert "more than a deck of 54 holds" in page and "The whole exchange" not in page


def test_the_ties_fail_variant_shows_both_fail(client):
    page = client.get("/odds/", {"attacker": 1, "defender": 1, "ties_fail": "on"}).content.decode()
    assert "Tie: both fail" in page


@pytest.mark.parametrize(
    ("params", "words"),
    [
        ({"attacker": 0, "defender": 2}, "at least 1 card"),
        ({"attacker": 99, "defender": 2}, "at most 54 cards"),
        ({"attacker": "three", "defender": 2}, "whole number"),
        ({"attacker": 2}, "required"),
    ],
)
def test_bad_odds_input_gets_a_clear_message(client, params, words):
    response = client.get("/odds/", params, headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert words in response.content.decode()


@pytest.mark.parametrize("htmx", [True, False])
def test_the_odds_page_shows_a_whole_deck_against_a_whole_deck_as_a_form_error(client, htmx):
    headers = {"HX-Request": "true"} if htmx else {}
    response = client.get("/odds/", {"attacker": 54, "defender": 53}, headers=headers)
    assert response.status_code == 200
    page = response.content.decode()
    assert "Those numbers cannot be used" in page
    assert "joker against joker is re-drawn" in page


def test_an_empty_odds_form_asks_for_numbers(client):
    assert "Choose how many cards" in client.get("/odds/").content.decode()


def test_load_demo_creates_the_demo_account_once(settings):
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    settings.DEBUG = True
    call_command("load_demo")
    call_command("load_demo")
    demo = get_user_model().objects.get(username="demo")
    assert demo.forces.count() == 3  # the example lists, once
    assert demo.tables.count() == 2


def test_load_demo_refuses_without_debug(settings):
    from django.core.management import CommandError, call_command

    settings.DEBUG = False
    with pytest.raises(CommandError, match="DEBUG=1"):
        call_command("load_demo")


def test_security_headers_are_set(client):
    response = client.get("/")
    assert "script-src 'self'" in response["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in response["Content-Security-Policy"]
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"
    assert "camera=()" in response["Permissions-Policy"]
    assert "onclick=" not in response.content.decode()


def test_an_oversized_post_is_refused(client):
    response = client.post("/forces/import/", {"document": "x" * 1_100_000})
    assert response.status_code == 400


def test_signup_goes_back_where_the_visitor_was_going_but_only_on_this_site(client):
    data = {
        "username": "newcomer",
        "password1": "a-long-pass-phrase-9",
        "password2": "a-long-pass-phrase-9",
    }
    response = client.post("/accounts/signup/", data | {"next": "/tables/"})
    assert response["Location"] == "/tables/"
    other = Client()
    response = other.post(
        "/accounts/signup/", data | {"username": "second", "next": "https://evil.example/"}
    )
    assert response["Location"] == "/forces/"
