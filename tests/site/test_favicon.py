"""The site's icon: /favicon.ico answers with an image (browsers ask for it whatever a page
links), and every page links an icon that is there, in the site's own colours."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from django.template.loader import render_to_string
from django.test import Client
from PIL import Image

STATIC = Path(__file__).resolve().parents[2] / "config" / "static"
ICON_LINK = re.compile(r'<link rel="icon" href="([^"]+)"[^>]*>')

pytestmark = pytest.mark.django_db


def body(response) -> bytes:
    """A response's bytes, whether Django made it or WhiteNoise streams a file."""
    if response.streaming:
        data = b"".join(response.streaming_content)
        response.close()
        return data
    return response.content


def colour(name: str) -> str:
    """A colour of the site's palette (site.css's :root), as #rrggbb."""
    css = (STATIC / "css" / "site.css").read_text(encoding="utf-8")
    found = re.search(rf"--{name}: (#[0-9a-f]{{6}});", css)
    assert found, name
    return found.group(1)


def rgb(hex_colour: str) -> tuple[int, int, int]:
    return (int(hex_colour[1:3], 16), int(hex_colour[3:5], 16), int(hex_colour[5:7], 16))


def near(pixel: tuple[int, ...], rgb: tuple[int, int, int]) -> bool:
    """An opaque pixel of that colour, but for the smoothing of scaling down."""
    return pixel[3] >= 250 and all(abs(a - b) <= 3 for a, b in zip(pixel, rgb, strict=False))


def test_favicon_ico_leads_to_an_image_and_its_redirect_is_cached(client: Client):
    first = client.get("/favicon.ico")
    assert first.status_code == 302
    assert first["Location"].startswith("/static/")
    # Kept by the browser, though not for ever: the icon's hashed name changes with a release.
    assert "max-age=86400" in first["Cache-Control"] and "public" in first["Cache-Control"]

    answer = client.get("/favicon.ico", follow=True)
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("image/")
    icon = Image.open(io.BytesIO(body(answer)))
    assert icon.format == "ICO"
    assert {(16, 16), (32, 32), (48, 48)} <= set(icon.info["sizes"])


def test_favicon_ico_answers_head_but_not_post(client: Client):
    assert client.head("/favicon.ico").status_code == 302
    assert client.post("/favicon.ico").status_code == 405


def test_the_icon_is_the_svg_hexagon_in_the_site_colours():
    """The pixels and the drawing agree: the dark hexagon (--ink) around the yellow one
    (--focus), on a transparent square."""
    svg = (STATIC / "favicon.svg").read_text(encoding="utf-8")
    assert colour("ink") in svg and colour("focus") in svg
    ink, focus = rgb(colour("ink")), rgb(colour("focus"))
    icon = Image.open(STATIC / "favicon.ico")
    for size in (16, 32, 48):
        icon.size = (size, size)
        pixels = icon.convert("RGBA")
        assert pixels.getpixel((0, 0))[3] == 0, size  # a corner, outside the hexagon
        assert near(pixels.getpixel((size // 2, size // 2)), focus), size
        # Between the outer hexagon's top (1/32 down) and the inner one's (8/32).
        assert near(pixels.getpixel((size // 2, size * 5 // 32)), ink), size


def test_the_home_page_links_icons_that_are_there(client: Client):
    home = client.get("/").content.decode()
    links = ICON_LINK.findall(home)
    assert len(links) == 2
    types = set()
    for href in links:
        answer = client.get(href)
        assert answer.status_code == 200, href
        types.add(answer["Content-Type"])
        body(answer)
    assert "image/svg+xml" in types
    assert all(kind.startswith("image/") for kind in types), types


def test_the_error_page_drawn_without_the_request_links_the_icon_too():
    page = render_to_string("500.html")
    assert len(ICON_LINK.findall(page)) == 2
