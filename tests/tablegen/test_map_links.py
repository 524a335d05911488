"""Each hex of a map links where encoding its query in full says (the query is encoded once
per map, the hex's spot put in), in every view and with the editor's settings."""

from __future__ import annotations

import html
import re

import pytest
from django.http import QueryDict
from django.utils.http import urlencode

from onefinity.rules import current_ruleset
from onefinity.rules.hexgrid import Board, rows_by_columns
from tablegen.engine.tables import TableSpec
from tablegen.maps import map_context, spot

RULES = current_ruleset().table
BOARD = Board.of(rows_by_columns(6, 5))  # hexes with negative q, and rows past 9
TABLE = TableSpec(BOARD, {3: "blocking", 7: "cover"})


def expected(base: str, query: dict[str, str], hex_: tuple[int, int], editable: bool) -> str:
    joiner = "&" if "?" in base else "?"
    mode = query.get("mode", "terrain")
    painting = {k: query[k] for k in ("brush", "sym") if k in query}
    if mode == "lof":
        source = query.get("from")
        if source is None or source == spot(hex_):
            values = {"mode": "lof", "from": spot(hex_)}
        else:
            values = {"mode": "lof", "to": spot(hex_), "from": source}
    elif mode == "terrain" and editable:
        values = {"mode": "terrain", "hex": spot(hex_), **painting}
    else:
        values = {"mode": "lof", "from": spot(hex_)}
    return f"{base}{joiner}{urlencode(values)}"


@pytest.mark.parametrize(
    "query",
    [
        {},
        {"mode": "terrain", "brush": "cover"},
        {"mode": "terrain", "brush": "open", "sym": "mirror"},
        {"mode": "lof"},
        {"mode": "lof", "from": "-2,5"},
        {"mode": "sightlines"},
    ],
)
@pytest.mark.parametrize("base", ["/tables/5/", "/tables/new/?seed=3&name=a%00b"])
@pytest.mark.parametrize("editable", [True, False])
def test_every_hex_links_where_its_full_query_says(query, base, editable):
    if query.get("sym") and BOARD.symmetry(query["sym"]) is None:
        query = {k: v for k, v in query.items() if k != "sym"}
    context = map_context(
        QueryDict(urlencode(query)), TABLE, RULES, base, editable=editable, edit_url="/e/"
    )
    links = [html.unescape(h) for h in re.findall(r'<a href="([^"]*)"', context["drawn_map"].svg)]
    assert links == [expected(base, query, hex_, editable) for hex_ in BOARD.hexes]
