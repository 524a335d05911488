"""Whatever a visitor does, in any order and with any text, nothing of theirs breaks.

A hypothesis state machine plays an owner: new lists, imports, editor actions with hostile
text and indices, undo and redo (from stale tabs too), duplicates, copies, repairs, account
imports, tables built, renamed, painted with brushes and symmetries, undone and redone (from
stale tabs too), terrain boxes made, imported, edited, deleted and generated from, packs
generated, events organized (players joining and submitting, lists locked, Swiss rounds
paired, results reported and entered), and printouts and downloads asked for from the task
worker, which runs its waiting jobs when the machine chooses. After every step:

- every stored list and table of the owner (and every saved revision) reads back with the
  same reader that imports documents;
- the pages that show many records (my lists, my tables, the account page and export) and
  every page and download of the record the step touched answer below 500.

Rendering every PDF of every record after every step would cost seconds a step, so the
downloads of the untouched records are checked once more when the run ends: every page
and download of every record of the owner, PDFs and pictures included.
"""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    Bundle,
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from accounts.ownership import Quota, owned_models
from events.models import Event
from forcebuilder.actions import ACTIONS
from forcebuilder.models import Force
from jobs.models import Job
from onefinity.rules import read_force_document
from tablegen import jobs as table_jobs
from tablegen.engine.library import terrain_library
from tablegen.models import Pack, Table, TerrainBox
from tests.conftest import examples, run_waiting_jobs
from tests.forcebuilder.conftest import LEGAL_DOCUMENT

pytestmark = pytest.mark.django_db

# Text a careless keyboard, a paste or a script might send: control characters, DEL and C1
# controls, long runs, spaces around ids, markup. (Form fields cannot carry surrogates:
# browsers encode UTF-8; JSON documents can, and get them below.)
CONTROL = "\x00\x01\x08\t\n\r\x1b\x7f\x85\x9b"
hostile_text = st.one_of(
    st.text(max_size=20),
    st.text(alphabet=st.sampled_from(list(CONTROL) + list("ab ")), max_size=8),
    st.sampled_from(
        [
            "",
            " ",
            "Night raid",
            "x" * 120,
            "x" * 121,
            "y" * 200,
            "<b>bold</b>",
            "medic ",
            " combi-rifle",
        ]
    ),
).map(lambda text: text.replace("\ud800", ""))
json_text = st.one_of(hostile_text, st.just("abc\ud800def"), st.text(max_size=10))
index = st.one_of(st.integers(-2, 9).map(str), st.sampled_from(["", "x", "99999999999999999999"]))
ids = st.one_of(
    st.sampled_from(
        ["combi-rifle", "rifle", "spitfire", "medic", "hacker", "cc-specialist", "regeneration"]
    ),
    hostile_text,
    st.just("x" * 81),
)

# Every action the editor has, drawn from the editor itself: a new one is tried at once.
EDITOR_ACTIONS = sorted(ACTIONS)

_names = itertools.count()

PIECES = sorted(terrain_library().pieces)
# A box count as a form sends it: numbers in and out of range, and junk.
box_count = st.one_of(
    st.integers(-2, 12).map(str), st.sampled_from(["", "x", "1e3", "99999999999999999999"])
)


def below_500(client: Client, url: str, **kwargs: Any) -> None:
    response = client.get(url, **kwargs)
    assert response.status_code < 500, (url, response.status_code)
    if response.streaming:
        # A file sent a part at a time fails while it is sent, after its 200: read it whole.
        response.getvalue()


def force_pages(force: Force) -> list[str]:
    pk, code = force.pk, force.share_code
    return [
        f"/forces/{pk}/",
        f"/forces/{pk}/export.json",
        f"/forces/{pk}/roster.txt",
        f"/forces/{pk}/roster/",
        f"/forces/{pk}/units/0/troopers/0/loadout/",
        f"/forces/{pk}/odds/?attacker=0:0:rifle&target=type:tag&mode=shooting&band=short",
        f"/s/{code}/",
        f"/s/{code}/export.json",
    ]


def force_downloads(force: Force) -> list[str]:
    return [f"/forces/{force.pk}/roster.pdf", f"/forces/{force.pk}/cards.pdf"]


def table_pages(table: Table) -> list[str]:
    pk, code = table.pk, table.share_code
    return [
        f"/tables/{pk}/",
        f"/tables/{pk}/?mode=sightlines",
        f"/tables/{pk}/?mode=lof&from=0,0&to=4,5",
        f"/tables/{pk}/table.json",
        f"/t/{code}/",
    ]


def pack_pages(pack: Pack) -> list[str]:
    return [
        f"/tables/packs/{pack.pk}/",
        f"/tables/packs/{pack.pk}/pack.zip",
        f"/tables/packs/{pack.pk}/pack.pdf",
    ]


def box_pages(box: TerrainBox) -> list[str]:
    return [
        "/tables/boxes/",
        f"/tables/boxes/{box.pk}/",
        f"/tables/boxes/{box.pk}/box.json",
        f"/tables/boxes/{box.pk}/delete/",
    ]


def event_pages(event: Event) -> list[str]:
    pk = event.pk
    return [
        "/events/",
        f"/events/{pk}/",
        f"/events/{pk}/rounds/",
        f"/events/{pk}/rounds/1/",
        f"/events/{pk}/rounds/1/pairings.json",
        f"/events/{pk}/standings/",
        f"/events/{pk}/standings.json",
        f"/events/{pk}/standings.csv",
        f"/events/{pk}/lists.csv",
        f"/events/{pk}/me/",
    ]


def event_downloads(event: Event) -> list[str]:
    """The event's printouts: asking for one queues a job (or sends the file made)."""
    pk = event.pk
    return [
        f"/events/{pk}/rosters.pdf",
        f"/events/{pk}/lists.zip",
        f"/events/{pk}/rounds/1/sheets.pdf",
        f"/events/{pk}/standings.pdf",
    ]


def job_pages(job: Job) -> list[str]:
    return [f"/jobs/{job.pk}/", f"/jobs/{job.pk}/status.json", job.get_download_url()]


def table_downloads(table: Table) -> list[str]:
    return [f"/tables/{table.pk}/table.png", f"/tables/{table.pk}/setup.pdf"]


class AnOwner(RuleBasedStateMachine):
    forces = Bundle("forces")
    tables = Bundle("tables")
    boxes = Bundle("boxes")
    events = Bundle("events")

    def __init__(self) -> None:
        super().__init__()
        # A new owner for each run: earlier runs' records stay in the database but are
        # someone else's, which is what ownership promises anyway.
        self.user = get_user_model().objects.create_user(f"player{next(_names)}", "", "pw-pw-pw-pw")
        self.client = Client()
        self.client.force_login(self.user)
        # The same person in another browser, before logging in there: what it makes moves
        # into the account at login, as far as the quotas have room.
        self.browser = Client()
        # A player in the owner's events, with a list of their own.
        player = get_user_model().objects.create_user(f"guest{next(_names)}", "", "pw-pw-pw-pw")
        self.player = Client()
        self.player.force_login(player)
        self.player.post(
            "/forces/import/", {"document": json.dumps(LEGAL_DOCUMENT), "confirm": "save"}
        )
        self.player_list = Force.objects.filter(owner=player).get().pk
        self.touched: list[str] = []

    # --- Lists ---------------------------------------------------------------------------

    def _newest(self, model: type[Force] | type[Table]) -> int:
        """The pk of the owner's newest record of a kind (-1 when there is none)."""
        newest = model.objects.filter(owner=self.user).order_by("-pk").first()
        return newest.pk if newest else -1

    @initialize(target=forces)
    def a_legal_list(self) -> int:
        response = self.client.post(
            "/forces/import/", {"document": json.dumps(LEGAL_DOCUMENT), "confirm": "save"}
        )
        assert response.status_code == 302
        return self._newest(Force)

    @rule(target=forces, name=hostile_text, faction=st.sampled_from(["solar-concord", "nope", ""]))
    def new_list(self, name: str, faction: str) -> int:
        response = self.client.post(
            "/forces/new/", {"name": name, "faction": faction, "points_limit": 75}
        )
        assert response.status_code in (302, 400)
        return self._newest(Force)

    @rule(
        target=forces,
        name=json_text,
        unit_name=json_text,
        weapon=ids | st.just("abc\ud800"),
        units=st.integers(1, 12),
        upload=st.booleans(),
    )
    def import_a_list(
        self, name: str, unit_name: str, weapon: str, units: int, upload: bool
    ) -> int:
        document = json.loads(json.dumps(LEGAL_DOCUMENT))
        document["name"] = name
        document["units"][0]["name"] = unit_name
        document["units"][0]["troopers"][1]["weapons"] = [weapon]
        document["units"] = (document["units"] * units)[:units]
        text = json.dumps(document)
        if upload:
            from django.core.files.uploadedfile import SimpleUploadedFile

            data: dict[str, Any] = {
                "file": SimpleUploadedFile("list.json", text.encode(), "application/json"),
                "confirm": "save",
            }
        else:
            data = {"document": text, "confirm": "save"}
        response = self.client.post("/forces/import/", data)
        assert response.status_code in (302, 400)
        return self._newest(Force)

    @rule(
        force=forces,
        action=st.sampled_from(EDITOR_ACTIONS),
        unit=index,
        trooper=index,
        text=hostile_text,
        items=st.lists(ids, max_size=3),
        kind=st.sampled_from(["weapons", "equipment", "abilities", "skills", "x"]),
        stale=st.booleans(),
    )
    def edit(
        self,
        force: int,
        action: str,
        unit: str,
        trooper: str,
        text: str,
        items: list[str],
        kind: str,
        stale: bool,
    ) -> None:
        current = Force.objects.filter(pk=force).first()
        if current is None:
            return
        data: dict[str, Any] = {
            "action": action,
            "unit": unit,
            "trooper": trooper,
            "name": text,
            "faction": "solar-concord",
            "points_limit": "75",
            "unit_type": "light-infantry",
            "class": items[0] if items else "medic",
            "skills": items,
            "weapons": items,
            "kind": kind,
            "item": items[0] if items else "combi-rifle",
            "version": current.version - 1 if stale else current.version,
        }
        response = self.client.post(f"/forces/{force}/edit/", data, headers={"HX-Request": "true"})
        assert response.status_code in (200, 400, 409), response.status_code
        current.refresh_from_db()
        if stale and current.version > 0:
            assert response.status_code == 409
        self.touched = force_pages(current)

    @rule(force=forces, direction=st.sampled_from(["undo", "redo"]), stale=st.booleans())
    def undo_or_redo(self, force: int, direction: str, stale: bool) -> None:
        current = Force.objects.filter(pk=force).first()
        if current is None:
            return
        version = current.version - 1 if stale else current.version
        response = self.client.post(f"/forces/{force}/{direction}/", {"version": version})
        assert response.status_code == 302
        self.touched = force_pages(current)

    @rule(target=forces, force=forces)
    def duplicate(self, force: int) -> int:
        response = self.client.post(f"/forces/{force}/duplicate/")
        assert response.status_code in (302, 404, 409)
        return self._newest(Force)

    @rule(force=forces, change=st.sampled_from(["on", "off", "new", "sideways"]))
    def share_a_list(self, force: int, change: str) -> None:
        response = self.client.post(f"/forces/{force}/sharing/", {"change": change})
        assert response.status_code in (302, 404)  # nonsense: a message, nothing changed

    @rule(table=tables, change=st.sampled_from(["on", "off", "new"]))
    def share_a_table(self, table: int, change: str) -> None:
        response = self.client.post(f"/tables/{table}/sharing/", {"change": change})
        assert response.status_code in (302, 404)

    @rule(target=forces, force=forces)
    def copy_from_the_share_link(self, force: int) -> int:
        current = Force.objects.filter(pk=force).first()
        if current is not None:
            response = self.client.post(f"/s/{current.share_code}/copy/")
            # New lists are private until shared: the link answers as if it did not exist.
            assert response.status_code in ((302, 409) if current.sharing else (404,))
        return self._newest(Force)

    @rule(force=forces)
    def repair(self, force: int) -> None:
        current = Force.objects.filter(pk=force).first()
        if current is not None:
            response = self.client.post(f"/forces/{force}/repair/", {"version": current.version})
            assert response.status_code == 302

    @rule(force=forces)
    def delete(self, force: int) -> None:
        response = self.client.post(f"/forces/{force}/delete/")
        assert response.status_code in (302, 404)

    # --- The whole account ---------------------------------------------------------------

    @rule(
        names=st.lists(json_text, min_size=1, max_size=3),
        table_name=json_text,
        rows=st.sampled_from([1, 11, 40, 41, 1249]),
        by_the_worker=st.booleans(),
    )
    def import_everything(
        self, names: list[str], table_name: str, rows: int, by_the_worker: bool
    ) -> None:
        from django.core.files.uploadedfile import SimpleUploadedFile
        from django.test import override_settings

        account = {
            "format": "onefinity-account",
            "version": 1,
            "forces": [LEGAL_DOCUMENT | {"name": name} for name in names],
            "tables": [
                {
                    "format": "onefinity-table",
                    "version": 1,
                    "name": table_name,
                    "board": {"rows": rows, "columns": 1},
                }
            ],
        }
        upload = SimpleUploadedFile(
            "everything.json", json.dumps(account).encode(), "application/json"
        )
        # A large file is the worker's (here, run inside the request): its job's page then
        # says what was imported, or why nothing was.
        with override_settings(IMPORT_REQUEST_BYTES=0 if by_the_worker else 5_000_000):
            response = self.client.post("/account/import/", {"file": upload})
        # A job is heavy work: past the visitor's fresh work for the window, 429 and why.
        assert response.status_code in ((302, 400, 429) if by_the_worker else (302, 400))

    # --- Tables ----------------------------------------------------------------------------

    @precondition(lambda self: self._newest(Table) == -1)
    @rule(target=tables, seed=st.integers(0, 50))
    def a_generated_table(self, seed: int) -> int:
        response = self.client.post(
            "/tables/save/",
            {"seed": seed, "coverage": 0.45, "symmetry": "point", "mix": "balanced"},
        )
        assert response.status_code == 302
        return self._newest(Table)

    @rule(target=tables, name=hostile_text, rows=st.integers(1, 12), columns=st.integers(1, 12))
    def an_empty_board(self, name: str, rows: int, columns: int) -> int:
        response = self.client.post(
            "/tables/empty/", {"name": name, "rows": rows, "columns": columns}
        )
        assert response.status_code in (302, 400)
        return self._newest(Table)

    def _version(self, table: int, stale: bool) -> int:
        current = Table.objects.filter(pk=table).first()
        version = current.version if current else 0
        return version - 1 if stale else version

    @rule(table=tables, name=hostile_text, stale=st.booleans())
    def rename_table(self, table: int, name: str, stale: bool) -> None:
        version = self._version(table, stale)
        response = self.client.post(f"/tables/{table}/rename/", {"name": name, "version": version})
        assert response.status_code in (302, 400, 404, 409)
        if stale and version >= 0 and response.status_code != 404:
            assert response.status_code == 409

    @rule(
        table=tables,
        q=st.integers(-2, 12).map(str) | index,
        r=st.integers(-1, 12).map(str) | index,
        kind=st.sampled_from(["", "cover", "elevated", "blocking", "lava", None]),
        stale=st.booleans(),
    )
    def paint_a_hex(self, table: int, q: str, r: str, kind: str | None, stale: bool) -> None:
        version = self._version(table, stale)
        data = {"q": q, "r": r, "version": version} | ({} if kind is None else {"kind": kind})
        response = self.client.post(
            f"/tables/{table}/terrain/", data, headers={"HX-Request": "true"}
        )
        assert response.status_code in (200, 302, 400, 404, 409), response.status_code
        if stale and version >= 0 and response.status_code not in (404, 400):
            assert response.status_code == 409
        current = Table.objects.filter(pk=table).first()
        if current is not None:
            self.touched = table_pages(current)

    @rule(
        table=tables,
        direction=st.sampled_from(["undo", "redo"]),
        stale=st.booleans(),
    )
    def undo_or_redo_a_table(self, table: int, direction: str, stale: bool) -> None:
        version = self._version(table, stale)
        response = self.client.post(f"/tables/{table}/{direction}/", {"version": version})
        assert response.status_code in (302, 400, 404, 409), response.status_code
        if stale and version >= 0 and response.status_code != 404:
            assert response.status_code == 409
        current = Table.objects.filter(pk=table).first()
        if current is not None:
            self.touched = table_pages(current)

    @rule(
        table=tables,
        q=st.integers(0, 12).map(str),
        r=st.integers(0, 12).map(str),
        brush=st.sampled_from(["", "open", "cover", "blocking", "lava", "x" * 50]),
        sym=st.sampled_from(["", "point", "mirror", "spiral"]),
    )
    def paint_with_a_brush(self, table: int, q: str, r: str, brush: str, sym: str) -> None:
        query = f"?brush={brush}&sym={sym}"
        data = {"q": q, "r": r, "version": self._version(table, stale=False)}
        response = self.client.post(f"/tables/{table}/terrain/{query}", data)
        assert response.status_code in (302, 400, 404, 409), response.status_code
        current = Table.objects.filter(pk=table).first()
        if current is not None:
            self.touched = [*table_pages(current), f"/tables/{table}/{query}&mode=terrain"]

    @rule(
        table=tables,
        q=st.integers(-2, 12).map(str) | index,
        r=st.integers(-1, 12).map(str) | index,
        piece=st.sampled_from([*PIECES[:6], "nope", ""]),
        turn=st.sampled_from(["0", "1", "5", "6", "-1", "x"]),
        remove=st.booleans(),
        sym=st.sampled_from(["", "point", "mirror"]),
        stale=st.booleans(),
    )
    def stamp_or_remove_a_piece(
        self, table: int, q: str, r: str, piece: str, turn: str, remove: bool, sym: str, stale: bool
    ) -> None:
        brush = "remove" if remove else f"piece:{piece}"
        query = f"?brush={brush}&turn={turn}&sym={sym}"
        version = self._version(table, stale)
        response = self.client.post(
            f"/tables/{table}/terrain/{query}", {"q": q, "r": r, "version": version}
        )
        assert response.status_code in (302, 400, 404, 409), response.status_code
        if stale and version >= 0 and response.status_code not in (400, 404):
            assert response.status_code == 409
        current = Table.objects.filter(pk=table).first()
        if current is not None:
            self.touched = [*table_pages(current), f"/tables/{table}/{query}&mode=terrain&hex=1,1"]

    @rule(
        table=tables,
        spots=st.lists(
            st.one_of(
                st.tuples(st.integers(-1, 12), st.integers(-1, 12)).map(lambda h: f"{h[0]},{h[1]}"),
                hostile_text,
            ),
            max_size=30,
        ),
        brush=st.sampled_from(["", "open", "cover", "blocking"]),
        htmx=st.booleans(),
    )
    def paint_a_stroke(self, table: int, spots: list[str], brush: str, htmx: bool) -> None:
        data = {"hexes": " ".join(spots), "q": "0", "r": "0"}
        data["version"] = self._version(table, stale=False)
        response = self.client.post(
            f"/tables/{table}/terrain/?brush={brush}",
            data,
            headers={"HX-Request": "true"} if htmx else {},
        )
        assert response.status_code in (200, 302, 400, 404, 409), response.status_code
        current = Table.objects.filter(pk=table).first()
        if current is not None:
            self.touched = table_pages(current)

    # --- Terrain boxes ---------------------------------------------------------------------

    @rule(
        target=boxes,
        name=hostile_text,
        counts=st.dictionaries(st.sampled_from(PIECES), box_count, max_size=6),
    )
    def a_terrain_box(self, name: str, counts: dict[str, str]) -> int:
        data = {"name": name} | {f"count-{piece}": n for piece, n in counts.items()}
        response = self.client.post("/tables/boxes/new/", data)
        assert response.status_code in (302, 400, 403), response.status_code
        return self._newest(TerrainBox)

    @rule(
        target=boxes,
        name=json_text,
        counts=st.dictionaries(
            st.one_of(st.sampled_from(PIECES), json_text),
            st.one_of(st.integers(-3, 300), st.floats(allow_nan=True), json_text, st.none()),
            max_size=5,
        ),
        version=st.sampled_from([1, 2, "1", None]),
    )
    def import_a_box(self, name: str, counts: dict[str, Any], version: Any) -> int:
        document = {"format": "onefinity-terrain-box", "version": version}
        document |= {"name": name, "pieces": counts}
        text = json.dumps(document)  # NaN and lone surrogates too: the reader refuses them
        response = self.client.post("/tables/boxes/import/", {"text": text})
        assert response.status_code in (302, 400, 403), response.status_code
        return self._newest(TerrainBox)

    @rule(name=hostile_text, table=st.booleans())
    def a_box_or_table_made_in_another_browser(self, name: str, table: bool) -> None:
        if table:
            data = {"name": name, "rows": 3, "columns": 3}
            response = self.browser.post("/tables/empty/", data)
        else:
            response = self.browser.post("/tables/boxes/new/", {"name": name, "count-crate": 2})
        assert response.status_code in (302, 400, 403), response.status_code

    @rule()
    def logging_in_and_out_in_the_other_browser(self) -> None:
        credentials = {"username": self.user.get_username(), "password": "pw-pw-pw-pw"}
        assert self.browser.post("/accounts/login/", credentials).status_code == 302
        below_500(self.browser, "/tables/boxes/")
        assert self.browser.post("/accounts/logout/").status_code == 302
        below_500(self.browser, "/tables/boxes/")
        below_500(self.browser, "/tables/")

    @rule(box=boxes, name=hostile_text, count=box_count)
    def edit_a_box(self, box: int, name: str, count: str) -> None:
        data = {"name": name, f"count-{PIECES[0]}": count}
        response = self.client.post(f"/tables/boxes/{box}/", data)
        assert response.status_code in (302, 400, 404), response.status_code

    @rule(box=boxes)
    def delete_a_box(self, box: int) -> None:
        response = self.client.post(f"/tables/boxes/{box}/delete/")
        assert response.status_code in (302, 404), response.status_code

    @rule(target=tables, box=boxes, seed=st.integers(0, 20), save=st.booleans())
    def generate_from_a_box(self, box: int, seed: int, save: bool) -> int:
        current = TerrainBox.objects.filter(pk=box).first()
        encoded = current.encoded() if current is not None else "crates:2"
        params = {"seed": seed, "coverage": 0.45, "symmetry": "none", "box": encoded}
        if save:
            response = self.client.post("/tables/save/", params)
            assert response.status_code == 302, response.status_code
        else:
            assert self.client.get("/tables/new/", params).status_code in (200, 400)
        if current is not None:
            self.touched = box_pages(current)
        return self._newest(Table)

    @rule(name=hostile_text, count=st.integers(1, 3), steps=st.integers(0, 4))
    def a_pack(self, name: str, count: int, steps: int) -> None:
        response = self.client.post(
            "/tables/packs/new/",
            {
                "name": name,
                "count": count,
                "seed": 7,
                "coverage": 0.45,
                "symmetry": "point",
                "mix": "balanced",
            },
        )
        assert response.status_code in (302, 400, 403)
        pack = Pack.objects.filter(owner=self.user).order_by("-pk").first()
        if pack is not None:
            for _ in range(steps):  # each view of the pack page moves its work on a step
                below_500(self.client, f"/tables/packs/{pack.pk}/")
            self.touched = pack_pages(pack)

    @rule(target=tables, table=tables)
    def copy_a_table(self, table: int) -> int:
        current = Table.objects.filter(pk=table).first()
        if current is not None:
            response = self.client.post(f"/t/{current.share_code}/copy/")
            assert response.status_code in ((302, 409) if current.sharing else (404,))
        return self._newest(Table)

    # --- Events and the worker's jobs --------------------------------------------------------

    @rule(target=events, name=hostile_text, rounds=st.integers(0, 4))
    def an_event(self, name: str, rounds: int) -> int:
        response = self.client.post(
            "/events/new/",
            {"name": name or "Open", "date": "2026-12-05", "points_limit": 75}
            | {"round_count": rounds, "ruleset_version": "2026.11", "notes": ""},
        )
        assert response.status_code in (302, 400, 403), response.status_code
        newest = Event.objects.filter(owner=self.user).order_by("-pk").first()
        return newest.pk if newest else -1

    @rule(event=events, force=forces, who=st.sampled_from(["owner", "player"]))
    def join_and_submit(self, event: int, force: int, who: str) -> None:
        current = Event.objects.filter(pk=event).first()
        if current is None:
            return
        client = self.client if who == "owner" else self.player
        below_500(client, current.get_join_url())
        client.post(current.get_join_url())
        chosen = force if who == "owner" else self.player_list
        response = client.post(
            f"/events/{event}/me/submit/", {"force": chosen, "accept_problems": "on"}
        )
        assert response.status_code in (302, 400, 404), response.status_code
        self.touched = event_pages(current)

    @rule(event=events, change=st.sampled_from(["lock", "unlock"]))
    def lock_the_lists(self, event: int, change: str) -> None:
        response = self.client.post(f"/events/{event}/lock/", {"change": change})
        assert response.status_code in (302, 400, 404, 409), response.status_code

    @rule(event=events, round_number=st.integers(1, 3), stale=st.booleans())
    def pair_a_round(self, event: int, round_number: int, stale: bool) -> None:
        current = Event.objects.filter(pk=event).first()
        round_ = current.rounds.filter(number=round_number).first() if current else None
        version = -1 if stale or round_ is None else round_.version
        response = self.client.post(
            f"/events/{event}/rounds/{round_number}/pair/", {"version": version}
        )
        assert response.status_code in (302, 400, 404, 409), response.status_code
        if round_ is not None:
            self.client.post(
                f"/events/{event}/rounds/{round_number}/publish/", {"change": "publish"}
            )

    @rule(
        event=events,
        round_number=st.integers(1, 3),
        a_vp=st.one_of(st.integers(-1, 100).map(str), st.sampled_from(["", "x", "0" * 9 + "7"])),
        b_vp=st.integers(0, 99).map(str),
        by_player=st.booleans(),
    )
    def a_result(self, event: int, round_number: int, a_vp: str, b_vp: str, by_player: bool):
        current = Event.objects.filter(pk=event).first()
        if current is None:
            return
        names = [entry.player_name for entry in current.entries.all()]
        a = names[0] if names else "nobody"
        if by_player:
            url = f"/events/{event}/rounds/{round_number}/report/"
            response = self.player.post(url, {"my_vp": a_vp, "their_vp": b_vp})
        else:
            url = f"/events/{event}/rounds/{round_number}/result/"
            response = self.client.post(url, {"a": a, "a_vp": a_vp, "b_vp": b_vp})
        assert response.status_code in (302, 400, 403, 404, 409), response.status_code
        self.touched = event_pages(current)

    @rule(event=events, which=st.integers(0, 3))
    def ask_for_a_printout(self, event: int, which: int) -> None:
        current = Event.objects.filter(pk=event).first()
        if current is not None:
            below_500(self.client, event_downloads(current)[which])

    @rule(force=forces, which=st.sampled_from(["roster.pdf", "cards.pdf"]))
    def ask_for_a_list_printout(self, force: int, which: str) -> None:
        below_500(self.client, f"/forces/{force}/{which}")

    @rule()
    def the_worker_runs_the_waiting_jobs(self) -> None:
        run_waiting_jobs()
        for job in Job.objects.filter(owner=self.user):
            assert job.state in ("done", "failed"), job.state
            if job.state == "failed":
                assert job.error  # the owner reads why

    # --- What must hold after every step ---------------------------------------------------

    @invariant()
    def every_stored_document_reads_back(self) -> None:
        for force in Force.objects.filter(owner=self.user):
            read_force_document(force.document())
            for revision in force.revisions.all():
                read_force_document(revision.document)
        for table in Table.objects.filter(owner=self.user):
            table.to_spec()
        for pack in Pack.objects.filter(owner=self.user):
            pack.table_specs()
        for box in TerrainBox.objects.filter(owner=self.user):
            box.to_box()

    @invariant()
    def no_account_passes_a_quota(self) -> None:
        for model in owned_models():
            assert model._default_manager.filter(owner=self.user).count() <= model.quota.account

    @invariant()
    def every_page_of_the_owner_answers(self) -> None:
        for url in ("/forces/", "/tables/", "/account/", "/account/everything.json", "/jobs/"):
            below_500(self.client, url)
        for url in self.touched:
            below_500(self.client, url)
        self.touched = []

    def teardown(self) -> None:
        for force in Force.objects.filter(owner=self.user):
            for url in force_pages(force) + force_downloads(force):
                below_500(self.client, url)
        for table in Table.objects.filter(owner=self.user):
            for url in table_pages(table) + table_downloads(table):
                below_500(self.client, url)
        for pack in Pack.objects.filter(owner=self.user):
            for url in pack_pages(pack):
                below_500(self.client, url)
        for box in TerrainBox.objects.filter(owner=self.user):
            for url in box_pages(box):
                below_500(self.client, url)
        for event in Event.objects.filter(owner=self.user):
            for url in event_pages(event) + event_downloads(event):
                below_500(self.client, url)
                below_500(self.player, url)
        run_waiting_jobs()
        for job in Job.objects.filter(owner=self.user):
            for url in job_pages(job):
                below_500(self.client, url)


AnOwner.TestCase.settings = settings(
    # 20 runs of 12 steps in `make test` (about a minute); HYPOTHESIS_PROFILE=soak for 200.
    max_examples=examples(20),
    stateful_step_count=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


def test_nothing_an_owner_does_breaks_a_page_or_loses_a_document(monkeypatch, jobs_wait) -> None:
    """(Jobs wait for the worker, which the machine runs as one of its steps.)"""
    from hypothesis.stateful import run_state_machine_as_test

    # A box that makes no table would hold each generation for its whole 5 s budget; the
    # budget itself is tested in tests/tablegen/test_budget.py.
    monkeypatch.setattr(table_jobs, "REQUEST_SECONDS", 0.3)
    monkeypatch.setattr(table_jobs, "WORKER_SECONDS", 0.3)
    # Quotas a run of 12 steps can reach, from the account and from another browser.
    monkeypatch.setattr(TerrainBox, "quota", Quota("terrain boxes", browser=2, account=3))

    run_state_machine_as_test(AnOwner, settings=AnOwner.TestCase.settings)
