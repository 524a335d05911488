"""Every number a form reads is bounded before it is used: each field of each form on every
page an organizer and player reaches gets huge, zero-padded, negative and non-ASCII numbers,
and every answer is below 500 within a few seconds of the processor's time.

The typed pairings form read the first four characters of ``rows`` and then looped over all
of them: ``rows=0001000000`` held a thread for 42 s, and longer zero-padded values for ever.
"""

from __future__ import annotations

import contextlib
import re
import signal
from collections.abc import Iterator
from html.parser import HTMLParser
from urllib.parse import parse_qsl, urlencode, urljoin, urlsplit

import pytest
from django.test import Client
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from events.models import Event
from tests.conftest import examples
from tests.events.conftest import make_event
from tests.events.conftest import make_force as make_event_force
from tests.factories import make_box, make_force, make_pack, make_table

pytestmark = pytest.mark.django_db

# A request is given this much of the processor's time (not of the clock, so a busy machine
# does not trip it) before the test calls it unbounded. The heaviest form (generating a table)
# has a 5 s budget of its own; the loop this guards against ran for minutes to ever.
CPU_SECONDS = 20

# Pages not to follow: downloads (no forms) and leaving.
SKIP = re.compile(r"\.(pdf|png|svg|zip|csv|json|txt)$|/logout/|everything\.json")


class _Forms(HTMLParser):
    """The links and the POST forms of a page: each form's action and fields with the
    values the page gave them, one variant per named submit button."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.forms: list[dict] = []
        self._form: dict | None = None
        self._select: str | None = None
        self._textarea: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {k: v or "" for k, v in attrs}
        if tag == "a" and found.get("href", "").startswith("/"):
            self.links.append(found["href"])
        elif tag == "form":
            self._form = {
                "action": found.get("action", ""),
                "method": found.get("method", "get").lower(),
                "fields": {},
                "buttons": [],
            }
            self.forms.append(self._form)
        elif self._form is None:
            return
        elif tag == "input" and found.get("name"):
            kind = found.get("type", "text")
            if kind in ("submit", "image"):
                self._form["buttons"].append((found["name"], found.get("value", "")))
            elif kind not in ("checkbox", "radio") or "checked" in found:
                self._form["fields"].setdefault(found["name"], found.get("value", ""))
            else:
                self._form["fields"].setdefault(found["name"], "")
        elif tag == "button" and found.get("name"):
            self._form["buttons"].append((found["name"], found.get("value", "")))
        elif tag == "select" and found.get("name"):
            self._select = found["name"]
            self._form["fields"].setdefault(self._select, "")
        elif tag == "option" and self._select:
            fields = self._form["fields"]
            if not fields[self._select] or "selected" in found:
                fields[self._select] = found.get("value", "")
        elif tag == "textarea" and found.get("name"):
            self._textarea = found["name"]
            self._form["fields"].setdefault(self._textarea, "")

    def handle_data(self, data: str) -> None:
        if self._form is not None and self._textarea:
            self._form["fields"][self._textarea] += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._form = None
        elif tag == "select":
            self._select = None
        elif tag == "textarea":
            self._textarea = None


def crawl(client: Client, starts: list[str], most: int = 150) -> list[tuple[str, dict]]:
    """Visit pages from ``starts`` by their links (at most ``most``); every POST form found,
    once per action and set of fields, as (action URL, fields with a submit button's)."""
    seen: set[tuple] = set()
    queue = list(starts)
    forms: dict[tuple, tuple[str, dict]] = {}
    while queue and len(seen) < most:
        url = queue.pop(0)
        parts = urlsplit(url)
        # A page once per address and set of query keys: the editor links every hex.
        page_key = (parts.path, tuple(sorted(key for key, _ in parse_qsl(parts.query))))
        if page_key in seen or SKIP.search(parts.path):
            continue
        seen.add(page_key)
        response = client.get(url)
        assert response.status_code < 500, url
        if "html" not in response.get("Content-Type", ""):
            continue
        page = _Forms()
        page.feed(response.content.decode())
        queue.extend(page.links)
        for form in page.forms:
            action = urljoin(url, form["action"]) if form["action"] else url
            if form["method"] != "post":
                queue.append(f"{urlsplit(action).path}?{urlencode(form['fields'])}")
                continue
            for button in form["buttons"] or [None]:
                fields = dict(form["fields"])
                if button:
                    fields[button[0]] = button[1]
                key = (urlsplit(action).path, tuple(sorted(fields)), button)
                forms.setdefault(key, (action, fields))
    return list(forms.values())


@contextlib.contextmanager
def bounded_work(what: str) -> Iterator[None]:
    def over(signum: int, frame: object) -> None:
        raise AssertionError(f"{what}: over {CPU_SECONDS} s of the processor's time")

    previous = signal.signal(signal.SIGPROF, over)
    signal.setitimer(signal.ITIMER_PROF, CPU_SECONDS)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


hostile_numbers = st.one_of(
    st.integers(min_value=10**6, max_value=10**40).map(str),
    st.tuples(st.integers(1, 5_000), st.integers(0, 10**12)).map(lambda t: "0" * t[0] + str(t[1])),
    st.integers(max_value=-1).map(str),
    st.tuples(st.integers(1, 60), st.integers(1, 10**6)).map(
        lambda t: "-" + "0" * t[0] + str(t[1])
    ),
    st.sampled_from(
        [
            "\u0663",  # ARABIC-INDIC DIGIT THREE: int() reads it as 3
            "\u0661" + "\u0660" * 6,  # a million in Arabic-Indic digits
            "\uff11\uff12\uff18",  # 128 in full-width digits
            "\u00b2",  # superscript two
            "\U0001d7d7\U0001d7d7",  # mathematical bold 99
            "1_000_000",
            " 12 ",
            "+5",
            "1e6",
            "0x10",
            "NaN",
            "inf",
            "-0",
            "0" * 4_300 + "1",
            "9" * 4_301,
            "12\x00",
            "\x00",  # PostgreSQL refuses a NUL in a query: a 500 unless stopped first
            "",
            "00000000",
            "0001000000",
            "000" + "9" * 30,
        ]
    ),
)


@pytest.fixture
def pages(owner, django_user_model):
    """An organizer who also builds: a list, a table, a pack, a terrain box, and an event
    with a player, rounds, tables and pairings; and the player's own view of it."""
    player = django_user_model.objects.create_user("player", "p@example.com", "a-long-phrase")
    force, table, pack, box = (
        make_force(owner),
        make_table(owner),
        make_pack(owner),
        make_box(owner),
    )
    event: Event = make_event(owner)
    event.join(player).submit(make_event_force(player), accept_problems=False)
    event.join(owner).submit(make_event_force(owner, "Own list"), accept_problems=False)
    organizer, guest = Client(), Client()
    organizer.force_login(owner)
    guest.force_login(player)
    starts = [
        "/",
        "/forces/",
        f"/forces/{force.pk}/",
        "/tables/",
        f"/tables/{table.pk}/",
        "/tables/new/",
        "/tables/new/?seed=7&coverage=0.45&symmetry=mirror&mix=balanced&box=",
        "/tables/empty/",
        f"/tables/packs/{pack.pk}/",
        "/tables/packs/new/",
        f"/tables/boxes/{box.pk}/",
        "/account/",
        "/accounts/password_change/",
        "/events/",
        f"/events/{event.pk}/",
        f"/events/{event.pk}/rounds/1/",
        f"/events/{event.pk}/me/",
    ]
    return [(organizer, form) for form in crawl(organizer, starts)] + [
        (guest, form) for form in crawl(guest, [f"/events/{event.pk}/me/", "/forces/"], most=20)
    ]


def test_the_crawl_finds_the_forms_that_read_numbers(pages):
    actions = {urlsplit(action).path for _, (action, _) in pages}
    assert len(actions) >= 25
    named = {name for _, (_, fields) in pages for name in fields}
    for field in (
        "rows",
        "version",
        "points_limit",
        "seed",
        "coverage",
        "count-crates",
        "q",
        "table",
    ):
        assert field in named, field


# Forms that end what the others need (deleting, leaving) go last.
def _last(item: tuple) -> bool:
    return bool(re.search(r"/(delete|leave|withdraw|remove)/", item[1][0]))


@settings(
    max_examples=examples(4),
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
@example(data=None)
def test_every_form_field_bounds_the_numbers_it_reads(pages, data):
    for client, (action, fields) in sorted(pages, key=_last):
        for name in fields:
            if name == "csrfmiddlewaretoken":
                continue
            # The red team's: a million, its first four characters '0001'; here 10**15.
            value = "0001" + "0" * 15 if data is None else data.draw(hostile_numbers)
            with bounded_work(f"POST {action} {name}={value[:30]!r}"):
                response = client.post(action, {**fields, name: value})
            assert response.status_code < 500, (action, name, value[:30])
