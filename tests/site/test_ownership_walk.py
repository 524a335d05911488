"""Walk every URL of the site with the owner, someone holding the share link, and a
stranger, and check each gets only what it should."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from forcebuilder.models import Force
from tablegen.models import Pack, Table, TerrainBox
from tests.factories import make_box, make_force, make_pack, make_table

pytestmark = pytest.mark.django_db


def every_route() -> list[tuple[str, URLPattern]]:
    found = []

    def walk(patterns: list, namespace: str = "") -> None:  # type: ignore[type-arg]
        for entry in patterns:
            if isinstance(entry, URLResolver):
                walk(entry.url_patterns, entry.namespace or namespace)
            elif isinstance(entry, URLPattern):
                found.append((namespace, entry))

    walk(get_resolver().url_patterns)
    return found


ROUTES = every_route()


@pytest.fixture
def world(owner, owner_client, stranger_client):
    """The shared personas (tests/conftest.py), the owner's list, table and pack (made by
    the factories), and someone who only holds the share links."""
    return {
        "owner": owner_client,
        "stranger": stranger_client,
        "link holder": Client(),
        "force": make_force(owner),
        "table": make_table(owner),
        "pack": shared(make_pack(owner, name="P")),
        "box": make_box(owner),
        "job": made_job(owner_client),
        "game": made_game(owner_client),
    }


def shared(pack):
    pack.set_sharing("on")
    return pack


def made_job(client: Client):
    """A job of the owner's, finished, with its file: the export of everything."""
    from jobs.models import Job

    assert client.get("/account/everything.json").status_code == 200
    return Job.objects.get(kind="export")


def made_game(client: Client):
    """A game of the owner's list against itself, which nobody has joined."""
    from games.models import Game

    force = Force.objects.get()
    fields = {"list_a": force.pk, "list_b": force.pk, "vp_target": 5}
    assert client.post("/games/new/", fields).status_code == 302
    return Game.objects.get()


def url_for(namespace: str, pattern: URLPattern, world: dict) -> tuple[str, str]:
    """The concrete URL for a route, and its kind: owner, shared or public."""
    route = str(pattern.pattern)
    arguments = set(pattern.pattern.regex.groupindex)
    if namespace == "games" and "code" in arguments:
        # A game is its two players' (owner-like); its join link is shared.
        url = "/" + route.replace("<code:code>", world["game"].code if "game" in world else "g")
        return url, "shared" if route.endswith("/join/") else "owner"
    if "code" in arguments:
        code = (
            world["force"].share_code
            if namespace == "forcebuilder"
            else world["pack"].share_code
            if route.startswith("p/")
            else world["table"].share_code
        )
        return "/" + route.replace("<code:code>", code), "shared"
    if "pk" in arguments:
        owned = (
            world["pack"]
            if route.startswith("tables/packs/")
            else world["box"]
            if route.startswith("tables/boxes/")
            else world["table"]
            if namespace == "tablegen"
            else world["job"]
            if namespace == "jobs"
            else world["force"]
        )
        url = "/" + route.replace("<int:pk>", str(owned.pk)).replace("<int:unit>", "0").replace(
            "<int:trooper>", "0"
        )
        # A trooper or unit by key: position keys name them in any list (ids in none).
        url = url.replace("troopers/<code:key>", "troopers/t.0.0").replace(
            "units/<code:key>", "units/u.0"
        )
        return url, "owner"
    if "version" in arguments:
        return "/" + route.replace("<str:version>", "2026.11"), "public"
    if arguments:
        return "", "skip"  # password reset confirmation links carry one-time tokens
    return "/" + route, "public"


def test_the_walk_covers_the_whole_site():
    kinds = {
        url_for(
            ns,
            p,
            {
                "force": Force(share_code="x"),
                "table": Table(share_code="y"),
                "pack": Pack(pk=1, share_code="z"),
                "box": TerrainBox(pk=1),
                "job": Force(pk=1),  # any record with a pk stands in
            },
        )[1]
        for ns, p in ROUTES
    }
    assert {"owner", "shared", "public"} <= kinds
    assert len(ROUTES) >= 60


def test_every_url_answers_each_persona_as_it_should(world):
    checked = 0
    for namespace, pattern in ROUTES:
        url, kind = url_for(namespace, pattern, world)
        if kind == "skip":
            continue
        owner_status = world["owner"].get(url).status_code
        for persona in ("owner", "link holder", "stranger"):
            client = world[persona]
            status = client.get(url).status_code
            assert status < 500, (persona, url, status)
            if kind == "owner" and persona != "owner":
                # 404 wherever the owner could read; POST-only routes say 405 to everyone,
                # before any lookup, so they reveal nothing either.
                assert status == (405 if owner_status == 405 else 404), (persona, url, status)
            if kind == "owner" and persona == "owner":
                assert status in (200, 302, 405), (url, status)
            if kind == "shared":
                assert status in (200, 405), (persona, url, status)
            # Nobody but the owner can change anything through an owner's URL.
            if kind == "owner" and persona != "owner":
                assert client.post(
                    url, {"action": "add-unit", "unit_type": "tag", "q": 0, "r": 0}
                ).status_code in (404, 405)
            checked += 1
    world["force"].refresh_from_db()
    assert len(world["force"].units) == 2  # nobody else added a unit
    assert checked > 150


def code_routes() -> list[str]:
    """Every route that carries a code or a key, with a NUL where its code goes."""
    found = []
    for _, pattern in ROUTES:
        route = str(pattern.pattern)
        if "<code:" in route:
            found.append("/" + re.sub(r"<code:\w+>", "%00", re.sub(r"<int:\w+>", "1", route)))
    return found


@pytest.mark.parametrize("url", code_routes())
def test_a_nul_where_a_code_goes_is_not_found_on_every_database(world, url):
    # PostgreSQL refuses a NUL in a query: these answered 500 there, 404 on SQLite.
    for persona in ("owner", "stranger", "link holder"):
        assert world[persona].get(url).status_code == 404, (persona, url)
        assert world[persona].post(url).status_code in (404, 405), (persona, url)


def test_every_route_with_a_code_is_checked_for_nul():
    urls = code_routes()
    assert "/s/%00/" in urls and "/t/%00/table.png" in urls
    assert "/events/join/%00/" in urls and "/events/1/lists/%00/" in urls
