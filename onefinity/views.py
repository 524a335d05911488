from dataclasses import dataclass
from typing import Any

from django.http import Http404, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_GET, require_safe

from onefinity.downloads import attachment
from onefinity.examples import example_forces
from onefinity.forms import CardOddsForm
from onefinity.http import HtmxHttpRequest
from onefinity.rules import CardOddsError, allowed_entries, exchange_odds, library
from onefinity.rules.combat import (
    SHOOTING,
    CombatError,
    ExchangeResult,
    Situation,
    plan_from_cards,
    resolve,
)
from onefinity.rules.export import ruleset_document
from onefinity.rules.ruleset import CatalogueEntry, Ruleset, TrooperClass, UnitType


def _ruleset_or_404(version: str | None) -> Ruleset:
    ruleset = library().get(version)
    if ruleset is None:
        raise Http404("No such ruleset version")
    return ruleset


@require_GET
def home(request: HtmxHttpRequest) -> HttpResponse:
    return render(
        request,
        "home.html",
        {"ruleset": library().current, "examples": example_forces()},
    )


# How long a browser may keep /favicon.ico's redirect: a day, not for ever, since in
# production it leads to the icon's hashed name, which the next release may change.
FAVICON_REDIRECT_SECONDS = 24 * 60 * 60


@require_safe
def favicon(request: HtmxHttpRequest) -> HttpResponse:
    """/favicon.ico, asked for by browsers and readers that do not read a page's icon links
    (a PDF opened in a tab, a feed reader, a bookmark made from elsewhere): sent to the icon
    among the static files, which WhiteNoise serves and, under its hashed name, lets
    browsers keep for a year."""
    response = HttpResponseRedirect(static("favicon.ico"))
    patch_cache_control(response, public=True, max_age=FAVICON_REDIRECT_SECONDS)
    return response


@require_GET
def ruleset_page(request: HtmxHttpRequest, version: str | None = None) -> HttpResponse:
    ruleset = _ruleset_or_404(version)
    return render(
        request,
        "onefinity/ruleset.html",
        {
            "ruleset": ruleset,
            "versions": sorted(library().rulesets, reverse=True),
            "is_current": ruleset.version == library().current.version,
        },
    )


@dataclass(frozen=True)
class UnitTypeEntry:
    """One unit type of the catalogue, with everything a trooper of it may take."""

    unit_type: UnitType
    default_weapon: CatalogueEntry | None
    specialists: tuple[TrooperClass, ...]
    kinds: tuple[tuple[str, str, tuple[CatalogueEntry, ...]], ...]


@require_GET
def unit_catalogue(request: HtmxHttpRequest) -> HttpResponse:
    """Every unit type: its profile, its cost and what it may take, for one faction or all."""
    ruleset = library().current
    faction = ruleset.factions.get(request.GET.get("faction", ""))
    entries = []
    for unit_type in ruleset.unit_types.values():
        kinds = tuple(
            (kind, title, tuple(allowed_entries(catalogue, unit_type.id, faction).values()))
            for kind, title, catalogue in (
                ("weapons", "Weapons", ruleset.weapons),
                ("equipment", "Equipment", ruleset.equipment),
                ("abilities", "Special abilities", ruleset.abilities),
                ("unit_skills", "Unit skills (cost per trooper)", ruleset.unit_skills),
            )
        )
        specialists = tuple(
            c
            for c in ruleset.trooper_classes.values()
            if c.specialist
            and unit_type.max_specialists > 0
            and c.allowed_for_unit_type(unit_type.id)
            and (faction is None or c.allowed_for_faction(faction.id))
        )
        entries.append(
            UnitTypeEntry(
                unit_type, ruleset.weapons.get(unit_type.default_weapon), specialists, kinds
            )
        )
    return render(
        request,
        "onefinity/units.html",
        {
            "ruleset": ruleset,
            "faction": faction,
            "factions": list(ruleset.factions.values()),
            "entries": entries,
        },
    )


@require_GET
def ruleset_json(request: HtmxHttpRequest, version: str) -> HttpResponse:
    ruleset = _ruleset_or_404(version)
    response = JsonResponse(ruleset_document(ruleset), json_dumps_params={"indent": 2})
    return attachment(response, f"onefinity-ruleset-{ruleset.version}", ".json", "ruleset")


@require_GET
def card_odds(request: HtmxHttpRequest) -> HttpResponse:
    """The odds calculator: a GET form, so a result has a link that can be shared."""
    ruleset = library().current
    form = CardOddsForm(request.GET if "attacker" in request.GET else None)
    odds = whole = None
    if form.is_bound and form.is_valid():
        data = form.cleaned_data
        ties_fail = True if data["ties_fail"] else None
        try:
            odds = exchange_odds(data["attacker"], data["defender"], ruleset.cards, ties_fail)
            whole = _whole_exchange(data, ruleset, ties_fail)
        except (CardOddsError, CombatError) as error:
            # Numbers each allowed on their own can still make an exchange that never ends.
            form.add_error(None, str(error))
            odds = None
    template = "onefinity/odds.html#result" if request.htmx else "onefinity/odds.html"
    context = {"form": form, "odds": odds, "whole": whole, "ruleset": ruleset}
    return render(request, template, context)


def _whole_exchange(
    data: dict[str, Any], ruleset: Ruleset, ties_fail: bool | None
) -> ExchangeResult | None:
    """The whole exchange, when the form asks for more than one plain shot."""
    mode = data["mode"] or SHOOTING
    burst = data["burst"] or 1
    wounds = (data["attacker_wounds"] or 1, data["defender_wounds"] or 1)
    if mode == SHOOTING and not data["reaction"] and burst == 1 and wounds == (1, 1):
        return None
    reaction = (
        (data["reaction_cards"] or 1, data["attacker_defense"] or 1) if data["reaction"] else None
    )
    plan = plan_from_cards(
        Situation(mode, "", reaction is not None),
        data["attacker"],
        data["defender"],
        ruleset,
        reaction,
        burst,
        *wounds,
    )
    return resolve(plan, ruleset, ties_fail)
