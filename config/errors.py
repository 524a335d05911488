"""The site's own error pages where Django's defaults say too little.

A 404 under a game's address (/games/<code>/...) is what a second phone meets when it opens
the game's page before joining, or signed out: its page says how a game is joined (the join
link the other player shares, or its QR code). It reads the same whether or not the game
exists, and answers 404 all the same: a game is seen by its two players only.
"""

from __future__ import annotations

import re

from django.http import HttpRequest, HttpResponse, HttpResponseNotFound
from django.template import loader
from django.urls import reverse
from django.utils.http import urlencode


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """404.html, told whether the address is a game's (Django's page_not_found otherwise)."""
    games = reverse("games:list")
    game_path = re.match(re.escape(games) + r"[^/]+/", request.path) is not None
    context = {
        "game_path": game_path,
        "login_next": urlencode({"next": request.get_full_path()}) if game_path else "",
    }
    return HttpResponseNotFound(loader.get_template("404.html").render(context, request))
