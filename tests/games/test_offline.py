"""The offline worker's side on the server: served with the whole site as its scope, and
every page says whether a player is signed in (register it, keep their pages) or nobody is
(forget what was kept): static/js/site.js reads it. The browser's side:
tests/browser/test_games.py."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import make_force

pytestmark = pytest.mark.django_db


def test_the_worker_is_served_for_the_whole_site_and_never_from_a_stale_cache():
    response = Client().get("/games/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert response["Cache-Control"] == "no-cache"


def test_a_signed_in_players_pages_register_the_worker_and_nobodys_pages_forget(
    django_user_model,
):
    player = django_user_model.objects.create_user("alice", "a@example.com", "a-long-pass")
    force = make_force(owner=player)
    signed_in = Client()
    signed_in.force_login(player)
    for path in ("/", "/forces/", f"/forces/{force.pk}/roster/", "/no-such-page/"):
        page = signed_in.get(path).content.decode()
        assert f'data-worker="/games/sw.js" data-account="{player.pk}"' in page, path
        assert "data-signed-out" not in page, path
    for path in ("/", "/accounts/login/", "/no-such-page/"):
        page = Client().get(path).content.decode()
        assert "data-signed-out" in page and "data-worker" not in page, path
