from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from onefinity.downloads import attachment
from onefinity.examples import example_forces
from onefinity.forms import CardOddsForm
from onefinity.http import HtmxHttpRequest
from onefinity.rules import CardOddsError, exchange_odds, library
from onefinity.rules.export import ruleset_document
from onefinity.rules.ruleset import Ruleset


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


@require_GET
def ruleset_json(request: HtmxHttpRequest, version: str) -> JsonResponse:
    ruleset = _ruleset_or_404(version)
    response = JsonResponse(ruleset_document(ruleset), json_dumps_params={"indent": 2})
    return attachment(response, f"onefinity-ruleset-{ruleset.version}", ".json", "ruleset")


@require_GET
def card_odds(request: HtmxHttpRequest) -> HttpResponse:
    """The odds calculator: a GET form, so a result has a link that can be shared."""
    ruleset = library().current
    form = CardOddsForm(request.GET if "attacker" in request.GET else None)
    odds = None
    if form.is_bound and form.is_valid():
        try:
            odds = exchange_odds(
                form.cleaned_data["attacker"],
                form.cleaned_data["defender"],
                ruleset.cards,
                ties_fail=True if form.cleaned_data["ties_fail"] else None,
            )
        except CardOddsError as error:
            # Numbers each allowed on their own can still make an exchange that never ends.
            form.add_error(None, str(error))
    template = "onefinity/odds.html#result" if request.htmx else "onefinity/odds.html"
    return render(request, template, {"form": form, "odds": odds, "ruleset": ruleset})
