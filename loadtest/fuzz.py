"""Hostile and careless input against a running site: no answer may be a server error.

Several browsers (some signed up, some anonymous) each keep a few lists and tables and
send, case after case, requests a careless or hostile visitor could send: every route of
the site, with their own ids, other browsers' ids, share codes and junk; form fields with
control characters, long or empty text, odd numbers and ids; uploads of hostile JSON
(NaN, 5,000-digit numbers, huge boards, deep nesting); declared bodies over the limit;
stale versions. Signed-up browsers also organize events that the others join through
their join links: lists submitted, locked, Swiss rounds paired and published, results
reported by both players and overridden, standings read (pages, CSV, JSON, PDF jobs),
typed pairings with hostile row counts, print jobs and the jobs pages; every browser makes
terrain boxes and generates from them, and makes packs (share links too). NUL bytes go
into every code of an address. Every few cases each browser also reads back every page
and download of everything it owns, so a write that stored something unreadable is
caught too.

    .venv/bin/python loadtest/fuzz.py --base http://127.0.0.1:8000 --cases 5000 --seconds 600

Behind `make serve`, nginx answers a NUL in a path with its own 400 before the site sees it;
`--direct /tmp/onefinity-serve-*/gunicorn.sock` sends those requests to gunicorn's socket
as well, so that the site's own answer is checked (on PostgreSQL a NUL reaching a query
was a 500).

It prints a summary (cases, requests, answers by status class, the slowest request) and
every answer of 500 or above with the request that caused it; exit status 1 if there was
any. Only loopback addresses are accepted: this is for the project's own server.
"""

from __future__ import annotations

import argparse
import http.client
import http.cookiejar
import json
import random
import re
import secrets
import socket
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter, defaultdict
from typing import Any

from forcebuilder.actions import ACTIONS

# Every action the editor has, drawn from the editor itself: a new one is tried at once.
EDITOR_ACTIONS = sorted(ACTIONS)
# What remove-item takes away: a trooper's items or a unit's skills.
ITEM_KINDS = ["weapons", "equipment", "abilities", "skills"]

VERSION = re.compile(rb'name="version" value="(\d+)"')
FORCE_ID = re.compile(rb'href="/forces/(\d+)/"')
TABLE_ID = re.compile(rb'href="/tables/(\d+)/"')
BOX_ID = re.compile(rb'href="/tables/boxes/(\d+)/"')
PIECES = ["building-6", "shack-3", "wall-3", "hill-7", "crates", "x" * 81]
SHARE_CODE = re.compile(rb"/(?:s|t|p)/([A-Za-z0-9_-]{10,40})/")
PACK_ID = re.compile(rb'href="/tables/packs/(\d+)/"')
JOB_ID = re.compile(rb'href="/jobs/(\d+)/"')
JOIN_CODE = re.compile(rb"/events/join/([A-Za-z0-9_.-]{1,64})/")
REPORT_FORM = re.compile(rb"/events/(\d+)/rounds/(\d+)/report/")
ENTRY = re.compile(rb"/events/(\d+)/players/(\d+)/")
SNAPSHOT = re.compile(rb"/events/(\d+)/lists/([A-Za-z0-9_.-]{1,64})/")
STANDINGS_CODE = re.compile(rb"/events/standings/([A-Za-z0-9_.-]{1,64})/")
ROUTE_NUMBER = re.compile(r"/(?:-?\d+|[A-Za-z0-9_-]{16,})(?=/|$)")
JOB_PAGE = re.compile(r"/jobs/(\d+)/$")
EVENT_PAGE = re.compile(r"/events/(\d+)/(?:me/)?$")
# Numbers a form may read: huge, zero-padded, negative, non-ASCII, signed, spaced.
HOSTILE_NUMBERS = [
    "0001000000",
    "0" * 60 + "1",
    "9" * 400,
    "-1",
    "-0",
    "+3",
    " 3",
    "3 ",
    "\u0663",
    "\uff11\uff12",
    "1e3",
    "0x10",
    "1.0",
    "",
    "0",
    "1",
    "2",
    "128",
    "129",
]
# A NUL (and its neighbours) where a code goes: PostgreSQL refuses NUL in a query.
NUL_CODES = ["%00", "abc%00def", "%00%00", "a%00", "%0a", "%C0%80", "%FF", "..%2F", "%2e%2e"]

CONTROL = "\x00\x01\x08\t\n\r\x1b\x7f\x85\x9b"
TEXTS = [
    "",
    " ",
    "Night raid",
    "x" * 120,
    "x" * 121,
    "y" * 5000,
    "<script>alert(1)</script>",
    "' OR 1=1 --",
    "medic ",
    " combi-rifle",
    "../../etc/passwd",
    "file:///etc/passwd",
    "\u202eevil",
    "Δ-squad 🚀",
]
NUMBERS = ["0", "-1", "1", "75", "9" * 40, "1e309", "NaN", "0x10", "1.5", "", "٣"]
IDS = ["combi-rifle", "rifle", "spitfire", "medic", "hacker", "tag", "light-infantry", "x" * 81]
LEGAL_FORCE = {
    "format": "onefinity-force",
    "version": 1,
    "name": "Wardens",
    "faction": "solar-concord",
    "ruleset": "2026.11",
    "points_limit": 75,
    "units": [
        {
            "type": "medium-infantry",
            "troopers": [{"class": "hacker"}, {"weapons": ["combi-rifle"]}, {}],
        }
    ],
}


def hostile_text(rng: random.Random) -> str:
    choice = rng.random()
    if choice < 0.4:
        return rng.choice(TEXTS)
    if choice < 0.7:
        return "".join(rng.choice(CONTROL + "ab ") for _ in range(rng.randint(1, 8)))
    return (
        "".join(chr(rng.randint(1, 0x2FFFF)) for _ in range(rng.randint(0, 12)))
        .encode("utf-8", "ignore")
        .decode("utf-8", "ignore")
    )


def hostile_json(rng: random.Random) -> str:
    """A document that is almost right, or not at all."""
    kind = rng.randrange(10)
    document: Any = json.loads(json.dumps(LEGAL_FORCE))
    if kind == 9:
        # A hostile key (a surrogate, controls) where a reader may name it in its message:
        # a box's piece id, a table's param, a list's unit, the top of any of them. Until
        # 2026-11-22 a surrogate key in a box made its error page unencodable (500).
        key = hostile_text(rng) + rng.choice(["\ud800", "\udfff", "\x00", "\x9b"])
        box = {"format": "onefinity-terrain-box", "version": 1, "pieces": {"wall-3": 2}}
        table = {"format": "onefinity-table", "version": 1, "params": {"mix": "urban"}}
        target, place = rng.choice(
            [
                (box, box["pieces"]),
                (box, box),
                (table, table["params"]),
                (table, table),
                (document, document["units"][0]),
                (document, document),
            ]
        )
        place[key] = rng.choice([1, "x", None])
        return json.dumps(target)
    if kind == 0:
        return "NaN"
    if kind == 1:
        return json.dumps(LEGAL_FORCE).replace(
            '"points_limit": 75', '"points_limit": ' + "1" * 5000
        )
    if kind == 2:
        return "[" * 50_000
    if kind == 3:
        return json.dumps(
            {
                "format": "onefinity-table",
                "version": 1,
                "board": {"rows": rng.choice([41, 1249, 10**6]), "columns": 1},
            }
        )
    if kind == 4:
        hexes = [[0, r * rng.choice([10, 100, 9999])] for r in range(20)]
        return json.dumps({"format": "onefinity-table", "version": 1, "board": {"hexes": hexes}})
    if kind == 5:
        document["units"] = document["units"] * rng.choice([8, 9, 50])
    if kind == 6:
        document["name"] = hostile_text(rng) + "\ud800"
    if kind == 7:
        document["units"][0]["troopers"][0]["weapons"] = [hostile_text(rng)] * rng.choice(
            [1, 10, 11]
        )
    if kind == 8:
        if rng.random() < 0.1:
            return "{"
        table = {
            "format": "onefinity-table",
            "version": 1,
            "name": hostile_text(rng),
            "board": rng.choice(
                [{"rows": rng.choice([11, 41, 1249]), "columns": 1}, {"standard": True}]
            ),
        }
        return json.dumps(
            {
                "format": "onefinity-account",
                "version": 1,
                "forces": [document] * rng.choice([1, 3]),
                "tables": [table] if rng.random() < 0.5 else [{}],
            }
        )
    return json.dumps(document)


class UnixConnection(http.client.HTTPConnection):
    """HTTP over a Unix socket: gunicorn's own, behind `make serve`'s nginx."""

    def __init__(self, path: str) -> None:
        super().__init__("127.0.0.1", timeout=60)
        self.unix_path = path

    def connect(self) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(60)
        self.sock.connect(self.unix_path)


class Browser:
    # gunicorn's socket, to send what nginx would refuse (a NUL in a path) to the site itself
    direct: str = ""

    def __init__(
        self,
        base: str,
        rng: random.Random,
        stats: Counter[str],
        failures: list[str],
        routes: dict[str, Counter[str]],
    ) -> None:
        self.base = base
        self.routes = routes
        self.rng = rng
        self.stats = stats
        self.failures = failures
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.forces: list[int] = []
        self.tables: list[int] = []
        self.boxes: list[int] = []
        self.codes: list[str] = []
        self.versions: dict[str, int] = {}
        self.slowest = (0.0, "")
        self.username = ""
        self.packs: list[int] = []
        self.jobs: list[int] = []
        self.organized: list[int] = []  # events this browser made
        self.joined: list[int] = []  # events it joined as a player
        self.join_codes: list[str] = []
        self.entries: dict[int, list[int]] = {}  # event -> entry ids seen on its dashboard
        self.snapshots: list[tuple[int, str]] = []
        self.standings_codes: list[str] = []
        self.paired: dict[int, int] = {}  # event -> the last round this organizer paired
        self.reportable: dict[int, set[int]] = {}  # event -> rounds with a report form
        self.last_url = ""

    def csrf(self) -> str:
        return next((c.value for c in self.jar if c.name == "csrftoken"), "")

    def send(
        self,
        method: str,
        path: str,
        fields: dict[str, Any] | None = None,
        upload: str | None = None,
        htmx: bool = False,
    ) -> tuple[int, bytes]:
        headers = {"X-CSRFToken": self.csrf(), "Referer": self.base + "/"}
        if htmx:
            headers["HX-Request"] = "true"
        body = None
        if upload is not None:
            boundary = secrets.token_hex(8)
            parts = [
                f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'
                for k, v in (fields or {}).items()
            ]
            parts.append(
                f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="f.json"\r\n'
                f"Content-Type: application/json\r\n\r\n{upload}\r\n--{boundary}--\r\n"
            )
            body = "".join(parts).encode("utf-8", "surrogatepass")
            headers["Content-Type"] = f"multipart/form-data; boundary={boundary}"
        elif method == "POST":
            body = urllib.parse.urlencode(fields or {}, doseq=True).encode()
        request = urllib.request.Request(
            self.base + path, data=body, headers=headers, method=method
        )
        start = time.perf_counter()
        self.last_url = ""
        try:
            with self.opener.open(request, timeout=60) as response:
                status, content = response.status, response.read()
                self.last_url = urllib.parse.urlsplit(response.geturl()).path
        except urllib.error.HTTPError as error:
            status, content = error.code, error.read()
        except (
            urllib.error.URLError,
            TimeoutError,
            ConnectionError,
            http.client.HTTPException,
        ) as error:
            status, content = 599, str(error).encode()
        # A page only for accounts sends a browser without one to log in (302, then 200):
        # counted apart, so that a route's 200s are what it did.
        to_login = self.last_url.startswith("/accounts/login/") and "/accounts/login/" not in path
        self.count(method, path, status, start, "login" if to_login else str(status))
        if status >= 500:
            shown = {k: (v[:60] if isinstance(v, str) else v) for k, v in (fields or {}).items()}
            self.failures.append(
                f"{status} {method} {path} fields={shown!r} upload={(upload or '')[:80]!r}"
            )
        for pattern, found in (
            (FORCE_ID, self.forces),
            (TABLE_ID, self.tables),
            (BOX_ID, self.boxes),
        ):
            for match in pattern.findall(content[:200_000]):
                if int(match) not in found:
                    found.append(int(match))
        self.learn(content[:200_000])
        version = VERSION.search(content)
        if version:
            self.versions[path.split("?")[0]] = int(version.group(1))
        return status, content

    def learn(self, content: bytes) -> None:
        """Ids and codes a page shows: what this browser can come back to."""
        for pattern, found in (
            (SHARE_CODE, self.codes),
            (JOIN_CODE, self.join_codes),
            (STANDINGS_CODE, self.standings_codes),
        ):
            for code in pattern.findall(content):
                if code.decode() not in found:
                    found.append(code.decode())
        for pattern, ids in ((PACK_ID, self.packs), (JOB_ID, self.jobs)):
            for match in pattern.findall(content):
                if int(match) not in ids:
                    ids.append(int(match))
        for event, entry in ENTRY.findall(content):
            seen = self.entries.setdefault(int(event), [])
            if int(entry) not in seen:
                seen.append(int(entry))
        for event, number in REPORT_FORM.findall(content):
            self.reportable.setdefault(int(event), set()).add(int(number))
        for event, code in SNAPSHOT.findall(content):
            if (int(event), code.decode()) not in self.snapshots:
                self.snapshots.append((int(event), code.decode()))
        job = JOB_PAGE.match(self.last_url)  # a download not made yet: its job's page
        if job and int(job.group(1)) not in self.jobs:
            self.jobs.append(int(job.group(1)))
        page = EVENT_PAGE.match(self.last_url)
        if page:
            event = int(page.group(1))
            mine = self.joined if self.last_url.endswith("/me/") else self.organized
            if event not in mine:
                mine.append(event)

    def sign_up(self) -> None:
        self.send("GET", "/accounts/signup/")
        password = secrets.token_urlsafe(16)
        name = "fuzz" + secrets.token_hex(4)
        self.username = name
        self.send(
            "POST",
            "/accounts/signup/",
            {"username": name, "email": "", "password1": password, "password2": password},
        )

    def start(self) -> None:
        self.send("GET", "/forces/new/")
        self.send(
            "POST", "/forces/import/", {"document": json.dumps(LEGAL_FORCE), "confirm": "save"}
        )
        self.send(
            "POST",
            "/tables/save/",
            {
                "seed": self.rng.randrange(100),
                "coverage": 0.45,
                "symmetry": "point",
                "mix": "balanced",
            },
        )
        self.send("POST", "/tables/empty/", {"name": "Board", "rows": 11, "columns": 9})
        self.send("GET", "/forces/")
        self.send("GET", "/tables/")

    # --- One case ------------------------------------------------------------------------

    def some_id(self, own: list[int], others: list[int]) -> str:
        pool = own + others + [0, -1, 999999]
        return str(self.rng.choice(pool))

    def case(self, everyone: list[Browser]) -> None:
        rng = self.rng
        others_forces = [f for b in everyone if b is not self for f in b.forces]
        others_tables = [t for b in everyone if b is not self for t in b.tables]
        codes = [c for b in everyone for c in b.codes] + ["x", "A" * 33]
        force = self.some_id(self.forces, others_forces)
        table = self.some_id(self.tables, others_tables)
        code = rng.choice(codes)
        text = hostile_text(rng)
        number = rng.choice(NUMBERS)
        version = self.versions.get(f"/forces/{force}/", 0) + rng.choice([0, 0, 0, -1, 1])
        table_version = self.versions.get(f"/tables/{table}/", 0) + rng.choice([0, 0, 0, -1])
        item = rng.choice([*IDS, text])
        kind = rng.randrange(27 + len(self.EVENT_CASES))
        if kind >= 27:
            self.event_case(kind, everyone)
            return
        if kind < 7:
            action = rng.choice([*EDITOR_ACTIONS, "nonsense"])
            fields = {
                "action": action,
                "version": version,
                "unit": rng.choice(["0", "1", number]),
                "trooper": rng.choice(["0", "1", number]),
                "name": text,
                "faction": rng.choice(["solar-concord", text]),
                "points_limit": rng.choice(["75", number]),
                "unit_type": rng.choice(IDS),
                "class": item,
                "skills": [item],
                "weapons": [item, rng.choice(IDS)],
                "abilities": [item],
                "equipment": [item],
                "kind": rng.choice([*ITEM_KINDS, text]),
                "item": item,
            }
            self.send("POST", f"/forces/{force}/edit/", fields, htmx=rng.random() < 0.7)
        elif kind == 7:
            self.send(
                "POST",
                f"/forces/{force}/{rng.choice(['undo', 'redo', 'repair', 'duplicate', 'move-ruleset'])}/",
                {"version": version},
            )
        elif kind == 8:
            self.send(
                "POST",
                "/forces/new/",
                {"name": text, "faction": "solar-concord", "points_limit": number},
            )
        elif kind == 9:
            if rng.random() < 0.5:
                self.send(
                    "POST",
                    "/forces/import/",
                    {"document": hostile_json(rng), "confirm": rng.choice(["save", ""])},
                )
            else:
                self.send("POST", "/forces/import/", {"confirm": "save"}, upload=hostile_json(rng))
        elif kind == 10:
            self.send("POST", "/account/import/", {}, upload=hostile_json(rng))
        elif kind == 11:
            query = urllib.parse.urlencode(
                {
                    "attacker": rng.choice(["0:0:rifle", "-1", text, number]),
                    "target": rng.choice(["type:tag", text]),
                    "mode": rng.choice(["shooting", "close-combat", text]),
                    "band": rng.choice(["short", text]),
                    "combat": rng.choice(["rear", text]),
                    "defense": rng.choice(["cover", text]),
                }
            )
            self.send("GET", f"/forces/{force}/odds/?{query}", htmx=rng.random() < 0.5)
        elif kind == 12:
            self.send(
                "GET",
                "/odds/?"
                + urllib.parse.urlencode({"attacker": number, "defender": rng.choice(NUMBERS)}),
            )
        elif kind == 13:
            self.send(
                "POST",
                f"/tables/{table}/terrain/",
                {
                    "q": rng.choice(["0", "3", number]),
                    "r": rng.choice(["0", "5", number]),
                    "kind": rng.choice(["", "cover", "elevated", "blocking", text]),
                    "version": table_version,
                },
                htmx=rng.random() < 0.7,
            )
        elif kind == 14:
            self.send("POST", f"/tables/{table}/rename/", {"name": text, "version": table_version})
        elif kind == 15:
            self.send(
                "POST",
                "/tables/empty/",
                {
                    "name": text,
                    "rows": rng.choice(["11", number]),
                    "columns": rng.choice(["9", number]),
                },
            )
        elif kind == 16:
            query = urllib.parse.urlencode(
                {
                    "seed": rng.choice([str(rng.randrange(10**6)), number]),
                    "coverage": rng.choice(["0.45", number]),
                    "symmetry": rng.choice(["none", "point", "mirror", text]),
                    "mix": rng.choice(["balanced", text]),
                    "mode": rng.choice(["lof", "sightlines", "exposure-a", text]),
                    "from": rng.choice(["0,0", text]),
                    "to": rng.choice(["4,5", number]),
                }
            )
            self.send("GET", f"/tables/new/?{query}")
        elif kind == 17:
            self.send(
                "POST",
                "/tables/packs/new/",
                {
                    "name": text,
                    "count": rng.choice(["2", number]),
                    "seed": number,
                    "coverage": "0.45",
                    "symmetry": "point",
                    "mix": "balanced",
                },
            )
        elif kind == 18:
            self.send("POST", rng.choice([f"/s/{code}/copy/", f"/t/{code}/copy/"]))
        elif kind == 19:
            path = rng.choice(
                [
                    f"/s/{code}/",
                    f"/s/{code}/roster.pdf",
                    f"/t/{code}/table.png",
                    f"/t/{code}/?" + urllib.parse.urlencode({"mode": "lof", "from": text}),
                ]
            )
            self.send("GET", path)
        elif kind == 20:
            self.send(
                "GET",
                rng.choice(["/forces/", "/tables/"])
                + "?"
                + urllib.parse.urlencode({"page": number}),
            )
        elif kind == 21:
            self.send(
                "POST", f"/forces/{force}/delete/" if rng.random() < 0.2 else f"/forces/{force}/"
            )
        elif kind == 24:
            # Terrain boxes: the form with careless counts, a hostile document, edit, delete.
            others_boxes = [b for other in everyone if other is not self for b in other.boxes]
            box = self.some_id(self.boxes, others_boxes)
            counts = {f"count-{rng.choice(PIECES)}": rng.choice(NUMBERS) for _ in range(3)}
            choice = rng.randrange(4)
            if choice == 0:
                self.send("POST", "/tables/boxes/new/", {"name": text} | counts)
            elif choice == 1:
                self.send("POST", "/tables/boxes/import/", {}, upload=hostile_json(rng))
            elif choice == 2:
                self.send("POST", f"/tables/boxes/{box}/", {"name": text} | counts)
            else:
                self.send("POST", f"/tables/boxes/{box}/delete/")
        elif kind == 25:
            # Undo and redo (from stale tabs too), and a brush with symmetric editing.
            if rng.random() < 0.5:
                step = rng.choice(["undo", "redo"])
                self.send("POST", f"/tables/{table}/{step}/", {"version": table_version})
            else:
                query = urllib.parse.urlencode(
                    {
                        "brush": rng.choice(["open", "cover", "blocking", text]),
                        "sym": rng.choice(["point", "mirror", text]),
                    }
                )
                fields = {"q": rng.choice(["1", number]), "r": "2", "version": table_version}
                self.send("POST", f"/tables/{table}/terrain/?{query}", fields, htmx=True)
        elif kind == 26:
            # Generation from a terrain box (the owner's, or any counts typed in the URL).
            box_text = rng.choice(
                ["building-6:2,wall-3:4,hill-7:1,crates:6", "crates:2", text, number]
            )
            fields = {"seed": rng.choice(["1", number]), "coverage": "0.45", "box": box_text}
            if rng.random() < 0.5:
                self.send("GET", "/tables/new/?" + urllib.parse.urlencode(fields))
            else:
                self.send("POST", "/tables/save/", fields | {"symmetry": "none"})
        elif kind == 22:
            # A declared body over the limit: refused before it is read.
            self.send_declared_oversize()
        else:
            self.send("POST", "/accounts/login/", {"username": text, "password": text})

    # --- Events, rounds, packs, boxes, jobs -------------------------------------------------

    def some_event(self, everyone: list[Browser], joined: bool = False) -> int:
        """One of this browser's events (organized, or joined), sometimes someone else's."""
        own = self.joined if joined else self.organized
        others = [e for b in everyone if b is not self for e in b.organized]
        if own and not joined and self.rng.random() < 0.5:
            # The organizer's fullest event, half the time: its rounds go on further.
            return max(own, key=lambda event: len(self.entries.get(event, [])))
        if own and self.rng.random() < 0.85:
            return self.rng.choice(own[-4:])
        return int(self.some_id([], others))

    def round_version(self, event: int, number: int) -> int:
        """The version the round's page shows (read again now and then), sometimes stale."""
        path = f"/events/{event}/rounds/{number}/"
        if path not in self.versions or self.rng.random() < 0.5:
            self.send("GET", path)
        return self.versions.get(path, 0) + self.rng.choice([0, 0, 0, 0, -1, 1])

    def player_names(self, everyone: list[Browser]) -> list[str]:
        return [b.username for b in everyone if b.username] + ["nobody", hostile_text(self.rng)]

    # How often each kind of event case comes, in 21 of the 48 kinds of case: an event's
    # life (made, joined, lists submitted, locked, paired, published, reported) must be
    # reached by chance often enough that later rounds and their results are fuzzed too.
    EVENT_CASES = (
        ["organize"] * 2
        + ["take_part"] * 3
        + ["lock_and_publish"] * 2
        + ["pair_and_publish"] * 3
        + ["report_results"] * 3
        + ["override_results", "standings", "print_and_jobs", "typed_pairings", "nul_codes"]
        + ["packs_case"] * 2
        + ["box_generation"]
    )

    def event_case(self, kind: int, everyone: list[Browser]) -> None:
        getattr(self, self.EVENT_CASES[kind - 27])(everyone)
        if self.rng.random() < 0.05:
            self.send("GET", "/events/")

    def organize(self, everyone: list[Browser]) -> None:
        """Make an event (mostly a sound one), edit it, its Swiss settings, its join link."""
        rng = self.rng
        if not self.organized or rng.random() < 0.12:
            sound = rng.random() < 0.7 and len(self.organized) < 4
            fields = {
                "name": f"Fuzz cup {rng.randrange(1000)}" if sound else hostile_text(rng),
                "date": rng.choice(["2026-12-05", "2026-12-05", "1999-01-01", "2026-02-30", "x"]),
                "points_limit": "75" if sound else rng.choice(HOSTILE_NUMBERS),
                "ruleset_version": LEGAL_FORCE["ruleset"] if sound else hostile_text(rng),
                "round_count": "3" if sound else rng.choice(HOSTILE_NUMBERS),
                "notes": rng.choice(["", "Bring dice.\nTwo lines.", hostile_text(rng)]),
            }
            if sound:
                fields["date"] = "2026-12-05"
            self.send("GET", "/events/new/")
            self.send("POST", "/events/new/", fields)
            return
        event = self.some_event(everyone)
        choice = rng.randrange(6)
        if choice == 0:
            self.send(
                "POST",
                f"/events/{event}/edit/",
                {
                    "name": rng.choice([f"Fuzz cup {rng.randrange(1000)}", hostile_text(rng)]),
                    "date": "2026-12-06",
                    "points_limit": rng.choice(["75", *HOSTILE_NUMBERS]),
                    "ruleset_version": LEGAL_FORCE["ruleset"],
                    "round_count": rng.choice(["3", *HOSTILE_NUMBERS]),
                    "notes": hostile_text(rng),
                    "version": self.versions.get(f"/events/{event}/edit/", 0),
                },
            )
        elif choice == 1:
            fields: dict[str, Any] = {"bye_vp": rng.choice(["3", *HOSTILE_NUMBERS])}
            for entry in self.entries.get(event, [])[:8]:
                fields[f"seed-{entry}"] = rng.choice(["", "1", "2", *HOSTILE_NUMBERS])
            self.send("GET", f"/events/{event}/swiss/")
            self.send("POST", f"/events/{event}/swiss/", fields)
        elif choice == 2:
            self.send("POST", f"/events/{event}/join-link/")
            self.send("GET", f"/events/{event}/join-qr.svg")
        elif choice == 3:
            self.send("GET", f"/events/{event}/?show={rng.choice(['all', 'missing', 'x'])}")
        elif choice == 4 and rng.random() < 0.1:
            self.send("POST", f"/events/{event}/delete/")
            if event in self.organized and self.last_url:
                self.organized.remove(event)
        else:
            self.send("GET", f"/events/{event}/edit/")

    def take_part(self, everyone: list[Browser]) -> None:
        """Join an event through its join link (or a junk code), submit one of the lists."""
        rng = self.rng
        codes = [c for b in everyone for c in b.join_codes]
        if codes and (not self.joined or rng.random() < 0.15):
            code = rng.choice(codes) if rng.random() < 0.9 else rng.choice(["x", "A" * 65])
            self.send("GET", f"/events/join/{code}/")
            self.send("POST", f"/events/join/{code}/")
            return
        event = self.some_event(everyone, joined=True)
        choice = rng.randrange(10)
        if choice < 6:
            force = rng.choice(self.forces[-5:] or [0]) if rng.random() < 0.9 else rng.choice(IDS)
            fields = {"force": str(force)}
            if rng.random() < 0.7:
                fields["accept_problems"] = "yes"
            self.send("POST", f"/events/{event}/me/submit/", fields)
        elif choice == 6:
            self.send(
                "POST",
                f"/events/{event}/me/new-list/",
                {"name": hostile_text(rng), "faction": rng.choice(["solar-concord", "x"])},
            )
        elif choice == 7 and rng.random() < 0.2:
            self.send("POST", f"/events/{event}/me/{rng.choice(['withdraw', 'leave'])}/")
            if event in self.joined and self.last_url.endswith("/events/"):
                self.joined.remove(event)
        else:
            for path in ("me/", "rounds/", "lists/", "standings/"):
                self.send("GET", f"/events/{event}/{path}")

    def lock_and_publish(self, everyone: list[Browser]) -> None:
        rng = self.rng
        event = self.some_event(everyone)
        choice = rng.randrange(5)
        if choice < 2:
            # Lock once players have joined (a locked event takes nobody new).
            ready = len(self.entries.get(event, [])) >= 2
            change = rng.choice(["lock", "lock", "lock", "unlock", "x"] if ready else ["x"])
            self.send("POST", f"/events/{event}/lock/", {"change": change})
        elif choice == 2:
            change = rng.choice(["publish", "hide", ""])
            self.send("POST", f"/events/{event}/publish/", {"change": change})
        else:
            entries = [*self.entries.get(event, []), 0, 999999]
            entry = rng.choice(entries)
            if rng.random() < 0.05:
                self.send("POST", f"/events/{event}/players/{entry}/remove/")
            elif rng.random() < 0.5:
                change = rng.choice(["lock", "unlock", "x"])
                self.send("POST", f"/events/{event}/players/{entry}/lock/", {"change": change})
            else:
                self.send(
                    "POST",
                    f"/events/{event}/players/{entry}/drop/",
                    {
                        "change": rng.choice(["drop", "reinstate", "x"]),
                        "after": rng.choice(["1", "0", *HOSTILE_NUMBERS]),
                    },
                )
                if rng.random() < 0.5:
                    # Put them back, so that rounds can still be paired.
                    self.send(
                        "POST", f"/events/{event}/players/{entry}/drop/", {"change": "reinstate"}
                    )

    def pair_and_publish(self, everyone: list[Browser]) -> None:
        """Pair a Swiss round (the first not paired, mostly), then publish it."""
        rng = self.rng
        event = self.some_event(everyone)
        following = self.paired.get(event, 0) + rng.choice([0, 1, 1, 1])
        number = following if rng.random() < 0.7 else rng.choice([1, 2, 3, 4, 0])
        version = self.round_version(event, number)
        status, _ = self.send(
            "POST", f"/events/{event}/rounds/{number}/pair/", {"version": version}
        )
        if status == 200 and self.last_url.endswith(f"/rounds/{number}/"):
            self.paired[event] = max(number, self.paired.get(event, 0))
        if rng.random() < 0.8:
            version = self.round_version(event, number)
            change = rng.choice(["publish", "publish", "publish", "hide"])
            self.send(
                "POST",
                f"/events/{event}/rounds/{number}/publish/",
                {"change": change, "version": version},
            )
        if rng.random() < 0.3:
            self.send("GET", f"/events/{event}/rounds/{number}/pairings.json")

    def report_results(self, everyone: list[Browser]) -> None:
        """A player reports their game: mostly the same score as their opponent."""
        rng = self.rng
        event = self.some_event(everyone, joined=True)
        if rng.random() < 0.3:
            self.send("GET", f"/events/{event}/me/")
        rounds = sorted(self.reportable.get(event, set()))
        number = rng.choice(rounds[-2:]) if rounds and rng.random() < 0.8 else rng.choice([1, 5])
        # A draw, mostly: both players of a game then report the same, the round completes
        # and the next one can be paired; a win reported by both sides may disagree.
        mine, theirs = rng.choice([("2", "2"), ("2", "2"), ("2", "2"), ("3", "1"), ("1", "3")])
        if rng.random() < 0.2:
            mine, theirs = rng.choice(HOSTILE_NUMBERS), rng.choice(["1", *HOSTILE_NUMBERS])
        self.send(
            "POST",
            f"/events/{event}/rounds/{number}/report/",
            {"my_vp": mine, "their_vp": theirs},
        )

    def override_results(self, everyone: list[Browser]) -> None:
        """The organizer enters or overrides a result, takes it back, swaps seats."""
        rng = self.rng
        event = self.some_event(everyone)
        number = self.paired.get(event, 1) if rng.random() < 0.7 else rng.choice([1, 2, 3])
        version = self.round_version(event, number)
        choice = rng.randrange(5)
        if choice == 4:
            # A sound result (no version: as a tool would send it), which settles a dispute:
            # tried with each player's name until one of them has a game in the round.
            names = [b.username for b in everyone if b.username]
            rng.shuffle(names)
            for name in names:
                status, _ = self.send(
                    "POST",
                    f"/events/{event}/rounds/{number}/result/",
                    {"a": name, "a_vp": "3", "b_vp": "1"},
                )
                if status == 200:
                    break
        elif choice < 2:
            self.send(
                "POST",
                f"/events/{event}/rounds/{number}/result/",
                {
                    "a": rng.choice(self.player_names(everyone)),
                    "a_vp": rng.choice(["3", "0", *HOSTILE_NUMBERS]),
                    "b_vp": rng.choice(["1", "99", "100"]),
                    "version": rng.choice([str(version), "0", "1", *HOSTILE_NUMBERS]),
                },
            )
        elif choice == 2:
            self.send(
                "POST",
                f"/events/{event}/rounds/{number}/result/clear/",
                {"table": rng.choice(["1", *HOSTILE_NUMBERS]), "version": version},
            )
        else:
            kind = rng.choice(["players", "tables", "x"])
            names = self.player_names(everyone)
            first, second = (
                (rng.choice(names), rng.choice(names))
                if kind == "players"
                else (rng.choice(["1", *HOSTILE_NUMBERS]), rng.choice(["2", *HOSTILE_NUMBERS]))
            )
            self.send(
                "POST",
                f"/events/{event}/rounds/{number}/swap/",
                {"kind": kind, "first": first, "second": second, "version": version},
            )

    def standings(self, everyone: list[Browser]) -> None:
        rng = self.rng
        joined = rng.random() < 0.3
        event = self.some_event(everyone, joined=joined)
        suffix = rng.choice(
            ["standings/", "standings.csv", "standings.json", "standings.pdf", "rounds/"]
        )
        self.send("GET", f"/events/{event}/{suffix}")
        if rng.random() < 0.3:
            change = rng.choice(["publish", "hide"])
            self.send("POST", f"/events/{event}/standings/publish/", {"change": change})
        if self.standings_codes and rng.random() < 0.3:
            self.send("GET", f"/events/standings/{rng.choice(self.standings_codes)}/")
        entries = [*self.entries.get(event, []), 0]
        if rng.random() < 0.3:
            self.send("GET", f"/events/{event}/players/{rng.choice(entries)}/history/")

    def print_and_jobs(self, everyone: list[Browser]) -> None:
        """Start the event's print jobs, then read the jobs pages (and others' jobs)."""
        rng = self.rng
        choice = rng.randrange(3) if self.jobs else 0
        if choice == 0:
            event = self.some_event(everyone)
            start = urllib.parse.urlencode({"from": rng.choice(["1", "2", *HOSTILE_NUMBERS])})
            path = rng.choice(
                [
                    "rosters.pdf",
                    f"rosters.pdf?{start}",
                    "event.pdf",
                    "lists.zip",
                    "lists.csv",
                    f"rounds/{rng.choice([1, 2, 9])}/sheets.pdf",
                    f"rounds/1/sheets.pdf?{start}",
                ]
            )
            self.send("GET", f"/events/{event}/{path}")
            return
        others = [j for b in everyone if b is not self for j in b.jobs]
        job = self.some_id(self.jobs, others) if rng.random() < 0.3 else str(self.jobs[-1])
        if choice == 1:
            path = rng.choice(
                ["/jobs/", f"/jobs/{job}/", f"/jobs/{job}/status.json", f"/jobs/{job}/download"]
            )
            self.send("GET", path, htmx=rng.random() < 0.3)
            if rng.random() < 0.2:
                self.send("GET", f"/jobs/{job}/?refresh=1", htmx=True)
        else:
            self.send("POST", f"/jobs/{job}/{rng.choice(['restart', 'cancel'])}/")

    def typed_pairings(self, everyone: list[Browser]) -> None:
        """Pairings typed in with hostile row counts, a CSV import, tables for a round."""
        rng = self.rng
        event = self.some_event(everyone)
        number = rng.choice([1, 2, 3, 11])
        choice = rng.randrange(3)
        if choice == 0:
            names = self.player_names(everyone)
            fields: dict[str, Any] = {
                "rows": rng.choice(HOSTILE_NUMBERS),
                "version": self.round_version(event, number),
            }
            for index in range(rng.choice([1, 2, 3])):
                fields[f"a-{index}"] = rng.choice(names)
                fields[f"b-{index}"] = rng.choice(names)
                fields[f"table-{index}"] = rng.choice(["1", "2", *HOSTILE_NUMBERS])
            self.send("POST", f"/events/{event}/rounds/{number}/pairings/", fields)
        elif choice == 1:
            names = self.player_names(everyone)
            lines = ["round,table,player_a,player_b"] + [
                ",".join(
                    [
                        rng.choice(["1", "2", *HOSTILE_NUMBERS]),
                        rng.choice(["1", *HOSTILE_NUMBERS]),
                        rng.choice(names),
                        rng.choice(names),
                    ]
                )
                for _ in range(rng.randint(0, 4))
            ]
            self.send("GET", f"/events/{event}/pairings/import/")
            self.send("POST", f"/events/{event}/pairings/import/", {"pairings": "\n".join(lines)})
        else:
            source = rng.choice(["pack", "tables", "none", "x"])
            fields = {"source": source, "version": self.round_version(event, number)}
            if source == "pack":
                fields["pack"] = rng.choice([*map(str, self.packs[-3:]), *HOSTILE_NUMBERS])
            elif source == "tables":
                fields["tables"] = [str(t) for t in self.tables[-3:]] + [rng.choice(NUMBERS)]
            self.send("POST", f"/events/{event}/rounds/{number}/tables/", fields)

    def nul_codes(self, everyone: list[Browser]) -> None:
        """A NUL byte (and other junk) in every code of an address: 404, never 500."""
        rng = self.rng
        code = rng.choice(NUL_CODES)
        event = self.some_event(everyone, joined=rng.random() < 0.5)
        path = rng.choice(
            [
                f"/s/{code}/",
                f"/s/{code}/roster.pdf",
                f"/s/{code}/copy/",
                f"/t/{code}/",
                f"/t/{code}/table.png",
                f"/t/{code}/table.json",
                f"/t/{code}/setup.pdf",
                f"/t/{code}/copy/",
                f"/p/{code}/",
                f"/p/{code}/pack.pdf",
                f"/events/join/{code}/",
                f"/events/{event}/lists/{code}/",
                f"/events/standings/{code}/",
                f"/events/{code}/",
                f"/tables/packs/{code}/",
                f"/jobs/{code}/",
                f"/forces/{code}/",
                f"/accounts/reset/{code}/{code}/",
            ]
        )
        method = "POST" if path.endswith(("copy/", "/join/")) or rng.random() < 0.2 else "GET"
        self.send(method, path)
        if self.direct:
            # nginx answers a NUL in a path with its own 400: the site must answer it too.
            self.send_direct(method, path)
        if rng.random() < 0.3:
            # ... and in form fields that name a record.
            self.send(
                "POST",
                f"/events/{event}/me/submit/",
                {"force": rng.choice(["1\x00", "\x00", "%00"])},
            )

    def packs_case(self, everyone: list[Browser]) -> None:
        """Packs: make one (small, mostly), share it, read its tables, copy and replace."""
        rng = self.rng
        others = [p for b in everyone if b is not self for p in b.packs]
        if not self.packs or rng.random() < 0.15:
            box = self.box_counts() if self.boxes and rng.random() < 0.3 else ""
            self.send(
                "POST",
                "/tables/packs/new/",
                {
                    "name": rng.choice(["Club night", hostile_text(rng)]),
                    "count": rng.choice(["2", "3", "8", "1", *HOSTILE_NUMBERS]),
                    "seed": rng.choice([str(rng.randrange(10**6)), *HOSTILE_NUMBERS]),
                    "coverage": rng.choice(["0.45", "0.45", "2", "NaN"]),
                    "symmetry": rng.choice(["point", "mirror", "none"]),
                    "mix": "balanced",
                    "box": box,
                },
            )
            return
        pack = self.some_id(self.packs, others) if rng.random() < 0.2 else str(self.packs[-1])
        choice = rng.randrange(8)
        table = rng.choice(["1", "2", *HOSTILE_NUMBERS])
        if choice == 0:
            query = urllib.parse.urlencode({"page": rng.choice(HOSTILE_NUMBERS)})
            self.send("GET", f"/tables/packs/{pack}/?{query}")
        elif choice == 1:
            change = rng.choice(["on", "on", "off", "new", "x"])
            self.send("POST", f"/tables/packs/{pack}/sharing/", {"change": change})
        elif choice == 2:
            query = urllib.parse.urlencode({"table": table})
            self.send("GET", f"/tables/packs/{pack}/table/?{query}")
        elif choice == 3:
            self.send("POST", f"/tables/packs/{pack}/copy/", {"table": table})
        elif choice == 4:
            copy = rng.choice(self.tables[-3:] or [0])
            self.send(
                "POST",
                f"/tables/packs/{pack}/replace/",
                {
                    "table": table,
                    "copy": rng.choice([str(copy), *HOSTILE_NUMBERS]),
                    "version": self.versions.get(f"/tables/{copy}/", 0),
                    "key": rng.choice(["", "x" * 64, hostile_text(rng)]),
                },
            )
        elif choice == 5:
            self.send("GET", f"/tables/packs/{pack}/{rng.choice(['pack.pdf', 'pack.zip'])}")
        elif choice == 6:
            codes = [c for b in everyone for c in b.codes] + ["x"]
            code = rng.choice(codes)
            self.send("GET", rng.choice([f"/p/{code}/", f"/p/{code}/pack.pdf"]))
        elif rng.random() < 0.2:
            self.send("POST", f"/tables/packs/{pack}/{rng.choice(['delete', 'repair'])}/")

    def box_counts(self) -> str:
        """One of this browser's boxes as the generator's counts (read from its box.json)."""
        box = self.rng.choice(self.boxes[-3:])
        status, content = self.send("GET", f"/tables/boxes/{box}/box.json")
        if status != 200:
            return "crates:2"
        try:
            pieces = json.loads(content).get("pieces", {})
        except ValueError:
            return "crates:2"
        return ",".join(f"{piece}:{count}" for piece, count in pieces.items())

    def box_generation(self, everyone: list[Browser]) -> None:
        """Make a terrain box from sound counts, and generate (and save) tables from it."""
        rng = self.rng
        if not self.boxes or rng.random() < 0.2:
            counts = {
                "count-building-6": rng.choice(["1", "2", "0"]),
                "count-wall-3": rng.choice(["4", "6"]),
                "count-crates": rng.choice(["4", "8", "12"]),
                "count-hill-7": rng.choice(["0", "1"]),
                "count-shack-3": rng.choice(["0", "2", *HOSTILE_NUMBERS]),
            }
            self.send("POST", "/tables/boxes/new/", {"name": f"Box {rng.randrange(100)}"} | counts)
            return
        fields = {
            "seed": rng.choice([str(rng.randrange(10**6)), *HOSTILE_NUMBERS]),
            "coverage": rng.choice(["0.3", "0.45", "0.6"]),
            "symmetry": rng.choice(["point", "mirror", "none"]),
            "mix": "balanced",
            "box": self.box_counts(),
        }
        if rng.random() < 0.6:
            self.send("GET", "/tables/new/?" + urllib.parse.urlencode(fields))
        else:
            self.send("POST", "/tables/save/", fields | {"name": "From the box"})

    def count(
        self, method: str, path: str, status: int, start: float, outcome: str, how: str = ""
    ) -> None:
        """One answer in the figures: its status class, its route's outcome, the slowest."""
        elapsed = time.perf_counter() - start
        if elapsed > self.slowest[0]:
            self.slowest = (elapsed, f"{method} {path}{how}")
        self.stats[f"{status // 100}xx"] += 1
        self.stats["requests"] += 1
        route = ROUTE_NUMBER.sub("/N", urllib.parse.urlsplit(path).path)
        self.routes[f"{method} {route}{how}"][outcome] += 1

    def send_direct(self, method: str, path: str) -> None:
        """The request straight to gunicorn's socket (as nginx passes it on: the address it
        saw in X-Forwarded-For), with this browser's cookies."""
        cookies = "; ".join(f"{c.name}={c.value}" for c in self.jar)
        headers = {
            "Host": urllib.parse.urlsplit(self.base).netloc,
            "Cookie": cookies,
            "X-CSRFToken": self.csrf(),
            "Referer": self.base + "/",
            "X-Forwarded-For": "127.0.0.1",
        }
        connection = UnixConnection(self.direct)
        start = time.perf_counter()
        try:
            connection.request(
                method, path, body=b"" if method == "POST" else None, headers=headers
            )
            status = connection.getresponse().status
        except (OSError, http.client.HTTPException) as error:
            status = 599
            path += f" ({error})"
        finally:
            connection.close()
        self.count(method, path, status, start, str(status), " (direct)")
        if status >= 500:
            self.failures.append(f"{status} {method} {path} straight to gunicorn")

    def send_declared_oversize(self) -> None:
        parsed = urllib.parse.urlsplit(self.base)
        connection = http.client.HTTPConnection(parsed.hostname, parsed.port or 80, timeout=30)
        try:
            connection.putrequest("POST", "/account/import/")
            connection.putheader("Content-Type", "multipart/form-data; boundary=x")
            connection.putheader("Content-Length", str(2**30))
            connection.endheaders()
            connection.send(b"--x\r\n" * 100)
            status = connection.getresponse().status
        except (OSError, http.client.HTTPException):
            status = 413  # the server may close the connection once it has answered
        finally:
            connection.close()
        self.stats[f"{status // 100}xx"] += 1
        self.stats["requests"] += 1
        if status >= 500:
            self.failures.append(f"{status} POST /account/import/ with a declared 1 GiB body")

    def read_back_everything(self) -> None:
        """Every page and download of everything this browser owns answers below 500."""
        for path in ("/forces/", "/tables/", "/account/", "/account/everything.json"):
            self.send("GET", path)
        for force in self.forces[-6:]:
            for suffix in ("", "roster/", "roster.pdf", "cards.pdf", "export.json", "roster.txt"):
                self.send("GET", f"/forces/{force}/{suffix}")
        for table in self.tables[-4:]:
            for suffix in ("", "?mode=sightlines", "table.json", "table.png", "setup.pdf"):
                self.send("GET", f"/tables/{table}/{suffix}")
        self.send("GET", "/tables/boxes/")
        for box in self.boxes[-4:]:
            for suffix in ("", "box.json"):
                self.send("GET", f"/tables/boxes/{box}/{suffix}")
        for pack in self.packs[-3:]:
            for suffix in ("", "table/?table=1", "pack.pdf", "pack.zip"):
                self.send("GET", f"/tables/packs/{pack}/{suffix}")
        for code in self.codes[-3:]:
            self.send("GET", f"/p/{code}/")
        self.send("GET", "/events/")
        for event in self.organized[-3:]:
            for suffix in (
                "",
                "edit/",
                "swiss/",
                "join-qr.svg",
                "lists.csv",
                "rosters.pdf",
                "event.pdf",
                "lists.zip",
                "standings/",
                "standings.csv",
                "standings.json",
                "standings.pdf",
                "pairings/import/",
                "rounds/",
            ):
                self.send("GET", f"/events/{event}/{suffix}")
            for number in (1, 2, 3):
                for suffix in ("", "pairings.json", "sheets.pdf"):
                    self.send("GET", f"/events/{event}/rounds/{number}/{suffix}")
            for entry in self.entries.get(event, [])[:4]:
                self.send("GET", f"/events/{event}/players/{entry}/history/")
        for event in self.joined[-3:]:
            for suffix in ("me/", "rounds/", "lists/", "standings/", "standings.json"):
                self.send("GET", f"/events/{event}/{suffix}")
        for event, code in self.snapshots[-4:]:
            self.send("GET", f"/events/{event}/lists/{code}/")
        for code in self.standings_codes[-2:]:
            self.send("GET", f"/events/standings/{code}/")
        self.send("GET", "/jobs/")
        for job in self.jobs[-6:]:
            for suffix in ("", "status.json", "download"):
                self.send("GET", f"/jobs/{job}/{suffix}")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--base", default="http://127.0.0.1:8000")
    parser.add_argument("--cases", type=int, default=2000)
    parser.add_argument("--seconds", type=float, default=600)
    parser.add_argument("--browsers", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--direct",
        default="",
        help="gunicorn's Unix socket behind `make serve`'s nginx (/tmp/onefinity-serve-*/"
        "gunicorn.sock): a NUL in a path, which nginx refuses itself, is sent there too",
    )
    parser.add_argument(
        "--routes",
        action="store_true",
        help="also print the answers per route, by status ('login': sent to log in)",
    )
    args = parser.parse_args()
    host = urllib.parse.urlsplit(args.base).hostname
    if host not in ("127.0.0.1", "localhost", "::1"):
        print("only loopback addresses: this is for the project's own server", file=sys.stderr)
        return 2
    Browser.direct = args.direct
    rng = random.Random(args.seed)
    stats: Counter[str] = Counter()
    failures: list[str] = []
    routes: dict[str, Counter[str]] = defaultdict(Counter)
    browsers = [
        Browser(args.base, random.Random(rng.random()), stats, failures, routes)
        for _ in range(args.browsers)
    ]
    for number, browser in enumerate(browsers):
        if number % 4:  # three of four have an account: they organize events and play
            browser.sign_up()
        browser.start()
    deadline = time.monotonic() + args.seconds
    cases = 0
    while cases < args.cases and time.monotonic() < deadline:
        browser = browsers[cases % len(browsers)]
        browser.case(browsers)
        cases += 1
        if cases % 150 == 0:
            for each in browsers:
                each.read_back_everything()
    for each in browsers:
        each.read_back_everything()
    slowest = max(b.slowest for b in browsers)
    summary = {
        "cases": cases,
        "requests": stats["requests"],
        "answers": {k: v for k, v in sorted(stats.items()) if k.endswith("xx")},
        "server_errors": len(failures),
        "slowest_request": {"seconds": round(slowest[0], 2), "request": slowest[1]},
    }
    print(json.dumps(summary, indent=2))
    if args.routes:
        for route, answers in sorted(routes.items()):
            print(f"{route}: " + ", ".join(f"{k} x{v}" for k, v in sorted(answers.items())))
    for failure in failures[:50]:
        print(failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
