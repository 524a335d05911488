"""The games' pages: thin views over games.playing. A game is seen only by its two players
(anyone else: 404); every change sends the version its page showed."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import reswap, retarget

from accounts.ownership import owned
from forcebuilder.models import Force
from forcebuilder.printing import qr_svg
from games import playing, rounds
from games.models import Game, GameRefusal
from onefinity.http import HtmxHttpRequest, page_version, read_version
from tablegen.models import Table

# The lists and tables offered when starting a game: the most recently changed.
OFFERED = 50


def _wants_json(request: HtmxHttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


def _by_code(code: str) -> Game:
    game = Game.objects.with_players().filter(code=code).first() if len(code) <= 32 else None
    if game is None:
        raise Http404("Not found")
    return game


def _played(request: HtmxHttpRequest, code: str) -> tuple[Game, str]:
    """The game and my side in it; 404 for anyone but its two players."""
    game = _by_code(code)
    side = game.side_of(request.user)
    if side is None:
        raise Http404("Not found")
    return game, side


def _selected(request: HtmxHttpRequest) -> str:
    return (request.POST.get("selected") or request.GET.get("trooper") or "")[:40]


def _choices(request: HtmxHttpRequest) -> dict[str, str]:
    """What the page shows: its query, or after a step the trooper the form kept open."""
    choices = playing.view_choices(request.GET)
    if request.method == "POST" and request.POST.get("selected"):
        choices = {"trooper": request.POST["selected"][:40]}
    return choices


def _game_page(
    request: HtmxHttpRequest, game: Game, side: str, status: int = 200, error: str = ""
) -> HttpResponse:
    context: dict[str, Any] = {**playing.page(game, side, _choices(request)), "error": error}
    if error and request.method == "POST":
        # A hex typed and refused stays in its field, to be mended (a walk found it wiped).
        context["typed"] = request.POST.get(playing.ROW_COLUMN, "")[:12]
    if request.htmx:
        response = render(request, "games/game.html#turn", context, status=status)
        # The region and the page share an address: caches keep them apart.
        patch_vary_headers(response, ["HX-Request"])
        return response
    join_url = request.build_absolute_uri(game.get_join_url())
    context.update(
        join_url=join_url,
        qr=qr_svg(join_url) if game.player_b_id is None and not game.b_left else "",
    )
    response = render(request, "games/game.html", context, status=status)
    patch_vary_headers(response, ["HX-Request"])
    return response


@login_required
@require_GET
def games(request: HtmxHttpRequest) -> HttpResponse:
    return _games_page(request)


def _games_page(request: HtmxHttpRequest, error: str = "", status: int = 200) -> HttpResponse:
    context = {
        "games": Game.objects.playing(request.user).with_players()[:100],
        "lists": owned(request, Force).order_by("-updated").only("pk", "name")[:OFFERED],
        "tables": owned(request, Table).order_by("-updated").only("pk", "name")[:OFFERED],
        "error": error,
        "form": request.POST,
    }
    return render(request, "games/games.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def game_new(request: HtmxHttpRequest) -> HttpResponse:
    if request.method != "POST":  # an address typed or bookmarked: the form is on /games/
        return redirect("games:list")
    try:
        game = playing.start_game(request, request.POST.dict())
    except GameRefusal as refusal:
        return _games_page(request, str(refusal), refusal.status)
    return redirect(game)


@login_required
@require_POST
def from_round(request: HtmxHttpRequest, event_id: int, number: int) -> HttpResponse:
    """One tap on a player's pairing: the game with both locked lists and the round's table."""
    pairing = rounds.my_pairing(request.user, event_id, number)
    try:
        found = rounds.start_from_round(pairing)
    except GameRefusal as refusal:
        messages.error(request, str(refusal))
        return redirect("events:me", event_id)
    return redirect(found)


@require_http_methods(["GET", "POST"])
def join(request: HtmxHttpRequest, code: str) -> HttpResponse:
    game = _by_code(code)
    side = game.side_of(request.user) if request.user.is_authenticated else None
    # A game whose side B is taken (or was left) is its players' alone: anyone else, signed
    # in or not, finds nothing here (its players log in and see their side).
    if (game.player_b_id is not None or game.b_left) and side is None:
        raise Http404("Not found")
    if not request.user.is_authenticated:
        if request.method == "POST":
            return redirect(f"{reverse('login')}?next={game.get_join_url()}")
        return render(request, "games/join.html", {"game": game})
    if side is not None and request.method == "GET":
        return render(request, "games/join.html", {"game": game, "side": side})
    if request.method == "POST":
        try:
            playing.join(game, request.user)
        except GameRefusal as refusal:
            return render(
                request, "games/join.html", {"game": game, "error": str(refusal)}, status=400
            )
        messages.success(request, f"You play side B: {game.title_b}.")
        return redirect(game)
    return render(request, "games/join.html", {"game": game})


@require_GET
def game(request: HtmxHttpRequest, code: str) -> HttpResponse:
    found, side = _played(request, code)
    return _game_page(request, found, side)


@require_GET
def live(request: HtmxHttpRequest, code: str) -> HttpResponse:
    """The turn's region when the game moved past ``since`` (the version the page shows);
    204 (nothing to do) while it has not: what each phone polls."""
    # Most polls find nothing new: they read the version and the players, not the state.
    light = Game.objects.only("version", "owner_id", "player_b_id")
    found = light.filter(code=code).first() if len(code) <= 32 else None
    if found is None or found.side_of(request.user) is None:
        raise Http404("Not found")
    if read_version(request.GET.get("since")) == found.version:
        return HttpResponse(status=204)
    found, side = _played(request, code)
    response = _game_page(request, found, side)
    return reswap(retarget(response, "#turn"), "outerHTML")


@require_GET
def state_json(request: HtmxHttpRequest, code: str) -> HttpResponse:
    found, _ = _played(request, code)
    return JsonResponse(playing.state_json(found))


@require_GET
def log_json(request: HtmxHttpRequest, code: str) -> HttpResponse:
    found, _ = _played(request, code)
    response = JsonResponse(playing.log_json(found), json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'attachment; filename="game-{found.code}.json"'
    return response


@require_POST
def steps(request: HtmxHttpRequest, code: str) -> HttpResponse:
    found, side = _played(request, code)
    try:
        playing.take_step(found, request.user, page_version(request.POST), request.POST.dict())
    except GameRefusal as refusal:
        return _refused(request, found, side, refusal)
    return _changed(request, found, side)


@require_POST
def undo(request: HtmxHttpRequest, code: str) -> HttpResponse:
    found, side = _played(request, code)
    try:
        words = playing.undo(found, page_version(request.POST))
    except GameRefusal as refusal:
        return _refused(request, found, side, refusal)
    if not request.htmx and not _wants_json(request):
        messages.success(request, f"Undone: {words}.")
    return _changed(request, found, side)


def _changed(request: HtmxHttpRequest, found: Game, side: str) -> HttpResponse:
    if _wants_json(request):
        return JsonResponse(playing.state_json(found))
    if request.htmx:
        return _game_page(request, found, side)
    selected = _selected(request)
    return redirect(
        found.get_absolute_url() + (f"?{urlencode({'trooper': selected})}" if selected else "")
    )


def _refused(
    request: HtmxHttpRequest, found: Game, side: str, refusal: GameRefusal
) -> HttpResponse:
    if _wants_json(request):
        found.refresh_from_db()
        return JsonResponse(
            {"error": str(refusal), "version": found.version}, status=refusal.status
        )
    found.refresh_from_db()
    return _game_page(request, found, side, refusal.status, str(refusal))


_WORKER = (Path(__file__).resolve().parent / "service_worker.js").read_text(encoding="utf-8")


@require_GET
def worker(request: HtmxHttpRequest) -> HttpResponse:
    """The service worker, from /games/ so that its scope is every game's page."""
    response = HttpResponse(_WORKER, content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    # Its scope is the site: a player's rosters and event pages are kept too.
    response["Service-Worker-Allowed"] = "/"
    return response
